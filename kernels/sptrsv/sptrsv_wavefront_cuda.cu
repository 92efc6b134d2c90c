// WavefrontSolver (see sptrsv_wavefront.hpp): the pack by position, and the persistent solve kernel
// whose x words are their own ready flags.
#include <cub/device/device_scan.cuh>
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_allocations_cuda.hpp"
#include "kernels/sptrsv/sptrsv_device_scratch.cuh"
#include "kernels/sptrsv/sptrsv_position_row.cuh"
#include "kernels/sptrsv/sptrsv_wavefront.hpp"

namespace hetsparse::kernels {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kWarp = 32;
// Every bit set: a NaN that no arithmetic produces (a NaN result is a canonical quiet NaN), and what a
// byte-wise memset of 0xff writes. A computed x with these bits is stored as kQuietNaN instead.
constexpr unsigned long long kPending = ~0ull;
constexpr unsigned long long kQuietNaN = 0x7ff8000000000000ull;
// The solver's device state words: the two claim counters (one per position buffer), the blocks of
// the running solve that have finished, and which buffer the next solve uses.
enum StateWord { kCounter0 = 0, kCounter1 = 1, kBlocksDone = 2, kParity = 3, kStateWords = 4 };

struct Packed {
  index_t n;
  const index_t* __restrict__ level_rows;  // position -> row
  const double* __restrict__ diagonal;     // by position
  const index_t* __restrict__ deps;        // slot k of position p at k * n + p: a position, or -1
  const double* __restrict__ values;       // the entry of that slot (0 for an unused one)
  // A row's entries past the slots, by position (null when none has more): CSR by position.
  const std::int64_t* __restrict__ extra_ptr;
  const index_t* __restrict__ extra_deps;
  const double* __restrict__ extra_values;
};

unsigned blocks_for(index_t n) {
  return static_cast<unsigned>((static_cast<std::int64_t>(n) + kThreads - 1) / kThreads);
}

__global__ void position_of_kernel(index_t n, const index_t* __restrict__ level_rows, index_t* position_of) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (p < n) position_of[level_rows[p]] = static_cast<index_t>(p);
}

struct PackInput {
  index_t n;
  bool upper;
  const index_t* __restrict__ level_rows;
  const index_t* __restrict__ rowptr;  // indexed by position when by_position, else by row
  const index_t* __restrict__ colind;
  const double* __restrict__ values;
  bool by_position;
  const index_t* __restrict__ position_of;
  int width;
};

// One thread per position: the first `width` off-diagonals into the slots, how many more into
// extra_count[p] (the overflow CSR's lengths); a row longer than `longest` counts in *overflow (refused).
__global__ void pack_kernel(PackInput in, index_t longest, double* diagonal, index_t* deps, double* values,
                            std::int64_t* extra_count, unsigned* overflow) {
  const std::int64_t pp = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (pp >= in.n) return;
  const auto p = static_cast<index_t>(pp);
  const auto [off_begin, off_end, diagonal_at] = position_row(p, in.upper, in.by_position, in.level_rows, in.rowptr);
  diagonal[p] = in.values[diagonal_at];
  if (off_end - off_begin > longest) atomicAdd(overflow, 1u);
  extra_count[p] = off_end - off_begin > in.width ? off_end - off_begin - in.width : 0;
  const auto n = static_cast<std::size_t>(in.n);
  for (int k = 0; k < in.width; ++k) {
    const std::size_t slot = static_cast<std::size_t>(k) * n + static_cast<std::size_t>(p);
    const index_t e = off_begin + k;
    deps[slot] = e < off_end ? in.position_of[in.colind[e]] : -1;
    values[slot] = e < off_end ? in.values[e] : 0.0;
  }
}

// The entries past the slots into the overflow CSR (positions with some only).
__global__ void pack_extra_kernel(PackInput in, const std::int64_t* extra_ptr, index_t* extra_deps, double* extra_values) {
  const std::int64_t pp = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (pp >= in.n) return;
  const auto p = static_cast<index_t>(pp);
  std::int64_t out = extra_ptr[p];
  if (out == extra_ptr[p + 1]) return;
  const PositionRow row = position_row(p, in.upper, in.by_position, in.level_rows, in.rowptr);
  for (index_t e = row.off_begin + in.width, off_end = row.off_end; e < off_end; ++e, ++out) {
    extra_deps[out] = in.position_of[in.colind[e]];
    extra_values[out] = in.values[e];
  }
}

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

