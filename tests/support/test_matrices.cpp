// Random operands and comparisons for the kernel tests.
#include "tests/support/test_matrices.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "reference/dense_reference.hpp"

namespace hetsparse::test {

DenseMatrix random_matrix(Rng& rng, int rows, int cols, int padding, double padding_value) {
  DenseMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.ld = std::max(1, rows + padding);
  m.data.assign(static_cast<std::size_t>(m.ld) * static_cast<std::size_t>(cols), padding_value);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) {
      m(i, j) = uniform(rng, -1.0, 1.0);
    }
  }
  return m;
}

std::vector<double> random_vector(Rng& rng, std::size_t n, double lo, double hi) {
  std::vector<double> v(n);
  for (double& value : v) {
    value = uniform(rng, lo, hi);
  }
  return v;
}

DenseMatrix absolute(const DenseMatrix& m) {
  DenseMatrix a = m;
  a.data = absolute(m.data);
  return a;
}

std::vector<double> absolute(const std::vector<double>& v) {
  std::vector<double> a(v.size());
  std::transform(v.begin(), v.end(), a.begin(), [](double x) { return std::fabs(x); });
  return a;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

namespace {

// Collects the first few failures so one broken case does not print thousands of lines.
class Mismatches {
 public:
  void add(const std::string& where, double actual, double expected, double bound) {
    if (++count_ <= 5) {
      text_ << "\n  " << where << ": got " << actual << ", expected " << expected << " (allowed error " << bound
            << ")";
    }
  }
  ::testing::AssertionResult result() const {
    if (count_ == 0) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << count_ << " entries out of bounds:" << text_.str();
  }

 private:
  std::size_t count_ = 0;
  std::ostringstream text_;
};

// An expected NaN marks an entry the kernel must leave alone, so it must come back bit for bit.
bool close(double actual, double expected, double bound) {
  return std::isnan(expected) ? same_bits(actual, expected) : std::fabs(actual - expected) <= bound;
}

}  // namespace

::testing::AssertionResult within_bounds(const std::vector<double>& actual, const std::vector<double>& expected,
                                         const std::vector<double>& bound) {
  if (actual.size() != expected.size() || bound.size() != expected.size()) {
    return ::testing::AssertionFailure() << "size mismatch: " << actual.size() << " vs " << expected.size();
  }
  Mismatches bad;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (!close(actual[i], expected[i], bound[i])) {
      bad.add("[" + std::to_string(i) + "]", actual[i], expected[i], bound[i]);
    }
  }
  return bad.result();
}

::testing::AssertionResult within_bounds(const DenseMatrix& actual, const DenseMatrix& expected,
                                         const DenseMatrix& bound) {
  if (actual.data.size() != expected.data.size() || actual.ld != expected.ld || bound.ld != expected.ld) {
    return ::testing::AssertionFailure() << "storage mismatch";
  }
  Mismatches bad;
  for (int j = 0; j < expected.cols; ++j) {
    for (int i = 0; i < expected.ld; ++i) {
      const std::string where = "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
      if (i >= expected.rows) {
        if (!same_bits(actual(i, j), expected(i, j))) {
          bad.add(where + " padding", actual(i, j), expected(i, j), 0.0);
        }
      } else if (!close(actual(i, j), expected(i, j), bound(i, j))) {
        bad.add(where, actual(i, j), expected(i, j), bound(i, j));
      }
    }
  }
  return bad.result();
}

kernels::CsrView CsrMatrix::rows_view(std::uint32_t first, std::uint32_t last) const {
  const std::uint32_t first_entry = rowptr[first];
  return {last - first, rowptr[last] - first_entry, rowptr.data() + first, colind.data() + first_entry,
          values.data() + first_entry, first_entry};
}

std::vector<std::uint32_t> random_row_lengths(Rng& rng, std::uint32_t nrows, std::uint32_t min_length,
                                              std::uint32_t max_length) {
  std::vector<std::uint32_t> lengths(nrows);
  for (std::uint32_t& length : lengths) {
    length = min_length + static_cast<std::uint32_t>(uniform_below(rng, max_length - min_length + 1));
  }
  return lengths;
}

