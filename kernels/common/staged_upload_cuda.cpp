// StagedUpload (see staged_upload_cuda.hpp): two pinned chunks, filled in turn by a few host threads
// while the previous chunk's copy runs.
#include "kernels/common/staged_upload_cuda.hpp"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "kernels/common/cuda_check.hpp"

namespace hetsparse::kernels {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{16} << 20;
constexpr std::size_t kThreadBytes = std::size_t{2} << 20;  // the least a fill thread is worth starting for

struct Staging {
  std::mutex mutex;
  char* pinned = nullptr;  // 2 chunks, kept for the process
};

Staging& staging() {
  static Staging s;
  return s;
}

int fill_threads() {
  static const int threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency() / 4, 1u, 4u));
  return threads;
}

// fill's elements [first, first + count) into dst, split over the fill threads for large chunks.
void parallel_fill(char* dst, std::size_t first, std::size_t count, std::size_t element_bytes,
                   const StagedUpload::Fill& fill) {
  const auto threads = static_cast<std::size_t>(
      std::max<std::size_t>(1, std::min<std::size_t>(fill_threads(), count * element_bytes / kThreadBytes)));
  const std::size_t part = (count + threads - 1) / threads;
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t) {
    const std::size_t begin = std::min(count, t * part), n = std::min(count, begin + part) - begin;
    if (n > 0) helpers.emplace_back([&, begin, n] { fill(dst + begin * element_bytes, first + begin, n); });
  }
  fill(dst, first, std::min(part, count));
  for (std::thread& h : helpers) h.join();
}

}  // namespace

void copy_elements(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }

StagedUpload::StagedUpload(cudaStream_t stream) : lock_(staging().mutex), stream_(stream) {
  Staging& s = staging();
  if (s.pinned == nullptr) {
    void* p = nullptr;
    check_cuda(cudaHostAlloc(&p, 2 * kChunkBytes, cudaHostAllocPortable), "cudaHostAlloc in StagedUpload");
    s.pinned = static_cast<char*>(p);
  }
  for (cudaEvent_t& e : free_) {
    const cudaError_t made = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    if (made != cudaSuccess) {
      for (cudaEvent_t f : free_)
        if (f != nullptr) cudaEventDestroy(f);
      check_cuda(made, "cudaEventCreate in StagedUpload");
    }
  }
}

StagedUpload::~StagedUpload() {
  cudaStreamSynchronize(stream_);  // no copy may still read the chunks the next upload refills
  for (cudaEvent_t e : free_) cudaEventDestroy(e);
}

void StagedUpload::copy(void* device, std::size_t count, std::size_t element_bytes, const Fill& fill) {
  const std::size_t per_chunk = std::max<std::size_t>(1, kChunkBytes / element_bytes);
  for (std::size_t first = 0; first < count; first += per_chunk) {
    const std::size_t n = std::min(per_chunk, count - first);
    const int slot = next_slot_;
    next_slot_ ^= 1;
    // A slot is refilled once its previous copy has left it (an unrecorded event is complete).
    check_cuda(cudaEventSynchronize(free_[slot]), "cudaEventSynchronize in StagedUpload");
    char* chunk = staging().pinned + static_cast<std::size_t>(slot) * kChunkBytes;
    parallel_fill(chunk, first, n, element_bytes, fill);
    check_cuda(cudaMemcpyAsync(static_cast<char*>(device) + first * element_bytes, chunk, n * element_bytes,
                               cudaMemcpyHostToDevice, stream_),
               "cudaMemcpyAsync in StagedUpload");
    check_cuda(cudaEventRecord(free_[slot], stream_), "cudaEventRecord in StagedUpload");
  }
}

void StagedUpload::finish() { check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize in StagedUpload"); }

}  // namespace hetsparse::kernels
