// The GPU analysis's fusion segments and row statistics. Segments: one thread per chunk of 32
// solve positions, in three passes (which chunks are heavy and how many partial slots their hub
// rows ask for; how many segments each chunk becomes; where they go) joined by scans, so the
// result is sptrsv::fusion_segments's, slot for slot. Row statistics: per-block partial sums added
// on the host in block order, so they do not depend on timing.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "kernels/sptrsv/sptrsv_device_scratch.cuh"

namespace hetsparse::kernels::device_analysis {
namespace {

constexpr unsigned kThreads = 256;
constexpr index_t kChunk = 32;  // YuenyeungSpTRSV's warp of rows

unsigned blocks_for(std::int64_t threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

struct PositionRows {
  index_t n;
  const index_t* ptr;
  bool reversed;
  SplitRule split;
  __device__ std::int64_t entries(index_t start, index_t end) const {
    return reversed ? ptr[n - start] - ptr[n - end] : ptr[end] - ptr[start];
  }
};

// Walks the positions of a heavy chunk as the host does: visit(position, slot, parts) for a split
// row (slot = its first partial slot), visit(position, 0, 1) for a whole warp-level row. `requested`
// enters as the slots asked for by earlier chunks' hub rows.
template <typename Visit>
__device__ void walk_heavy_chunk(const PositionRows& r, index_t start, index_t end, std::int64_t requested,
                                 Visit&& visit) {
  for (index_t position = start; position < end; ++position) {
    const int parts = r.split.parts(r.entries(position, position + 1) - 1);
    const auto slot = static_cast<int>(requested);
    requested += parts;
    if (parts > 0 && requested <= SegmentPart::kSlots) {
      visit(position, slot, parts);
    } else {
      visit(position, 0, 1);
    }
  }
}

__global__ void chunk_kernel(PositionRows r, index_t chunks, double threshold, unsigned char* heavy,
                             std::int64_t* slots_asked) {
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  const auto start = static_cast<index_t>(c * kChunk), end = min(r.n, start + kChunk);
  const bool h = static_cast<double>(r.entries(start, end)) >= threshold * static_cast<double>(end - start);
  std::int64_t asked = 0;
  if (h) {
    for (index_t position = start; position < end; ++position)
      asked += r.split.parts(r.entries(position, position + 1) - 1);
  }
  heavy[c] = h ? 1 : 0;
  slots_asked[c] = asked;
}

__global__ void count_kernel(PositionRows r, index_t chunks, const unsigned char* heavy, const std::int64_t* slot_base,
                             std::int64_t* counts) {
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  const auto start = static_cast<index_t>(c * kChunk), end = min(r.n, start + kChunk);
  std::int64_t count = 0;
  if (heavy[c] != 0) {
    walk_heavy_chunk(r, start, end, slot_base[c], [&](index_t, int, int parts) { count += parts; });
  } else {
    count = 1;
  }
  counts[c] = count;
}

__global__ void write_kernel(PositionRows r, index_t chunks, const unsigned char* heavy, const std::int64_t* slot_base,
                             const std::int64_t* segment_end, index_t* segments) {
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  const std::int64_t total = segment_end[chunks - 1], base = c == 0 ? 0 : segment_end[c - 1];
  index_t* bounds = segments + 1 + base;
  index_t* codes = segments + total + 1 + base;
  if (c == 0) segments[0] = 0;
  const auto start = static_cast<index_t>(c * kChunk), end = min(r.n, start + kChunk);
  if (heavy[c] == 0) {
    bounds[0] = end;
    codes[0] = 0;
    return;
  }
  int j = 0;
  walk_heavy_chunk(r, start, end, slot_base[c], [&](index_t position, int slot, int parts) {
    for (int q = 0; q < parts; ++q, ++j) {
      bounds[j] = q + 1 < parts ? position : position + 1;
      codes[j] = parts == 1 ? 0 : SegmentPart::encode(slot, q, parts);  // a row of one part is whole
    }
  });
}

constexpr unsigned kStatisticsBlocks = 512;

struct RowSums {
  unsigned long long length_squares;
  long long longest;
  double inverse_distance;
};

__global__ void row_sums_kernel(index_t n, bool upper, const index_t* rowptr, const index_t* colind, RowSums* partial) {
  __shared__ RowSums shared[kThreads];
  RowSums mine{0, 0, 0.0};
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const index_t begin = rowptr[i], end = rowptr[i + 1];
    const long long length = end - begin;
    mine.length_squares += static_cast<unsigned long long>(length * length);
    mine.longest = max(mine.longest, length);
    if (length > 1) {
      const index_t nearest = upper ? colind[begin + 1] : colind[end - 2];
      mine.inverse_distance += 1.0 / fabs(static_cast<double>(i) - static_cast<double>(nearest));
    }
  }
  shared[threadIdx.x] = mine;
  __syncthreads();
  for (unsigned half = kThreads / 2; half > 0; half /= 2) {  // a fixed tree: the same sum every run
    if (threadIdx.x < half) {
      RowSums& a = shared[threadIdx.x];
      const RowSums& b = shared[threadIdx.x + half];
      a.length_squares += b.length_squares;
      a.longest = max(a.longest, b.longest);
      a.inverse_distance += b.inverse_distance;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = shared[0];
}

__global__ void column_count_kernel(std::int64_t nnz, const index_t* colind, int* count) {
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < nnz;
       p += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    atomicAdd(count + colind[p], 1);
  }
}

}  // namespace

index_t* fusion_segments_cuda(cudaStream_t stream, index_t n, const index_t* position_rowptr, bool reversed,
                              double threshold, const SplitRule& split, index_t& count) {
  const PositionRows r{n, position_rowptr, reversed, split};
  const index_t chunks = (n + kChunk - 1) / kChunk;
  Scratch<unsigned char> heavy(chunks, stream);
  Scratch<std::int64_t> asked(chunks, stream), slot_base(chunks, stream), counts(chunks, stream),
      segment_end(chunks, stream);
  chunk_kernel<<<blocks_for(chunks), kThreads, 0, stream>>>(r, chunks, threshold, heavy.get(), asked.get());
  check_cuda(cudaGetLastError(), "chunk_kernel launch in fusion_segments_cuda");
  run_cub("cub::DeviceScan::ExclusiveSum in fusion_segments_cuda", stream, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, asked.get(), slot_base.get(), chunks, stream);
  });
  count_kernel<<<blocks_for(chunks), kThreads, 0, stream>>>(r, chunks, heavy.get(), slot_base.get(), counts.get());
  check_cuda(cudaGetLastError(), "count_kernel launch in fusion_segments_cuda");
  run_cub("cub::DeviceScan::InclusiveSum in fusion_segments_cuda", stream, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, counts.get(), segment_end.get(), chunks, stream);
  });
  const std::int64_t total = download(stream, segment_end.get() + chunks - 1, 1)[0];
  void* segments = pool_allocate((2 * static_cast<std::size_t>(total) + 1) * sizeof(index_t), stream);
  write_kernel<<<blocks_for(chunks), kThreads, 0, stream>>>(r, chunks, heavy.get(), slot_base.get(), segment_end.get(),
                                                            static_cast<index_t*>(segments));
  const cudaError_t launched = cudaGetLastError();
  if (launched != cudaSuccess) cudaFreeAsync(segments, stream);
  check_cuda(launched, "write_kernel launch in fusion_segments_cuda");
  count = static_cast<index_t>(total);
  return static_cast<index_t*>(segments);
}

