// Fill-reducing orderings: METIS nested dissection, natural, or the caller's own.
#include "cholesky/symbolic/ordering.hpp"

#include <metis.h>

#include <limits>
#include <numeric>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::cholesky {
namespace {

std::vector<index_t> identity(index_t n) {
  std::vector<index_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), index_t{0});
  return perm;
}

const char* metis_status_name(int status) {
  switch (status) {
    case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT";
    case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY";
    default: return "METIS_ERROR";
  }
}

}  // namespace

std::vector<index_t> metis_nested_dissection(const AdjacencyGraph& g) {
  // Without edges every order is fill-free: keep the natural one rather than METIS's arbitrary one.
  if (g.num_arcs() == 0) return identity(g.n);
  // idx_t is 32 bits in Debian's libmetis (IDXTYPEWIDTH 32): xadj must then fit too.
  if (g.num_arcs() > static_cast<offset_t>(std::numeric_limits<idx_t>::max())) {
    throw InvalidArgument("analyze: the graph of A has " + std::to_string(g.num_arcs()) +
                          " adjacency entries, more than METIS's " + std::to_string(8 * sizeof(idx_t)) +
                          "-bit idx_t can address");
  }
  // METIS takes non-const arrays; copying also converts to idx_t whatever its width.
  std::vector<idx_t> xadj(g.xadj.begin(), g.xadj.end()), adjncy(g.adj.begin(), g.adj.end());
  std::vector<idx_t> perm(static_cast<std::size_t>(g.n)), iperm(static_cast<std::size_t>(g.n));
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  idx_t nvtxs = g.n;
  // METIS's perm has our meaning (row k of the permuted matrix is row perm[k] of A).
  const int status = METIS_NodeND(&nvtxs, xadj.data(), adjncy.data(), nullptr, options, perm.data(), iperm.data());
  if (status != METIS_OK) {
    throw RuntimeFailure(std::string("analyze: METIS_NodeND failed with ") + metis_status_name(status));
  }
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

std::vector<index_t> fill_reducing_ordering(const AdjacencyGraph& g, const AnalyzeOptions& opts) {
  if (opts.ordering != Ordering::User && !opts.user_perm.empty()) {
    throw InvalidArgument("analyze: user_perm is set but the ordering is not Ordering::User");
  }
  switch (opts.ordering) {
    case Ordering::Metis: return metis_nested_dissection(g);
    case Ordering::Natural: return identity(g.n);
    case Ordering::User: check_permutation(opts.user_perm, g.n, "analyze: user_perm"); return opts.user_perm;
  }
  throw InvalidArgument("analyze: unknown ordering " + std::to_string(static_cast<int>(opts.ordering)));
}

std::vector<index_t> inverse_permutation(const std::vector<index_t>& perm) {
  std::vector<index_t> inverse(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) inverse[perm[k]] = static_cast<index_t>(k);
  return inverse;
}

}  // namespace hetsparse::cholesky
