// Task insertion for the Krylov vector updates of kernels/krylov: p = z + beta p, z = d .* r, a fill
// and the fused CG step.
#pragma once
#include <optional>

#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

// The tasks' argument struct (insert_xpby/diag_scale write it, the StarPU glue reads it).
struct KrylovArgs {
  int n;
  double beta;  // xpby's beta, fill's value
};

struct CgStepArgs {
  int n;
  double rz, tol2;
  bool scaled;   // d and z are the task's buffers 7 and 8
  bool chained;  // the previous step's scalars are the last buffer
};

const rt::Kernel& xpby_kernel();
const rt::Kernel& diag_scale_kernel();
const rt::Kernel& cg_step_kernel();
const rt::Kernel& fill_kernel();
const rt::Kernel& cg_direction_kernel();
// y = x + beta*y over n elements; beta == 0 makes y write-only (y = x).
void insert_xpby(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, double beta, rt::HandleId y);
// y = d .* x over n elements (y written only).
void insert_diag_scale(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId d, rt::HandleId x,
                       rt::HandleId y);

// y = value over n elements (y written only).
void insert_fill(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, double value, rt::HandleId y);

// The CG step (kernels::cg_step_cpu): alpha = r.z / pq with pq the 1-element vector a dot wrote and
// r.z from `prev` (the previous step's scalars, read on the device) or else `rz`; x += alpha p,
// r -= alpha q, with a scaling z = d .* r; `out` gets the step's kernels::kCgScalars scalars (prev
// and out distinct). workspace: a temporary of kernels::kCgStepWorkspaceDoubles doubles, as scratch.
struct CgScaling {
  rt::HandleId d, z;
};
struct CgStepStart {
  double rz = 0;
  std::optional<rt::HandleId> prev;
  double tol2 = 0;  // converged when r.r <= tol2
};
void insert_cg_step(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, const CgStepStart& from, rt::HandleId pq,
                    rt::HandleId p, rt::HandleId q, rt::HandleId x, rt::HandleId r,
                    std::optional<CgScaling> scaling, rt::HandleId out, rt::HandleId workspace);
// p = z + beta p with beta from a step's scalars s, unless that step stopped (kernels::cg_direction_cpu).
void insert_cg_direction(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId z, rt::HandleId s,
                         rt::HandleId p);

}  // namespace hetsparse::codelets
