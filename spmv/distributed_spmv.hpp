// SpMV over every worker: A is cut into nnz-balanced row blocks, each a CSR handle; one product is one
// spmv task per block (x read by all, each block writes its own slice of y).
#pragma once
#include <cstdint>
#include <vector>

#include "codelets/spmv/spmv_codelet.hpp"
#include "runtime/csr32.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"

namespace hetsparse {

struct SpmvOptions {
  int blocks = 1;                                     // row blocks (tasks per product)
  rt::Where where = rt::Where::Any;                   // device restriction for every task
  codelets::SpmvCudaImpl cuda_impl = codelets::SpmvCudaImpl::Own;
};

// Row boundaries of `blocks` blocks holding nearly equal nonzeros (rows are never split).
std::vector<index_t> balanced_row_blocks(const Csr& A, int blocks);

class DistributedSpmv {
 public:
  // Registers A's blocks, x (A.cols) and y (A.rows). x and y must outlive this object; after
  // wait()/destruction y holds the result.
  DistributedSpmv(rt::TaskRuntime& rt, const Csr& A, std::vector<double>& x, std::vector<double>& y,
                  const SpmvOptions& opts);
  // Submits y = alpha*A*x + beta*y (asynchronous).
  void submit(double alpha = 1.0, double beta = 0.0);
  // Brings y home: unregisters x and y (and A's blocks). No submit after this.
  void finish();
  std::size_t num_blocks() const { return blocks_.size(); }
  std::int64_t nnz() const { return nnz_; }

 private:
  rt::TaskRuntime& rt_;
  SpmvOptions opts_;
  std::vector<rt::Csr32> blocks_;
  std::vector<index_t> bounds_;
  std::vector<rt::DataHandle> a_, y_;
  rt::DataHandle x_;
  std::int64_t nnz_ = 0;
  int products_ = 0;
};

}  // namespace hetsparse
