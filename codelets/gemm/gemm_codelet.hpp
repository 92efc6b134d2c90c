// Task insertion for dense GEMM: C = alpha*op(A)*op(B) + beta*C (column-major matrix handles).
#pragma once
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

// The task's argument struct (insert_gemm writes it, the StarPU glue reads it).
struct GemmArgs {
  char transa, transb;
  int m, n, k;
  double alpha, beta;
};

const rt::Kernel& gemm_kernel();
void insert_gemm(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char transa, char transb, int m, int n, int k,
                 double alpha, rt::HandleId A, rt::HandleId B, double beta, rt::HandleId C);
}  // namespace hetsparse::codelets
