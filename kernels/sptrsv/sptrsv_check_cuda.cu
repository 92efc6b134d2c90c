// The GPU analysis's structural check (check_triangle_cuda): the row pointer first (the other
// passes trust it), then a pass over the entries in tiles (sptrsv_entry_tiles.cuh), then one over
// the rows.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "kernels/sptrsv/sptrsv_device_scratch.cuh"
#include "kernels/sptrsv/sptrsv_entry_tiles.cuh"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::int64_t threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

// rowptr[0] == 0 and rowptr nondecreasing, else the lowest row where it fails lands in *first_bad.
__global__ void check_pointer_kernel(index_t n, const index_t* rowptr, unsigned* first_bad) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n && ((i == 0 && rowptr[0] != 0) || rowptr[i + 1] < rowptr[i]))
    atomicMin(first_bad, static_cast<unsigned>(i));
}

// The check's entry pass, a thread per entry of a tile: marks the rows holding an entry to reject
// and the rows whose columns do not increase.
template <bool Upper>
__global__ void __launch_bounds__(device_analysis::kTileThreads)
    check_entries_kernel(DeviceCsrView t, std::int64_t nnz, unsigned char* bad_row, unsigned char* unsorted_row) {
  device_analysis::for_each_tile_entry(t.n, t.rowptr, nnz, [&](std::int64_t q, index_t row, index_t row_begin) {
    const index_t col = t.colind[q];
    if (!isfinite(t.values[q]) || col < 0 || col >= t.n || (Upper ? col < row : col > row)) bad_row[row] = 1;
    if (q > row_begin && t.colind[q - 1] >= col) unsorted_row[row] = 1;
  });
}

// The check's row pass, a thread per row: the diagonal's slot and the verdict; the lowest offending
// row of each kind lands in its atomicMin word.
template <bool Upper>
__global__ void check_rows_kernel(DeviceCsrView t, bool unit_diagonal, const unsigned char* bad_row,
                                  const unsigned char* unsorted_row, unsigned* first_invalid,
                                  unsigned* first_unnormalised) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= t.n) return;
  const auto row = static_cast<index_t>(i);
  const index_t begin = t.rowptr[row], end = t.rowptr[row + 1];
  const bool unsorted = unsorted_row[row] != 0;
  const index_t slot = Upper ? begin : end - 1;
  // Sorted with every column on the right side: a diagonal can only sit in its slot.
  const bool has_diagonal = end > begin && t.colind[slot] == row;
  const auto r = static_cast<unsigned>(row);
  if (bad_row[row] != 0 || (!unsorted && !unit_diagonal && (!has_diagonal || t.values[slot] == 0.0))) {
    atomicMin(first_invalid, r);
  } else if (unsorted || !has_diagonal) {
    atomicMin(first_unnormalised, r);
  }
}

}  // namespace

DeviceCheck check_triangle_cuda(cudaStream_t stream, const DeviceCsrView& t, bool unit_diagonal) {
  DeviceCheck result;
  if (t.n == 0) return result;
  using device_analysis::Scratch;
  // First invalid row, first unnormalised row, first bad pointer, then rowptr[n]: one download.
  Scratch<unsigned> words(4, stream);
  check_cuda(cudaMemsetAsync(words.get(), 0xff, 3 * sizeof(unsigned), stream),
             "cudaMemsetAsync in check_triangle_cuda");
  check_pointer_kernel<<<blocks_for(t.n), kThreads, 0, stream>>>(t.n, t.rowptr, words.get() + 2);
  check_cuda(cudaGetLastError(), "check_pointer_kernel launch in check_triangle_cuda");
  check_cuda(cudaMemcpyAsync(words.get() + 3, t.rowptr + t.n, sizeof(index_t), cudaMemcpyDeviceToDevice, stream),
             "cudaMemcpyAsync in check_triangle_cuda");
  const std::vector<unsigned> pointer = device_analysis::download(stream, words.get() + 2, 2);
  if (pointer[0] != ~0u) {
    result.first_invalid_row = static_cast<index_t>(pointer[0]);
    result.bad_row_pointer = true;
    return result;
  }
  const std::int64_t nnz = result.nnz = static_cast<index_t>(pointer[1]);
  Scratch<unsigned char> marks(2 * static_cast<std::size_t>(t.n), stream);  // bad rows, then unsorted rows
  unsigned char* bad_row = marks.get();
  unsigned char* unsorted_row = marks.get() + t.n;
  check_cuda(cudaMemsetAsync(marks.get(), 0, 2 * static_cast<std::size_t>(t.n), stream),
             "cudaMemsetAsync in check_triangle_cuda");
  const auto check = [&](auto upper) {
    constexpr bool Upper = decltype(upper)::value;
    if (nnz > 0) {
      check_entries_kernel<Upper><<<device_analysis::tiles_for(nnz), device_analysis::kTileThreads, 0, stream>>>(
          t, nnz, bad_row, unsorted_row);
    }
    check_rows_kernel<Upper><<<blocks_for(t.n), kThreads, 0, stream>>>(t, unit_diagonal, bad_row, unsorted_row,
                                                                       words.get(), words.get() + 1);
  };
  t.upper ? check(std::true_type{}) : check(std::false_type{});
  check_cuda(cudaGetLastError(), "check kernel launch in check_triangle_cuda");
  const std::vector<unsigned> found = device_analysis::download(stream, words.get(), 2);
  const auto row = [](unsigned w) { return w == ~0u ? index_t{-1} : static_cast<index_t>(w); };
  result.first_invalid_row = row(found[0]);
  result.first_unnormalised_row = row(found[1]);
  return result;
}

}  // namespace hetsparse::kernels
