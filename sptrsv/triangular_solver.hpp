// Sparse triangular solver on the StarPU runtime: analyse a triangular matrix once
// (sptrsv::TriangularPattern), then solve T X = B or T^T X = B as one `sptrsv` task per solve,
// on a CPU worker (serial substitution) or a CUDA worker (a scheme: a GPU variant, cuSPARSE or an
// AG-SpTRSV code variant, see prepared_scheme.hpp), chosen by name or by "auto" (scheme_selection.hpp).
// Solves bound to CPU workers may instead be level-scheduled over them (options.cpu_mode).
//
//   sptrsv::TriangularSolver s(runtime);
//   s.analyze(L, Triangle::Lower, /*unit_diagonal=*/false, {});
//   s.solve(b.data(), x.data());
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"
#include "sparse/types.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/cpu_solve.hpp"
#include "sptrsv/device_input.hpp"
#include "sptrsv/features.hpp"
#include "sptrsv/host_solve_place.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/scheme_selection.hpp"
#include "sptrsv/solve_device.hpp"
#include "sptrsv/split_options.hpp"
#include "sptrsv/triangular_solve_options.hpp"

namespace hetsparse::sptrsv {

class SplitSolver;  // split_solver.hpp

class TriangularSolver {
 public:
  explicit TriangularSolver(rt::TaskRuntime& runtime);
  ~TriangularSolver();
  TriangularSolver(const TriangularSolver&) = delete;
  TriangularSolver& operator=(const TriangularSolver&) = delete;

  // Analyses T (StructureError / InvalidArgument as TriangularPattern), picks the scheme and
  // registers the matrix with the runtime. InvalidArgument naming an unknown scheme, and for a
  // named scheme or device Cuda in a build without CUDA. A second call replaces the first.
  // With CUDA workers the analysis may run on the GPU (options.analysis_place: T uploaded, analysed
  // there, its arrays registered there); a T not already normalised is analysed on the host.
  //
  // variant "auto": select_scheme (search or model, options.select) unless the device is Cpu or the
  // runtime has no CUDA worker; with no GPU to time on, the fixed heuristic. Plain variants solve on the StarPU buffers; cusparse and
  // ag schemes are prepared lazily, once per CUDA worker, on that worker's first solve (WorkerSchemes:
  // the worker keeps its own device copy and plan), so warm up once per worker before timing.
  void analyze(const Csr& T, Triangle tri, bool unit_diagonal, const TriangularSolveOptions& options = {});
  // The same for a triangle already in the memory of CUDA device `cuda_device` (only read during the
  // call; T.upper is set from tri). The analysis runs there (kernels::DeviceAnalysis: no pass over
  // the entries on the host) and the matrix handles live there: StarPU copies them to a CPU worker
  // only when a solve goes to one. A matrix that is not a valid, normalised triangle is downloaded
  // and analysed on the host instead, which normalises it or names the faulty entry. "auto" takes
  // the trained model's pick among the unpowered schemes (no model: the fixed heuristic);
  // SelectMode::Search, schemes prepared on the host (cusparse, ag, powK) and the CPU level modes
  // build the host pattern from a download when first needed. InvalidArgument without CUDA, without
  // a CUDA worker on that device, and from update_values (analyze again instead).
  void analyze_device(kernels::DeviceCsrView T, int cuda_device, Triangle tri, bool unit_diagonal,
                      const TriangularSolveOptions& options = {});
  // The last analyze ran on the GPU (analyze_device with valid, normalised input).
  bool analysed_on_device() const { return static_cast<bool>(device_); }
  // New values for the analysed pattern (TriangularPattern::update_values); the values are
  // registered again, the structure is kept.
  void update_values(const Csr& T);
  // X = T^-1 B (or T^-T B): b and x are n x nrhs, column-major with leading dimension n; x may be b.
  // Registers b and x for the call, submits the solve and waits for it; task errors are rethrown here.
  // A single-vector solve that host_solves_on_cpu() sends to a CPU worker reads b and writes x in
  // place, in its task (no registration). A small single-vector solve that goes to a GPU copies b
  // and x through pinned buffers the solver keeps instead (a pageable copy's fixed cost is of the
  // order of a small kernel's): in the calling thread with inline_solves(), else in its one task on
  // its stream for a prepared scheme (stages_in_task), else registered once. Calls on one solver are
  // then serialised. With inline_solves(), larger single vectors are registered and solved inline.
  void solve(const double* b, double* x, int nrhs = 1, bool transpose = false);
  // x = T^-1 b on vectors the runtime already holds, done when it returns (x's handle then holds the
  // result, wherever it was written): for a caller that needs x at once. b and x as submit()'s. On a
  // GPU with inline_solves(), the call acquires b and x on the GPU (after the tasks submitted on them so
  // far) and solves there from this thread, without a task; otherwise it is submit() and a wait for
  // every task of the runtime. InvalidArgument when b and x are one handle.
  void solve(rt::HandleId b, rt::HandleId x);
  // Whether synchronous single-vector solves on a GPU run in the calling thread (the option
  // inline_solves, solves bound to a CUDA worker, no split, a runtime that can).
  bool inline_solves() const;
  // x = T^-1 b on vectors the runtime already holds (n doubles each, registered by the caller, e.g.
  // with VectorDesc::cuda_device to keep them on a GPU): the path of an iterative solver. Submits the
  // solve and returns; the runtime orders it after earlier tasks on b and x, and wait_all() (or
  // unregistering x) waits for it. No registration, and no copy where b and x already are where the
  // task runs. InvalidArgument when b and x are one handle.
  void submit(rt::HandleId b, rt::HandleId x);
  // The same for n x nrhs handles (a split's parts; on CUDA workers only when nrhs is 1).
  void submit(rt::HandleId b, rt::HandleId x, int nrhs);

