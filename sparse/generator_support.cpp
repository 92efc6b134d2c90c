// Grid geometry, CSR assembly and R-MAT sampling for the generators.
#include "sparse/generator_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>

#include "hetsparse/error.hpp"
#include "sparse/memory_budget.hpp"

namespace hetsparse {

Grid::Grid(const char* who, index_t x, index_t y, index_t z, int dofs_per_node) : nx(x), ny(y), nz(z) {
  if (x < 1 || y < 1 || z < 1) {
    throw InvalidArgument(std::string(who) + ": grid sides must be >= 1, got " + std::to_string(x) + " x " +
                          std::to_string(y) + " x " + std::to_string(z));
  }
  const double unknowns = static_cast<double>(x) * y * z * dofs_per_node;
  if (unknowns > static_cast<double>(std::numeric_limits<index_t>::max())) {
    throw InvalidArgument(std::string(who) + ": " + std::to_string(x) + " x " + std::to_string(y) + " x " +
                          std::to_string(z) + " grid has more unknowns than index_t can number");
  }
}

std::vector<Offset> stencil_offsets(int dims, bool box) {
  const int zr = dims == 3 ? 1 : 0;
  std::vector<Offset> out;
  // (dz, dy, dx) lexicographic order is increasing column order for node = x + nx (y + ny z).
  for (int dz = -zr; dz <= zr; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (box || std::abs(dx) + std::abs(dy) + std::abs(dz) <= 1) out.push_back({dx, dy, dz});
      }
    }
  }
  return out;
}

void require_generator_memory(const char* who, index_t rows, double entries, int bytes_per_entry) {
  const auto count = static_cast<std::uint64_t>(std::min(entries, 1e18));
  require_memory(ByteCount()
                     .add(static_cast<std::uint64_t>(rows) + 1, sizeof(offset_t))
                     .add(count, static_cast<std::uint64_t>(bytes_per_entry) + sizeof(index_t) + sizeof(double))
                     .bytes(),
                 std::string(who) + ": the " + std::to_string(rows) + " x " + std::to_string(rows) +
                     " matrix of about " + std::to_string(count) + " entries");
}

CsrBuilder::CsrBuilder(index_t rows, index_t cols, offset_t expected_nnz) {
  require_generator_memory("generator", rows, static_cast<double>(expected_nnz), 0);
  a_.rows = rows;
  a_.cols = cols;
  a_.rowptr.reserve(static_cast<std::size_t>(rows) + 1);
  a_.rowptr.push_back(0);
  a_.colind.reserve(static_cast<std::size_t>(expected_nnz));
  a_.values.reserve(static_cast<std::size_t>(expected_nnz));
}

Csr CsrBuilder::finish() {
  Csr out = std::move(a_);
  a_ = Csr{};
  return out;
}

void make_diagonally_dominant(Csr& a, double shift) {
  for (index_t i = 0; i < a.rows; ++i) {
    double sum = 0.0;
    offset_t diagonal = -1;
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      if (a.colind[p] == i) {
        diagonal = p;
      } else {
        sum += std::abs(a.values[p]);
      }
    }
    if (diagonal < 0) throw StructureError(i, i, "make_diagonally_dominant: row has no diagonal entry");
    a.values[diagonal] = sum + shift;
  }
}

void check_rmat(const char* who, int scale, int edge_factor, double a, double b, double c, double d) {
  if (scale < 1 || scale > 30) {
    throw InvalidArgument(std::string(who) + ": R-MAT scale must be in [1, 30], got " + std::to_string(scale));
  }
  if (edge_factor < 1) {
    throw InvalidArgument(std::string(who) + ": R-MAT edge factor must be >= 1, got " + std::to_string(edge_factor));
  }
  if (static_cast<double>(edge_factor) * std::ldexp(1.0, scale) > 4.0e9) {
    throw InvalidArgument(std::string(who) + ": edge_factor * 2^scale exceeds 4e9 edge draws");
  }
  if (!(a >= 0 && b >= 0 && c >= 0 && d >= 0) || std::abs(a + b + c + d - 1.0) > 1e-9) {
    throw InvalidArgument(std::string(who) + ": R-MAT probabilities must be >= 0 and sum to 1, got a=" +
                          std::to_string(a) + " b=" + std::to_string(b) + " c=" + std::to_string(c) +
                          " d=" + std::to_string(d));
  }
}

