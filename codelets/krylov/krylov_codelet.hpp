// Task insertion for the Krylov vector updates of kernels/krylov: p = z + beta p and z = d .* r.
#pragma once
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

// The tasks' argument struct (insert_xpby/diag_scale write it, the StarPU glue reads it).
struct KrylovArgs {
  int n;
  double beta;
};

const rt::Kernel& xpby_kernel();
const rt::Kernel& diag_scale_kernel();
// y = x + beta*y over n elements; beta == 0 makes y write-only (y = x).
void insert_xpby(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, double beta, rt::HandleId y);
// y = d .* x over n elements (y written only).
void insert_diag_scale(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId d, rt::HandleId x,
                       rt::HandleId y);

}  // namespace hetsparse::codelets
