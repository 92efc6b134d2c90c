// The leaf-subtree CPU kernel (kernels::supernode_subtree_cpu) alone, no StarPU: every leaf subtree
// of the default layout factored by N plain threads taking subtrees from a shared counter. Run with
// 1 thread and with all cores to see a core's rate and what sharing the node costs.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "cholesky/numeric/panel_storage.hpp"
#include "symbolic/analysis.hpp"
#include "kernels/supernode/supernode.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "planners/supernodal_layout.hpp"
#include "sparse/convert.hpp"
#include "kernels/common/blas_threads.hpp"

using namespace hetsparse;


int main(int argc, char** argv) try {
  cli::ArgParser p("bench_subtree_kernel", "the leaf-subtree CPU kernel alone, on N threads");
  cli::add_matrix_input(p, "lap3d:60");
  p.option("threads", "N", "threads sharing the subtrees (0: all cores)", "1")
      .option("subtree-max-flops", "F", "subtree limit (<0 automatic)", "-1");
  if (!p.parse(argc - 1, argv + 1)) return 0;
  kernels::set_blas_threads(1);
  const cli::MatrixInput in = cli::load_matrix_input(p);
  const Csr lower = triangle(in.A, Triangle::Lower);
  const cholesky::SymbolicFactor sym = cholesky::analyze(lower);
  const planners::FactorLayout lay = planners::plan_factor_layout(sym, p.get_double("subtree-max-flops"));
  const cholesky::AssemblyMap map = cholesky::build_assembly_map(lower, cholesky::InputTriangle::Lower, sym);
  cholesky::PanelStorage L(sym);
  cholesky::assemble(lower, map, L);
  std::vector<index_t> groups;
  double flops = 0;
  const auto by_t = planners::updates_by_target(sym);
  for (index_t g = 0; g < lay.num_groups(); ++g) {
    if (!lay.subtree[g]) continue;
    groups.push_back(g);
    // What the kernel does: its members' factorizations and the updates into them (all from inside).
    for (index_t t = lay.group_begin[g]; t < lay.group_begin[g + 1]; ++t) {
      flops += planners::factor_flops(sym.supernodes[t]);
      for (const auto& u : by_t[t]) flops += u.flops;
    }
  }
  long threads = p.get_int("threads");
  if (threads <= 0) threads = static_cast<long>(std::thread::hardware_concurrency());
  std::vector<int> info(sym.num_supernodes(), 0);
  std::atomic<std::size_t> next{0};
  const double t0 = cli::now_seconds();
  std::vector<std::thread> pool;
  for (long i = 0; i < threads; ++i) {
    pool.emplace_back([&] {
      std::vector<double> w;
      for (std::size_t k; (k = next++) < groups.size();) {
        const index_t first = lay.group_begin[groups[k]], last = lay.group_begin[groups[k] + 1];
        w.resize(kernels::supernode_subtree_work_doubles(lay.loc.data(), first, last) + 1);
        kernels::supernode_subtree_cpu(lay.loc.data(), sym.rows.data(), sym.col_to_supernode.data(), first, last,
                                       L.values.data() + lay.loc[first].value_offset, info.data() + first, w.data());
      }
    });
  }
  for (auto& t : pool) t.join();
  const double seconds = cli::now_seconds() - t0;
  cli::Json out;
  out.set("matrix", in.name).set("threads", static_cast<long long>(threads)).set("subtrees", static_cast<long long>(groups.size()))
      .set("subtree_flops", flops).set("seconds", seconds).set("gflops", flops / seconds * 1e-9)
      .set("gflops_per_thread", flops / seconds * 1e-9 / double(threads));
  std::printf("%s\n", out.str().c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_subtree_kernel: error: %s\n", e.what());
  return 1;
}
