// Merging partial results on the device: one pass over y per batch of up to kBatch sources (each
// element reads its sources in the given order and is written once), so a pCSC merge of k partials
// reads k vectors and writes y once.
#include <algorithm>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/spmv/spmv_merge.hpp"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kBatch = 16;  // sources per launch: the batch travels as a kernel parameter
constexpr unsigned kThreads = 256;

struct MergeBatch {
  MergeSource source[kBatch];
  unsigned count;
};

__global__ void __launch_bounds__(kThreads) merge_kernel(double* __restrict__ y, std::uint32_t n, double beta,
                                                         MergeBatch batch) {
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * kThreads + threadIdx.x; i < n;
       i += static_cast<std::uint64_t>(gridDim.x) * kThreads) {
    double v = beta == 0.0 ? 0.0 : beta * y[i];
    for (unsigned j = 0; j < batch.count; ++j) {
      const MergeSource& s = batch.source[j];
      if (i >= s.dst && i - s.dst < s.count) v += __ldg(s.data + s.src + (i - s.dst));
    }
    y[i] = v;
  }
}

}  // namespace

void spmv_merge_cuda(cudaStream_t stream, double* y, std::uint32_t n, double beta, const MergeSource* sources,
                     std::uint32_t count) {
  for (std::uint32_t j = 0; j < count; ++j)
    if (sources[j].dst > n || sources[j].count > n - sources[j].dst)
      throw InvalidArgument("spmv_merge_cuda: source " + std::to_string(j) + " runs past the " + std::to_string(n) +
                            " entries of y");
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<std::uint64_t>((n + kThreads - 1) / kThreads, 65535u * 8));
  std::uint32_t done = 0;
  do {  // at least one launch: beta applies even without sources
    MergeBatch batch{};
    batch.count = std::min<std::uint32_t>(kBatch, count - done);
    std::copy(sources + done, sources + done + batch.count, batch.source);
    merge_kernel<<<blocks, kThreads, 0, stream>>>(y, n, done == 0 ? beta : 1.0, batch);
    check_cuda(cudaGetLastError(), "merge_kernel launch in spmv_merge_cuda");
    done += batch.count;
  } while (done < count);
}

}  // namespace hetsparse::kernels
