#include "bench/leaf_subtrees.hpp"

#include "kernels/supernode/supernode.hpp"
#include "planners/supernodal_cholesky.hpp"

namespace hetsparse::bench {

LeafSubtrees::LeafSubtrees(const Csr& lower_triangle, double subtree_max_flops)
    : lower(lower_triangle),
      sym(cholesky::analyze(lower)),
      lay(planners::plan_factor_layout(sym, subtree_max_flops)),
      L(sym),
      map(cholesky::build_assembly_map(lower, cholesky::InputTriangle::Lower, sym)) {
  reassemble();
  const auto by_target = planners::updates_by_target(sym);
  for (index_t g = 0; g < lay.num_groups(); ++g) {
    if (!lay.subtree[g]) continue;
    groups.push_back(g);
    for (index_t t = lay.group_begin[g]; t < lay.group_begin[g + 1]; ++t) {
      flops += planners::factor_flops(sym.supernodes[t]);
      for (const auto& u : by_target[t]) flops += u.flops;
    }
  }
}

void LeafSubtrees::reassemble() { cholesky::assemble(lower, map, L); }

long bench_threads(long requested) {
  return requested > 0 ? requested : static_cast<long>(std::thread::hardware_concurrency());
}

double factor_leaf_subtrees(LeafSubtrees& s, long threads, std::vector<int>& info) {
  info.assign(static_cast<std::size_t>(s.sym.num_supernodes()), 0);
  return share_items(threads, s.groups.size(), [&] {
    return [&s, &info, w = std::vector<double>()](std::size_t k) mutable {
      const index_t first = s.lay.group_begin[s.groups[k]], last = s.lay.group_begin[s.groups[k] + 1];
      w.resize(kernels::supernode_subtree_work_doubles(s.lay.loc.data(), first, last) + 1);
      kernels::supernode_subtree_cpu(s.lay.loc.data(), s.sym.rows.data(), s.sym.col_to_supernode.data(), first, last,
                                     s.L.values.data() + s.lay.loc[first].value_offset, info.data() + first, w.data());
    };
  });
}

}  // namespace hetsparse::bench
