// How TriangularSolver uses the split-execution model (split_solver.hpp, planners/split_sptrsv*):
// off, auto (the model decides split or unified) or one split policy forced.
#pragma once
#include <string>

#include "planners/split_sptrsv_decision.hpp"
#include "planners/split_sptrsv_measure.hpp"
#include "planners/split_sptrsv_structure.hpp"

namespace hetsparse::sptrsv {

enum class SplitMode { Off, Auto, CpuGpu, CpuCpu, GpuGpu };
// "off", "auto", "cpu-gpu", "cpu-cpu", "gpu-gpu"; InvalidArgument naming the accepted ones.
SplitMode parse_split_mode(const std::string& name);
const char* to_string(SplitMode);
// The policy a forced mode stands for (InvalidArgument for Off and Auto).
planners::SplitPolicy forced_policy(SplitMode mode);

struct SplitOptions {
  SplitMode mode = SplitMode::Off;
  // Width of the CPU parallel task (StarPU combined workers: peager or pheft). 1: none, so the model
  // never level-schedules on the CPU. Callers that started the runtime pass its widest combined worker.
  int cpu_parallel_width = 1;
  // Thresholds file; "": $HETSPARSE_SPLIT_MODEL, the store's hetsparse_sptrsv/split_model_<gpu>.tsv,
  // then the repository's data/split_model_<gpu>.tsv, else the paper's values (split_model_store.hpp).
  std::string model_file;
  // The slicings' structural parameters; pf_min_rows follows AnalysisOptions::parallel_friendly_rows.
  planners::SplitStructureOptions structure;
  // auto only: where the cost models cannot separate the best two or three policies and the solve
  // is cheap, time them at setup and keep the fastest (planners/split_sptrsv_measure.hpp). Only with
  // device Auto (a unified pick must be free to move the solves); the time counts in the setup.
  planners::SplitMeasureOptions measure;
};

}  // namespace hetsparse::sptrsv
