#include "symbolic/supervariables.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "sparse/host_threads.hpp"

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
  const auto nv = static_cast<std::size_t>(n);
  constexpr std::size_t kMinChunk = 1 << 14;
  std::vector<std::uint64_t> hash(nv);
  parallel_chunks(nv, kMinChunk, [&](std::size_t b, std::size_t e) {
    for (std::size_t v = b; v < e; ++v) hash[v] = closed_hash(g, static_cast<index_t>(v));
  });
  // Vertices in buckets by their hashes' top bits (the buckets in hash order, vertices increasing
  // within each), then each bucket sorted by (hash, vertex) on its own: the order of one sort of
  // the whole, and equal hashes never straddle two buckets, so the buckets are compared in parallel.
  constexpr int kBucketBits = 10;
  const auto bucket = [&](index_t v) { return static_cast<std::size_t>(hash[v] >> (64 - kBucketBits)); };
  std::vector<std::size_t> start((std::size_t{1} << kBucketBits) + 1, 0);
  for (index_t v = 0; v < n; ++v) ++start[bucket(v) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<index_t> by_hash(nv);
  {
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (index_t v = 0; v < n; ++v) by_hash[next[bucket(v)]++] = v;
  }
  // leader[v]: the smallest vertex with v's closed neighbourhood.
  std::vector<index_t> leader(nv, -1);
  const std::size_t buckets = start.size() - 1;  // a thread's share holds about kMinChunk vertices or more
  parallel_chunks(buckets, std::max<std::size_t>(1, buckets * kMinChunk / nv), [&](std::size_t b0, std::size_t b1) {
    std::sort(by_hash.begin() + static_cast<std::ptrdiff_t>(start[b0]),
              by_hash.begin() + static_cast<std::ptrdiff_t>(start[b1]),
              [&](index_t a, index_t b) { return hash[a] != hash[b] ? hash[a] < hash[b] : a < b; });
    for (std::size_t i = start[b0]; i < start[b1];) {
      std::size_t j = i;
      while (j < start[b1] && hash[by_hash[j]] == hash[by_hash[i]]) ++j;
      for (std::size_t a = i; a < j; ++a) {  // runs are short: equal hashes are nearly always equal sets
        const index_t v = by_hash[a];
        if (leader[v] >= 0) continue;
        leader[v] = v;
        for (std::size_t b = a + 1; b < j; ++b)
          if (leader[by_hash[b]] < 0 && same_closed_neighbourhood(g, v, by_hash[b])) leader[by_hash[b]] = v;
      }
      i = j;
    }
  });
  std::vector<index_t> id(nv);
  index_t count = 0;
  for (index_t v = 0; v < n; ++v) id[v] = leader[v] == v ? count++ : id[leader[v]];
  if (static_cast<double>(count) > max_ratio * static_cast<double>(n)) return std::nullopt;

  Supervariables s;
  s.weight.assign(static_cast<std::size_t>(count), 0);
  for (index_t v = 0; v < n; ++v) ++s.weight[id[v]];
  s.begin.assign(static_cast<std::size_t>(count) + 1, 0);
  for (index_t k = 0; k < count; ++k) s.begin[k + 1] = s.begin[k] + s.weight[k];
  s.member.resize(nv);
  std::vector<offset_t> next(s.begin.begin(), s.begin.end() - 1);
  for (index_t v = 0; v < n; ++v) s.member[next[id[v]]++] = v;  // increasing within each

  // A supervariable's neighbours are its leader's, other supervariables only, each once: counted,
  // then written, in parallel over the supervariables.
  s.graph.n = count;
  s.graph.xadj.assign(static_cast<std::size_t>(count) + 1, 0);
  const auto neighbours = [&](index_t k, std::vector<index_t>& seen, auto&& emit) {
    const index_t v = s.member[s.begin[k]];
    for (offset_t p = g.xadj[v]; p < g.xadj[v + 1]; ++p) {
      const index_t t = id[g.adj[p]];
      if (t != k && seen[t] != k) {
        seen[t] = k;
        emit(t);
      }
    }
  };
  const auto nk = static_cast<std::size_t>(count);
  parallel_chunks(nk, kMinChunk, [&](std::size_t b, std::size_t e) {
    std::vector<index_t> seen(nk, -1);
    for (std::size_t k = b; k < e; ++k) {
      offset_t d = 0;
      neighbours(static_cast<index_t>(k), seen, [&](index_t) { ++d; });
      s.graph.xadj[k + 1] = d;
    }
  });
  std::partial_sum(s.graph.xadj.begin(), s.graph.xadj.end(), s.graph.xadj.begin());
  s.graph.adj.resize(static_cast<std::size_t>(s.graph.xadj[nk]));
  parallel_chunks(nk, kMinChunk, [&](std::size_t b, std::size_t e) {
    std::vector<index_t> seen(nk, -1);
    for (std::size_t k = b; k < e; ++k) {
      index_t* out = s.graph.adj.data() + s.graph.xadj[k];
      neighbours(static_cast<index_t>(k), seen, [&](index_t t) { *out++ = t; });
      std::sort(s.graph.adj.data() + s.graph.xadj[k], out);
    }
  });
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
