// The supernode kernels (update, batched update, factor, the panel solves with the solve's moves and
// permutations) against the dense expectations of supernode_problems.hpp or host loops, on every back
// end (kernel_backend.hpp).
#include <gtest/gtest.h>

#include "tests/kernels/kernel_backend.hpp"

namespace hetsparse::test {
namespace {

using SupernodeKernels = KernelTest;

TEST_F(SupernodeKernels, UpdateMatchesDenseReference) { check_updates(backend().supernode(), 11); }
TEST_F(SupernodeKernels, UpdateWithoutRowsInTargetColumnsChangesNothing) {
  check_empty_update(backend().supernode(), 12);
}
TEST_F(SupernodeKernels, BatchOfOneMatchesDenseReference) { check_batch(backend().supernode(), 1, 13); }
TEST_F(SupernodeKernels, BatchOfSevenMatchesDenseReference) { check_batch(backend().supernode(), 7, 14); }
TEST_F(SupernodeKernels, BatchOfFortyMatchesDenseReference) { check_batch(backend().supernode(), 40, 15); }
// More jobs than one store_jobs launch of the CUDA kernel carries: its job table goes up in two parts.
TEST_F(SupernodeKernels, BatchOfSeventyMatchesDenseReference) { check_batch(backend().supernode(), 70, 116); }
TEST_F(SupernodeKernels, FactorMatchesPotrfAndTrsm) { check_factor(backend().supernode(), 16); }
TEST_F(SupernodeKernels, FactorReportsNegativePivotColumn) {
  for (const int column : {0, 5, 47}) check_factor_failure(backend().supernode(), column, false, 17 + column);
}
// Narrow panels (the CPU backend factors them without LAPACK).
TEST_F(SupernodeKernels, FactorReportsPivotColumnOfNarrowPanels) {
  for (const int cols : {1, 4, 8})
    for (const bool nan_pivot : {false, true})
      check_factor_failure(backend().supernode(), cols - 1, nan_pivot, 40 + cols + nan_pivot, cols);
}
TEST_F(SupernodeKernels, FactorReportsNaNPivotColumn) {
  for (const int column : {0, 33, 47}) check_factor_failure(backend().supernode(), column, true, 18 + column);
}
TEST_F(SupernodeKernels, SweepsMatchDenseTriangularSolves) { check_sweeps(backend().supernode(), 19); }
TEST_F(SupernodeKernels, SolveMovesMatchHostLoops) { check_solve_moves(backend().supernode(), 22); }
TEST_F(SupernodeKernels, SolvePermutationsMatchHostLoops) { check_solve_permutations(backend().supernode(), 23); }
TEST_F(SupernodeKernels, RightLookingFactorAndSolveMatchDense) {
  check_end_to_end(backend().supernode(), false, 20);
}
TEST_F(SupernodeKernels, LeftLookingBatchedFactorAndSolveMatchDense) {
  check_end_to_end(backend().supernode(), true, 21);
}

}  // namespace
}  // namespace hetsparse::test
