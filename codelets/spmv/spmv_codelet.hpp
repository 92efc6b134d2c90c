// Task insertion for CSR SpMV: y = alpha*A*x + beta*y on one CSR handle (a row block of a matrix).
#pragma once
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

enum class SpmvCudaImpl : int { Own = 0, Cusparse = 1 };

// The task's argument struct (insert_spmv writes it, the StarPU glue reads it).
struct SpmvArgs {
  double alpha, beta;
  SpmvCudaImpl cuda_impl;
};

const rt::Kernel& spmv_kernel();
// A: CSR handle, x: vector of A.cols, y: vector of A.rows. flops defaults to 0 (the caller knows nnz:
// pass TaskOptions::flops = 2*nnz for GFLOP/s statistics). beta == 0 makes y write-only.
void insert_spmv(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId A, rt::HandleId x, rt::HandleId y,
                 double alpha, double beta, SpmvCudaImpl cuda_impl = SpmvCudaImpl::Own);

}  // namespace hetsparse::codelets
