#include "symbolic/supervariables.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace hetsparse::cholesky {
namespace {

// Closed neighbourhoods are equal when u and v are neighbours and their lists agree once each
// leaves the other out (both lists are sorted).
bool same_closed_neighbourhood(const AdjacencyGraph& g, index_t u, index_t v) {
  const index_t *a = g.adj.data() + g.xadj[u], *a_end = g.adj.data() + g.xadj[u + 1];
  const index_t *b = g.adj.data() + g.xadj[v], *b_end = g.adj.data() + g.xadj[v + 1];
  if (a_end - a != b_end - b || !std::binary_search(a, a_end, v)) return false;
  for (;;) {
    if (a != a_end && *a == v) ++a;
    if (b != b_end && *b == u) ++b;
    if (a == a_end || b == b_end) return a == a_end && b == b_end;
    if (*a++ != *b++) return false;
  }
}

std::uint64_t closed_hash(const AdjacencyGraph& g, index_t v) {
  // Order-free (a sum of mixed values), so v's own place in the list does not matter.
  auto mix = [](std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::uint64_t h = mix(static_cast<std::uint64_t>(v));
  for (offset_t p = g.xadj[v]; p < g.xadj[v + 1]; ++p) h += mix(static_cast<std::uint64_t>(g.adj[p]));
  return h;
}

}  // namespace

std::optional<Supervariables> find_supervariables(const AdjacencyGraph& g, double max_ratio) {
  const index_t n = g.n;
  if (n < 2 || g.num_arcs() == 0) return std::nullopt;
  std::vector<std::uint64_t> hash(static_cast<std::size_t>(n));
  for (index_t v = 0; v < n; ++v) hash[v] = closed_hash(g, v);
  std::vector<index_t> by_hash(static_cast<std::size_t>(n));
  std::iota(by_hash.begin(), by_hash.end(), index_t{0});
  std::sort(by_hash.begin(), by_hash.end(),
            [&](index_t a, index_t b) { return hash[a] != hash[b] ? hash[a] < hash[b] : a < b; });
  // leader[v]: the smallest vertex with v's closed neighbourhood.
  std::vector<index_t> leader(static_cast<std::size_t>(n), -1);
  for (std::size_t i = 0; i < by_hash.size();) {
    std::size_t j = i;
    while (j < by_hash.size() && hash[by_hash[j]] == hash[by_hash[i]]) ++j;
    for (std::size_t a = i; a < j; ++a) {  // runs are short: equal hashes are nearly always equal sets
      const index_t v = by_hash[a];
      if (leader[v] >= 0) continue;
      leader[v] = v;
      for (std::size_t b = a + 1; b < j; ++b)
        if (leader[by_hash[b]] < 0 && same_closed_neighbourhood(g, v, by_hash[b])) leader[by_hash[b]] = v;
    }
    i = j;
  }
  std::vector<index_t> id(static_cast<std::size_t>(n));
  index_t count = 0;
  for (index_t v = 0; v < n; ++v) id[v] = leader[v] == v ? count++ : id[leader[v]];
  if (static_cast<double>(count) > max_ratio * static_cast<double>(n)) return std::nullopt;

  Supervariables s;
  s.weight.assign(static_cast<std::size_t>(count), 0);
  for (index_t v = 0; v < n; ++v) ++s.weight[id[v]];
  s.begin.assign(static_cast<std::size_t>(count) + 1, 0);
  for (index_t k = 0; k < count; ++k) s.begin[k + 1] = s.begin[k] + s.weight[k];
  s.member.resize(static_cast<std::size_t>(n));
  std::vector<offset_t> next(s.begin.begin(), s.begin.end() - 1);
  for (index_t v = 0; v < n; ++v) s.member[next[id[v]]++] = v;  // increasing within each

  // A supervariable's neighbours are its leader's, other supervariables only, each once.
  s.graph.n = count;
  s.graph.xadj.assign(1, 0);
  std::vector<index_t> seen(static_cast<std::size_t>(count), -1);
  for (index_t k = 0; k < count; ++k) {
    const index_t v = s.member[s.begin[k]];
    const std::size_t first = s.graph.adj.size();
    for (offset_t p = g.xadj[v]; p < g.xadj[v + 1]; ++p) {
      const index_t t = id[g.adj[p]];
      if (t != k && seen[t] != k) {
        seen[t] = k;
        s.graph.adj.push_back(t);
      }
    }
    std::sort(s.graph.adj.begin() + static_cast<std::ptrdiff_t>(first), s.graph.adj.end());
    s.graph.xadj.push_back(static_cast<offset_t>(s.graph.adj.size()));
  }
  return s;
}

std::vector<index_t> expand_order(const Supervariables& s, const std::vector<index_t>& perm) {
  std::vector<index_t> out;
  out.reserve(s.member.size());
  for (const index_t k : perm)
    out.insert(out.end(), s.member.begin() + s.begin[k], s.member.begin() + s.begin[k + 1]);
  return out;
}

}  // namespace hetsparse::cholesky
