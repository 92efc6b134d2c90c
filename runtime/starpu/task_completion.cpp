// Task completion by a counter the tasks' callbacks decrement (see task_completion.hpp).
#include "runtime/starpu/task_completion.hpp"

#include <starpu.h>

#include <chrono>
#include <thread>

namespace hetsparse::rt {
namespace {

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

}  // namespace

void count_task_done(void* counter) { static_cast<std::atomic<long>*>(counter)->fetch_sub(1, std::memory_order_release); }

void spin_until_done(const std::atomic<long>& in_flight) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto pause_until = start + std::chrono::microseconds(kPauseMicroseconds);
  const auto give_up = start + std::chrono::microseconds(kSpinMicroseconds);
  // StarPU's own count drops a few hundred ns after the callback (its barrier, under a mutex the
  // workers also take): it is read only once ours is 0, and between pauses.
  for (unsigned spin = 0;; ++spin) {
    const bool ours_done = in_flight.load(std::memory_order_acquire) <= 0;
    if (ours_done && starpu_task_nsubmitted() == 0) return;
    if (spin % 16 != 15) {
      relax();
      continue;
    }
    const auto now = clock::now();
    if (now > give_up) return;
    if (now > pause_until) std::this_thread::yield();
  }
}

}  // namespace hetsparse::rt
