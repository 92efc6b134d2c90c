// The leaf-subtree CPU kernel (kernels::supernode_subtree_cpu) alone, no StarPU: every leaf subtree
// of the default layout factored by N plain threads taking subtrees from a shared counter. Run with
// 1 thread and with all cores to see a core's rate and what sharing the node costs.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "bench/leaf_subtrees.hpp"
#include "cli/common.hpp"
#include "cli/json.hpp"
#include "kernels/common/blas_threads.hpp"
#include "sparse/convert.hpp"

using namespace hetsparse;

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_subtree_kernel", "the leaf-subtree CPU kernel alone, on N threads");
  cli::add_matrix_input(p, "lap3d:60");
  p.option("threads", "N", "threads sharing the subtrees (0: all cores)", "1")
      .option("subtree-max-flops", "F", "subtree limit (<0 automatic)", "-1")
      .option("repeat", "N", "factorizations from a fresh assembly (the fastest is reported)", "1");
  if (!p.parse(argc - 1, argv + 1)) return 0;
  kernels::set_blas_threads(1);
  const cli::MatrixInput in = cli::load_matrix_input(p);
  bench::LeafSubtrees s(triangle(in.A, Triangle::Lower), p.get_double("subtree-max-flops"));
  const long threads = bench::bench_threads(p.get_int("threads"));
  std::vector<int> info;
  double seconds = 0;
  for (long r = 0, repeat = std::max(1L, p.get_int("repeat")); r < repeat; ++r) {
    if (r > 0) s.reassemble();
    const double t = bench::factor_leaf_subtrees(s, threads, info);
    seconds = r == 0 ? t : std::min(seconds, t);
  }
  cli::Json out;
  out.set("matrix", in.name).set("threads", static_cast<long long>(threads)).set("subtrees", static_cast<long long>(s.groups.size()))
      .set("subtree_flops", s.flops).set("seconds", seconds).set("gflops", s.flops / seconds * 1e-9)
      .set("gflops_per_thread", s.flops / seconds * 1e-9 / double(threads));
  std::printf("%s\n", out.str().c_str());
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_subtree_kernel", e);
}