  const TriangularFeatures& features() const;
  // The scheme solves placed on a CUDA worker use or, when the device is Cpu, the build has no CUDA
  // variants or the runtime no CUDA worker, "cpu_serial", "cpu_parallel_task" or "cpu_level_tasks"
  // (options.cpu_mode).
  const std::string& chosen_variant() const { return variant_; }
  // Whether solve()'s small one-column solves copy b and x themselves, through pinned buffers the
  // solver keeps: inline (inline_solves()), or inside their CUDA task (a prepared scheme on a CUDA
  // worker, no split); otherwise they go through those buffers registered as handles, which the
  // runtime moves before and after the task.
  bool stages_in_task() const;
  // Whether solve()'s single-vector, untransposed solves run as serial substitution on a CPU worker,
  // b and x read and written by the task in place: the device is Cpu (or the runtime has no CUDA
  // worker) with the serial CPU mode, or it is Auto and host_solve_placement() chose the CPU.
  bool host_solves_on_cpu() const;
  // With device Auto and solves bound to a GPU: the cost model's choice for solve() on host vectors
  // (host_solve_place.hpp), made at analysis; all zero otherwise. submit() is not affected.
  const HostSolvePlacement& host_solve_placement() const { return host_place_; }
  // How "auto" chose (how == "" for a named scheme or a CPU-only solver).
  const Selection& selection() const { return selection_; }
  double analysis_seconds() const;  // of the last analyze: TriangularPattern's or the GPU analysis
  // Everything a solve did not pay for: analysis + selection + the scheme preparations done so far
  // (cusparse / ag: one per CUDA worker that has solved).
  double preprocess_seconds() const;
  // The same by step: analysis.* (host: normalise, levels, level_copy, segments, features; GPU:
  // upload, gpu; a host pattern built later from a download: host_pattern), selection, prepare.*
  // (the scheme's parts, summed over the workers), split.
  PreparationSteps preprocess_steps() const;
  // Sizes of the analysed matrix (no host pattern needed).
  index_t rows() const { return shape().n; }
  std::int64_t nnz() const { return shape().nnz; }
  index_t num_levels() const { return shape().num_levels; }
  // The host analysis (after a GPU analysis: built from a download on first use).
  const TriangularPattern& pattern() const;
  // The per-level task planner of the last level-tasks solve (null before one).
  const LevelTaskPlanner* level_tasks() const { return level_tasks_.get(); }
  // The split model's structure and decision, and the split when one runs (null with split off).
  const SplitSolver* split() const { return split_.get(); }

