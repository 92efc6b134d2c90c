// The powered form of a triangular system (see powered_triangle.hpp): M's powers by repeated
// squaring, row-parallel, and the analysed triangle I - M^K.
#include "sptrsv/powered_triangle.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <string>
#include <utility>

#include "hetsparse/error.hpp"
#include "sparse/host_threads.hpp"

namespace hetsparse::sptrsv {

kernels::PowerFactorView StrictRows::view() const {
  return {static_cast<index_t>(rowptr.size()) - 1, nnz(), rowptr.data(), colind.data(), values.data()};
}

bool is_valid_power(int power) { return power == 2 || power == 4 || power == 8 || power == 16; }

std::optional<PoweredSchemeName> parse_powered_scheme(const std::string& scheme) {
  if (scheme.rfind("pow", 0) != 0) return std::nullopt;
  const std::size_t colon = scheme.find(':');
  PoweredSchemeName out;
  out.power = -1;
  if (colon != std::string::npos && colon > 3 && colon <= 5 &&
      scheme.find_first_not_of("0123456789", 3) == colon) {
    out.power = std::stoi(scheme.substr(3, colon - 3));
  }
  out.base = colon == std::string::npos ? "" : scheme.substr(colon + 1);
  return out;
}

namespace detail {
namespace {

constexpr std::size_t kRowsPerChunk = std::size_t(1) << 14;

struct ChunkRows {
  std::size_t begin = 0;
  std::vector<index_t> colind;
  std::vector<double> values;
};

// Row i of a * b into `out` (sorted by column, duplicates summed in the order a's entries, then
// b's, list them, so the result does not depend on the thread count).
void multiply_row(const StrictRows& a, const StrictRows& b, std::size_t i, std::vector<std::pair<index_t, double>>& pairs,
                  ChunkRows& out, index_t& count) {
  pairs.clear();
  for (index_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
    const auto j = static_cast<std::size_t>(a.colind[p]);
    for (index_t q = b.rowptr[j]; q < b.rowptr[j + 1]; ++q) pairs.emplace_back(b.colind[q], a.values[p] * b.values[q]);
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  count = 0;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    if (count > 0 && out.colind.back() == pairs[k].first) {
      out.values.back() += pairs[k].second;
    } else {
      out.colind.push_back(pairs[k].first);
      out.values.push_back(pairs[k].second);
      ++count;
    }
  }
}

}  // namespace

StrictRows multiply_strict(const StrictRows& a, const StrictRows& b, std::int64_t max_entries) {
  const std::size_t n = a.rowptr.size() - 1;
  // The work is the number of products; refuse a product that would cost far more than its cap
  // allows before doing any of it (a hub row of a power-law matrix times its neighbours).
  std::int64_t products = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (index_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const auto j = static_cast<std::size_t>(a.colind[p]);
      products += b.rowptr[j + 1] - b.rowptr[j];
    }
  if (products > 16 * max_entries) {
    throw InvalidArgument("the product needs " + std::to_string(products) + " multiplications, over 16x its cap of " +
                          std::to_string(max_entries) + " entries");
  }
  std::vector<index_t> counts(n);
  std::vector<ChunkRows> chunks((n + kRowsPerChunk - 1) / kRowsPerChunk);
  std::atomic<std::int64_t> total{0};
  parallel_chunks(chunks.size(), 1, [&](std::size_t first, std::size_t last) {
    std::vector<std::pair<index_t, double>> pairs;
    for (std::size_t c = first; c < last; ++c) {
      ChunkRows& out = chunks[c];
      out.begin = c * kRowsPerChunk;
      const std::size_t end = std::min(n, out.begin + kRowsPerChunk);
      for (std::size_t i = out.begin; i < end; ++i) multiply_row(a, b, i, pairs, out, counts[i]);
      if (total.fetch_add(static_cast<std::int64_t>(out.colind.size())) > max_entries) return;
    }
  });
  if (total.load() > max_entries) {
    throw InvalidArgument("the product has more than its cap of " + std::to_string(max_entries) + " entries");
  }
  StrictRows c;
  c.rowptr.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) c.rowptr[i + 1] = c.rowptr[i] + counts[i];
  c.colind.resize(static_cast<std::size_t>(c.rowptr[n]));
  c.values.resize(c.colind.size());
  parallel_chunks(chunks.size(), 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      const auto at = static_cast<std::ptrdiff_t>(c.rowptr[chunks[k].begin]);
      std::copy(chunks[k].colind.begin(), chunks[k].colind.end(), c.colind.begin() + at);
      std::copy(chunks[k].values.begin(), chunks[k].values.end(), c.values.begin() + at);
    }
  });
  return c;
}

}  // namespace detail

