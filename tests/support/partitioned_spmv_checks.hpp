// Runs a PartitionedSpmv through a runtime and compares with the serial product: three chained
// products y = alpha A x + beta y, then one with beta = 0 on a NaN-poisoned y. Header-only; the
// includer links hetsparse_spmv and hetsparse_reference.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cli/vector_compare.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/random.hpp"
#include "spmv/partitioned_spmv.hpp"

namespace hetsparse::test {

// max |a - b| / max |b|, infinite on a NaN (the command's measure, cli/vector_compare.hpp).
inline double partitioned_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  return cli::max_rel_diff(a, b);
}

// The products on host vectors; returns the format the product used (for the caller's checks).
inline planners::PartitionFormat check_partitioned_spmv(rt::TaskRuntime& r, const Csr& A,
                                                        const PartitionedSpmvOptions& o, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> x(A.cols), y0(A.rows);
  for (double& v : x) v = uniform(rng, -1, 1);
  for (double& v : y0) v = uniform(rng, -1, 1);
  std::vector<double> expect = y0, y = y0;
  for (int it = 0; it < 3; ++it) ref::spmv(A, x.data(), expect.data(), 0.5, 2.0);
  planners::PartitionFormat used;
  {
    PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
    used = s.partition().format;
    for (int it = 0; it < 3; ++it) s.submit(0.5, 2.0);
    s.finish();
  }
  EXPECT_LT(partitioned_rel_diff(y, expect), 1e-13) << "chained products, " << planners::to_string(used);
  std::fill(y.begin(), y.end(), std::numeric_limits<double>::quiet_NaN());
  {
    PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
    s.submit(-1.5, 0.0);
  }  // the destructor finishes
  ref::spmv(A, x.data(), expect.data(), -1.5, 0.0);
  EXPECT_LT(partitioned_rel_diff(y, expect), 1e-13) << "beta = 0 on a poisoned y, " << planners::to_string(used);
  return used;
}

}  // namespace hetsparse::test
