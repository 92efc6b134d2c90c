// Level-scheduled solve on std::threads. The plan is a list of steps in level order; a step is
// either one big level cut into per-thread shares of about equal stored entries, or a run of
// consecutive small levels solved by thread 0 alone (in level order, which is a valid solve order).
// Threads meet at a spinning barrier after each step: with few cores a futex wake-up costs more
// than most levels' work.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "codelets/sptrsv/sptrsv.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {
namespace {

// Sense-reversing barrier: the last thread to arrive flips the phase the others spin on.
class SpinBarrier {
 public:
  explicit SpinBarrier(int count) : count_(count), waiting_(count) {}
  void arrive_and_wait() {
    const unsigned phase = phase_.load(std::memory_order_relaxed);
    if (waiting_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      waiting_.store(count_, std::memory_order_relaxed);
      phase_.store(phase + 1, std::memory_order_release);
      return;
    }
    for (unsigned spins = 0; phase_.load(std::memory_order_acquire) == phase; ++spins) {
      if (spins > 1024) std::this_thread::yield();  // oversubscribed: let the others run
    }
  }

 private:
  const int count_;
  std::atomic<int> waiting_;
  std::atomic<unsigned> phase_{0};
};

// Positions [begin, end) of level_rows; cuts (threads + 1 positions) when the step is shared.
struct Step {
  index_t begin, end;
  std::vector<index_t> cuts;
};

// Cuts positions [begin, end) into `threads` shares of about equal stored entries: a binary search
// in the level-ordered row pointers when the view has them, else a scan of the rows' lengths.
std::vector<index_t> balanced_cuts(const TriangularView& t, index_t begin, index_t end, std::int64_t entries,
                                   int threads) {
  std::vector<index_t> cuts{begin};
  if (t.level_rowptr != nullptr) {
    for (int share = 1; share < threads; ++share) {
      const std::int64_t target = t.level_rowptr[begin] + entries * share / threads;
      cuts.push_back(static_cast<index_t>(std::lower_bound(t.level_rowptr + begin, t.level_rowptr + end, target) -
                                          t.level_rowptr));
    }
  } else {
    std::int64_t done = 0;
    for (index_t pos = begin; pos < end && static_cast<int>(cuts.size()) < threads; ++pos) {
      const index_t row = t.level_rows[pos];
      done += t.rowptr[row + 1] - t.rowptr[row];
      if (done * threads >= entries * static_cast<std::int64_t>(cuts.size())) cuts.push_back(pos + 1);
    }
    while (static_cast<int>(cuts.size()) < threads) cuts.push_back(end);
  }
  cuts.push_back(end);
  return cuts;
}

std::vector<Step> plan_steps(const TriangularView& t, index_t nrhs, int threads, std::int64_t min_entries_per_thread) {
  std::vector<Step> steps;
  const std::int64_t shared_minimum = min_entries_per_thread * threads;
  for (index_t level = 0; level < t.num_levels; ++level) {
    const index_t begin = t.level_ptr[level], end = t.level_ptr[level + 1];
    const std::int64_t entries = t.level_nnz[level];
    if (threads > 1 && entries * nrhs >= shared_minimum && end - begin >= threads) {
      steps.push_back({begin, end, balanced_cuts(t, begin, end, entries, threads)});
    } else if (!steps.empty() && steps.back().cuts.empty()) {
      steps.back().end = end;  // extend the serial run
    } else {
      steps.push_back({begin, end, {}});
    }
  }
  return steps;
}

}  // namespace

void sptrsv_cpu_levels(const TriangularView& t, const double* b, index_t ldb, double* x, index_t ldx,
                       index_t nrhs, int num_threads, std::int64_t min_entries_per_thread) {
  if (num_threads < 1 || min_entries_per_thread < 1) {
    throw InvalidArgument("sptrsv_cpu_levels: num_threads and min_entries_per_thread must be >= 1, got " +
                          std::to_string(num_threads) + " and " + std::to_string(min_entries_per_thread));
  }
  if (t.n > 0 && (t.level_ptr == nullptr || t.level_rows == nullptr || t.level_nnz == nullptr)) {
    throw InvalidArgument("sptrsv_cpu_levels: the view carries no level schedule");
  }
  const std::vector<Step> steps = plan_steps(t, nrhs, num_threads, min_entries_per_thread);
  const bool any_shared = std::any_of(steps.begin(), steps.end(), [](const Step& s) { return !s.cuts.empty(); });
  if (!any_shared) {  // nothing to share: no threads, no barriers
    for (const Step& step : steps) sptrsv_cpu_level(t, step.begin, step.end, b, ldb, x, ldx, nrhs);
    return;
  }

  SpinBarrier barrier(num_threads);
  // Helpers wait for every thread to exist: if one cannot be created, the others must not be left
  // spinning at a barrier that will never fill.
  enum : int { kWait, kRun, kAbort };
  std::atomic<int> state{kWait};
  auto work = [&](int id) {
    int now = state.load(std::memory_order_acquire);
    for (; now == kWait; now = state.load(std::memory_order_acquire)) std::this_thread::yield();
    if (now == kAbort) return;
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const Step& step = steps[s];
      if (!step.cuts.empty()) {
        sptrsv_cpu_level(t, step.cuts[static_cast<std::size_t>(id)], step.cuts[static_cast<std::size_t>(id) + 1],
                         b, ldb, x, ldx, nrhs);
      } else if (id == 0) {
        sptrsv_cpu_level(t, step.begin, step.end, b, ldb, x, ldx, nrhs);
      }
      if (s + 1 < steps.size()) barrier.arrive_and_wait();
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(static_cast<std::size_t>(num_threads) - 1);
  try {
    for (int id = 1; id < num_threads; ++id) helpers.emplace_back(work, id);
  } catch (...) {
    state.store(kAbort, std::memory_order_release);
    for (std::thread& helper : helpers) helper.join();
    throw;
  }
  state.store(kRun, std::memory_order_release);
  work(0);
  for (std::thread& helper : helpers) helper.join();
}

}  // namespace hetsparse::kernels