namespace {

// M = -D^-1 (T - D) and D^-1 from a normalised triangle (diagonal last in lower rows, first in upper).
StrictRows strict_part(const kernels::TriangularView& t, std::vector<double>& inverse_diagonal) {
  const auto n = static_cast<std::size_t>(t.n);
  StrictRows m;
  m.rowptr.resize(n + 1);
  m.colind.reserve(static_cast<std::size_t>(t.rowptr[n]) - n);
  m.values.reserve(m.colind.capacity());
  inverse_diagonal.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    m.rowptr[i] = static_cast<index_t>(m.colind.size());
    const index_t first = t.rowptr[i], last = t.rowptr[i + 1];
    const index_t diagonal = t.upper ? first : last - 1;
    inverse_diagonal[i] = 1.0 / t.values[diagonal];
    for (index_t p = t.upper ? first + 1 : first; p < (t.upper ? last : last - 1); ++p) {
      m.colind.push_back(t.colind[p]);
      m.values.push_back(-t.values[p] * inverse_diagonal[i]);
    }
  }
  m.rowptr[n] = static_cast<index_t>(m.colind.size());
  return m;
}

double largest_row_sum(const StrictRows& m) {
  double most = 0;
  for (std::size_t i = 0; i + 1 < m.rowptr.size(); ++i) {
    double sum = 0;
    for (index_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) sum += std::fabs(m.values[p]);
    most = std::max(most, sum);
  }
  return most;
}

}  // namespace

PoweredTriangle::PoweredTriangle(const kernels::TriangularView& t, int power, const PowerLimits& limits)
    : power_(power) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string who = "pow" + std::to_string(power);
  if (!is_valid_power(power)) throw InvalidArgument(who + ": the power must be 2, 4, 8 or 16");
  const std::int64_t nnz = t.n > 0 ? t.rowptr[t.n] : 0;
  const auto max_entries = static_cast<std::int64_t>(
      std::min<double>(limits.max_entry_ratio * static_cast<double>(std::max<std::int64_t>(nnz, 1)), INT_MAX - 1));
  StrictRows current = strict_part(t, inverse_diagonal_);
  StrictRows top;
  try {
    for (int k = 1;; k *= 2) {
      growth_ = std::max(growth_, largest_row_sum(current));
      if (k == power) {
        top = std::move(current);
        break;
      }
      StrictRows next = detail::multiply_strict(current, current, max_entries);
      factors_.push_back(std::move(current));
      current = std::move(next);
    }
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(who + ": M^" + std::to_string(power) + " too large for the powered form (" + e.what() + ")");
  }
  if (!(growth_ <= limits.max_growth)) {
    throw InvalidArgument(who + ": a power of M has an absolute row sum of " + std::to_string(growth_) + ", over " +
                          std::to_string(limits.max_growth) + ": the powered form would amplify rounding");
  }
  Csr csr;  // I - M^K with the unit diagonal left implicit
  csr.rows = csr.cols = t.n;
  csr.rowptr.assign(top.rowptr.begin(), top.rowptr.end());
  csr.colind = std::move(top.colind);
  csr.values = std::move(top.values);
  for (double& v : csr.values) v = -v;
  pattern_ = std::make_unique<TriangularPattern>(csr, t.upper ? Triangle::Upper : Triangle::Lower, true);
  build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void PoweredTriangle::rhs_cpu(const double* b, double* d, std::vector<double>& scratch) const {
  const auto n = inverse_diagonal_.size();
  scratch.resize(n);
  const double* in = b;
  const double* scale = inverse_diagonal_.data();
  const std::size_t steps = factors_.size();
  for (std::size_t k = 0; k < steps; ++k) {
    double* out = (steps - 1 - k) % 2 == 0 ? d : scratch.data();  // the last pass lands in d
    kernels::powered_rhs_step_cpu(factors_[k].view(), scale, in, out);
    in = out;
    scale = nullptr;
  }
}

std::shared_ptr<const PoweredTriangle> PoweredCache::get(int power) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = failed_.find(power); it != failed_.end()) std::rethrow_exception(it->second);
  if (auto it = built_.find(power); it != built_.end()) return it->second;
  try {
    auto p = std::make_shared<const PoweredTriangle>(t_, power);
    built_[power] = p;
    return p;
  } catch (...) {
    failed_[power] = std::current_exception();
    throw;
  }
}

}  // namespace hetsparse::sptrsv
