// How the submitting thread learns that its tasks ended. starpu_task_wait_for_all sleeps on a condition
// variable: after the last task's end the waiter pays a futex wake-up (several µs, a tail of 100+ µs
// after a long wait), which is most of what a small resident solve costs above its kernel
// (docs/benchmarks.md, issue 16). Each task's callback counts it down instead, and the waiter spins
// on that count for a while before it blocks.
#pragma once
#include <atomic>

namespace hetsparse::rt {

// starpu_task::callback_func for a task counted in `*static_cast<std::atomic<long>*>(counter)`.
// StarPU runs it on the worker after the task's data are released and its dependents notified.
void count_task_done(void* counter);

// Returns when `in_flight` is 0 and StarPU counts no submitted task either (so starpu_task_wait_for_all
// returns at once), or after kSpinMicroseconds: spinning with a pause for the first
// kPauseMicroseconds, yielding the core after that (a worker may share it).
constexpr long kPauseMicroseconds = 200;
constexpr long kSpinMicroseconds = 5000;
void spin_until_done(const std::atomic<long>& in_flight);

}  // namespace hetsparse::rt
