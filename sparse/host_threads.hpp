// Host threads for the analysis phases (ordering, SpTRSV analysis, assembly): how many, and on which
// CPUs. A runtime may pin the application thread to one core (StarPU's STARPU_MAIN_THREAD_BIND,
// which hetsparse sets on large nodes), and threads started from it inherit that single core: they
// would all share it. The CPUs the process was given at startup (taskset, cgroups) are recorded
// before main() runs, so helpers can count them and put their threads back on them.
#pragma once
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace hetsparse {

// requested > 0 as is; 0 means one per CPU the process started with (hardware_concurrency() when
// that set is unknown).
int host_thread_count(int requested);

// Lets the calling thread run on every CPU the process started with (no-op when unknown).
void run_on_startup_cpus();

// fn(begin, end) over [0, n) cut into contiguous chunks, one thread each, at most one per startup
// CPU and at least min_chunk items per chunk; on the calling thread when one chunk suffices.
template <typename Fn>
void parallel_chunks(std::size_t n, std::size_t min_chunk, Fn&& fn) {
  const std::size_t most = static_cast<std::size_t>(host_thread_count(0));
  const std::size_t chunks = std::max<std::size_t>(1, std::min(most, n / std::max<std::size_t>(1, min_chunk)));
  if (chunks == 1) {
    fn(std::size_t{0}, n);
    return;
  }
  const std::size_t size = (n + chunks - 1) / chunks;
  std::vector<std::thread> pool;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t begin = std::min(n, c * size), end = std::min(n, begin + size);
    pool.emplace_back([&fn, begin, end] {
      run_on_startup_cpus();
      fn(begin, end);
    });
  }
  for (std::thread& t : pool) t.join();
}

}  // namespace hetsparse
