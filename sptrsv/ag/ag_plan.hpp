// Host half of AG-SpTRSV (sections 4.3-4.4): the graph transform (rows -> nodes), the three scheduling
// hierarchies (nodes -> node groups -> persistent warps -> kernels) and the check that the result
// cannot deadlock, as the kernels::ag::AgPlan the CUDA solver (kernels::AgSolver) uploads. Pure host
// code, testable on the CPU. Positions are the solve order: natural (row p for lower, n-1-p for upper)
// or, with level_reorder, the analysis's level order; every dependency of a row sits at an earlier
// position.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_ag.hpp"
#include "kernels/sptrsv/sptrsv_ag_plan.hpp"

namespace hetsparse::sptrsv::ag {

using kernels::AgRowGrouping;
using kernels::AgScheme;
using kernels::AgTransform;
using kernels::AgWarpSchedule;
using kernels::kAgAlphaInfinity;
using kernels::kAgSwInfinity;
using kernels::TriangularDeviceView;
using kernels::TriangularView;
using kernels::ag::AgKernel;
using kernels::ag::AgMachine;
using kernels::ag::AgPlan;

// Transform + schedule `t` (natural CSR arrays; level_ptr/level_rows needed for level_reorder) by
// `scheme` for `machine`, then validate_ag_plan. InvalidArgument for an invalid scheme or machine,
// or a level reorder without a level schedule.
AgPlan make_ag_plan(const TriangularView& t, const AgScheme& scheme, const AgMachine& machine);

// Steps of make_ag_plan, exposed for the tests.
std::vector<index_t> ag_positions(const TriangularView& t, bool level_reorder);
// Node boundaries over positions (section 4.3 merge_fixed / merge_avg / merge_thresh).
std::vector<index_t> ag_merge_nodes(const TriangularView& t, const std::vector<index_t>& position_rows,
                                    const AgScheme& scheme);
// Second hierarchy (ag_schedule.cpp): group_warp, warp_ptr/warp_groups and each kernel's
// blocks, from the groups, their work (stored entries) and the kernels.
void schedule_warps(const TriangularView& t, const AgScheme& scheme, const AgMachine& machine,
                    const std::vector<std::int64_t>& group_work, AgPlan& plan);

// The deadlock-freedom check (see the comment in ag_plan_check.cpp): every row scheduled
// exactly once; each warp's groups in increasing order; each dependency either earlier in the row's
// own node or in a group numbered before the row's group, in a kernel that publishes flags when
// the waiting kernel waits, and in an earlier kernel when it does not. InvalidArgument naming the
// first violation.
void validate_ag_plan(const TriangularView& t, const AgScheme& scheme, const AgMachine& machine,
                      const AgPlan& plan);

// Off-diagonal entries of row `row` of a normalised view: [begin, end) into colind.
inline void off_diagonal_range(const TriangularView& t, index_t row, index_t& begin, index_t& end) {
  begin = t.rowptr[row] + (t.upper ? 1 : 0);
  end = t.rowptr[row + 1] - (t.upper ? 0 : 1);
}

// The scheme planned for the current CUDA device (kernels::ag_machine) and uploaded: the AgSolver a
// prepared AG scheme solves with. host needs its level schedule when the scheme reorders by level.
kernels::AgSolver prepare_ag(cudaStream_t stream, const TriangularView& host, const TriangularDeviceView& device,
                             const AgScheme& scheme);

}  // namespace hetsparse::sptrsv::ag
