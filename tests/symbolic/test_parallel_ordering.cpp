// The parallel METIS ordering (nested_dissection.hpp): concurrent METIS calls give what serial
// ones give, the ordering is a permutation, does not depend on thread timing, keeps METIS_NodeND's
// fill, copes with disconnected, edgeless, tiny and unsplittable graphs, and its threads are not
// confined to a caller's pinned core.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <string>
#include <thread>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "sparse/host_threads.hpp"
#include "symbolic/adjacency_graph.hpp"
#include "symbolic/analysis.hpp"
#include "symbolic/metis_graph.hpp"
#include "symbolic/metis_random.hpp"
#include "symbolic/nested_dissection.hpp"
#include "symbolic/ordering.hpp"
#include "tests/support/symbolic_checks.hpp"

namespace hetsparse::cholesky {
namespace {

AdjacencyGraph graph_of(const Csr& full) {
  return symmetric_graph(triangle(full, Triangle::Lower), InputTriangle::Lower);
}

// The matrices side by side (no coupling), plus `isolated` rows with only a diagonal.
Csr block_diagonal(const std::vector<Csr>& blocks, index_t isolated = 0) {
  Coo coo;
  index_t base = 0;
  for (const Csr& b : blocks) {
    const Coo part = to_coo(b);
    for (std::size_t k = 0; k < part.row.size(); ++k) {
      coo.row.push_back(part.row[k] + base);
      coo.col.push_back(part.col[k] + base);
      coo.val.push_back(part.val[k]);
    }
    base += b.rows;
  }
  for (index_t i = 0; i < isolated; ++i, ++base) {
    coo.row.push_back(base);
    coo.col.push_back(base);
    coo.val.push_back(1.0);
  }
  coo.rows = coo.cols = base;
  return to_csr(coo);
}

// nnz(L) of the matrix under perm (the analysis postorders it, which keeps the fill).
offset_t fill_of(const Csr& full, const std::vector<index_t>& perm) {
  AnalyzeOptions opts;
  opts.ordering = Ordering::User;
  opts.user_perm = perm;
  return analyze(triangle(full, Triangle::Lower), opts).nnz_L_exact;
}

// Valid, and the same on every run: with as many threads as asked for and with more.
std::vector<index_t> expect_valid_and_deterministic(const AdjacencyGraph& g, int threads, index_t min_part) {
  const std::vector<index_t> perm = parallel_nested_dissection(g, threads, min_part);
  EXPECT_NO_THROW(check_permutation(perm, g.n, "parallel ordering"));
  for (int run = 0; run < 3; ++run) {
    EXPECT_EQ(parallel_nested_dissection(g, threads, min_part), perm) << "run " << run;
  }
  return perm;
}

TEST(ParallelOrdering, ConcurrentMetisCallsGiveTheSerialResults) {
  // Debian's METIS draws from libc's rand(): this needs the thread-private generator.
  ASSERT_TRUE(detail::metis_uses_private_rand());
  const std::vector<AdjacencyGraph> graphs = {graph_of(laplacian_3d(14, 13, 12)), graph_of(laplacian_2d(60, 50)),
                                              graph_of(test::random_spd(400, 0.015, 6)),
                                              graph_of(elasticity_3d(6, 6, 5))};
  std::vector<std::vector<idx_t>> serial_nd, serial_sep;
  for (const AdjacencyGraph& g : graphs) {
    detail::MetisGraph m = detail::to_metis_graph(g);
    serial_nd.push_back(detail::metis_node_nd(m));
    serial_sep.push_back(detail::metis_vertex_separator(m));
  }
  // Every thread runs every call a few times, all at once.
  constexpr int kThreads = 4, kRounds = 3;
  std::vector<std::vector<std::vector<idx_t>>> nd(kThreads), sep(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const detail::PrivateRandScope scope;
      for (int r = 0; r < kRounds; ++r) {
        for (std::size_t i = 0; i < graphs.size(); ++i) {
          detail::MetisGraph m = detail::to_metis_graph(graphs[(i + t) % graphs.size()]);
          nd[t].push_back(detail::metis_node_nd(m));
          sep[t].push_back(detail::metis_vertex_separator(m));
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) {
    for (std::size_t k = 0; k < nd[t].size(); ++k) {
      const std::size_t i = (k % graphs.size() + t) % graphs.size();
      EXPECT_EQ(nd[t][k], serial_nd[i]) << "thread " << t << ", call " << k;
      EXPECT_EQ(sep[t][k], serial_sep[i]) << "thread " << t << ", call " << k;
    }
  }
}

TEST(ParallelOrdering, GridIsSplitDeterministicallyAndKeepsTheFill) {
  const Csr a = laplacian_3d(30, 30, 30);
  const AdjacencyGraph g = graph_of(a);
  const std::vector<index_t> serial = metis_nested_dissection(g);
  const offset_t serial_fill = fill_of(a, serial);
  for (const int threads : {2, 4, 8}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    const std::vector<index_t> perm = expect_valid_and_deterministic(g, threads, kMinDissectionPart);
    EXPECT_NE(perm, serial);  // 27000 vertices: split at least once, not the serial call
    const offset_t fill = fill_of(a, perm);
    EXPECT_LT(static_cast<double>(fill), 1.10 * static_cast<double>(serial_fill));
    EXPECT_GT(static_cast<double>(fill), 0.90 * static_cast<double>(serial_fill));
  }
}

TEST(ParallelOrdering, AnalyzeOptionsSelectTheSerialOrParallelPath) {
  const Csr lower = triangle(laplacian_3d(24, 24, 24), Triangle::Lower);
  const AdjacencyGraph g = symmetric_graph(lower, InputTriangle::Lower);
  AnalyzeOptions opts;
  opts.ordering_threads = 1;
  EXPECT_EQ(analyze(lower, opts).nnz_L_exact, fill_of(laplacian_3d(24, 24, 24), metis_nested_dissection(g)));
  opts.ordering_threads = 3;
  const SymbolicFactor three = analyze(lower, opts);
  EXPECT_EQ(analyze(lower, opts).perm, three.perm);
  EXPECT_EQ(three.nnz_L_exact, fill_of(laplacian_3d(24, 24, 24), parallel_nested_dissection(g, 3)));
  opts.ordering_threads = 0;
  EXPECT_NO_THROW(check_permutation(analyze(lower, opts).perm, lower.rows, "automatic"));
  opts.ordering_threads = -1;
  EXPECT_THROW(analyze(lower, opts), InvalidArgument);
}

TEST(ParallelOrdering, DisconnectedGraphsAndIsolatedVertices) {
  // Components of different sizes and isolated vertices: splits that leave edgeless halves.
  const Csr a = block_diagonal({laplacian_3d(12, 12, 12), laplacian_2d(40, 30), laplacian_3d(8, 8, 8),
                                test::random_spd(300, 0.01, 4, 0, 3)},
                               1500);
  const AdjacencyGraph g = graph_of(a);
  const offset_t serial_fill = fill_of(a, metis_nested_dissection(g));
  for (const index_t min_part : {index_t{200}, index_t{2000}}) {
    SCOPED_TRACE("min_part " + std::to_string(min_part));
    const std::vector<index_t> perm = expect_valid_and_deterministic(g, 8, min_part);
    EXPECT_LT(static_cast<double>(fill_of(a, perm)), 1.15 * static_cast<double>(serial_fill));
  }
  // No edges at all: the natural order, as the serial path gives.
  const AdjacencyGraph edgeless = graph_of(block_diagonal({}, 20000));
  std::vector<index_t> natural(20000);
  for (index_t i = 0; i < 20000; ++i) natural[i] = i;
  EXPECT_EQ(parallel_nested_dissection(edgeless, 4, 100), natural);
}

TEST(ParallelOrdering, TinyAndUnsplittableGraphs) {
  // Splitting allowed down to 2 vertices: cliques and stars give degenerate or edgeless halves.
  Csr empty;
  empty.rowptr.assign(1, 0);
  const std::vector<std::pair<std::string, Csr>> cases = {
      {"empty", empty},
      {"one vertex", block_diagonal({}, 1)},
      {"one edge", test::random_spd(2, 1.0, 1)},
      {"path", laplacian_2d(10, 1)},
      {"clique 30", test::random_spd(30, 1.0, 2)},
      {"clique 30 + clique 20", block_diagonal({test::random_spd(30, 1.0, 3), test::random_spd(20, 1.0, 4)})},
      {"dense rows", test::random_spd(200, 0.015, 3, 2)},
  };
  for (const auto& [name, a] : cases) {
    SCOPED_TRACE(name);
    const AdjacencyGraph g = graph_of(a);
    for (const int threads : {2, 5}) expect_valid_and_deterministic(g, threads, 2);
  }
  // Below min_part (and with one thread) it is the serial call itself.
  const AdjacencyGraph small = graph_of(laplacian_3d(10, 10, 10));
  EXPECT_EQ(parallel_nested_dissection(small, 4), metis_nested_dissection(small));
  EXPECT_EQ(parallel_nested_dissection(small, 1, 2), metis_nested_dissection(small));
}

TEST(ParallelOrdering, HelperThreadsLeaveAPinnedCallersCore) {
  // As StarPU's STARPU_MAIN_THREAD_BIND pins the application thread: the helpers get every CPU back.
  std::thread([] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof one, &one), 0);
    run_on_startup_cpus();
    cpu_set_t now;
    ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof now, &now), 0);
    EXPECT_EQ(CPU_COUNT(&now), host_thread_count(0));
  }).join();
}

TEST(ParallelOrdering, EveryTestMatrixSplitsIntoAValidOrdering) {
  for (const auto& m : test::test_matrices()) {
    SCOPED_TRACE(m.name);
    expect_valid_and_deterministic(graph_of(m.full), 4, 20);
  }
}

}  // namespace
}  // namespace hetsparse::cholesky