 private:
  struct Handles;
  // What a solve needs to know of the analysed matrix, from the host pattern or the GPU analysis.
  struct Shape {
    index_t n = 0, num_levels = 0, num_segments = 0, num_level_segments = 0;
    bool upper = false, level_copy = false;
    std::int64_t nnz = 0;
    const index_t* level_ptr = nullptr;  // host, num_levels + 1
    const std::int64_t* level_nnz = nullptr;
  };
  Shape shape() const;
  // Takes over one analysis (the host pattern or the GPU one, the other null) with its options, then
  // chooses the scheme and registers the matrix.
  // host_input: device is analyze()'s GPU analysis of a host CSR.
  void install(std::unique_ptr<TriangularPattern> pattern, std::unique_ptr<DeviceAnalysed> device,
               const AnalysisOptions& analysis, Triangle tri, bool unit_diagonal, const TriangularSolveOptions& options,
               bool gpu, bool host_input);
  // install's first half: releases the previous analysis and takes over this one's state.
  void adopt(std::unique_ptr<TriangularPattern> pattern, std::unique_ptr<DeviceAnalysed> device,
             const AnalysisOptions& analysis, Triangle tri, bool unit_diagonal, const TriangularSolveOptions& options,
             bool gpu);
  void choose_scheme(const TriangularSolveOptions& options);
  void prepare_scheme();  // the chosen scheme's variant index, or its per-worker preparation
  // Split hook (triangular_solver_split.cpp): with options.split on, the split model's decision; a
  // split makes split_ active, a unified CPU decision narrows the device (device Auto only).
  void choose_split(const TriangularSolveOptions& options);
  // The split model's measured tie-break (triangular_solver_measure.cpp): times the candidates, each
  // a solver over a copy of this analysis running one policy, and returns the measurement; when the
  // pick is a split, its SplitSolver (built with `decision`'s predictions) lands in `split`.
  planners::SplitMeasurement measure_split(const TriangularSolveOptions& options, const planners::SplitStructure& structure,
                                           const planners::SplitMachine& machine, const planners::SplitDecision& decision,
                                           const std::vector<planners::SplitPolicy>& candidates, const std::string& source,
                                           double decide_seconds, std::unique_ptr<SplitSolver>& split);
  // One candidate of the tie-break: a copy of this analysis solved by `policy` (decision: its split).
  std::unique_ptr<TriangularSolver> make_candidate(planners::SplitPolicy policy, const planners::SplitDecision& decision,
                                                   const planners::SplitStructure& structure,
                                                   const TriangularSolveOptions& options, const std::string& source,
                                                   double decide_seconds) const;
  AnalysisOptions analysis_options(const TriangularSolveOptions& options, bool gpu) const;
  // Whether analyze() takes the GPU path for these options (AnalysisPlace::Auto's conditions).
  bool analyses_on_gpu(const TriangularSolveOptions& options) const;
  SchemeSource scheme_source() const;  // for WorkerSchemes: the host pattern, and the GPU analysis
  const TriangularPattern& host_pattern() const;
  void release_matrix();  // handles, prepared schemes and level tasks of the previous analysis
  void register_matrix();
  void register_values();
  bool cpu_levels() const { return cpu_mode_ != CpuMode::Serial; }
  // One solve of registered b and x (n x nrhs): the sptrsv task, or the CPU level modes' tasks.
  void submit_solve(rt::HandleId b, rt::HandleId x, int nrhs, bool transpose);
  // One solve of b and x in host memory that its CUDA task copies in and out (stages_in_task()).
  void submit_solve_host(const double* b, double* x);
  codelets::SptrsvParams solve_params(int nrhs, bool transpose, bool gpu_capable) const;
  rt::TaskOptions solve_task_options(bool gpu_capable, bool transpose) const;
  void submit_cpu_levels(rt::HandleId b, rt::HandleId x, int nrhs);
  // Whether a solve of nrhs columns runs on a CUDA worker (unified on the GPU, or a split with a GPU
  // part), and solve()'s path for such a solve of a small vector (triangular_solver_solve.cpp).
  bool solves_on_gpu(int nrhs, bool transpose) const;
  void solve_staged(const double* b, double* x);
  // The inline path (triangular_solver_inline.cpp): the prepared scheme's plans (a plain variant's
  // made on first use), the options of its call, and one solve of handles or of (pinned) host vectors;
  // false when the runtime could not run it inline (the caller submits the task then).
  codelets::SptrsvCudaPlans* inline_plans();
  codelets::SptrsvParams prepared_params();  // one GPU vector's solve_params, through inline_plans()
  rt::TaskOptions inline_options() const;
  bool solve_inline(rt::HandleId b, rt::HandleId x);
  bool solve_host_inline(const double* b, double* x);
  // The registered matrix for a task: plus the segments (device_data) and the level schedule with
  // its level-ordered copy (levels), as the task's implementations read them.
  codelets::SptrsvMatrixHandles matrix_handles(bool device_data, bool levels) const;

