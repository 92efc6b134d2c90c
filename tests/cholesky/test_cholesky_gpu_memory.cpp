// Factors bigger than the GPU (issue 15, item 4): with STARPU_LIMIT_CUDA_MEM capping the GPU at a
// fraction of L and every factorization task forced onto it, StarPU must evict panels to the host
// and the factorization and solve must end with the uncapped run's answer. Skips without a GPU.
//
// DISABLED: it does not finish on the H100 (2026-11-24, StarPU 1.4.10). lap3d:24x24x240 with every
// task on the GPU takes 8 s uncapped. Under a 64 MB cap, 0 of 21,228 tasks were done after 20 s (also
// without hetsparse's panel prefetch; under 256 MB the submission had not returned); it did not
// finish in 12 s with STARPU_PREFETCH=0 or with the default mixed thresholds, nor in 8 s with
// STARPU_SUBALLOCATOR=0 too (inconclusive: 8 s is the uncapped run's time). The CUDA worker's stack
// (cuda-gdb): _starpu_cuda_driver_run_once -> datawizard progress -> prefetch requests ->
// _starpu_allocate_memory_on_node -> _starpu_memory_reclaim_generic -> free_potentially_in_use_mc,
// or _starpu_fetch_task_input -> _starpu_update_prefetch_status. No task needs more than the cap:
// the plan's largest touches 24.4 MB (RecordingRuntime count). The realistic case passes:
// lap3d:128 (L 17.6 GB) under a 12 GB cap, scripts/bench.d/gpu_cap.sh. Once the cause is fixed, run
// it on the GPU machine (under `timeout`) with --gtest_also_run_disabled_tests
// --gtest_filter='*CholeskyGpuMemory*', then drop DISABLED_.
#include <gtest/gtest.h>
#include <starpu.h>

#include <algorithm>
#include <cmath>

#include "cholesky/cholesky_solver.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "tests/bad_input/scoped_env.hpp"
#include "tests/support/cholesky_checks.hpp"
#include "tests/support/codelet_checks.hpp"

namespace hetsparse::test {
namespace {

constexpr int kCapMb = 64;

struct Outcome {
  bool gpu = false;
  double cuda_memory_mb = 0;  // what StarPU manages on the GPU
  double factor_mb = 0, largest_panel_mb = 0;
  double backward_error = 0;
  std::vector<double> x;
};

// One Runtime (StarPU reads STARPU_LIMIT_CUDA_MEM at start) with 2 CPU + 1 CUDA workers; every
// factorization task restricted to the GPU, so every panel passes through its memory.
Outcome factor_and_solve(const Csr& A, const char* cap_mb) {
  ScopedEnv env;
  env.set("STARPU_LIMIT_CUDA_MEM", cap_mb);
  Outcome o;
  rt::Runtime r(test_runtime_options("dmdas", 2, 1));
  if (r.cuda_workers() == 0) return o;
  o.gpu = true;
  for (const rt::WorkerInfo& w : r.workers())
    if (w.kind == rt::WorkerInfo::Kind::Cuda)
      o.cuda_memory_mb = double(starpu_memory_get_total(w.memory_node)) / (1 << 20);
  const Csr lower = triangle(A, Triangle::Lower);
  cholesky::CholeskySolver chol(r);
  const cholesky::SymbolicFactor& sym = chol.analyze(lower);
  for (const cholesky::Supernode& s : sym.supernodes) {
    const double mb = double(s.nrows) * s.ncols * sizeof(double) / (1 << 20);
    o.factor_mb += mb;
    o.largest_panel_mb = std::max(o.largest_panel_mb, mb);
  }
  planners::SizeClassThresholds th;
  th.inst_max_flops = 1e3;
  th.dpq_min_flops = 1e5;
  th.subtree_max_flops = 0;  // subtree tasks are CPU-only
  th.restrict_to = rt::Where::Cuda;
  chol.factorize(lower, {th});
  o.x = random_rhs(static_cast<std::size_t>(A.rows), 11);
  const std::vector<double> b = o.x;
  chol.solve(o.x);
  o.backward_error = ref::backward_error(A, o.x.data(), b.data());
  return o;
}

TEST(CholeskyGpuMemory, DISABLED_FactorSeveralTimesTheCappedGpuGivesTheUncappedAnswer) {
  // A long bar: small separators (so no single task needs much of the cap), a factor of ~5x the cap.
  const Csr A = laplacian_3d(24, 24, 240);
  const Outcome free = factor_and_solve(A, nullptr);
  if (!free.gpu) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Outcome capped = factor_and_solve(A, std::to_string(kCapMb).c_str());
  ASSERT_TRUE(capped.gpu);
  EXPECT_LE(capped.cuda_memory_mb, kCapMb) << "STARPU_LIMIT_CUDA_MEM not in force";
  EXPECT_GT(free.cuda_memory_mb, 4 * kCapMb);
  EXPECT_GE(capped.factor_mb, 3.0 * kCapMb) << "the factor fits the cap: nothing to evict";
  EXPECT_LE(capped.largest_panel_mb, kCapMb / 4.0);  // one task's panels fit the cap
  EXPECT_LE(free.backward_error, 1e-14);
  EXPECT_LE(capped.backward_error, 1e-14);
  EXPECT_NEAR(capped.backward_error, free.backward_error, 1e-14);
  // Same factor up to the order of the updates: the solutions agree far below the problem's scale.
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < free.x.size(); ++i) {
    diff = std::max(diff, std::abs(capped.x[i] - free.x[i]));
    scale = std::max(scale, std::abs(free.x[i]));
  }
  EXPECT_LE(diff, 1e-10 * scale);
  std::printf("factor %.0f MB (largest panel %.1f MB), GPU %.0f MB capped / %.0f MB free, backward error %.2e / %.2e\n",
              capped.factor_mb, capped.largest_panel_mb, capped.cuda_memory_mb, free.cuda_memory_mb,
              capped.backward_error, free.backward_error);
}

}  // namespace
}  // namespace hetsparse::test
