#include "cholesky/numeric/grouped_assembly.hpp"

#include <algorithm>

#include "sparse/host_threads.hpp"

namespace hetsparse::cholesky {

GroupedAssembly group_entries(const AssemblyMap& map, const planners::FactorLayout& layout,
                              const std::vector<bool>& device) {
  const index_t G = layout.num_groups();
  GroupedAssembly g;
  const std::vector<index_t>& sn = map.supernode;
  const std::size_t nnz = sn.size();
  const std::size_t nch =
      std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(host_thread_count(0)), nnz >> 18));
  const std::size_t per = (nnz + nch - 1) / nch;
  std::vector<offset_t> cursor(nch * static_cast<std::size_t>(G), 0);
  std::vector<std::int64_t> base(static_cast<std::size_t>(G));
  for (index_t k = 0; k < G; ++k) base[k] = layout.loc[layout.group_begin[k]].value_offset;
  parallel_chunks(nch, 1, [&](std::size_t c0, std::size_t c1) {
    for (std::size_t c = c0; c < c1; ++c)
      for (std::size_t k = c * per; k < std::min(nnz, (c + 1) * per); ++k)
        if (sn[k] >= 0) ++cursor[c * G + layout.group_of[sn[k]]];
  });
  g.begin.assign(G, 0);
  g.end.assign(G, 0);
  offset_t next = 0;
  for (int pass = 0; pass < 2; ++pass) {  // the device groups first
    for (index_t k = 0; k < G; ++k) {
      if (device[k] != (pass == 0)) continue;
      g.begin[k] = next;
      for (std::size_t c = 0; c < nch; ++c) {
        const offset_t n = cursor[c * G + k];
        cursor[c * G + k] = next;
        next += n;
      }
      g.end[k] = next;
    }
    if (pass == 0) g.device_entries = next;
  }
  g.src.resize(static_cast<std::size_t>(next));
  g.pos.resize(static_cast<std::size_t>(next));
  g.values.resize(static_cast<std::size_t>(next));
  parallel_chunks(nch, 1, [&](std::size_t c0, std::size_t c1) {
    for (std::size_t c = c0; c < c1; ++c)
      for (std::size_t k = c * per; k < std::min(nnz, (c + 1) * per); ++k) {
        const index_t s = sn[k];
        if (s < 0) continue;
        const index_t grp = layout.group_of[s];
        const offset_t e = cursor[c * G + grp]++;
        g.src[e] = static_cast<offset_t>(k);
        g.pos[e] = map.position[k] - base[grp];
      }
  });
  return g;
}

}  // namespace hetsparse::cholesky
