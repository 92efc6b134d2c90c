#include "planners/supernodal_layout.hpp"

#include <algorithm>
#include <exception>

#include "hetsparse/error.hpp"
#include "planners/supernodal_cholesky.hpp"

namespace hetsparse::planners {

std::vector<codelets::PanelLocation> supernode_locations(const cholesky::SymbolicFactor& sym) {
  std::vector<codelets::PanelLocation> loc;
  loc.reserve(sym.supernodes.size());
  std::int64_t offset = 0;
  for (const cholesky::Supernode& sn : sym.supernodes) {
    loc.push_back({offset, sn.row_begin, static_cast<std::int32_t>(sn.nrows), sn.ncols, sn.first_col, 0});
    offset += sn.nrows * sn.ncols;
  }
  return loc;
}

std::vector<double> subtree_work(const cholesky::SymbolicFactor& sym) {
  const index_t ns = sym.num_supernodes();
  std::vector<double> w(ns);
  for (index_t t = 0; t < ns; ++t) w[t] += factor_flops(sym.supernodes[t]);
  for (const auto& into : updates_by_target(sym))
    for (const PlannedUpdate& u : into) w[u.d] += u.flops;
  for (index_t s = 0; s < ns; ++s)  // children come before parents in postorder
    if (sym.supernodes[s].parent >= 0) w[sym.supernodes[s].parent] += w[s];
  return w;
}

FactorLayout plan_factor_layout(const cholesky::SymbolicFactor& sym, double subtree_max_flops) {
  const index_t ns = sym.num_supernodes();
  FactorLayout L;
  L.loc = supernode_locations(sym);
  L.group_of.assign(ns, 0);
  const std::vector<double> w = subtree_work(sym);
  double total = 0;
  for (index_t s = 0; s < ns; ++s)
    if (sym.supernodes[s].parent < 0) total += w[s];
  double limit = subtree_max_flops;
  if (limit < 0) limit = std::clamp(total / 1024.0, 1e7, 1e9);
  L.subtree_max_flops = limit;

  // size[s]: supernodes in s's subtree, which is [s - size[s] + 1, s] in postorder.
  std::vector<index_t> size(ns, 1);
  for (index_t s = 0; s < ns; ++s)
    if (sym.supernodes[s].parent >= 0) size[sym.supernodes[s].parent] += size[s];
  // end_of_subtree[first] = root + 1 for every maximal subtree under the limit.
  std::vector<index_t> end_of_subtree(ns, -1);
  if (limit > 0)
    for (index_t s = 0; s < ns; ++s) {
      const index_t p = sym.supernodes[s].parent;
      if (w[s] <= limit && (p < 0 || w[p] > limit)) end_of_subtree[s - size[s] + 1] = s + 1;
    }
  for (index_t s = 0; s < ns;) {
    const bool sub = end_of_subtree[s] >= 0;
    index_t end = sub ? end_of_subtree[s] : s + 1;
    // Small maximal subtrees that follow each other in postorder join while their work stays under
    // limit / kMergeShare: a forest of tiny trees (a diagonal matrix: one per column) is then a few
    // tasks, not one task and one handle per column, while the big subtrees, which feed the GPU's
    // first top-level tasks, still finish one by one.
    constexpr double kMergeShare = 16;
    for (double work = sub ? w[end - 1] : 0; sub && end < ns && end_of_subtree[end] >= 0;) {
      const index_t next_end = end_of_subtree[end];
      if (work + w[next_end - 1] > limit / kMergeShare) break;
      work += w[next_end - 1];
      end = next_end;
    }
    L.group_begin.push_back(s);
    L.subtree.push_back(sub ? 1 : 0);
    for (index_t x = s; x < end; ++x) L.group_of[x] = L.num_groups() - 1;
    s = end;
  }
  L.group_begin.push_back(ns);
  return L;
}

RegisteredFactor::RegisteredFactor(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym,
                                   const FactorLayout& layout, double* values, int* info_array)
    : host_info(info_array), rt_(rt) {
  auto keep = [&](rt::HandleId id) {
    owned_.push_back(id);
    return id;
  };
  auto* row_data = const_cast<index_t*>(sym.rows.data());  // read-only in every task
  rows = keep(rt.register_vector({row_data, sym.rows.size(), sizeof(index_t)}));
  for (index_t g = 0; g < layout.num_groups(); ++g) {
    const index_t first = layout.group_begin[g], last = layout.group_begin[g + 1] - 1;
    const auto& a = layout.loc[first];
    const auto& b = layout.loc[last];
    const std::int64_t count = b.value_offset + std::int64_t(b.nrows) * b.ncols - a.value_offset;
    double* p = values ? values + a.value_offset : nullptr;
    group.push_back(keep(rt.register_vector({p, std::size_t(count), sizeof(double), -1, false})));
    // One int: pinning would lock (and fail to lock twice) its whole page.
    info.push_back(layout.subtree[g] ? 0 : keep(rt.register_vector({info_array + first, 1, sizeof(int), -1, false})));
  }
}

RegisteredFactor::~RegisteredFactor() {
  try {
    for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) rt_.discard(*it);
  } catch (const std::exception&) {
    // The runtime was shut down first (its shutdown unregistered every handle).
  }
}

}  // namespace hetsparse::planners