// The sum over position p's entries past the slots, kChunk at a time, each chunk's pending words
// polled together as the slots' are; in entry order (deterministic).
constexpr int kChunk = 8;
__device__ double extra_sum(const Packed& m, index_t p, const unsigned long long* now, int sleep_ns) {
  double sum = 0.0;
  const std::int64_t end = m.extra_ptr[p + 1];
  for (std::int64_t e = m.extra_ptr[p]; e < end; e += kChunk) {
    index_t dep[kChunk];
    double coefficient[kChunk];
    unsigned long long word[kChunk];
#pragma unroll
    for (int k = 0; k < kChunk; ++k) {
      const bool in = e + k < end;
      dep[k] = in ? __ldg(m.extra_deps + e + k) : -1;
      coefficient[k] = in ? __ldg(m.extra_values + e + k) : 0.0;
      word[k] = dep[k] >= 0 ? poll(now + dep[k]) : 0ull;
    }
    sum += wait_and_sum(word, dep, coefficient, now, sleep_ns);
  }
  return sum;
}

// Position p: its row's entries and b first (none depends on another row), then every dependency's
// word until none is pending (wait_and_sum), the overflow's likewise, and x published: the pending
// pattern into the other buffer for the next solve, the word, then x[row].
template <int Width>
__device__ __forceinline__ void solve_position(const Packed& m, index_t p, const double* b, double* x,
                                               unsigned long long* now, unsigned long long* next, int sleep_ns) {
  const auto n = static_cast<std::size_t>(m.n);
  index_t dep[Width];
  double coefficient[Width];
#pragma unroll
  for (int k = 0; k < Width; ++k) {
    dep[k] = __ldg(m.deps + static_cast<std::size_t>(k) * n + p);
    coefficient[k] = __ldg(m.values + static_cast<std::size_t>(k) * n + p);
  }
  const index_t row = __ldg(m.level_rows + p);
  const double diagonal = __ldg(m.diagonal + p);
  const double rhs = b[row];  // plain load: b may be x, whose row is written below only
  unsigned long long word[Width];
#pragma unroll
  for (int k = 0; k < Width; ++k) word[k] = dep[k] >= 0 ? poll(now + dep[k]) : 0ull;  // 0ull is +0.0
  double sum = wait_and_sum(word, dep, coefficient, now, sleep_ns);
  if (m.extra_ptr != nullptr) sum += extra_sum(m, p, now, sleep_ns);
  auto bits = static_cast<unsigned long long>(__double_as_longlong((rhs - sum) / diagonal));
  if (bits == kPending) bits = kQuietNaN;
  next[p] = kPending;
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(now[p]).store(bits, cuda::memory_order_relaxed);
  x[row] = __longlong_as_double(static_cast<long long>(bits));
}

// Persistent warps claim 32 positions at a time in level order. The parity is read before the block
// counts itself done and flipped by the last block out, so every block of a solve reads the same one.
template <int Width>
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
    const std::int64_t first = static_cast<std::int64_t>(chunk) * kWarp;
    if (first >= m.n) break;  // warp-uniform
    const std::int64_t p = first + lane;
    if (p < m.n) solve_position<Width>(m, static_cast<index_t>(p), b, x, now, next, sleep_ns);
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  if (atomicAdd(state + kBlocksDone, 1u) == gridDim.x - 1) {
    state[kBlocksDone] = 0;
    state[kParity] = 1u - parity;
  }
}

template <int Width>
void launch(cudaStream_t stream, unsigned blocks, const Packed& m, const double* b, double* x,
            unsigned long long* positions, unsigned* state, int sleep_ns) {
  wavefront_kernel<Width><<<blocks, kThreads, 0, stream>>>(m, b, x, positions, state, sleep_ns);
}

