// How the numeric supernodal Cholesky cuts L into StarPU handles. A StarPU handle costs ~7 KB and
// registration time grows faster than linearly with their number (docs/benchmarks.md), so the many
// small supernodes at the bottom of the elimination tree are not given one each: every maximal
// subtree whose work stays under a threshold becomes one group (one handle, one CPU task, see
// kernels::supernode_subtree_cpu), and small maximal subtrees adjacent in postorder share a group
// while their summed work stays under a sixteenth of it; every supernode above them is a group of its own, with its own
// tasks that StarPU may place on a GPU. Panels of a subtree are contiguous in L because supernodes
// are in postorder.
#pragma once
#include <algorithm>
#include <vector>

#include "symbolic/symbolic_factor.hpp"
#include "codelets/supernode/supernode_codelet.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::planners {

struct FactorLayout {
  std::vector<codelets::PanelLocation> loc;  // per supernode; value_offset from the start of L
  std::vector<index_t> group_begin;          // group g: supernodes [group_begin[g], group_begin[g+1])
  std::vector<char> subtree;                 // per group: 1 for leaf subtrees (one CPU task)
  std::vector<index_t> group_of;             // per supernode
  double subtree_max_flops = 0;              // the threshold that was applied

  index_t num_groups() const { return static_cast<index_t>(subtree.size()); }
  // Whether some group is a top supernode of its own (the ones that need per-target update lists).
  bool has_top_groups() const { return std::find(subtree.begin(), subtree.end(), 0) != subtree.end(); }
  // Offset of supernode s's panel from the start of its group's values.
  std::int64_t offset_in_group(index_t s) const {
    return loc[s].value_offset - loc[group_begin[group_of[s]]].value_offset;
  }
};

// Panels back to back in postorder (the layout of cholesky::PanelStorage and of the solve sweeps).
std::vector<codelets::PanelLocation> supernode_locations(const cholesky::SymbolicFactor& sym);

// Work of each supernode's subtree (factorizations + every update a member sends), in flops.
std::vector<double> subtree_work(const cholesky::SymbolicFactor& sym);

// subtree_max_flops < 0: automatic (total work / 1024, kept within [1e7, 1e9]); 0: no subtree
// groups (one group per supernode, as a pure per-supernode DAG).
FactorLayout plan_factor_layout(const cholesky::SymbolicFactor& sym, double subtree_max_flops);

// The handles of a layout: one values vector per group (into `values`, the whole factor, which may
// be null with a recording runtime), all row lists as one int32 vector, and a 1-int info handle per
// group that is not a subtree (subtree tasks write `info` directly). The panels are not pinned here
// (a GPU group's host copy is never touched: pinning would fault it in; the caller pins what crosses
// the bus). They stay registered across factorizations and solves; destruction discards them
// without bringing anything home (host copies are read through rt::HostAccess).
class RegisteredFactor {
 public:
  RegisteredFactor(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                   double* values, int* info);
  ~RegisteredFactor();
  RegisteredFactor(const RegisteredFactor&) = delete;
  RegisteredFactor& operator=(const RegisteredFactor&) = delete;
  std::vector<rt::HandleId> group;  // per group
  std::vector<rt::HandleId> info;   // per group (0 for subtree groups)
  rt::HandleId rows = 0;
  int* host_info = nullptr;  // per supernode

 private:
  rt::TaskRuntime& rt_;
  std::vector<rt::HandleId> owned_;
};

}  // namespace hetsparse::planners
