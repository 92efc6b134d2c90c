// The supernodal solve's CPU group kernels (kernels::supernode_group_{forward,backward}_cpu) alone,
// no StarPU: every leaf subtree of the default layout factored, then solved forward and backward by N
// plain threads taking groups from a shared counter; the rate in GB/s of panels read per sweep.
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
#include "kernels/supernode/supernode_solve.hpp"
#include "planners/supernodal_solve.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "planners/supernodal_layout.hpp"
#include "sparse/convert.hpp"
#include "kernels/common/blas_threads.hpp"

using namespace hetsparse;


int main(int argc, char** argv) try {
  cli::ArgParser p("bench_solve_kernel", "the solve's CPU group kernels alone, on N threads");
  cli::add_matrix_input(p, "lap3d:60");
  p.option("threads", "N", "threads sharing the subtrees (0: all cores)", "1")
      .option("subtree-max-flops", "F", "subtree limit (<0 automatic)", "-1")
      .option("nrhs", "K", "right-hand sides", "1");
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
  const double factor_s = cli::now_seconds() - t0;
  // The solve over the subtree groups (each one on its own: no links between them are applied).
  const int nrhs = static_cast<int>(p.get_int("nrhs"));
  const std::vector<rt::Where> homes(static_cast<std::size_t>(lay.num_groups()), rt::Where::Cpu);
  const planners::SolvePlan plan = planners::plan_supernodal_solve(sym, lay, homes);
  std::vector<double> x(std::size_t(sym.n) * nrhs, 1.0);
  double bytes = 0;
  for (index_t g : groups) {
    const auto& b = lay.loc[lay.group_begin[g + 1] - 1];
    bytes += 8.0 * double(b.value_offset + std::int64_t(b.nrows) * b.ncols - lay.loc[lay.group_begin[g]].value_offset);
  }
  double sweep_s[2] = {0, 0};
  for (int dir = 0; dir < 2; ++dir) {
    next = 0;
    pool.clear();
    const double ts = cli::now_seconds();
    for (long i = 0; i < threads; ++i) {
      pool.emplace_back([&, dir] {
        std::vector<double> w, ext, xs;
        for (std::size_t k; (k = next++) < groups.size();) {
          const index_t g = groups[k];
          const kernels::SolveGroup sg{lay.loc.data(), sym.rows.data(), L.values.data() + lay.loc[lay.group_begin[g]].value_offset,
                                       plan.ext_rows.data() + plan.ext_begin[g], lay.group_begin[g], lay.group_begin[g + 1],
                                       plan.col_begin[g], plan.col_begin[g + 1], static_cast<std::int32_t>(plan.next(g)), 0};
          const int rows = plan.rows(g);
          w.resize(kernels::supernode_group_solve_work_doubles(sg, nrhs));
          ext.assign(std::size_t(std::max<std::int64_t>(1, plan.next(g))) * nrhs, 0.5);
          xs.assign(std::size_t(rows) * nrhs, 1.0);
          if (dir == 0)
            kernels::supernode_group_forward_cpu(sg, xs.data(), rows, ext.data(), std::max<int>(1, sg.next), nrhs, w.data());
          else
            kernels::supernode_group_backward_cpu(sg, xs.data(), rows, ext.data(), std::max<int>(1, sg.next), nrhs, w.data());
        }
      });
    }
    for (auto& t : pool) t.join();
    sweep_s[dir] = cli::now_seconds() - ts;
  }
  cli::Json out;
  out.set("matrix", in.name).set("threads", static_cast<long long>(threads)).set("subtrees", static_cast<long long>(groups.size()))
      .set("factor_s", factor_s).set("panel_bytes", bytes).set("nrhs", static_cast<long long>(nrhs))
      .set("forward_s", sweep_s[0]).set("backward_s", sweep_s[1])
      .set("forward_gbs", bytes / sweep_s[0] * 1e-9).set("backward_gbs", bytes / sweep_s[1] * 1e-9);
  std::printf("%s\n", out.str().c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_solve_kernel: error: %s\n", e.what());
  return 1;
}
