// Checks shared by the StarPU suites (runtime, codelets, solvers): the runtime options for tests,
// each codelet run as StarPU tasks (restricted to a device) against the serial reference on random
// inputs, and a tiled Cholesky DAG end to end.
#pragma once
#include <cstdint>
#include <string>

#include "codelets/spmv/spmv_codelet.hpp"
#include "runtime/starpu/runtime.hpp"

namespace hetsparse::test {

// Runtime options for tests: a private perf-model directory, quiet, given workers and scheduler.
rt::RuntimeOptions test_runtime_options(const std::string& sched, int ncpu, int ncuda);

void check_spmv(rt::Runtime& r, rt::Where where, codelets::SpmvCudaImpl impl, int blocks, std::uint64_t seed);
void check_gemm_syrk_trsm(rt::Runtime& r, rt::Where where, std::uint64_t seed);
void check_potrf(rt::Runtime& r, rt::Where where, std::uint64_t seed);
void check_vector_ops(rt::Runtime& r, rt::Where where, std::uint64_t seed);
// Tiled Cholesky of a random SPD matrix of order n; gpu_min_tile as in TiledCholeskyOptions.
void check_tiled_cholesky(rt::Runtime& r, int n, int nb, int gpu_min_tile, std::uint64_t seed);

}  // namespace hetsparse::test
