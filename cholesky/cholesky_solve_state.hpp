// The state a CholeskySolver keeps for its solves (private to cholesky/: the solver's two source files).
#pragma once
#include <exception>
#include <vector>

#include "planners/supernodal_solve.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::cholesky {

// The solve's plans over the current layout and the handles they reuse from call to call (those of
// the unknowns are sized for nrhs right-hand sides). With a GPU the level-ordered solve (levels:
// level_plan, loc, entries and the stage only), otherwise the task graph (plan and the blocks).
struct SolveState {
  rt::TaskRuntime& rt;
  planners::SolvePlan plan;
  planners::LevelSolvePlan level_plan;
  bool levels = false;
  rt::HandleId ext_rows = 0, perm = 0, loc = 0, entries = 0;  // loc, entries: the level solve's
  int nrhs = 0;
  std::vector<rt::HandleId> x, ext;
  // Host solves: the right-hand side in the factor's order, GPU groups' rows (the level solve: b as
  // it is, only for ldb > n, allocated at the first such call).
  std::vector<double> stage;
  rt::HandleId stage_handle = 0, device_stage = 0;
  bool any_stage = false;
  bool placed = false;  // plan.where follows where the last factorization left the panels

  explicit SolveState(rt::TaskRuntime& r) : rt(r) {}
  ~SolveState() {
    try {
      release_blocks();
      if (ext_rows) rt.unregister(ext_rows);
      if (perm) rt.unregister(perm);
      if (loc) rt.unregister(loc);
      if (entries) rt.unregister(entries);
    } catch (const std::exception&) {
      // the runtime was shut down first: its shutdown unregistered these handles
    }
  }
  void release_blocks() {
    for (auto& v : {&x, &ext})
      for (rt::HandleId h : *v)
        if (h) rt.discard(h);
    x.clear();
    ext.clear();
    for (rt::HandleId* h : {&stage_handle, &device_stage})
      if (*h) {
        rt.discard(*h);
        *h = 0;
      }
    nrhs = 0;
  }
};

}  // namespace hetsparse::cholesky