std::vector<std::pair<index_t, index_t>> draw_rmat_edges(int scale, int edge_factor, double a, double b,
                                                         double c, Rng& rng) {
  const index_t n = index_t{1} << scale;
  const auto draws = static_cast<std::size_t>(edge_factor) * static_cast<std::size_t>(n);
  // Quadrant thresholds on 32 random bits per level (two levels per 64-bit draw): a = top-left,
  // b = top-right (column bit), c = bottom-left (row bit), d = both bits. Integer compares keep
  // the inner loop branch-free.
  auto threshold = [](double p) {
    return p >= 1.0 ? std::uint64_t{1} << 32 : static_cast<std::uint64_t>(std::ldexp(p, 32));
  };
  const std::uint64_t ta = threshold(a), tab = threshold(a + b), tabc = threshold(a + b + c);
  require_generator_memory("rmat", n, static_cast<double>(draws), sizeof(std::pair<index_t, index_t>));
  std::vector<std::pair<index_t, index_t>> edges(draws);
  for (auto& [u, v] : edges) {
    std::uint32_t row = 0, col = 0;
    std::uint64_t bits = 0;
    for (int level = 0; level < scale; ++level) {  // most significant bit first
      bits = level % 2 == 0 ? rng() : bits >> 32;
      const std::uint64_t r = bits & 0xffffffffu;
      const auto row_bit = static_cast<std::uint32_t>(r >= tab);
      const auto col_bit = static_cast<std::uint32_t>((r >= ta) & ((r < tab) | (r >= tabc)));
      row = (row << 1) | row_bit;
      col = (col << 1) | col_bit;
    }
    u = static_cast<index_t>(row);
    v = static_cast<index_t>(col);
  }
  // Relabelling hides the locality of the recursive construction (vertex 0 would be the hub).
  const std::vector<index_t> label = random_permutation(n, rng);
  for (auto& [u, v] : edges) {
    u = label[static_cast<std::size_t>(u)];
    v = label[static_cast<std::size_t>(v)];
  }
  return edges;
}

Csr pattern_from_edges(index_t n, const std::vector<std::pair<index_t, index_t>>& edges, EdgeStorage storage,
                       bool with_diagonal) {
  Csr a;
  a.rows = n;
  a.cols = n;
  a.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  // Visits each stored position of the edges (and the diagonal) in a fixed order.
  auto for_each_position = [&](auto&& store) {
    for (const auto& [u, v] : edges) {
      if (u == v) continue;
      if (storage == EdgeStorage::Symmetric) {
        store(u, v);
        store(v, u);
      } else {
        store(std::max(u, v), std::min(u, v));
      }
    }
    if (with_diagonal) {
      for (index_t i = 0; i < n; ++i) store(i, i);
    }
  };
  for_each_position([&](index_t r, index_t) { ++a.rowptr[static_cast<std::size_t>(r) + 1]; });
  std::partial_sum(a.rowptr.begin(), a.rowptr.end(), a.rowptr.begin());
  a.colind.resize(static_cast<std::size_t>(a.rowptr.back()));
  std::vector<offset_t> next(a.rowptr.begin(), a.rowptr.end() - 1);
  for_each_position([&](index_t r, index_t col) { a.colind[next[static_cast<std::size_t>(r)]++] = col; });
  // Sort and deduplicate each row, compacting in place: row i moves down to start at `out`.
  offset_t out = 0;
  for (index_t i = 0; i < n; ++i) {
    const auto first = a.colind.begin() + a.rowptr[i];
    const auto last = a.colind.begin() + a.rowptr[i + 1];  // still the uncompacted end
    std::sort(first, last);
    const auto unique_end = std::unique(first, last);
    a.rowptr[i] = out;
    for (auto it = first; it != unique_end; ++it) a.colind[static_cast<std::size_t>(out++)] = *it;
  }
  a.rowptr[static_cast<std::size_t>(n)] = out;
  a.colind.resize(static_cast<std::size_t>(out));
  a.colind.shrink_to_fit();
  a.values.assign(static_cast<std::size_t>(out), 0.0);
  return a;
}

}  // namespace hetsparse
