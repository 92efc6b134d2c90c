#include "spmv/distributed_spmv.hpp"

#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"

namespace hetsparse {

std::vector<index_t> balanced_row_blocks(const Csr& A, int blocks) {
  if (blocks < 1) throw InvalidArgument("SpMV: the number of row blocks must be at least 1");
  blocks = std::min<int>(blocks, std::max<index_t>(A.rows, 1));
  std::vector<index_t> b{0};
  const double total = static_cast<double>(A.nnz());
  for (int k = 1; k < blocks; ++k) {
    // First row whose prefix nnz reaches k/blocks of the total.
    const auto target = static_cast<offset_t>(total * k / blocks);
    auto it = std::lower_bound(A.rowptr.begin(), A.rowptr.end(), target);
    auto row = static_cast<index_t>(it - A.rowptr.begin());
    row = std::clamp(row, static_cast<index_t>(b.back() + 1), A.rows);
    if (row < A.rows) b.push_back(row);
  }
  b.push_back(A.rows);
  return b;
}

DistributedSpmv::DistributedSpmv(rt::TaskRuntime& rt, const Csr& A, std::vector<double>& x, std::vector<double>& y,
                                 const SpmvOptions& opts)
    : rt_(rt), opts_(opts), bounds_(balanced_row_blocks(A, opts.blocks)), nnz_(A.nnz()) {
  if (x.size() != static_cast<std::size_t>(A.cols) || y.size() != static_cast<std::size_t>(A.rows))
    throw InvalidArgument("SpMV: x has " + std::to_string(x.size()) + " entries and y " + std::to_string(y.size()) +
                          ", the matrix is " + std::to_string(A.rows) + " x " + std::to_string(A.cols));
  const std::size_t nb = bounds_.size() - 1;
  blocks_.reserve(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    blocks_.emplace_back(row_block(A, bounds_[b], bounds_[b + 1]));
    blocks_.back().cols = static_cast<std::uint32_t>(A.cols);
    a_.push_back(rt::make_csr_handle(rt_, blocks_.back()));
    y_.emplace_back(rt_, rt_.register_vector({y.data() + bounds_[b], std::size_t(bounds_[b + 1] - bounds_[b])}));
  }
  x_ = rt::make_vector_handle(rt_, x);
}

void DistributedSpmv::submit(double alpha, double beta) {
  if (!x_) throw InvalidArgument("SpMV: submit after finish()");
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    rt::TaskOptions o;
    o.name = "spmv_b" + std::to_string(b);
    o.where = opts_.where;
    o.flops = 2.0 * static_cast<double>(blocks_[b].colind.size());
    codelets::insert_spmv(rt_, o, a_[b].id(), x_.id(), y_[b].id(), alpha, beta, opts_.cuda_impl);
  }
  ++products_;
}

void DistributedSpmv::finish() {
  y_.clear();
  a_.clear();
  x_.reset();
}

}  // namespace hetsparse
