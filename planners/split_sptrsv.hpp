// The split SpTRSV's task graph (the paper's section 4.5): one solve of T X = B cut at a level,
//   split_gather (B -> B1, B2) -> part 1 (T1 X1 = B1) -> split_update (B2 -= A21 X1)
//     -> part 2 (T2 X2 = B2) -> split_scatter (X1, X2 -> X),
// ordered by the data the tasks share, each restricted to a device: the gather to part 1's, the
// update to the GPU when a part runs there (else a CPU), the scatter to part 2's; the runtime moves
// X1 and B2 between them. The parts are submitted by their owners (sptrsv::SplitSolver: a
// TriangularSolver per sub-triangle, which restricts its own tasks). Split analysis and the blocks
// are split_sptrsv_structure.hpp, split_sptrsv_decision.hpp and split_sptrsv_blocks.hpp.
#pragma once
#include <cstdint>
#include <functional>

#include "runtime/task_runtime.hpp"
#include "sparse/types.hpp"

namespace hetsparse::planners {

struct SplitSolveShape {
  index_t n1 = 0, n2 = 0;
  std::int64_t a21_nnz = 0;  // 0: the parts are independent and no update task is submitted
};

// Registered data of one split solve: the split order (n1 + n2 index_t), A21 (CSR, n2 x n1; unused
// when empty) and the parts' right-hand sides and solutions (n1 x nrhs, n2 x nrhs).
struct SplitSolveHandles {
  rt::HandleId order = 0, a21 = 0;
  rt::HandleId b1 = 0, b2 = 0, x1 = 0, x2 = 0;
};

// One part's solve: where its tasks run (for the gather / update / scatter around it) and how to
// submit it on (b, x, nrhs).
struct SplitPartSubmit {
  rt::Where where = rt::Where::Cpu;
  std::function<void(rt::HandleId b, rt::HandleId x, int nrhs)> submit;
};

// Submits one solve (does not wait). b, x: the whole system's n x nrhs handles (x may not be b).
// Priorities follow the chain (the gather highest). InvalidArgument for empty parts, nrhs < 1,
// a part without a submit function, or b == x.
void submit_split_solve(rt::TaskRuntime& rt, const SplitSolveShape& shape, const SplitSolveHandles& h,
                        const SplitPartSubmit& part1, const SplitPartSubmit& part2, rt::HandleId b, rt::HandleId x,
                        int nrhs);

// Where the update goes: the GPU when either part runs there, else a CPU worker.
rt::Where split_update_where(rt::Where part1, rt::Where part2);

}  // namespace hetsparse::planners
