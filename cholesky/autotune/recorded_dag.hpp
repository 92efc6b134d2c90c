// The numeric factorization's task graph for one symbolic factor and one set of planner thresholds,
// recorded with the RecordingRuntime (nothing runs) and turned into simulator tasks.
#pragma once
#include <vector>

#include "cholesky/autotune/schedule_simulator.hpp"
#include "symbolic/symbolic_factor.hpp"
#include "planners/supernodal_cholesky.hpp"

namespace hetsparse::cholesky::autotune {

// cuda_workers: the GPUs of the simulated machine (the planner's placement depends on them).
TaskGraph record_factorization_dag(const SymbolicFactor& sym, const planners::SizeClassThresholds& th,
                                   int cuda_workers);

// th with its "automatic" values (negative subtree_max_flops) replaced by what the planner applies
// for sym, so that the tuner starts its search from a concrete point.
planners::SizeClassThresholds applied_thresholds(const SymbolicFactor& sym, const planners::SizeClassThresholds& th);

// Whether a codelet has a CUDA implementation in this build (a GPU worker could run it).
bool has_cuda_implementation(const rt::Kernel& kernel);

}  // namespace hetsparse::cholesky::autotune
