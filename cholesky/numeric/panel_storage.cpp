#include "cholesky/numeric/panel_storage.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "sparse/memory_budget.hpp"
#include "hetsparse/error.hpp"
#include "sparse/host_threads.hpp"

namespace hetsparse::cholesky {

std::vector<offset_t> panel_offsets(const SymbolicFactor& sym) {
  std::vector<offset_t> offset(sym.supernodes.size() + 1, 0);
  for (std::size_t s = 0; s < sym.supernodes.size(); ++s)
    offset[s + 1] = offset[s] + sym.supernodes[s].nrows * sym.supernodes[s].ncols;
  return offset;
}

PanelStorage::PanelStorage(const SymbolicFactor& sym) : offset(panel_offsets(sym)) {
  require_fits(sym);
  values.resize(static_cast<std::size_t>(offset.back()));
}

void PanelStorage::require_fits(const SymbolicFactor& sym) const {
  require_memory(ByteCount().add(static_cast<std::uint64_t>(offset.back()), sizeof(double)).bytes(),
                 "the Cholesky factor L (" + std::to_string(offset.back()) + " entries in " +
                     std::to_string(sym.supernodes.size()) + " supernode panels)");
}

AssemblyMap build_assembly_map(const Csr& A, InputTriangle input, const SymbolicFactor& sym) {
  if (A.rows != sym.n || A.cols != sym.n)
    throw InvalidArgument("Cholesky: the matrix is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) +
                          ", the analysis was for order " + std::to_string(sym.n));
  // Offsets only: allocating the panels here would zero-fill all of L (gigabytes on 3D problems).
  const std::vector<offset_t> offset = panel_offsets(sym);
  AssemblyMap m;
  m.rows = A.rows;
  m.nnz = A.nnz();
  m.position.assign(static_cast<std::size_t>(A.nnz()), -1);
  m.supernode.assign(static_cast<std::size_t>(A.nnz()), -1);
  // Rows in parallel (each entry is independent); a row whose entry lies outside the structure stops
  // its chunk, and the first such row in order is reported, whatever the threads' timing.
  std::atomic<index_t> first_bad{A.rows};
  auto map_row = [&](index_t i) {
    for (offset_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k) {
      const index_t j = A.colind[k];
      if (input == InputTriangle::Full && j > i) continue;  // the lower copy carries the value
      const index_t pi = sym.iperm[i], pj = sym.iperm[j];
      const index_t row = std::max(pi, pj), col = std::min(pi, pj);
      const index_t s = sym.col_to_supernode[col];
      const Supernode& sn = sym.supernodes[s];
      const auto first = sym.rows.begin() + sn.row_begin, last = first + sn.nrows;
      const auto it = std::lower_bound(first, last, row);
      if (it == last || *it != row) return j;  // cannot happen for a correct analysis of this pattern
      m.position[k] = offset[s] + offset_t(col - sn.first_col) * sn.nrows + (it - first);
      m.supernode[k] = s;
    }
    return index_t{-1};
  };
  auto note_bad = [&first_bad](index_t i) {
    index_t seen = first_bad.load();
    while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
    }
  };
  parallel_chunks(static_cast<std::size_t>(A.rows), std::size_t(1) << 15, [&](std::size_t b, std::size_t e) {
    for (auto i = static_cast<index_t>(b); i < static_cast<index_t>(e); ++i)
      if (map_row(i) >= 0) return note_bad(i);
  });
  if (const index_t i = first_bad.load(); i < A.rows)
    throw StructureError(i, map_row(i), "Cholesky: entry of A outside the symbolic structure (pattern changed?)");
  return m;
}

void check_assembly_pattern(const Csr& A, const AssemblyMap& map) {
  if (A.rows != map.rows || A.nnz() != map.nnz)
    throw InvalidArgument("Cholesky: the matrix does not have the pattern that was analyzed (" +
                          std::to_string(A.nnz()) + " entries, expected " + std::to_string(map.nnz) + ")");
}

void assemble(const Csr& A, const AssemblyMap& map, PanelStorage& L) {
  check_assembly_pattern(A, map);
  parallel_chunks(L.values.size(), std::size_t(1) << 23, [&L](std::size_t b, std::size_t e) {
    std::fill(L.values.begin() + std::ptrdiff_t(b), L.values.begin() + std::ptrdiff_t(e), 0.0);
  });
  for (offset_t k = 0; k < map.nnz; ++k)
    if (map.position[k] >= 0) L.values[map.position[k]] += A.values[k];
}

}  // namespace hetsparse::cholesky
