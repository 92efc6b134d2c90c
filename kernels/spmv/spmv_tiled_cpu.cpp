// The tiled SpMV's algorithm on the host, step for step as the CUDA kernel runs it: a tile's products
// gathered by entry, then reduced per row from that buffer; pieces of long rows summed in piece order
// by the last piece. A plan that does not cover the rows exactly throws, so tests of this path also
// test the plans.
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/spmv/spmv_tiled.hpp"

namespace hetsparse::kernels {
namespace {

double finish(double sum, double alpha, double beta, const double* y) {
  return beta == 0.0 ? alpha * sum : alpha * sum + beta * *y;  // beta == 0: y is never read
}

[[noreturn]] void bad_plan(std::uint32_t tile, const std::string& what) {
  throw InvalidArgument("spmv_tiled_cpu: tile " + std::to_string(tile) + " " + what);
}

}  // namespace

void spmv_tiled_cpu(const TilePlanView& plan, const CsrView& A, const double* x, double* y, double alpha,
                    double beta) {
  if (plan.tiles == 0) {
    if (A.nrows != 0) throw InvalidArgument("spmv_tiled_cpu: empty plan for a matrix with rows");
    return;
  }
  if (plan.tile_row[plan.tiles] != A.nrows || plan.tile_entry[plan.tiles] != A.nnz)
    throw InvalidArgument("spmv_tiled_cpu: the plan was made for another matrix");
  std::vector<double> products(plan.max_entries);
  std::vector<double> partials(plan.tiles);
  std::uint32_t next_row = 0;  // rows must be covered in order, each once
  for (std::uint32_t t = 0; t < plan.tiles; ++t) {
    const std::uint32_t e0 = plan.tile_entry[t], e1 = plan.tile_entry[t + 1], r0 = plan.tile_row[t];
    if (e1 < e0 || e1 - e0 > plan.max_entries) bad_plan(t, "holds more entries than a tile may");
    for (std::uint32_t k = e0; k < e1; ++k) products[k - e0] = A.values[k] * x[A.colind[k]];
    const std::uint32_t l = plan.tile_long[t];
    if (is_piece(l)) {
      double sum = 0.0;
      for (std::uint32_t k = e0; k < e1; ++k) sum += products[k - e0];
      partials[t] = sum;
      const std::uint32_t first = plan.long_first[l], count = plan.long_count[l];
      if (t + 1 == first + count) {  // the last piece: every piece's partial is in
        if (r0 != next_row || plan.tile_entry[first] != A.rowptr[r0] - A.first_entry ||
            e1 != A.rowptr[r0 + 1] - A.first_entry)
          bad_plan(t, "does not end its long row's entries");
        double total = 0.0;
        for (std::uint32_t p = first; p < first + count; ++p) total += partials[p];
        y[r0] = finish(total, alpha, beta, y + r0);
        next_row = r0 + 1;
      }
      continue;
    }
    const std::uint32_t r1 = plan.tile_row[t + 1];
    if (r0 != next_row || r1 <= r0) bad_plan(t, "does not start at the next row");
    if (A.rowptr[r0] - A.first_entry != e0 || A.rowptr[r1] - A.first_entry != e1)
      bad_plan(t, "does not hold exactly its rows' entries");
    for (std::uint32_t r = r0; r < r1; ++r) {
      const std::uint32_t b = A.rowptr[r] - A.first_entry, e = A.rowptr[r + 1] - A.first_entry;
      if (b < e0 || e > e1) bad_plan(t, "has row " + std::to_string(r) + " outside its entries");
      double sum = 0.0;
      for (std::uint32_t k = b; k < e; ++k) sum += products[k - e0];
      y[r] = finish(sum, alpha, beta, y + r);
    }
    next_row = r1;
  }
  if (next_row != A.nrows) throw InvalidArgument("spmv_tiled_cpu: the plan leaves rows out");
}

}  // namespace hetsparse::kernels
