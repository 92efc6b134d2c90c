// Incomplete Cholesky with zero fill, IC(0): the lower L with the pattern of tril(A) such that
// (L L^T)_ij = A_ij wherever tril(A) has an entry. Row-oriented (up-looking): row i reads the rows
// k < i of its own pattern, the dependencies of a lower-triangular solve, so the CUDA version runs
// level by level of that solve. Pure kernels on the 32-bit CSR of a StarPU CSR handle, no StarPU.
#pragma once
#include <cstdint>
#include <vector>

typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// The lower triangle an IC(0) kernel takes: columns sorted in every row and the diagonal stored as
// the row's last entry. Throws StructureError naming the first row (and column) that breaks it.
void ic0_check_structure(std::uint32_t n, const std::uint32_t* rowptr, const std::uint32_t* colind);

// In place: values hold tril(A) (shifted diagonal included) on entry, L on return. Returns 0, or
// 1 + the first row whose pivot is not positive (LAPACK's info); rows from that one on are left
// partly updated.
int ic0_cpu(std::uint32_t n, const std::uint32_t* rowptr, const std::uint32_t* colind, double* values);

// Level sets of the lower pattern: row i's level is 1 + the highest level of the rows k < i it
// names (0 for none). rows lists the rows level by level, ascending within a level; level_ptr[l]
// is where level l starts in rows (num_levels + 1 entries).
struct Ic0Levels {
  std::vector<std::uint32_t> level_ptr, rows;
  int num_levels() const { return static_cast<int>(level_ptr.size()) - 1; }
};
Ic0Levels ic0_levels(std::uint32_t n, const std::uint32_t* rowptr, const std::uint32_t* colind);

// The same factorization on device arrays, asynchronous on `stream`: one launch per level, one warp
// per row. level_rows is Ic0Levels::rows on the device, host_level_ptr Ic0Levels::level_ptr on the
// host. *info_device (device memory) receives ic0_cpu's return value: the first failing row is the
// smallest one, as every row before it computed exactly what ic0_cpu computes.
void ic0_cuda(cudaStream_t stream, const std::uint32_t* rowptr, const std::uint32_t* colind,
              double* values, const std::uint32_t* level_rows, const std::uint32_t* host_level_ptr, int num_levels,
              int* info_device);

}  // namespace hetsparse::kernels
