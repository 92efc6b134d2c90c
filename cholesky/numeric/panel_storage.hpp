// Numeric storage of L: every supernode's dense column-major panel (nrows x ncols, ld = nrows) in
// one array with 64-bit offsets (nnz(L) passes 2^31 on 3D problems), and the map that scatters the
// entries of A into the panels, built once per pattern so refactorize only copies values.
#pragma once
#include <vector>

#include "cholesky/numeric/uninitialized_allocator.hpp"

#include "symbolic/analyze_options.hpp"
#include "symbolic/symbolic_factor.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::cholesky {

// Where each supernode's panel starts in PanelStorage::values, plus the total at the end.
std::vector<offset_t> panel_offsets(const SymbolicFactor& sym);

struct PanelStorage {
  std::vector<offset_t> offset;  // panel_offsets(sym)
  std::vector<double, UninitializedAllocator<double>> values;  // unspecified until assembled

  // InsufficientMemory (require_fits) before anything is allocated when L does not fit.
  explicit PanelStorage(const SymbolicFactor& sym);
  // Throws InsufficientMemory, with the bytes L needs, unless they fit in the memory available now.
  void require_fits(const SymbolicFactor& sym) const;
  double* panel(index_t s) { return values.data() + offset[s]; }
  const double* panel(index_t s) const { return values.data() + offset[s]; }
};

// For each stored entry of A (CSR order): its position in PanelStorage::values, or -1 when the
// entry is the redundant upper copy of a full symmetric input, and the supernode of that position
// (-1 likewise): the factorization sorts the entries by panel group once per layout, and each
// group's assembly task (on the group's home device) zeroes and fills its panels.
struct AssemblyMap {
  std::vector<offset_t> position;
  std::vector<index_t> supernode;
  index_t rows = 0;
  offset_t nnz = 0;
};
AssemblyMap build_assembly_map(const Csr& A, InputTriangle input, const SymbolicFactor& sym);
// Throws InvalidArgument unless A has the pattern the map was built for (as far as sizes tell).
void check_assembly_pattern(const Csr& A, const AssemblyMap& map);
// Zeroes all panels on the host and scatters A's values (for host-only tools and tests; the solver
// assembles each panel group in a task on its home device instead).
void assemble(const Csr& A, const AssemblyMap& map, PanelStorage& L);

}  // namespace hetsparse::cholesky
