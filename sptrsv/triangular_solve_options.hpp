// Options of a TriangularSolver (triangular_solver.hpp): where solves run and with which scheme,
// where the analysis runs, the CPU modes, the split, and inline solves.
#pragma once
#include <cstdint>
#include <string>

#include "sparse/types.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/cpu_solve.hpp"
#include "sptrsv/scheme_selection.hpp"
#include "sptrsv/solve_device.hpp"
#include "sptrsv/split_options.hpp"

namespace hetsparse::sptrsv {

// Where analyze() analyses a host CSR: Gpu = on the GPU (uploaded, kernels::DeviceAnalysis) when
// solves go to CUDA workers (device Auto or Gpu, no split, serial CPU mode) and the scheme can be
// prepared from it (auto with a trained model, or a plain variant, cusparse, clusterlevels,
// powK:clusterlevels, wavefront), else on the host; Auto = the same, but a triangle small enough
// that the host analyses it sooner than the GPU's fixed costs (kHostAnalysisMaxRows and
// kHostAnalysisMaxEntries) on the host; Host = always on the host (TriangularPattern).
enum class AnalysisPlace { Auto, Host, Gpu };
AnalysisPlace parse_analysis_place(const std::string& name);  // auto, host, gpu; InvalidArgument else

// Auto's size rule: up to this many rows and stored entries the host analysis (with the matrix's
// upload) beats the GPU analysis, whose launches and synchronizations cost a fixed fraction of a
// millisecond; above either the GPU wins (docs/benchmarks.md, issue 16, twenty-fourth session).
constexpr index_t kHostAnalysisMaxRows = 4000;
constexpr std::int64_t kHostAnalysisMaxEntries = 45000;

struct TriangularSolveOptions {
  // Where solves run (solve_device.hpp): auto = a CUDA worker when there is one, else the CPUs. Solves
  // with nrhs > 1 or transposed always run on a CPU worker (the CUDA schemes solve one right-hand side
  // with T).
  SolveDevice device = SolveDevice::Auto;
  // The scheme for solves placed on a CUDA worker: a kernels::gpu_variants() name, "cusparse",
  // "ag:key=val,..." (kernels::parse_ag_scheme), or "auto" (see TriangularSolver::analyze). Solves
  // on CPU workers always use serial substitution.
  std::string variant = "auto";
  // How "auto" chooses: Default = the trained model when one exists for this GPU, else a search.
  SelectMode select = SelectMode::Default;
  // Selection store and calibration files (selection_store.hpp); "" = $STARPU_PERF_MODEL_DIR, else
  // ~/.cache/hetsparse/perfmodels. Pass rt::Runtime::options().perfmodel_dir to follow the runtime.
  std::string perfmodel_dir;
  // Replace analysis.fusion_threshold by this GPU's calibrated one when the store has it.
  bool calibrated_fusion_threshold = true;
  std::string matrix_name;  // recorded in the search's timing table
  // Solves expected with this pattern: "auto" weighs a scheme's preparation against them
  // (SelectionOptions::expected_solves).
  int expected_solves = 100;
  AnalysisOptions analysis;
  AnalysisPlace analysis_place = AnalysisPlace::Auto;
  // Solves that run on CPU workers only (device Cpu, a build without CUDA, nrhs > 1): serial
  // substitution in one task, one parallel task, or per-level tasks (cpu_solve.hpp). T^T solves
  // always use serial substitution; with device Any, single right-hand-side solves stay one
  // `sptrsv` task the scheduler places.
  CpuMode cpu_mode = CpuMode::Serial;
  // Smallest share of a level, in stored entries times nrhs; 0: the mode's default.
  std::int64_t cpu_min_entries = 0;
  // level-tasks: shares per big level; 0: the StarPU runtime's CPU workers (2 on another runtime).
  int cpu_chunks = 0;
  // parallel-task as a STARPU_FORKJOIN task (its function starts the threads) instead of SPMD; for
  // comparisons (bench_sptrsv_cpu).
  bool cpu_fork_join = false;
  // Split execution (split_solver.hpp): off; auto, where the split model decides between a split
  // and a unified solve (with device Auto, a unified CPU decision sends the solves to the CPUs);
  // or a split policy forced. Transposed solves never split.
  SplitOptions split;
  // Synchronous solves bound to a GPU (solve() on host vectors or on handles) run in the calling thread
  // on the GPU (TaskRuntime::run_inline: the vectors acquired there, the kernel on the thread's stream,
  // no task and no worker's round trip); false: as tasks, which traces show. submit() is always a task.
  bool inline_solves = true;
};

}  // namespace hetsparse::sptrsv
