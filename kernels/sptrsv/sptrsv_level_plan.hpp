// The level-scheduled CPU solve as a plan of steps, shared by its three executors: the threaded
// kernel (kernels::sptrsv_cpu_levels, std::threads), the StarPU parallel task (every member of a
// combined worker runs one share of each step) and the per-level tasks (one task per share).
// Pure kernels, no StarPU.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"

namespace hetsparse::kernels {

// Positions [begin, end) of level_rows. A shared step is one level cut into 2 or more shares of
// about equal stored entries (cuts: shares + 1 positions, share i = [cuts[i], cuts[i+1]), possibly
// empty); a serial step (no cuts) is a run of consecutive levels solved in level order by one thread.
struct LevelStep {
  index_t begin = 0, end = 0;
  std::vector<index_t> cuts;
  bool shared() const { return !cuts.empty(); }
};

// A level is cut into min(shares, its rows, its entries times nrhs / min_entries_per_share) shares
// when that is at least 2, so that no share is smaller than the minimum (what a barrier or a task
// costs) yet mid-sized levels still use some of the threads; runs of the other levels become serial
// steps. The result depends only on the arguments, so threads that each compute it agree.
// shares >= 1, min_entries_per_share >= 1 (InvalidArgument otherwise, or for a view without a
// level schedule).
std::vector<LevelStep> plan_level_steps(const TriangularView& t, index_t nrhs, int shares,
                                        std::int64_t min_entries_per_share);

// A spinning barrier for the threads of one solve, kept as plain words (all zero = ready) so that
// it can live in memory the threads share without being constructed: a StarPU SPMD task's members
// find it in the task's argument block. Spins, yielding after a while (see sptrsv_cpu_levels).
struct LevelBarrier {
  int arrived;
  unsigned phase;
};
void level_barrier_wait(LevelBarrier& barrier, int threads);

// Thread `id` of `threads` runs its part of the plan: share `id` of every shared step (if the step
// has that many: the plan must have been made for at most `threads` shares), the serial steps when
// id == 0, and a barrier after every step but the last. A plan without shared steps is solved by thread 0 alone while
// the others return at once (no barrier). Every thread must call it with the same plan and barrier.
void solve_level_steps(const TriangularView& t, const std::vector<LevelStep>& steps, int id, int threads,
                       LevelBarrier& barrier, const double* b, index_t ldb, double* x, index_t ldx, index_t nrhs);

}  // namespace hetsparse::kernels
