// Fill-reducing orderings: METIS nested dissection, natural, or the caller's own.
#include "symbolic/ordering.hpp"

#include <numeric>
#include <string>
#include <utility>

#include "symbolic/metis_graph.hpp"
#include "symbolic/nested_dissection.hpp"
#include "symbolic/supervariables.hpp"
#include "sparse/host_threads.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::cholesky {
namespace {

std::vector<index_t> identity(index_t n) {
  std::vector<index_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), index_t{0});
  return perm;
}

}  // namespace

std::vector<index_t> metis_nested_dissection(const AdjacencyGraph& g, const std::vector<index_t>& weight) {
  // Without edges every order is fill-free: keep the natural one rather than METIS's arbitrary one.
  if (g.num_arcs() == 0) return identity(g.n);
  detail::MetisGraph graph = detail::to_metis_graph(g, weight);
  const std::vector<idx_t> perm = detail::metis_node_nd(graph);
  return std::vector<index_t>(perm.begin(), perm.end());
}

void check_permutation(const std::vector<index_t>& perm, index_t n, const char* what) {
  if (perm.size() != static_cast<std::size_t>(n)) {
    throw InvalidArgument(std::string(what) + " has " + std::to_string(perm.size()) + " entries, expected " +
                          std::to_string(n));
  }
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (std::size_t k = 0; k < perm.size(); ++k) {
    const index_t old = perm[k];
    if (old < 0 || old >= n) {
      throw InvalidArgument(std::string(what) + "[" + std::to_string(k) + "] = " + std::to_string(old) +
                            " is outside [0, " + std::to_string(n) + ")");
    }
    if (seen[old]) {
      throw InvalidArgument(std::string(what) + "[" + std::to_string(k) + "] = " + std::to_string(old) +
                            " repeats an earlier entry");
    }
    seen[old] = 1;
  }
}

FillReducingOrder fill_reducing_ordering(const AdjacencyGraph& g, const AnalyzeOptions& opts) {
  if (opts.ordering != Ordering::User && !opts.user_perm.empty()) {
    throw InvalidArgument("analyze: user_perm is set but the ordering is not Ordering::User");
  }
  switch (opts.ordering) {
    case Ordering::Metis:
      if (opts.ordering_threads < 0) {
        throw InvalidArgument("analyze: ordering_threads = " + std::to_string(opts.ordering_threads) +
                              " is negative (0: one per hardware thread)");
      }
      if (opts.ordering_threads == 1) return {metis_nested_dissection(g), std::nullopt, {}};  // METIS compresses inside
      {
        const int threads = host_thread_count(opts.ordering_threads);
        // The top-level separators are METIS calls of their own, which do not compress the graph.
        if (auto s = find_supervariables(g)) {
          FillReducingOrder r;
          r.compressed = parallel_nested_dissection(s->graph, threads, kMinDissectionPart, s->weight);
          r.order = expand_order(*s, r.compressed);
          r.supervariables = std::move(s);
          return r;
        }
        return {parallel_nested_dissection(g, threads), std::nullopt, {}};
      }
    case Ordering::Natural: return {identity(g.n), std::nullopt, {}};
    case Ordering::User:
      check_permutation(opts.user_perm, g.n, "analyze: user_perm");
      return {opts.user_perm, std::nullopt, {}};
  }
  throw InvalidArgument("analyze: unknown ordering " + std::to_string(static_cast<int>(opts.ordering)));
}

std::vector<index_t> inverse_permutation(const std::vector<index_t>& perm) {
  std::vector<index_t> inverse(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) inverse[perm[k]] = static_cast<index_t>(k);
  return inverse;
}

}  // namespace hetsparse::cholesky
