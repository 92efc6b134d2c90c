// Numeric kernels of a supernodal sparse Cholesky (left- or right-looking, swCholesky-style fused
// updates). Pure kernels, no StarPU: the CPU ones call OpenBLAS/LAPACKE, the CUDA ones cuBLAS,
// cuSOLVER and hetsparse's own scatter/gather kernels.
//
// Data model. Supernode s owns columns [first_col, first_col + ncols) of L (permuted numbering) and a
// strictly increasing list of global row indices rows[0 .. nrows) whose first ncols entries are its
// own columns (rows[c] == first_col + c). Its panel is dense column-major nrows x ncols with
// ld = nrows; the strict upper triangle of the diagonal block is never read nor written.
// Sizes are int32: a panel (and an update's m x k product) must hold fewer than 2^31 entries, which
// is checked; supernodes are far below that in practice.
//
// Update of target t by descendant d, rows r0 <= r1 <= d.nrows (see update_range):
//   C = L_d[r0:, :] * L_d[r0:r1, :]^T               (m x k, m = d.nrows - r0, k = r1 - r0)
//   panel_t[pos_t(rows_d[r0 + i]), rows_d[r0 + j] - t.first_col] -= C(i, j)   for i >= j,
// where pos_t(row) is the position of row in t's row list. By the structure theorem every row of d
// from r0 on is in t's list; the CPU kernels check it (InvalidArgument, t left untouched). The CUDA
// kernels cannot read device row lists from the host: they trust them, but skip an entry whose row
// or column they do not find rather than write outside t (or x, in the solves).
//
// CPU kernels take host pointers (values and rows); CUDA kernels take device pointers in the panel
// references and are asynchronous on the stream they are given: they bind the cuBLAS/cuSOLVER
// handles to that stream for the call and give the handles back as they found them.
// Invalid shapes or ranges throw InvalidArgument naming the routine and the problem.
#pragma once
#include <cstddef>
#include <cstdint>

// Same declarations as cublas_api.h, cusolverDn.h and driver_types.h, so this header compiles
// without CUDA and coexists with the CUDA headers.
typedef struct cublasContext* cublasHandle_t;
typedef struct cusolverDnContext* cusolverDnHandle_t;
typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// A supernode's panel and row list. Field order is part of the API (aggregate initialisation).
struct PanelRef {
  double* values;
  const std::int32_t* rows;
  std::int32_t nrows, ncols, first_col;
};
struct ConstPanelRef {
  const double* values;
  const std::int32_t* rows;
  std::int32_t nrows, ncols, first_col;
};
inline ConstPanelRef as_const(const PanelRef& p) { return {p.values, p.rows, p.nrows, p.ncols, p.first_col}; }

// Positions [r0, r1) of d's rows lie in the target's columns, [r0, d.nrows) in its row list.
struct UpdateRange {
  std::int32_t r0, r1;
};

// Host helper for planners: r0 = first position whose row >= t_first_col, r1 = first position whose
// row >= t_first_col + t_ncols (binary searches in the sorted host list d_rows).
UpdateRange update_range(const std::int32_t* d_rows, std::int32_t d_nrows, std::int32_t t_first_col,
                         std::int32_t t_ncols);

// Doubles of work a single update needs: m * k.
std::size_t supernode_update_work_doubles(ConstPanelRef d, UpdateRange r);

// work: supernode_update_work_doubles(d, r) doubles, contents on entry ignored.
void supernode_update_cpu(ConstPanelRef d, UpdateRange r, PanelRef t, double* work);
// work_device: supernode_update_work_doubles(d, r) doubles of device memory, free until the stream
// has run the update.
void supernode_update_cuda(cublasHandle_t handle, cudaStream_t stream, ConstPanelRef d, UpdateRange r, PanelRef t,
                           double* work_device);

// Several descendants into one target (a TPQ batch). On the GPU, updates whose product costs fewer
// than fused_max_flops (2 m k ncols) skip cuBLAS: one fused kernel computes their products tile by
// tile in shared memory and subtracts them from t (a GEMM launch plus a scatter per small update
// cost more than its arithmetic: leaf-subtree updates average ~3e5 flops). Bigger ones get a cuBLAS
// GEMM each into the work buffer and one scatter kernel over them all.
inline constexpr double kFusedUpdateMaxFlops = 2.0e7;
// Bytes of work the CUDA batch needs: job tables, then the cuBLAS updates' products stacked. With
// fused_max_flops = 0 (every product stacked) it is always enough for the CPU batch too.
std::size_t supernode_update_batch_work_bytes(const ConstPanelRef* ds, const UpdateRange* rs, int count,
                                              double fused_max_flops = kFusedUpdateMaxFlops);
