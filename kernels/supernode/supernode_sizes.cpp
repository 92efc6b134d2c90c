// Host-side sizing for the supernode kernels: update ranges and work-buffer sizes. Compiled in
// every build, since planners size the buffers whether or not CUDA is there.
#include <algorithm>
#include <string>

#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_batch_layout.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {
namespace {

std::size_t round_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// m * k of an update; the range is checked only as far as the product needs.
std::size_t product_doubles(const char* routine, const ConstPanelRef& d, UpdateRange r) {
  if (r.r0 < 0 || r.r1 < r.r0 || r.r1 > d.nrows) {
    throw InvalidArgument(std::string(routine) + ": range [" + std::to_string(r.r0) + ", " + std::to_string(r.r1) +
                          ") is not within the descendant's " + std::to_string(d.nrows) + " rows");
  }
  return static_cast<std::size_t>(d.nrows - r.r0) * static_cast<std::size_t>(r.r1 - r.r0);
}

}  // namespace

UpdateRange update_range(const std::int32_t* d_rows, std::int32_t d_nrows, std::int32_t t_first_col,
                         std::int32_t t_ncols) {
  if (d_nrows < 0 || t_ncols < 0 || (d_nrows > 0 && d_rows == nullptr)) {
    throw InvalidArgument("update_range: d_nrows = " + std::to_string(d_nrows) + ", t_ncols = " +
                          std::to_string(t_ncols) + (d_rows == nullptr ? ", no row list" : ""));
  }
  // 64-bit bounds: t_first_col + t_ncols may not fit int32.
  const auto below = [](std::int32_t row, std::int64_t bound) { return row < bound; };
  const std::int32_t* const end = d_rows + d_nrows;
  const std::int32_t* const first = std::lower_bound(d_rows, end, std::int64_t{t_first_col}, below);
  const std::int32_t* const last =
      std::lower_bound(first, end, static_cast<std::int64_t>(t_first_col) + t_ncols, below);
  return {static_cast<std::int32_t>(first - d_rows), static_cast<std::int32_t>(last - d_rows)};
}

std::size_t supernode_update_work_doubles(ConstPanelRef d, UpdateRange r) {
  return product_doubles("supernode_update_work_doubles", d, r);
}

namespace supernode_detail {

bool is_fused(const ConstPanelRef& d, UpdateRange r, double fused_max_flops) {
  const double m = double(d.nrows) - r.r0, k = double(r.r1) - r.r0;
  return 2.0 * m * k * double(d.ncols) < fused_max_flops;
}

BatchLayout batch_layout(const char* routine, const ConstPanelRef* ds, const UpdateRange* rs, int count,
                         double fused_max_flops) {
  if (count < 0) throw InvalidArgument(std::string(routine) + ": count = " + std::to_string(count) + " is negative");
  if (count > 0 && (ds == nullptr || rs == nullptr)) {
    throw InvalidArgument(std::string(routine) + ": no descendants or no ranges for " + std::to_string(count) +
                          " updates");
  }
  BatchLayout layout;
  if (count == 0) return layout;
  const auto n = static_cast<std::size_t>(count);
  layout.fused_table_offset = round_up(n * sizeof(ScatterJob), alignof(FusedJob));
  layout.table_bytes = round_up(layout.fused_table_offset + n * sizeof(FusedJob), kWorkAlignment);
  constexpr std::size_t kAlignDoubles = kWorkAlignment / sizeof(double);
  std::size_t next = layout.table_bytes / sizeof(double);
  layout.c_offsets.assign(n, 0);
  layout.fused.assign(n, 0);
  for (int u = 0; u < count; ++u) {
    const std::size_t doubles = product_doubles(routine, ds[u], rs[u]);
    if (is_fused(ds[u], rs[u], fused_max_flops)) {
      layout.fused[u] = 1;
      continue;
    }
    layout.c_offsets[u] = next;
    next += round_up(doubles, kAlignDoubles);
  }
  layout.total_bytes = next * sizeof(double);
  return layout;
}

}  // namespace supernode_detail

std::size_t supernode_update_batch_work_bytes(const ConstPanelRef* ds, const UpdateRange* rs, int count,
                                              double fused_max_flops) {
  return supernode_detail::batch_layout("supernode_update_batch_work_bytes", ds, rs, count, fused_max_flops)
      .total_bytes;
}

}  // namespace hetsparse::kernels
