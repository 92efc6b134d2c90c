// Task insertion for dense TRSM: B = alpha*op(A)^-1*B (side L) or alpha*B*op(A)^-1 (side R).
#pragma once
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

// The task's argument struct (insert_trsm writes it, the StarPU glue reads it).
struct TrsmArgs {
  char side, uplo, transa, diag;
  int m, n;
  double alpha;
};

const rt::Kernel& trsm_kernel();
void insert_trsm(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char side, char uplo, char transa, char diag, int m,
                 int n, double alpha, rt::HandleId A, rt::HandleId B);
}  // namespace hetsparse::codelets
