// The CSR bench_cholesky hands to cuDSS: hetsparse's lower triangle with 32-bit row offsets, the same
// entries; refused with a typed error when it is not a lower triangle.
#include <gtest/gtest.h>

#include "bench/cudss_anchor.hpp"
#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"

namespace hetsparse::test {
namespace {

TEST(CudssInput, RowOffsetsAreTheLowerTrianglesIn32Bits) {
  for (const Csr& A : {laplacian_3d(9, 8, 7), rmat_spd({10, 8, 0.57, 0.19, 0.19, 0.05, 5})}) {
    const Csr lower = triangle(A, Triangle::Lower);
    const std::vector<std::int32_t> rp = bench::cudss_row_offsets(lower);
    ASSERT_EQ(rp.size(), lower.rowptr.size());
    ASSERT_GT(lower.rows, 64);
    for (std::size_t i = 0; i < rp.size(); ++i) ASSERT_EQ(rp[i], lower.rowptr[i]) << i;
    EXPECT_EQ(rp.back(), (A.nnz() + A.rows) / 2);  // symmetric A: the diagonal and half the rest
  }
}

TEST(CudssInput, AnEntryAboveTheDiagonalIsRefused) {
  const Csr A = laplacian_3d(5, 5, 5);
  try {
    bench::cudss_row_offsets(A);  // the full matrix, not its lower triangle
    FAIL() << "the full matrix was taken for a lower triangle";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("above the diagonal"), std::string::npos) << e.what();
  }
  Csr rect = triangle(A, Triangle::Lower);
  rect.cols += 1;
  EXPECT_THROW(bench::cudss_row_offsets(rect), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