CsrMatrix random_csr(Rng& rng, std::uint32_t ncols, const std::vector<std::uint32_t>& row_lengths) {
  CsrMatrix A;
  A.nrows = static_cast<std::uint32_t>(row_lengths.size());
  A.ncols = ncols;
  std::vector<bool> taken(ncols, false);
  std::vector<std::uint32_t> row;
  for (const std::uint32_t length : row_lengths) {
    // Floyd's sampling of `length` distinct columns, then sorted as CSR expects.
    row.clear();
    for (std::uint32_t j = ncols - length; j < ncols; ++j) {
      const auto t = static_cast<std::uint32_t>(uniform_below(rng, std::uint64_t{j} + 1));
      const std::uint32_t pick = taken[t] ? j : t;
      taken[pick] = true;
      row.push_back(pick);
    }
    std::sort(row.begin(), row.end());
    for (const std::uint32_t col : row) {
      taken[col] = false;
      A.colind.push_back(col);
      A.values.push_back(uniform(rng, -1.0, 1.0));
    }
    A.rowptr.push_back(static_cast<std::uint32_t>(A.colind.size()));
  }
  return A;
}

SpmvExpectation expected_spmv(const CsrMatrix& A, std::uint32_t first, std::uint32_t last,
                              const std::vector<double>& x, const std::vector<double>& y_in, double alpha,
                              double beta) {
  constexpr std::uint32_t block_rows = 128;
  const int k = static_cast<int>(A.ncols);
  const std::vector<double> x_abs = absolute(x);
  SpmvExpectation out;
  out.values.resize(last - first);
  out.bounds.resize(last - first);
  for (std::uint32_t begin = first; begin < last; begin += block_rows) {
    const std::uint32_t end = std::min(last, begin + block_rows);
    const int m = static_cast<int>(end - begin);
    std::vector<double> block(static_cast<std::size_t>(m) * A.ncols, 0.0);
    for (std::uint32_t r = begin; r < end; ++r) {
      for (std::uint32_t e = A.rowptr[r]; e < A.rowptr[r + 1]; ++e) {
        block[(r - begin) + static_cast<std::size_t>(A.colind[e]) * m] = A.values[e];
      }
    }
    double* y = out.values.data() + (begin - first);
    double* bound = out.bounds.data() + (begin - first);
    std::copy(y_in.begin() + begin, y_in.begin() + end, y);
    ref::gemm('N', 'N', m, 1, k, alpha, block.data(), m, x.data(), std::max(1, k), beta, y, m);
    // Summation error bound: gamma_len (|alpha| |A| |x| + |beta| |y|), gamma with margin.
    for (std::uint32_t r = begin; r < end; ++r) {
      bound[r - begin] = beta == 0.0 ? 0.0 : std::fabs(beta * y_in[r]);
    }
    const std::vector<double> block_abs = absolute(block);
    ref::gemm('N', 'N', m, 1, k, std::fabs(alpha), block_abs.data(), m, x_abs.data(), std::max(1, k), 1.0, bound, m);
    for (std::uint32_t r = begin; r < end; ++r) {
      bound[r - begin] *= 2.0 * (A.rowptr[r + 1] - A.rowptr[r] + 2) * kEps;
    }
  }
  return out;
}

void check_spmv(const CsrMatrix& A, std::uint32_t first, std::uint32_t last, Rng& rng, double alpha, double beta,
                const SpmvRunner& run) {
  SCOPED_TRACE("rows [" + std::to_string(first) + ", " + std::to_string(last) + ") beta=" + std::to_string(beta));
  const std::vector<double> x = random_vector(rng, A.ncols);
  std::vector<double> y = random_vector(rng, A.nrows);
  if (beta == 0.0) {
    std::fill(y.begin(), y.end(), kNaN);  // must not be read
  }
  const SpmvExpectation expected = expected_spmv(A, first, last, x, y, alpha, beta);
  run(A, first, last, x, y, alpha, beta);
  const std::vector<double> block(y.begin() + first, y.begin() + last);
  EXPECT_TRUE(within_bounds(block, expected.values, expected.bounds));
}

}  // namespace hetsparse::test
