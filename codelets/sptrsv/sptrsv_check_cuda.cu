// The GPU analysis's structural check (check_triangle_cuda): a pass over the entries, each finding
// its row through device_analysis::entry_owners, then a pass over the rows.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "codelets/common/cuda_check.hpp"
#include "codelets/sptrsv/sptrsv_analysis.hpp"
#include "codelets/sptrsv/sptrsv_device_scratch.cuh"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::int64_t threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

// The check's entry pass, a thread per entry (its row from device_analysis::entry_owners): marks
// the rows holding an entry to reject and the rows whose columns do not increase.
template <bool Upper>
__global__ void check_entries_kernel(DeviceCsrView t, std::int64_t nnz, const index_t* owner, unsigned char* bad_row,
                                     unsigned char* unsorted_row) {
  const std::int64_t q = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= nnz) return;
  const index_t row = owner[q], col = t.colind[q];
  if (!isfinite(t.values[q]) || col < 0 || col >= t.n || (Upper ? col < row : col > row)) bad_row[row] = 1;
  if (q > t.rowptr[row] && t.colind[q - 1] >= col) unsorted_row[row] = 1;
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
  Scratch<unsigned> words(2, stream);
  check_cuda(cudaMemsetAsync(words.get(), 0xff, 2 * sizeof(unsigned), stream),
             "cudaMemsetAsync in check_triangle_cuda");
  const std::int64_t nnz = result.nnz = device_analysis::download(stream, t.rowptr + t.n, 1)[0];
  Scratch<index_t> owner(static_cast<std::size_t>(nnz), stream);
  Scratch<unsigned char> marks(2 * static_cast<std::size_t>(t.n), stream);  // bad rows, then unsorted rows
  unsigned char* bad_row = marks.get();
  unsigned char* unsorted_row = marks.get() + t.n;
  check_cuda(cudaMemsetAsync(marks.get(), 0, 2 * static_cast<std::size_t>(t.n), stream),
             "cudaMemsetAsync in check_triangle_cuda");
  device_analysis::entry_owners(stream, t.n, t.rowptr, nnz, owner.get());
  const auto check = [&](auto upper) {
    constexpr bool Upper = decltype(upper)::value;
    if (nnz > 0) {
      check_entries_kernel<Upper><<<blocks_for(nnz), kThreads, 0, stream>>>(t, nnz, owner.get(), bad_row, unsorted_row);
    }
    check_rows_kernel<Upper><<<blocks_for(t.n), kThreads, 0, stream>>>(t, unit_diagonal, bad_row, unsorted_row,
                                                                       words.get(), words.get() + 1);
  };
  t.upper ? check(std::true_type{}) : check(std::false_type{});
  check_cuda(cudaGetLastError(), "check kernel launch in check_triangle_cuda");
  const std::vector<unsigned> found = words.download();
  const auto row = [](unsigned w) { return w == ~0u ? index_t{-1} : static_cast<index_t>(w); };
  result.first_invalid_row = row(found[0]);
  result.first_unnormalised_row = row(found[1]);
  return result;
}

}  // namespace hetsparse::kernels