// f(std::integral_constant<int, W>) for the pack width W.
template <class F>
void with_width(int width, F&& f) {
  switch (width) {
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 6: return f(std::integral_constant<int, 6>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 12: return f(std::integral_constant<int, 12>{});
    case 16: return f(std::integral_constant<int, 16>{});
    default: throw InvalidArgument("wavefront: no kernel for pack width " + std::to_string(width));
  }
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
    : n_(device.n), width_(wavefront_width(std::min<index_t>(longest, WavefrontOptions::kMaxWidth))), options_(options),
      arrays_(std::make_unique<DeviceArrays>()) {
  if (n_ == 0) return;
  if (device.level_rows == nullptr) throw InvalidArgument("WavefrontSolver: the device view carries no level schedule");
  DeviceArrays& a = *arrays_;
  const auto n = static_cast<std::size_t>(n_), w = static_cast<std::size_t>(width_);
  double* diagonal = a.memory.allocate<double>(n);
  auto* deps = a.memory.allocate<index_t>(w * n);
  double* values = a.memory.allocate<double>(w * n);
  auto* position_of = a.memory.allocate<index_t>(n);
  auto* extra_ptr = a.memory.allocate<std::int64_t>(n + 1);
  a.positions = a.memory.allocate<unsigned long long>(2 * n);
  a.state = a.memory.allocate<unsigned>(kStateWords + 1);  // + the pack's overflow count
  check_cuda(cudaMemsetAsync(a.positions, 0xff, 2 * n * sizeof(unsigned long long), stream),
             "cudaMemsetAsync in WavefrontSolver");
  check_cuda(cudaMemsetAsync(a.state, 0, (kStateWords + 1) * sizeof(unsigned), stream),
             "cudaMemsetAsync in WavefrontSolver");
  position_of_kernel<<<blocks_for(n_), kThreads, 0, stream>>>(n_, device.level_rows, position_of);
  const bool copy = device.level_rowptr != nullptr;
  const PackInput in{n_,
                     device.upper,
                     device.level_rows,
                     copy ? device.level_rowptr : device.rowptr,
                     copy ? device.level_colind : device.colind,
                     copy ? device.level_values : device.values,
                     copy,
                     position_of,
                     width_};
  pack_kernel<<<blocks_for(n_), kThreads, 0, stream>>>(in, longest, diagonal, deps, values, extra_ptr,
                                                       a.state + kStateWords);
  check_cuda(cudaGetLastError(), "pack_kernel launch in WavefrontSolver");
  device_analysis::run_cub("cub::DeviceScan::ExclusiveSum in WavefrontSolver", stream, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, extra_ptr, extra_ptr, n + 1, stream);
  });
  std::int64_t extra = 0;
  check_cuda(cudaMemcpyAsync(&extra, extra_ptr + n, sizeof extra, cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync in WavefrontSolver");
  unsigned overflow = 0;
  check_cuda(cudaMemcpyAsync(&overflow, a.state + kStateWords, sizeof overflow, cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync in WavefrontSolver");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in WavefrontSolver");
  if (overflow > 0) {
    throw InvalidArgument("WavefrontSolver: " + std::to_string(overflow) + " rows have more than " +
                          std::to_string(longest) + " off-diagonals, the longest the caller gave");
  }
  a.packed = Packed{n_, device.level_rows, diagonal, deps, values, nullptr, nullptr, nullptr};
  if (extra > 0) {
    auto* extra_deps = a.memory.allocate<index_t>(static_cast<std::size_t>(extra));
    auto* extra_values = a.memory.allocate<double>(static_cast<std::size_t>(extra));
    pack_extra_kernel<<<blocks_for(n_), kThreads, 0, stream>>>(in, extra_ptr, extra_deps, extra_values);
    check_cuda(cudaGetLastError(), "pack_extra_kernel launch in WavefrontSolver");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in WavefrontSolver");
    a.packed.extra_ptr = extra_ptr;
    a.packed.extra_deps = extra_deps;
    a.packed.extra_values = extra_values;
  }

  int dev = 0, sms = 0, fit = 0;
  check_cuda(cudaGetDevice(&dev), "cudaGetDevice in WavefrontSolver");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute in WavefrontSolver");
  with_width(width_, [&](auto width) {
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, wavefront_kernel<decltype(width)::value>, kThreads, 0),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor in WavefrontSolver");
  });
  index_t fullest = 0;
  for (index_t l = 0; device.host_level_ptr != nullptr && l < device.num_levels; ++l)
    fullest = std::max(fullest, device.host_level_ptr[l + 1] - device.host_level_ptr[l]);
  if (device.host_level_ptr == nullptr) fullest = n_;
  const int per_sm = wavefront_blocks_per_sm(options, fullest, fit, sms);
  const std::int64_t chunks = (static_cast<std::int64_t>(n_) + kWarp - 1) / kWarp;
  const std::int64_t needed = (chunks + kThreads / kWarp - 1) / (kThreads / kWarp);
  blocks_ = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(std::int64_t{sms} * per_sm, needed)));
}

WavefrontSolver::~WavefrontSolver() = default;

void WavefrontSolver::solve(cudaStream_t stream, const double* b, double* x) const {
  if (n_ == 0) return;
  const DeviceArrays& a = *arrays_;
  with_width(width_, [&](auto width) {
    launch<decltype(width)::value>(stream, static_cast<unsigned>(blocks_), a.packed, b, x, a.positions, a.state,
                                   options_.sleep_ns);
  });
  check_cuda(cudaGetLastError(), "wavefront_kernel launch in WavefrontSolver::solve");
}

}  // namespace hetsparse::kernels