  rt::TaskRuntime& rt_;
  // Declaration order = reverse destruction order: handles, then prepared schemes, then the pattern.
  mutable std::unique_ptr<TriangularPattern> pattern_;  // null after analyze_device until needed
  std::unique_ptr<DeviceAnalysed> device_;              // analyze_device's result, or analyze()'s GPU analysis
  DeviceMatrix device_matrix_;                          // device_ for WorkerSchemes
  bool host_input_ = false;                  // device_ is analyze()'s GPU analysis of a host CSR
  TriangularSolveOptions options_;           // analyze()'s, for update_values after a GPU analysis
  double upload_seconds_ = 0;                // that analysis's upload
  mutable double host_pattern_seconds_ = 0;  // a host pattern built from a download
  mutable std::mutex pattern_mutex_;          // that build: workers may ask for it at once
  AnalysisOptions analysis_;
  Triangle tri_ = Triangle::Lower;
  bool unit_diagonal_ = false;
  bool inline_solves_ = true;  // options.inline_solves
  std::unique_ptr<WorkerSchemes> worker_schemes_;  // cusparse / ag schemes only
  std::unique_ptr<WorkerSchemes> inline_variant_;  // a plain variant's inline solves (prepared on first use)
  std::mutex inline_mutex_;                         // its making: solves may come from several threads
  std::unique_ptr<Handles> handles_;
  std::unique_ptr<LevelTaskPlanner> level_tasks_;  // its tokens go before the pattern
  std::unique_ptr<SplitSolver> split_;              // its handles go first
  // solve_staged's pinned copies of b and x (null until a staged solve). Registered once as handles
  // (a split, a plain variant), or only pinned for a prepared scheme, whose task copies them itself.
  struct StagedVectors {
    StagedVectors(rt::TaskRuntime& rt, std::size_t n, bool registered);
    ~StagedVectors();
    StagedVectors(const StagedVectors&) = delete;
    StagedVectors& operator=(const StagedVectors&) = delete;
    rt::TaskRuntime& rt;
    const bool registered;
    std::vector<double> b, x;
    rt::DataHandle hb, hx;  // declared after the buffers: unregistered before they are freed
  };
  std::unique_ptr<StagedVectors> staged_;
  std::mutex staged_mutex_;
  CpuMode cpu_mode_ = CpuMode::Serial;
  std::int64_t cpu_min_entries_ = 0;
  int cpu_chunks_ = 0;
  bool cpu_fork_join_ = false;
  rt::Where device_where_ = rt::Where::Any;
  HostSolvePlacement host_place_;
  std::string variant_;
  bool gpu_ = false;        // solves may go to CUDA workers
  int variant_index_ = -1;  // into codelets::sptrsv_cuda_variants() for a plain variant, else -1
  Selection selection_;
};

}  // namespace hetsparse::sptrsv
