// Task insertion for the level-1 vector kernels. Scalar results go to 1-element vector handles.
#pragma once
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

// The tasks' argument struct (insert_axpy/dot/nrm2 write it, the StarPU glue reads it).
struct VectorArgs {
  int n;
  double alpha;
};

const rt::Kernel& axpy_kernel();
const rt::Kernel& dot_kernel();
const rt::Kernel& nrm2_kernel();
// y = alpha*x + y over n elements.
void insert_axpy(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, double alpha, rt::HandleId x, rt::HandleId y);
// result[0] = x.y
void insert_dot(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, rt::HandleId y,
                rt::HandleId result);
// result[0] = ||x||_2
void insert_nrm2(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, rt::HandleId result);
}  // namespace hetsparse::codelets