// CPU: the updates one after the other; work holds at least the largest m * k of the batch.
void supernode_update_batch_cpu(const ConstPanelRef* ds, const UpdateRange* rs, int count, PanelRef t,
                                double* work);
// CUDA: the fused kernel for the small updates, one GEMM per big update into the stacked work
// buffer and one scatter kernel over those (atomic subtractions, since descendants overlap in t:
// the summation order, and so the last bits, may vary between runs). ds: host array of descriptors
// holding device pointers. work_device is at least supernode_update_batch_work_bytes(..., same
// fused_max_flops) bytes, aligned to 8 bytes (cudaMalloc gives 256).
void supernode_update_batch_cuda(cublasHandle_t handle, cudaStream_t stream, const ConstPanelRef* ds,
                                 const UpdateRange* rs, int count, PanelRef t, void* work_device,
                                 std::size_t work_bytes, double fused_max_flops = kFusedUpdateMaxFlops);

// Factor a panel: L11 L11^T = A11 (potrf on the diagonal block), then L21 = A21 L11^-T.
// Returns 0, or the 1-based column within the panel whose pivot was <= 0 or NaN; the rows below
// then hold unspecified values. Only values, nrows and ncols are used (rows may be null).
int supernode_factor_cpu(PanelRef p);
std::size_t supernode_factor_cuda_work_bytes(cusolverDnHandle_t solver, PanelRef p);
// Asynchronous; the info code (same convention) is written to the device int *dev_info.
void supernode_factor_cuda(cusolverDnHandle_t solver, cublasHandle_t blas, cudaStream_t stream, PanelRef p,
                           void* work_device, std::size_t work_bytes, int* dev_info);

// Where one supernode lives in arrays that hold many panels (values) and row lists (rows) back to
// back: panel at values + value_offset, rows at rows + row_begin.
struct PanelLocation {
  std::int64_t value_offset, row_begin;
  std::int32_t nrows, ncols, first_col, pad;
};

// A union of whole subtrees of the supernodal elimination tree, supernodes [first, last) in
// postorder, factored right-looking on the calling thread: each supernode is factored once every
// update from inside the range has reached it, then updates the later supernodes of the range it
// touches (updates to supernodes at or after `last` are left to the caller). Every update INTO the
// range comes from inside it, which is what "whole subtrees" guarantees.
//   loc, col_to_supernode: per supernode / per column of the whole factor; rows: all row lists;
//   values: the panels of the range, panel s at values + (loc[s].value_offset - loc[first].value_offset);
//   info: last - first ints, set to 0 or the failing column within the panel (as supernode_factor_cpu).
// Returns the number of supernodes factored: after a failure the rest of the range is left as it was.
// work: supernode_subtree_work_doubles(loc, first, last) doubles. Row lists are trusted (they come
// from the symbolic analysis, not from the caller's data).
std::size_t supernode_subtree_work_doubles(const PanelLocation* loc, std::int32_t first, std::int32_t last);
std::int32_t supernode_subtree_cpu(const PanelLocation* loc, const std::int32_t* rows,
                                   const std::int32_t* col_to_supernode, std::int32_t first, std::int32_t last,
                                   double* values, int* info, double* work);

// Assembly of A's entries into a group of panels: values[0 .. count) zeroed, then
// values[positions[e]] += a[e] for e < entries (on the GPU atomically: an entry may repeat a
// position). Positions are trusted to lie in [0, count) (they come from the symbolic analysis);
// entries outside are skipped rather than written. The CUDA one is asynchronous on `stream`.
// The solve kernels are in supernode_solve.hpp.
void supernode_assemble_cpu(double* values, std::int64_t count, const double* a, const std::int64_t* positions,
                            std::int64_t entries);
void supernode_assemble_cuda(cudaStream_t stream, double* values, std::int64_t count, const double* a,
                             const std::int64_t* positions, std::int64_t entries);

}  // namespace hetsparse::kernels
