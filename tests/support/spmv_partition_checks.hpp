// Matrices that stress partitions (a hub row, empty rows at both ends and inside, a wide block) and
// the host oracle of a partitioned product: each part's product by the serial reference, merged the
// way its format says. Header-only; its includer links hetsparse_spmv and hetsparse_reference.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "planners/spmv_partition.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/generators.hpp"
#include "sparse/random.hpp"
#include "spmv/part_matrices.hpp"

namespace hetsparse::test {

// rows x cols with `per_row` random entries a row, unsorted columns, values in [-1, 1); row `hub`
// gets hub_len entries (when >= 0); rows in [empty_begin, empty_end) and the first and last get none.
inline Csr partition_matrix(index_t rows, index_t cols, int per_row, index_t hub, int hub_len, index_t empty_begin,
                            index_t empty_end, std::uint64_t seed) {
  Rng rng(seed);
  Csr A;
  A.rows = rows;
  A.cols = cols;
  A.rowptr.push_back(0);
  for (index_t r = 0; r < rows; ++r) {
    int len = r == hub ? hub_len : per_row;
    if (r == 0 || r == rows - 1 || (r >= empty_begin && r < empty_end)) len = 0;
    for (int k = 0; k < len; ++k) {
      A.colind.push_back(static_cast<index_t>(uniform_below(rng, static_cast<std::uint64_t>(cols))));
      A.values.push_back(uniform(rng, -1.0, 1.0));
    }
    A.rowptr.push_back(static_cast<offset_t>(A.colind.size()));
  }
  return A;
}

// The test matrices of the partition suites, named.
inline std::vector<std::pair<std::string, Csr>> partition_test_matrices() {
  std::vector<std::pair<std::string, Csr>> m;
  m.emplace_back("rmat_11_8", rmat_graph({11, 8, 0.57, 0.19, 0.19, 0.05, 3}));
  m.emplace_back("banded_2000", random_banded(2000, 30, 0.4, 5, false));
  m.emplace_back("hub_half", partition_matrix(3000, 3000, 4, 1700, 12000, 200, 260, 7));
  m.emplace_back("wide_150x20000", partition_matrix(150, 20000, 300, -1, 0, 40, 45, 9));
  m.emplace_back("lap3d_12", laplacian_3d(12, 12, 12));
  return m;
}

// y = alpha A x + beta y computed part by part: pCSR rows copied, pCSC partials summed, pCOO pieces
// of shared rows added into their owner's row.
inline std::vector<double> partitioned_reference(const Csr& A, const planners::SpmvPartition& p,
                                                 const std::vector<double>& x, const std::vector<double>& y_in,
                                                 double alpha, double beta) {
  const std::vector<Csr> parts = part_matrices(A, p);
  std::vector<double> y(y_in.size());
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = beta == 0.0 ? 0.0 : beta * y_in[i];
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const planners::SpmvPart& sp = p.parts[k];
    std::vector<double> partial(static_cast<std::size_t>(parts[k].rows), 0.0);
    const double* xk = x.data() + (p.format == planners::PartitionFormat::Pcsc ? sp.col_begin : 0);
    if (parts[k].rows > 0) ref::spmv(parts[k], xk, partial.data(), alpha, 0.0);
    const index_t first = p.format == planners::PartitionFormat::Pcsc ? 0 : sp.row_begin;
    for (std::size_t i = 0; i < partial.size(); ++i) y[first + i] += partial[i];
  }
  return y;
}

}  // namespace hetsparse::test
