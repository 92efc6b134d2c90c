// Task insertion for dense SYRK: C = alpha*op(A)*op(A)^T + beta*C on the uplo triangle of C.
#pragma once
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

// The task's argument struct (insert_syrk writes it, the StarPU glue reads it).
struct SyrkArgs {
  char uplo, trans;
  int n, k;
  double alpha, beta;
};

const rt::Kernel& syrk_kernel();
void insert_syrk(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char uplo, char trans, int n, int k, double alpha,
                 rt::HandleId A, double beta, rt::HandleId C);
}  // namespace hetsparse::codelets
