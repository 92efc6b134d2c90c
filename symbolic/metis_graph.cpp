// METIS calls of the ordering: graph conversion, nested dissection, one vertex separator.
#include "symbolic/metis_graph.hpp"

#include <limits>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::cholesky::detail {
namespace {

const char* metis_status_name(int status) {
  switch (status) {
    case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT";
    case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY";
    default: return "METIS_ERROR";
  }
}

void check_status(int status, const char* call) {
  if (status != METIS_OK) {
    throw RuntimeFailure(std::string("analyze: ") + call + " failed with " + metis_status_name(status));
  }
}

// Defaults (the seed included: -1 means METIS's fixed 4321), C numbering.
void default_options(idx_t (&options)[METIS_NOPTIONS]) {
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
}

idx_t* weights(MetisGraph& g) { return g.vwgt.empty() ? nullptr : g.vwgt.data(); }

}  // namespace

MetisGraph to_metis_graph(const AdjacencyGraph& g, const std::vector<index_t>& weight) {
  // idx_t is 32 bits in Debian's libmetis (IDXTYPEWIDTH 32): xadj must then fit too.
  if (g.num_arcs() > static_cast<offset_t>(std::numeric_limits<idx_t>::max())) {
    throw InvalidArgument("analyze: the graph of A has " + std::to_string(g.num_arcs()) +
                          " adjacency entries, more than METIS's " + std::to_string(8 * sizeof(idx_t)) +
                          "-bit idx_t can address");
  }
  MetisGraph m;
  m.xadj.assign(g.xadj.begin(), g.xadj.end());
  if (m.xadj.empty()) m.xadj.push_back(0);
  m.adj.assign(g.adj.begin(), g.adj.end());
  m.vwgt.assign(weight.begin(), weight.end());
  return m;
}

std::vector<idx_t> metis_node_nd(MetisGraph& g) {
  std::vector<idx_t> perm(static_cast<std::size_t>(g.n())), iperm(perm.size());
  idx_t options[METIS_NOPTIONS];
  default_options(options);
  idx_t nvtxs = g.n();
  // METIS's perm has our meaning (row k of the permuted matrix is row perm[k] of A).
  check_status(METIS_NodeND(&nvtxs, g.xadj.data(), g.adj.data(), weights(g), options, perm.data(), iperm.data()),
               "METIS_NodeND");
  return perm;
}

std::vector<idx_t> metis_vertex_separator(MetisGraph& g) {
  std::vector<idx_t> part(static_cast<std::size_t>(g.n()));
  idx_t options[METIS_NOPTIONS];
  default_options(options);
  idx_t nvtxs = g.n(), separator_size = 0;
  check_status(METIS_ComputeVertexSeparator(&nvtxs, g.xadj.data(), g.adj.data(), weights(g), options, &separator_size,
                                            part.data()),
               "METIS_ComputeVertexSeparator");
  return part;
}

}  // namespace hetsparse::cholesky::detail
