// WavefrontSolver (see sptrsv_wavefront.hpp): the persistent solve kernel whose x words are their own
// ready flags, over the rows wavefront::pack laid out by position.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_allocations_cuda.hpp"
#include "kernels/sptrsv/sptrsv_wavefront.hpp"
#include "kernels/sptrsv/sptrsv_wavefront_pack.cuh"

namespace hetsparse::kernels {
namespace {

using wavefront::Packed;

constexpr int kThreads = 256;
constexpr unsigned kWarp = 32;
// Every bit set: a NaN that no arithmetic produces (a NaN result is a canonical quiet NaN), and what a
// byte-wise memset of 0xff writes. A computed x with these bits is stored as kQuietNaN instead.
constexpr unsigned long long kPending = ~0ull;
constexpr unsigned long long kQuietNaN = 0x7ff8000000000000ull;
// The solver's device state words: the two claim counters (one per position buffer), the blocks of
// the running solve that have finished, and which buffer the next solve uses.
enum StateWord { kCounter0 = 0, kCounter1 = 1, kBlocksDone = 2, kParity = 3, kStateWords = 4 };

__device__ __forceinline__ unsigned long long poll(const unsigned long long* word) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*const_cast<unsigned long long*>(word))
      .load(cuda::memory_order_relaxed);
}

// Polls every word still pending at once until none is (waiting on one word at a time would cost a
// round trip to L2 for each dependency that was pending at the first look), then the sum of
// coefficient x word in slot order (deterministic whatever the timing).
template <int N>
__device__ __forceinline__ double wait_and_sum(unsigned long long (&word)[N], const index_t (&dep)[N],
                                               const double (&coefficient)[N], const unsigned long long* now,
                                               int sleep_ns) {
  for (;;) {
    bool pending = false;
#pragma unroll
    for (int k = 0; k < N; ++k) pending |= word[k] == kPending;
    if (!pending) break;
    if (sleep_ns > 0) __nanosleep(static_cast<unsigned>(sleep_ns));
#pragma unroll
    for (int k = 0; k < N; ++k) {
      if (word[k] == kPending) word[k] = poll(now + dep[k]);
    }
  }
  double sum = 0.0;
#pragma unroll
  for (int k = 0; k < N; ++k) sum += coefficient[k] * __longlong_as_double(static_cast<long long>(word[k]));
  return sum;
}

// The sum over entries [begin, end) of the overflow CSR from `first` on, every `stride`-th, kChunk at a
// time, each chunk's pending words polled together as the slots' are; in entry order (deterministic).
constexpr int kChunk = 8;
__device__ double extra_sum(const Packed& m, std::int64_t first, std::int64_t end, int stride,
                            const unsigned long long* now, int sleep_ns) {
  double sum = 0.0;
  for (std::int64_t e = first; e < end; e += std::int64_t{kChunk} * stride) {
    index_t dep[kChunk];
    double coefficient[kChunk];
    unsigned long long word[kChunk];
#pragma unroll
    for (int k = 0; k < kChunk; ++k) {
      const std::int64_t at = e + std::int64_t{k} * stride;
      const bool in = at < end;
      dep[k] = in ? __ldg(m.extra_deps + at) : -1;
      coefficient[k] = in ? __ldg(m.extra_values + at) : 0.0;
      word[k] = dep[k] >= 0 ? poll(now + dep[k]) : 0ull;  // 0ull is +0.0
    }
    sum += wait_and_sum(word, dep, coefficient, now, sleep_ns);
  }
  return sum;
}

// What a position needs besides its dependencies' x, loaded before it waits on them (after, they
// would add two dependent loads, row then b, to every step of the chain).
struct Own {
  index_t row;
  double rhs, diagonal;
};

__device__ __forceinline__ Own own_of(const Packed& m, index_t p, const double* b) {
  const index_t row = __ldg(m.level_rows + p);
  return Own{row, b[row], __ldg(m.diagonal + p)};  // plain load of b: b may be x, whose row only p writes
}

// x of position p from the sum of its off-diagonal terms, published: the pending pattern into the
// other buffer for the next solve, the word, then x[row].
__device__ __forceinline__ void publish(index_t p, const Own& own, double sum, double* x, unsigned long long* now,
                                        unsigned long long* next) {
  auto bits = static_cast<unsigned long long>(__double_as_longlong((own.rhs - sum) / own.diagonal));
  if (bits == kPending) bits = kQuietNaN;
  next[p] = kPending;
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(now[p]).store(bits, cuda::memory_order_relaxed);
  x[own.row] = __longlong_as_double(static_cast<long long>(bits));
}

