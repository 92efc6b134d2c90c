// What the CPU subtree benches share (bench_subtree_kernel, bench_solve_kernel): a matrix's leaf
// subtrees of the default layout, assembled, and plain threads taking items from a shared counter.
#pragma once
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include "cholesky/numeric/panel_storage.hpp"
#include "cli/common.hpp"
#include "planners/supernodal_layout.hpp"
#include "sparse/csr.hpp"
#include "symbolic/analysis.hpp"

namespace hetsparse::bench {

struct LeafSubtrees {
  // The lower triangle of a symmetric matrix analysed, laid out with this subtree limit (< 0:
  // automatic), assembled.
  LeafSubtrees(const Csr& lower, double subtree_max_flops);
  void reassemble();  // L from A again, for a repeated factorization
  Csr lower;
  cholesky::SymbolicFactor sym;
  planners::FactorLayout lay;
  cholesky::PanelStorage L;
  cholesky::AssemblyMap map;
  std::vector<index_t> groups;  // the subtree groups
  double flops = 0;             // their members' factorizations and the updates into them (all from inside)
};

// `requested` threads, or one per core when it is <= 0.
long bench_threads(long requested);

// work = make_worker() on each of `threads` threads (its scratch lives there), then work(k) for the
// k in [0, count) the thread takes from a shared counter. Returns the wall seconds.
template <class MakeWorker>
double share_items(long threads, std::size_t count, MakeWorker make_worker) {
  std::atomic<std::size_t> next{0};
  const double t0 = cli::now_seconds();
  std::vector<std::thread> pool;
  for (long i = 0; i < threads; ++i) {
    pool.emplace_back([&] {
      auto work = make_worker();
      for (std::size_t k; (k = next++) < count;) work(k);
    });
  }
  for (std::thread& t : pool) t.join();
  return cli::now_seconds() - t0;
}

// Every subtree group factored by kernels::supernode_subtree_cpu on `threads` threads; the seconds.
// info: one entry per supernode (the kernel's pivot reports).
double factor_leaf_subtrees(LeafSubtrees& s, long threads, std::vector<int>& info);

}  // namespace hetsparse::bench
