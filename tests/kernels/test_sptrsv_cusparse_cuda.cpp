// kernels::CusparseSpsv (the cuSPARSE SpSV anchor) against ref::sptrsv on the anchor R-MAT and
// Laplacian triangles, lower and upper, on the same normalised device CSR the hetsparse variants
// take. x is NaN-poisoned before each solve. Skipped without a device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_cusparse.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

class SptrsvCusparse : public CudaStreamTest {
 protected:

  // Analyses `lower` turned into the solver input for `tri`, solves twice with two right-hand sides
  // on one CusparseSpsv (the analysis must be reusable) and compares both with ref::sptrsv.
  void check(const Csr& lower, Triangle tri, const std::string& label) {
    SCOPED_TRACE(label + (tri == Triangle::Lower ? " lower" : " upper"));
    const Csr input = solver_input(lower, tri, false, 51);
    const sptrsv::TriangularPattern pattern(input, tri, false);
    const kernels::DeviceTriangular matrix(stream_, pattern.host_view());
    kernels::CusparseSpsv spsv(stream_, matrix.view());
    EXPECT_EQ(spsv.rows(), input.rows);
    EXPECT_GE(spsv.analysis_ms(), 0.0);
    DeviceArray<double> dx(static_cast<std::size_t>(input.rows));
    for (const std::uint64_t seed : {61u, 62u}) {
      const std::vector<double> b = random_values(static_cast<std::size_t>(input.rows), seed);
      std::vector<double> expected(b.size());
      ref::sptrsv(input, tri, false, b.data(), expected.data());
      DeviceArray<double> db(stream_, b);
      dx.poison(stream_);
      spsv.solve(db.get(), dx.get());
      EXPECT_TRUE(close_to(dx.download(stream_).data(), expected)) << "seed " << seed;
    }
  }
};

TEST_F(SptrsvCusparse, RmatMatchesReference) {
  const Csr lower = anchor_rmat_lower(12, 8, 1);
  for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) check(lower, tri, "anchor_rmat_lower(12, 8)");
}

TEST_F(SptrsvCusparse, LaplacianMatchesReference) {
  const Csr lower = anchor_laplacian_lower(3, 20, 1);
  for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) check(lower, tri, "anchor_laplacian_lower(3, 20)");
}

}  // namespace
}  // namespace hetsparse::test
