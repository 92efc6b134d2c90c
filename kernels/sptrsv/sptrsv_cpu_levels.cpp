// Level-scheduled solve: the plan (a list of steps in level order; a step is either one level cut
// into shares of about equal stored entries, or a run of consecutive small levels solved by thread
// 0 alone, in level order, which is a valid solve order), one thread's part of it, and the
// std::thread executor. Threads meet at a spinning barrier after each step: with few cores a futex
// wake-up costs more than most levels' work.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_level_plan.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {
namespace {

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

}  // namespace

std::vector<LevelStep> plan_level_steps(const TriangularView& t, index_t nrhs, int shares,
                                        std::int64_t min_entries_per_share) {
  if (shares < 1 || min_entries_per_share < 1) {
    throw InvalidArgument("plan_level_steps: shares and min_entries_per_share must be >= 1, got " +
                          std::to_string(shares) + " and " + std::to_string(min_entries_per_share));
  }
  if (t.n > 0 && (t.level_ptr == nullptr || t.level_rows == nullptr || t.level_nnz == nullptr)) {
    throw InvalidArgument("plan_level_steps: the view carries no level schedule");
  }
  std::vector<LevelStep> steps;
  for (index_t level = 0; level < t.num_levels; ++level) {
    const index_t begin = t.level_ptr[level], end = t.level_ptr[level + 1];
    const std::int64_t entries = t.level_nnz[level];
    // As many shares as the level has minimum shares' worth of work (and rows), up to `shares`.
    const auto cut = static_cast<int>(std::min<std::int64_t>(
        {std::int64_t{shares}, std::int64_t{end - begin}, entries * nrhs / min_entries_per_share}));
    if (cut >= 2) {
      steps.push_back({begin, end, balanced_cuts(t, begin, end, entries, cut)});
    } else if (!steps.empty() && !steps.back().shared()) {
      steps.back().end = end;  // extend the serial run
    } else {
      steps.push_back({begin, end, {}});
    }
  }
  return steps;
}

// Sense-reversing: the last thread to arrive flips the phase the others spin on. The phase is read
// before arriving: it cannot move on until this thread has arrived.
void level_barrier_wait(LevelBarrier& barrier, int threads) {
  const unsigned phase = __atomic_load_n(&barrier.phase, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&barrier.arrived, 1, __ATOMIC_ACQ_REL) == threads) {
    __atomic_store_n(&barrier.arrived, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&barrier.phase, phase + 1, __ATOMIC_RELEASE);
    return;
  }
  for (unsigned spins = 0; __atomic_load_n(&barrier.phase, __ATOMIC_ACQUIRE) == phase; ++spins) {
    if (spins > 1024) std::this_thread::yield();  // oversubscribed: let the others run
  }
}

void solve_level_steps(const TriangularView& t, const std::vector<LevelStep>& steps, int id, int threads,
                       LevelBarrier& barrier, const double* b, index_t ldb, double* x, index_t ldx, index_t nrhs) {
  const bool any_shared = std::any_of(steps.begin(), steps.end(), [](const LevelStep& s) { return s.shared(); });
  if (!any_shared) {  // nothing to share: no barriers
    if (id == 0) {
      for (const LevelStep& step : steps) sptrsv_cpu_level(t, step.begin, step.end, b, ldb, x, ldx, nrhs);
    }
    return;
  }
  const auto share = static_cast<std::size_t>(id);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const LevelStep& step = steps[s];
    if (step.shared()) {
      if (share + 1 < step.cuts.size())
        sptrsv_cpu_level(t, step.cuts[share], step.cuts[share + 1], b, ldb, x, ldx, nrhs);
    } else if (id == 0) {
      sptrsv_cpu_level(t, step.begin, step.end, b, ldb, x, ldx, nrhs);
    }
    if (s + 1 < steps.size()) level_barrier_wait(barrier, threads);
  }
}

void sptrsv_cpu_levels(const TriangularView& t, const double* b, index_t ldb, double* x, index_t ldx,
                       index_t nrhs, int num_threads, std::int64_t min_entries_per_thread) {
  if (num_threads < 1 || min_entries_per_thread < 1) {
    throw InvalidArgument("sptrsv_cpu_levels: num_threads and min_entries_per_thread must be >= 1, got " +
                          std::to_string(num_threads) + " and " + std::to_string(min_entries_per_thread));
  }
  if (t.n > 0 && (t.level_ptr == nullptr || t.level_rows == nullptr || t.level_nnz == nullptr)) {
    throw InvalidArgument("sptrsv_cpu_levels: the view carries no level schedule");
  }
  const std::vector<LevelStep> steps = plan_level_steps(t, nrhs, num_threads, min_entries_per_thread);
  LevelBarrier barrier{0, 0};
  const bool any_shared = std::any_of(steps.begin(), steps.end(), [](const LevelStep& s) { return s.shared(); });
  if (!any_shared) {  // nothing to share: no threads
    solve_level_steps(t, steps, 0, 1, barrier, b, ldb, x, ldx, nrhs);
    return;
  }

  // Helpers wait for every thread to exist: if one cannot be created, the others must not be left
  // spinning at a barrier that will never fill.
  enum : int { kWait, kRun, kAbort };
  std::atomic<int> state{kWait};
  auto work = [&](int id) {
    int now = state.load(std::memory_order_acquire);
    for (; now == kWait; now = state.load(std::memory_order_acquire)) std::this_thread::yield();
    if (now == kAbort) return;
    solve_level_steps(t, steps, id, num_threads, barrier, b, ldb, x, ldx, nrhs);
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