// A thread row: its slots first (none depends on another row), every dependency's word until none is
// pending (wait_and_sum), then the overflow's likewise.
template <int Width>
__device__ __forceinline__ void solve_position(const Packed& m, index_t p, const double* b, double* x,
                                               unsigned long long* now, unsigned long long* next, int sleep_ns) {
  const auto n = static_cast<std::size_t>(m.n);
  index_t dep[Width];
  double coefficient[Width];
  unsigned long long word[Width];
#pragma unroll
  for (int k = 0; k < Width; ++k) {
    dep[k] = __ldg(m.deps + static_cast<std::size_t>(k) * n + p);
    coefficient[k] = __ldg(m.values + static_cast<std::size_t>(k) * n + p);
    word[k] = dep[k] >= 0 ? poll(now + dep[k]) : 0ull;
  }
  const Own own = own_of(m, p, b);
  double sum = wait_and_sum(word, dep, coefficient, now, sleep_ns);
  if (m.extra_ptr != nullptr) sum += extra_sum(m, m.extra_ptr[p], m.extra_ptr[p + 1], 1, now, sleep_ns);
  publish(p, own, sum, x, now, next);
}

// A warp row: its entries (all in the overflow CSR) across the lanes, 32 x kChunk in flight, the
// lanes' sums added in a fixed tree, lane 0 publishes. Called by the whole warp.
__device__ __forceinline__ void solve_warp_row(const Packed& m, index_t p, unsigned lane, const double* b, double* x,
                                               unsigned long long* now, unsigned long long* next, int sleep_ns) {
  const Own own = own_of(m, p, b);
  double sum = extra_sum(m, m.extra_ptr[p] + lane, m.extra_ptr[p + 1], kWarp, now, sleep_ns);
#pragma unroll
  for (unsigned offset = kWarp / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0) publish(p, own, sum, x, now, next);
}

// Persistent warps claim chunks in level order: 32 positions at a time, or (Chunked) the chunk
// table's runs and warp rows. The parity is read before the block counts itself done and flipped by
// the last block out, so every block of a solve reads the same one.
template <int Width, bool Chunked>
__global__ void __launch_bounds__(kThreads) wavefront_kernel(Packed m, const double* b, double* x,
                                                             unsigned long long* positions, unsigned* state,
                                                             int sleep_ns) {
  const unsigned parity = state[kParity];
  const auto n = static_cast<std::size_t>(m.n);
  unsigned long long* now = positions + parity * n;
  unsigned long long* next = positions + (1u - parity) * n;
  if (blockIdx.x == 0 && threadIdx.x == 0) state[kCounter0 + (1u - parity)] = 0;  // the next solve's counter
  const unsigned lane = threadIdx.x % kWarp;
  for (;;) {
    unsigned chunk = 0;
    if (lane == 0) chunk = atomicAdd(state + kCounter0 + parity, 1u);
    chunk = __shfl_sync(0xffffffffu, chunk, 0);
    std::int64_t first = 0, end = 0;
    if constexpr (Chunked) {
      if (chunk >= m.chunks) break;  // warp-uniform
      const std::uint32_t start = __ldg(m.chunk_start + chunk);
      first = start & ~wavefront::kWarpRowBit;
      end = __ldg(m.chunk_start + chunk + 1) & ~wavefront::kWarpRowBit;
      if ((start & wavefront::kWarpRowBit) != 0u) {
        solve_warp_row(m, static_cast<index_t>(first), lane, b, x, now, next, sleep_ns);
        continue;
      }
    } else {
      first = static_cast<std::int64_t>(chunk) * kWarp;
      if (first >= m.n) break;  // warp-uniform
      end = first + kWarp;
    }
    const std::int64_t p = first + lane;
    if (p < end && p < m.n) solve_position<Width>(m, static_cast<index_t>(p), b, x, now, next, sleep_ns);
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  if (atomicAdd(state + kBlocksDone, 1u) == gridDim.x - 1) {
    state[kBlocksDone] = 0;
    state[kParity] = 1u - parity;
  }
}

// f(std::integral_constant<int, W>, std::bool_constant<C>) for the pack width W and a chunk table or not.
template <class F>
void with_kernel(int width, bool chunked, F&& f) {
  auto widths = [&](auto c) {
    switch (width) {
      case 2: return f(std::integral_constant<int, 2>{}, c);
      case 3: return f(std::integral_constant<int, 3>{}, c);
      case 4: return f(std::integral_constant<int, 4>{}, c);
      case 6: return f(std::integral_constant<int, 6>{}, c);
      case 8: return f(std::integral_constant<int, 8>{}, c);
      case 12: return f(std::integral_constant<int, 12>{}, c);
      case 16: return f(std::integral_constant<int, 16>{}, c);
      default: throw InvalidArgument("wavefront: no kernel for pack width " + std::to_string(width));
    }
  };
  if (chunked) return widths(std::true_type{});
  return widths(std::false_type{});
}

}  // namespace

