// The wide class's diagonal blocks with several right-hand sides (supernode_level_wide.hpp).
#include <algorithm>

#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/cublas_stream_scope.hpp"
#include "kernels/supernode/supernode_checks.hpp"
#include "kernels/supernode/supernode_level_team.cuh"
#include "kernels/supernode/supernode_level_wide.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels {
namespace {

using namespace level_solve_detail;

constexpr int kTeam = 256;

// One step's jb x jb triangle T (leading dimension ld) against x, right-hand side blockIdx.x.
template <bool FORWARD>
__global__ void __launch_bounds__(kTeam) step_triangle(const double* T, int ld, int jb, double* x, int ldx, int nrhs) {
  const RhsGroup g = rhs_group(static_cast<int>(blockIdx.x), static_cast<int>(gridDim.x), x, ldx, nrhs);
  const Supernode s{T, nullptr, ld, jb, g.stage};
  if constexpr (FORWARD) {
    team_forward<kTeam, 1, false>(s, g.stage, ldx, g.nrhs, static_cast<int>(threadIdx.x));
  } else {
    __shared__ double share[kTeam];
    team_backward<kTeam, 1, false>(s, g.stage, ldx, g.nrhs, static_cast<int>(threadIdx.x), share);
  }
}

// Forward: each step's triangle, then GEMM sends it to the rest of the diagonal block; backward,
// from the last step: GEMM takes off what the rest sends back, then the triangle.
template <bool FORWARD>
void steps(const char* routine, cublasHandle_t handle, cudaStream_t stream, const double* D, int ld, int nc, double* x,
           int ldx, int nrhs) {
  supernode_detail::check_diagonal_solve(routine, D, ld, nc, x, ldx, nrhs);
  if (nc == 0 || nrhs == 0) return;
  supernode_detail::CublasStreamScope bound(handle, stream, routine);
  CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
  const double one = 1.0, minus = -1.0;
  const int last = (nc - 1) / kSolveBlock * kSolveBlock;
  for (int k = 0; k <= last; k += kSolveBlock) {
    const int j0 = FORWARD ? k : last - k, jb = std::min(kSolveBlock, nc - j0), rest = nc - j0 - jb;
    const double* B = D + j0 + static_cast<std::size_t>(j0) * ld;
    if (FORWARD) step_triangle<true><<<static_cast<unsigned>(nrhs), kTeam, 0, stream>>>(B, ld, jb, x + j0, ldx, nrhs);
    if (rest > 0) {
      const cublasStatus_t status =
          FORWARD ? cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, rest, nrhs, jb, &minus, B + jb, ld, x + j0, ldx, &one,
                                x + j0 + jb, ldx)
                  : cublasDgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, jb, nrhs, rest, &minus, B + jb, ld, x + j0 + jb, ldx,
                                &one, x + j0, ldx);
      check_cublas(status, routine);
    }
    if (!FORWARD) step_triangle<false><<<static_cast<unsigned>(nrhs), kTeam, 0, stream>>>(B, ld, jb, x + j0, ldx, nrhs);
  }
  check_cuda(cudaGetLastError(), routine);
}

}  // namespace

void level_wide_forward_cuda(cublasHandle_t handle, cudaStream_t stream, const double* D, int ld, int nc, double* x,
                             int ldx, int nrhs) {
  steps<true>("level_wide_forward_cuda", handle, stream, D, ld, nc, x, ldx, nrhs);
}

void level_wide_backward_cuda(cublasHandle_t handle, cudaStream_t stream, const double* D, int ld, int nc, double* x,
                              int ldx, int nrhs) {
  steps<false>("level_wide_backward_cuda", handle, stream, D, ld, nc, x, ldx, nrhs);
}

}  // namespace hetsparse::kernels