RowStatistics row_statistics_cuda(cudaStream_t stream, const TriangularDeviceView& t, std::int64_t nnz) {
  RowStatistics s;
  if (t.n == 0) return s;
  Scratch<RowSums> partial(kStatisticsBlocks, stream);
  row_sums_kernel<<<kStatisticsBlocks, kThreads, 0, stream>>>(t.n, t.upper, t.rowptr, t.colind, partial.get());
  check_cuda(cudaGetLastError(), "row_sums_kernel launch in row_statistics_cuda");
  Scratch<int> columns(static_cast<std::size_t>(t.n), stream), longest_column(1, stream);
  check_cuda(cudaMemsetAsync(columns.get(), 0, static_cast<std::size_t>(t.n) * sizeof(int), stream),
             "cudaMemsetAsync in row_statistics_cuda");
  s.nnz = nnz;
  column_count_kernel<<<4 * kStatisticsBlocks, kThreads, 0, stream>>>(s.nnz, t.colind, columns.get());
  check_cuda(cudaGetLastError(), "column_count_kernel launch in row_statistics_cuda");
  run_cub("cub::DeviceReduce::Max in row_statistics_cuda", stream, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceReduce::Max(temp, bytes, columns.get(), longest_column.get(), t.n, stream);
  });
  s.longest_column = longest_column.download()[0];
  unsigned long long squares = 0;
  for (const RowSums& p : partial.download()) {
    squares += p.length_squares;
    s.longest_row = std::max<std::int64_t>(s.longest_row, p.longest);
    s.inverse_distance_sum += p.inverse_distance;
  }
  // sum (len - mean)^2 = sum len^2 - nnz^2 / n, from exact integer sums.
  const long double entries = static_cast<long double>(nnz);
  s.row_length_squares =
      static_cast<double>(static_cast<long double>(squares) - entries * entries / static_cast<long double>(t.n));
  return s;
}

}  // namespace hetsparse::kernels::device_analysis
