// The assembly map (cholesky/numeric/panel_storage.hpp), built over rows in parallel: a matrix with
// entries outside the analysed structure is refused with the first such entry in row order,
// whichever thread met it first.
#include <gtest/gtest.h>

#include <algorithm>

#include "cholesky/numeric/panel_storage.hpp"
#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "symbolic/analysis.hpp"

namespace hetsparse::test {
namespace {

bool in_structure(const cholesky::SymbolicFactor& sym, index_t i, index_t j) {
  const index_t row = std::max(sym.iperm[i], sym.iperm[j]), col = std::min(sym.iperm[i], sym.iperm[j]);
  const cholesky::Supernode& sn = sym.supernodes[sym.col_to_supernode[col]];
  const auto first = sym.rows.begin() + sn.row_begin, last = first + sn.nrows;
  return std::binary_search(first, last, row);
}

TEST(AssemblyMap, FirstEntryOutsideTheStructureInRowOrder) {
  const Csr lower = triangle(laplacian_3d(42, 42, 42), Triangle::Lower);  // 74,088 rows: several chunks
  const cholesky::SymbolicFactor sym = cholesky::analyze(lower);
  const cholesky::AssemblyMap map = cholesky::build_assembly_map(lower, cholesky::InputTriangle::Lower, sym);
  EXPECT_EQ(std::count(map.position.begin(), map.position.end(), -1), 0);
  // One foreign entry early and one late: the early one is named.
  Coo coo = to_coo(lower);
  std::vector<std::pair<index_t, index_t>> bad;
  for (const index_t r : {index_t(1000), lower.rows - 5}) {
    index_t c = 0;
    while (in_structure(sym, r, c)) ++c;
    bad.push_back({r, c});
    coo.row.push_back(r);
    coo.col.push_back(c);
    coo.val.push_back(0.5);
  }
  try {
    cholesky::build_assembly_map(to_csr(coo), cholesky::InputTriangle::Lower, sym);
    FAIL() << "entries outside the structure were accepted";
  } catch (const StructureError& e) {
    EXPECT_EQ(e.row(), bad[0].first);
    EXPECT_EQ(e.col(), bad[0].second);
  }
}

}  // namespace
}  // namespace hetsparse::test
