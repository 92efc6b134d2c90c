// Building blocks shared by the generators: grid geometry, row-by-row CSR assembly and
// R-MAT edge drawing. Internal to sparse/.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sparse/csr.hpp"
#include "sparse/random.hpp"

namespace hetsparse {

// A structured grid of nx * ny * nz nodes; node(x, y, z) = x + nx * (y + ny * z).
struct Grid {
  index_t nx, ny, nz;
  // Throws InvalidArgument (naming `who`) unless every side is >= 1 and the number of
  // unknowns, nodes * dofs_per_node, fits in index_t.
  Grid(const char* who, index_t x, index_t y, index_t z, int dofs_per_node = 1);
  index_t nodes() const { return nx * ny * nz; }
  index_t node(index_t x, index_t y, index_t z) const { return x + nx * (y + ny * z); }
  bool inside(index_t x, index_t y, index_t z) const {
    return x >= 0 && x < nx && y >= 0 && y < ny && z >= 0 && z < nz;
  }
};

struct Offset {
  int dx, dy, dz;
  bool is_center() const { return dx == 0 && dy == 0 && dz == 0; }
};

// Stencil offsets in increasing column order: the star (center and +-1 along each axis) or
// the full box {-1, 0, 1}^dims, for dims 2 or 3.
std::vector<Offset> stencil_offsets(int dims, bool box);

// InsufficientMemory (sparse/memory_budget.hpp) before a generator builds a rows x rows matrix of
// about `entries` entries, as triplets (`bytes_per_entry` each: 16, or 8 for bare edge pairs) then
// as CSR, so that an absurd spec is refused with the figure instead of exhausting the machine.
void require_generator_memory(const char* who, index_t rows, double entries, int bytes_per_entry = 16);

// Appends rows in order; each row's columns must be added in increasing order. Refuses (as
// require_generator_memory) a matrix the machine cannot hold.
class CsrBuilder {
 public:
  CsrBuilder(index_t rows, index_t cols, offset_t expected_nnz);
  void add(index_t col, double value) {
    a_.colind.push_back(col);
    a_.values.push_back(value);
  }
  void end_row() { a_.rowptr.push_back(static_cast<offset_t>(a_.colind.size())); }
  Csr finish();

 private:
  Csr a_;
};

// Assembles a grid stencil: weight(x, y, z, offset) gives each entry; neighbours outside
// the grid are dropped (Dirichlet boundary), and so are zero off-diagonal weights.
template <class Weight>
Csr assemble_stencil(const Grid& g, const std::vector<Offset>& offsets, Weight weight) {
  CsrBuilder out(g.nodes(), g.nodes(), static_cast<offset_t>(g.nodes()) * static_cast<offset_t>(offsets.size()));
  for (index_t z = 0; z < g.nz; ++z) {
    for (index_t y = 0; y < g.ny; ++y) {
      for (index_t x = 0; x < g.nx; ++x) {
        for (const Offset& o : offsets) {
          if (!g.inside(x + o.dx, y + o.dy, z + o.dz)) continue;
          const double w = weight(x, y, z, o);
          if (w != 0.0 || o.is_center()) out.add(g.node(x + o.dx, y + o.dy, z + o.dz), w);
        }
        out.end_row();
      }
    }
  }
  return out.finish();
}

// Sets every diagonal entry (each row must store one) to the sum of the row's off-diagonal
// magnitudes plus `shift`: with shift > 0 the matrix is strictly diagonally dominant, and SPD
// when it is symmetric.
void make_diagonally_dominant(Csr& a, double shift);

// Checks R-MAT arguments (InvalidArgument naming `who`): 1 <= scale <= 30, edge_factor >= 1,
// probabilities >= 0 summing to 1 within 1e-9.
void check_rmat(const char* who, int scale, int edge_factor, double a, double b, double c, double d);

// edge_factor * 2^scale R-MAT draws (source, target), vertices already relabelled by a
// random permutation; self loops and duplicates are still present.
std::vector<std::pair<index_t, index_t>> draw_rmat_edges(int scale, int edge_factor, double a, double b,
                                                         double c, Rng& rng);

// How pattern_from_edges stores an edge (u, v), u != v.
enum class EdgeStorage {
  Symmetric,  // as (u, v) and (v, u)
  Lower,      // once, as (max, min)
};

// An n x n pattern with one entry per distinct stored edge position, rows sorted, values 0.
// Self loops are dropped; with_diagonal adds every (i, i) instead.
Csr pattern_from_edges(index_t n, const std::vector<std::pair<index_t, index_t>>& edges, EdgeStorage storage,
                       bool with_diagonal);

}  // namespace hetsparse
