// analyze(): the phases in order, each timed. The ordering is followed by a postorder of its
// elimination tree (children by increasing column count, CHOLMOD's choice), which keeps the fill
// and makes every supernode a run of consecutive columns.
#include "symbolic/analysis.hpp"

#include <chrono>
#include <string>
#include <utility>

#include "symbolic/adjacency_graph.hpp"
#include "symbolic/column_counts.hpp"
#include "symbolic/etree.hpp"
#include "symbolic/ordering.hpp"
#include "symbolic/supernode_split.hpp"
#include "symbolic/supernodes.hpp"
#include "symbolic/supervariable_symbolic.hpp"
#include "symbolic/symbolic_structure.hpp"
#include "sparse/progress.hpp"

namespace hetsparse::cholesky {
namespace {

// Times the phases, and reports them when a ProgressReporter is given.
class Stopwatch {
 public:
  Stopwatch(ProgressReporter* progress, const char* first_phase) : progress_(progress) { begin(first_phase); }
  // Seconds since the previous lap (or construction); the phase running ends, `next` begins.
  double lap(const char* next = nullptr) {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    if (progress_) progress_->end();
    begin(next);
    return seconds;
  }

 private:
  void begin(const char* phase) {
    if (progress_ && phase) progress_->begin(std::string("analysis: ") + phase);
  }
  ProgressReporter* progress_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// Relabels the tree `parent` and its counts by the postorder post (node post[k] becomes k).
void relabel_by_postorder(const std::vector<index_t>& post, std::vector<index_t>& parent,
                          std::vector<offset_t>& counts) {
  const std::vector<index_t> position = inverse_permutation(post);
  std::vector<index_t> new_parent(parent.size());
  std::vector<offset_t> new_counts(counts.size());
  for (std::size_t k = 0; k < post.size(); ++k) {
    const index_t up = parent[post[k]];
    new_parent[k] = up == -1 ? -1 : position[up];
    new_counts[k] = counts[post[k]];
  }
  parent.swap(new_parent);
  counts.swap(new_counts);
}

void add_statistics(SymbolicFactor& f) {
  for (const offset_t c : f.col_counts) {
    f.nnz_L_exact += c;
    f.flops += static_cast<double>(c) * static_cast<double>(c);
  }
  for (const Supernode& s : f.supernodes) {
    const offset_t below = s.nrows - s.ncols;
    f.nnz_L += static_cast<offset_t>(s.ncols) * (s.ncols + 1) / 2 + static_cast<offset_t>(s.ncols) * below;
    for (index_t c = 0; c < s.ncols; ++c) {
      const auto height = static_cast<double>(s.nrows - c);
      f.flops_amalgamated += height * height;
    }
  }
}

}  // namespace

SymbolicSkeleton analyze_skeleton(const Csr& a, const AnalyzeOptions& opts) {
  Stopwatch clock(opts.progress, "graph of A");
  SymbolicSkeleton sk;
  SymbolicFactor& f = sk.factor;
  sk.graph = symmetric_graph(a, opts.input);
  const AdjacencyGraph& graph = sk.graph;
  f.n = graph.n;
  f.timings.input_s = clock.lap("ordering");

  FillReducingOrder ordering = fill_reducing_ordering(graph, opts);
  const std::vector<index_t>& order = ordering.order;
  f.timings.ordering_s = clock.lap("elimination tree");

  std::vector<index_t> parent;
  std::vector<offset_t> counts;
  if (ordering.supervariables) {
    const Supervariables& s = *ordering.supervariables;
    const std::vector<index_t> compressed_parent = supervariable_etree(s, ordering.compressed);
    f.timings.etree_s = clock.lap("column counts");
    ExpandedTree tree = expand_supervariable_tree(s, ordering.compressed, compressed_parent);
    parent = std::move(tree.parent);
    counts = std::move(tree.counts);
    sk.supervariables = std::move(ordering.supervariables);
  } else {
    const std::vector<index_t> order_inverse = inverse_permutation(order);
    const PermutedGraph ordered{graph, order, order_inverse};
    parent = elimination_tree(ordered);
    const std::vector<index_t> post = postorder(parent);
    f.timings.etree_s = clock.lap("column counts");
    counts = column_counts(ordered, parent, post);
  }
  f.timings.counts_s = clock.lap("postorder");

  // Final order: the ordering, then the weighted postorder of its tree.
  const std::vector<index_t> weighted_post = postorder(parent, &counts);
  f.perm.resize(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) f.perm[k] = order[weighted_post[k]];
  f.iperm = inverse_permutation(f.perm);
  relabel_by_postorder(weighted_post, parent, counts);
  f.etree = std::move(parent);
  f.col_counts = std::move(counts);
  f.timings.etree_s += clock.lap("supernodes");

  sk.fundamental = fundamental_supernodes(f.etree, f.col_counts);
  f.timings.supernodes_s = clock.lap();
  return sk;
}

SymbolicFactor amalgamate_skeleton(const SymbolicSkeleton& sk, const AnalyzeOptions& opts) {
  Stopwatch clock(opts.progress, "amalgamation");
  SymbolicFactor f = sk.factor;
  f.supernodes = opts.amalgamate ? amalgamate(sk.fundamental, opts.amalgamation) : sk.fundamental;
  f.col_to_supernode = column_to_supernode(f.supernodes, f.n);
  f.timings.supernodes_s += clock.lap("structure of L");

  f.rows = sk.supervariables
               ? supervariable_supernode_rows(*sk.supervariables, f.iperm, f.supernodes, f.col_to_supernode)
               : supernode_rows(PermutedGraph{sk.graph, f.perm, f.iperm}, f.supernodes, f.col_to_supernode);
  split_wide_supernodes(f, opts.max_supernode_cols);
  add_statistics(f);
  f.timings.structure_s = clock.lap();
  f.timings.total_s = f.timings.input_s + f.timings.ordering_s + f.timings.etree_s + f.timings.counts_s +
                      f.timings.supernodes_s + f.timings.structure_s;
  return f;
}

SymbolicFactor analyze(const Csr& a, const AnalyzeOptions& opts) {
  return amalgamate_skeleton(analyze_skeleton(a, opts), opts);
}

}  // namespace hetsparse::cholesky
