// The supernodal Cholesky plan recorded on the RecordingRuntime, shared by the planner tests.
#pragma once
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "planners/supernodal_cholesky.hpp"
#include "runtime/recording_runtime.hpp"
#include "sparse/convert.hpp"
#include "symbolic/analysis.hpp"

namespace hetsparse::test {

// A symbolic factor, its layout and its panels registered on the recording runtime.
struct RecordedFactor {
  rt::RecordingRuntime r;
  cholesky::SymbolicFactor sym;
  planners::FactorLayout layout;
  std::vector<int> info;
  std::unique_ptr<planners::RegisteredFactor> data;
  std::map<rt::HandleId, index_t> group_of_handle;
};

inline void register_factor(RecordedFactor& rec, cholesky::SymbolicFactor sym, double subtree_max, int cuda_workers) {
  rec.r.set_cuda_workers(cuda_workers);
  rec.sym = std::move(sym);
  rec.layout = planners::plan_factor_layout(rec.sym, subtree_max);
  rec.info.assign(rec.sym.num_supernodes(), 0);
  rec.data = std::make_unique<planners::RegisteredFactor>(rec.r, rec.sym, rec.layout, nullptr, rec.info.data());
  for (index_t g = 0; g < rec.layout.num_groups(); ++g) rec.group_of_handle[rec.data->group[g]] = g;
}

// ... and the factorization's task graph submitted once.
struct Recorded : RecordedFactor {
  planners::UpdatePlanStats st;
};

inline void record(Recorded& rec, const Csr& A, const planners::SizeClassThresholds& th, int cuda_workers = 0) {
  register_factor(rec, cholesky::analyze(triangle(A, Triangle::Lower)), th.subtree_max_flops, cuda_workers);
  rec.st = planners::submit_supernodal_cholesky(rec.r, rec.sym, rec.layout, *rec.data, th);
}

inline planners::SizeClassThresholds small_thresholds(double subtree_max) {
  planners::SizeClassThresholds th;
  th.inst_max_flops = 2e3;  // small problem: make all three classes appear
  th.dpq_min_flops = 2e5;
  th.gpu_min_task_flops = 1e5;
  th.subtree_max_flops = subtree_max;
  return th;
}

}  // namespace hetsparse::test
