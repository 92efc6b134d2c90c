// Sparse matrix-vector product y = alpha A x + beta y, A in CSR with 32-bit indices laid out as
// StarPU's CSR interface lays it out. Pure kernels, no StarPU.
#pragma once
#include <cstddef>
#include <cstdint>

// Same declarations as cusparse.h and driver_types.h, so this header compiles without CUDA.
typedef struct cusparseContext* cusparseHandle_t;
typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// A view of nrows CSR rows. rowptr has nrows + 1 entries and keeps the offsets of the matrix it was
// cut from (StarPU's vertical block filter does not rebase them): rowptr[i] - first_entry indexes
// colind and values, which hold exactly nnz = rowptr[nrows] - first_entry entries.
struct CsrView {
  std::uint32_t nrows;
  std::uint32_t nnz;
  const std::uint32_t* rowptr;
  const std::uint32_t* colind;
  const double* values;
  std::uint32_t first_entry;
};

// Sequential (one StarPU CPU worker = one core). When beta == 0, y is only written, never read, so it
// may hold NaN or garbage, as in BLAS.
void spmv_cpu(const CsrView& A, const double* x, double* y, double alpha, double beta);

// Hetsparse's own CSR-vector kernel, enqueued on `stream` (all pointers in device memory). Each row is
// reduced by a sub-warp of 2..32 lanes, the width picked from the mean row length nnz / nrows; suited
// to the short, even rows of PDE matrices (docs/benchmarks.md has its rates). A row much longer than
// the mean is handled by one sub-warp: correct, but it leaves the rest of the GPU waiting. Same
// beta == 0 rule as spmv_cpu.
void spmv_cuda(cudaStream_t stream, const CsrView& A, const double* x, double* y, double alpha, double beta);

// The entries of a row that spmv_cuda's sub-warp fetches in its first passes (its width times its
// unrolling): the power of two, 4 to 64, that covers ceil(nnz / nrows), or 128 for longer rows. A row
// of fewer entries leaves the rest of its lanes idle.
constexpr std::uint32_t subwarp_row_slots(std::uint64_t nnz, std::uint32_t nrows) {
  const std::uint64_t mean = nrows == 0 ? 0 : (nnz + nrows - 1) / nrows;
  if (mean > 64) return 128;
  std::uint32_t slots = 4;
  while (slots < mean) slots *= 2;
  return slots;
}

// Device scratch owned by the caller and reused across calls. Start it empty and let spmv_cusparse
// grow it: when too small, the old block is freed with cudaFreeAsync and a new one taken with
// cudaMallocAsync, both on the call's stream, so the block may only be used on that stream (or
// after synchronising with it). A caller-supplied block must likewise come from cudaMallocAsync.
// Release it with release_cusparse_workspace.
struct CusparseWorkspace {
  void* ptr = nullptr;
  std::size_t bytes = 0;
};

// Frees ws with cudaFreeAsync on `stream` and resets it to empty; a no-op when it is empty.
void release_cusparse_workspace(cudaStream_t stream, CusparseWorkspace& ws);

// The same product through cusparseSpMV (CUSPARSE_SPMV_CSR_ALG1), enqueued on `stream`; ncols is the
// length of x. The handle is bound to `stream` and set to host pointer mode for the call, then given
// back as it was. cuSPARSE wants zero-based row offsets, so when A.first_entry != 0 the nrows + 1
// offsets are rebased into the front of ws first (an extra 8 bytes of traffic per row).
// Descriptors are created and destroyed per call. Requires A.nnz and ncols < 2^31 (32-bit signed
// cuSPARSE indices); throws InvalidArgument otherwise. Same beta == 0 rule as spmv_cpu.
void spmv_cusparse(cusparseHandle_t handle, cudaStream_t stream, const CsrView& A, std::uint32_t ncols,
                   const double* x, double* y, double alpha, double beta, CusparseWorkspace& ws);

}  // namespace hetsparse::kernels
