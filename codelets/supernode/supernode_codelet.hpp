// Task insertion for the supernodal Cholesky kernels. Panels live in "groups": a vector handle
// holding the panels of one or more supernodes back to back (a leaf subtree, or one supernode of the
// top of the tree). Row lists of every supernode are one int32 vector handle, read by every task.
// Where a panel sits is a kernels::PanelLocation: value_offset is counted from the start of its
// group's handle, row_begin from the start of the row handle.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_subtree_gpu.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

using kernels::PanelLocation;

// The tasks' argument structs (the insert functions write them, the StarPU glue reads them).
// Update and factor tasks: buffers [target values, rows, (info,) sources...].
struct UpdateHeader {  // followed by `count` UpdateItem
  PanelLocation target;
  std::int32_t count, pad;
};
struct UpdateItem {
  PanelLocation d;  // value_offset from the start of buffer `src`
  std::int32_t src, r0, r1, pad;
};
struct SubtreeArgs {
  const PanelLocation* loc;
  const std::int32_t* col_to_supernode;
  const std::int32_t* host_rows;  // the CUDA task plans its levels from the host row lists
  double gpu_fused_max_flops;     // kernels::SubtreeLevels's limits for the CUDA task
  std::int32_t gpu_batched_max_cols, pad;
  int* info;
  std::int32_t first, last;
  const kernels::SubtreeLevels* plan;  // prebuilt levels for the CUDA task, or null: planned there
};

// A target panel: its group handle (holding only it) and where it is.
struct TargetPanel {
  rt::HandleId values;
  PanelLocation loc;
};
// One descendant's contribution to a target: descendant d (in group handle `source`), positions
// [r0, r1) of its rows inside the target's columns.
struct GroupUpdate {
  rt::HandleId source;
  PanelLocation d;
  std::int32_t r0, r1;
};

const rt::Kernel& supernode_update_kernel();
const rt::Kernel& supernode_factor_kernel();
const rt::Kernel& supernode_subtree_kernel();

// Updates of t by several descendants (one DPQ update, or a TPQ batch), commuting with t's other
// updates. Sources are deduplicated: several descendants of one group cost one handle.
void insert_supernode_update(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const std::vector<GroupUpdate>& updates,
                             const TargetPanel& t, rt::HandleId rows, double flops);
// potrf + trsm of t's panel after applying the InstQ updates `inline_updates` (may be empty).
// info: a 1-int vector handle receiving 0 or the 1-based failing column within the panel.
void insert_supernode_factor(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const TargetPanel& t, rt::HandleId rows,
                             rt::HandleId info, const std::vector<GroupUpdate>& inline_updates, double flops);

// A leaf subtree (supernodes [first, last) of the whole factor) factored in one task, on a core
// (kernels::supernode_subtree_cpu) or on a GPU level by level (kernels::supernode_subtree_cuda).
// loc, col_to_supernode, host_rows and info are host arrays of the whole factor that must outlive the
// task: the tasks read them directly (a GPU task plans on the host), which saves a handle per
// subtree (info[first .. last) receives the subtree's pivot reports).
struct SubtreeTask {
  rt::HandleId values;  // the group: panels of [first, last)
  const PanelLocation* loc;
  const std::int32_t* col_to_supernode;
  int* info;
  std::int32_t first, last;
  const std::int32_t* host_rows;  // every row list, as registered in `rows` (last: aggregates stay valid)
  double gpu_fused_max_flops = kernels::kSubtreeFusedMaxFlops;            // SubtreeLevels::fused_max_flops
  std::int32_t gpu_batched_max_cols = kernels::kSubtreeBatchedMaxCols;  // SubtreeLevels::batched_max_cols
  // The CUDA task's level schedule built beforehand (with the two limits above in it), kept by the
  // caller until the task is done; null: the task plans its levels itself.
  const kernels::SubtreeLevels* plan = nullptr;
};
void insert_supernode_subtree(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SubtreeTask& s,
                              rt::HandleId rows, double flops);

}  // namespace hetsparse::codelets
