// Task insertion for the supernodal Cholesky kernels. A supernode is two handles: its panel (a
// column-major nrows x ncols matrix handle) and its sorted global row list (an int32 vector handle).
#pragma once
#include <cstdint>
#include <vector>

#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

struct SupernodeHandles {
  rt::HandleId panel, rows;
  std::int32_t first_col;
};
// One descendant's contribution: positions [r0, r1) of its rows fall inside the target's columns.
struct SupernodeUpdate {
  SupernodeHandles d;
  std::int32_t r0, r1;
};

const rt::Kernel& supernode_update_kernel();
const rt::Kernel& supernode_update_batch_kernel();
const rt::Kernel& supernode_factor_kernel();
const rt::Kernel& supernode_forward_kernel();
const rt::Kernel& supernode_backward_kernel();

// DPQ: a single (large) update of t by d, commuting with the other updates of t.
void insert_supernode_update(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SupernodeUpdate& u,
                             const SupernodeHandles& t, double flops);
// TPQ: several updates of t in one task.
void insert_supernode_update_batch(rt::TaskRuntime& rt, const rt::TaskOptions& opt,
                                   const std::vector<SupernodeUpdate>& updates, const SupernodeHandles& t,
                                   double flops);
// potrf + trsm of t's panel, after applying the InstQ updates `inline_updates` (may be empty).
// info: a 1-int vector handle receiving 0 or the 1-based failing column within the panel.
void insert_supernode_factor(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SupernodeHandles& t,
                             rt::HandleId info, const std::vector<SupernodeUpdate>& inline_updates, double flops);
// Solve sweeps over one supernode on x (the whole permuted right-hand side block, nrhs columns, ld).
void insert_supernode_forward(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SupernodeHandles& s,
                              rt::HandleId x, int nrhs, int ldx);
void insert_supernode_backward(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SupernodeHandles& s,
                               rt::HandleId x, int nrhs, int ldx);

// Where one supernode lives in the whole-factor arrays (values and rows of every panel, back to back).
struct SupernodeLocation {
  std::int64_t value_offset, row_begin;
  std::int32_t nrows, ncols, first_col, pad;
};
const rt::Kernel& supernodal_sweep_kernel();
// A whole forward (postorder) or backward (reverse postorder) sweep over every supernode in one CPU
// task: the sweep is a dependency chain, so one task avoids a task's overhead per supernode.
// values/rows: the whole factor; locations: one SupernodeLocation per supernode; x: n x nrhs.
void insert_supernodal_sweep(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId values, rt::HandleId rows,
                             rt::HandleId locations, rt::HandleId x, int num_supernodes, int nrhs, int ldx,
                             bool forward);

}  // namespace hetsparse::codelets