struct WavefrontSolver::DeviceArrays {
  DeviceAllocations memory{"WavefrontSolver"};
  Packed packed{};
  unsigned long long* positions = nullptr;  // two buffers of n words
  unsigned* state = nullptr;                // kStateWords
};

WavefrontSolver::WavefrontSolver(cudaStream_t stream, const TriangularDeviceView& device, index_t longest,
                                 const WavefrontOptions& options)
    : n_(device.n), options_(options), arrays_(std::make_unique<DeviceArrays>()) {
  options_.warp_row = wavefront_warp_row(options, device.n, device.num_levels);
  width_ = wavefront_width(wavefront_slotted_longest(longest, options_));
  if (n_ == 0) return;
  if (device.level_rows == nullptr) throw InvalidArgument("WavefrontSolver: the device view carries no level schedule");
  DeviceArrays& a = *arrays_;
  const auto n = static_cast<std::size_t>(n_);
  a.positions = a.memory.allocate<unsigned long long>(2 * n);
  a.state = a.memory.allocate<unsigned>(kStateWords);
  check_cuda(cudaMemsetAsync(a.positions, 0xff, 2 * n * sizeof(unsigned long long), stream),
             "cudaMemsetAsync in WavefrontSolver");
  check_cuda(cudaMemsetAsync(a.state, 0, kStateWords * sizeof(unsigned), stream), "cudaMemsetAsync in WavefrontSolver");
  wavefront::PackShape shape;
  shape.longest = longest;
  shape.width = width_;
  shape.warp_row = options_.warp_row;
  a.packed = wavefront::pack(stream, device, shape, a.memory);
  warp_rows_ = a.packed.chunk_start != nullptr;

  int dev = 0, sms = 0, fit = 0;
  check_cuda(cudaGetDevice(&dev), "cudaGetDevice in WavefrontSolver");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute in WavefrontSolver");
  with_kernel(width_, warp_rows_, [&](auto width, auto chunked) {
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                   &fit, wavefront_kernel<decltype(width)::value, decltype(chunked)::value>, kThreads, 0),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor in WavefrontSolver");
  });
  index_t fullest = 0;
  for (index_t l = 0; device.host_level_ptr != nullptr && l < device.num_levels; ++l)
    fullest = std::max(fullest, device.host_level_ptr[l + 1] - device.host_level_ptr[l]);
  if (device.host_level_ptr == nullptr) fullest = n_;
  const int per_sm = wavefront_blocks_per_sm(options, fullest, fit, sms);
  const std::int64_t chunks = warp_rows_ ? a.packed.chunks : (static_cast<std::int64_t>(n_) + kWarp - 1) / kWarp;
  const std::int64_t needed = (chunks + kThreads / kWarp - 1) / (kThreads / kWarp);
  blocks_ = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(std::int64_t{sms} * per_sm, needed)));
}

WavefrontSolver::~WavefrontSolver() = default;

void WavefrontSolver::solve(cudaStream_t stream, const double* b, double* x) const {
  if (n_ == 0) return;
  const DeviceArrays& a = *arrays_;
  with_kernel(width_, warp_rows_, [&](auto width, auto chunked) {
    wavefront_kernel<decltype(width)::value, decltype(chunked)::value>
        <<<static_cast<unsigned>(blocks_), kThreads, 0, stream>>>(a.packed, b, x, a.positions, a.state, options_.sleep_ns);
  });
  check_cuda(cudaGetLastError(), "wavefront_kernel launch in WavefrontSolver::solve");
}

}  // namespace hetsparse::kernels
