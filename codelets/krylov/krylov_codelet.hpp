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
  double rz;
  bool scaled;  // d and z are the task's buffers 7 and 8
};

const rt::Kernel& xpby_kernel();
const rt::Kernel& diag_scale_kernel();
const rt::Kernel& cg_step_kernel();
const rt::Kernel& fill_kernel();
// y = x + beta*y over n elements; beta == 0 makes y write-only (y = x).
void insert_xpby(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, double beta, rt::HandleId y);
// y = d .* x over n elements (y written only).
void insert_diag_scale(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId d, rt::HandleId x,
                       rt::HandleId y);

// y = value over n elements (y written only).
void insert_fill(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, double value, rt::HandleId y);

// The CG step (kernels::cg_step_cpu): alpha = rz / pq with pq the 1-element vector a dot wrote,
// x += alpha p, r -= alpha q, with a scaling z = d .* r, and dots = {r.r, r.z, pq} (a 3-element
// vector). workspace: a temporary of kernels::kCgStepWorkspaceDoubles doubles, used as scratch.
struct CgScaling {
  rt::HandleId d, z;
};
void insert_cg_step(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, double rz, rt::HandleId pq,
                    rt::HandleId p, rt::HandleId q, rt::HandleId x, rt::HandleId r,
                    std::optional<CgScaling> scaling, rt::HandleId dots, rt::HandleId workspace);

}  // namespace hetsparse::codelets
