// The supernodal solve's CPU group kernels (kernels::supernode_group_{forward,backward}_cpu) alone,
// no StarPU: every leaf subtree of the default layout factored, then solved forward and backward by N
// plain threads taking groups from a shared counter; the rate in GB/s of panels read per sweep.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "bench/leaf_subtrees.hpp"
#include "cli/common.hpp"
#include "cli/json.hpp"
#include "kernels/common/blas_threads.hpp"
#include "kernels/supernode/supernode_solve.hpp"
#include "planners/supernodal_solve.hpp"
#include "sparse/convert.hpp"

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
  bench::LeafSubtrees s(triangle(in.A, Triangle::Lower), p.get_double("subtree-max-flops"));
  const long threads = bench::bench_threads(p.get_int("threads"));
  std::vector<int> info;
  const double factor_s = bench::factor_leaf_subtrees(s, threads, info);
  const cholesky::SymbolicFactor& sym = s.sym;
  const planners::FactorLayout& lay = s.lay;
  const std::vector<index_t>& groups = s.groups;
  // The solve over the subtree groups (each one on its own: no links between them are applied).
  const int nrhs = static_cast<int>(p.get_int("nrhs"));
  const std::vector<rt::Where> homes(static_cast<std::size_t>(lay.num_groups()), rt::Where::Cpu);
  const planners::SolvePlan plan = planners::plan_supernodal_solve(sym, lay, homes);
  double bytes = 0;
  for (index_t g : groups) {
    const auto& b = lay.loc[lay.group_begin[g + 1] - 1];
    bytes += 8.0 * double(b.value_offset + std::int64_t(b.nrows) * b.ncols - lay.loc[lay.group_begin[g]].value_offset);
  }
  double sweep_s[2] = {0, 0};
  for (int dir = 0; dir < 2; ++dir) {
    sweep_s[dir] = bench::share_items(threads, groups.size(), [&, dir] {
      return [&, dir, w = std::vector<double>(), ext = std::vector<double>(), xs = std::vector<double>()](
                 std::size_t k) mutable {
        const index_t g = groups[k];
        const kernels::SolveGroup sg{lay.loc.data(), sym.rows.data(), s.L.values.data() + lay.loc[lay.group_begin[g]].value_offset,
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
      };
    });
  }
  cli::Json out;
  out.set("matrix", in.name).set("threads", static_cast<long long>(threads)).set("subtrees", static_cast<long long>(groups.size()))
      .set("factor_s", factor_s).set("panel_bytes", bytes).set("nrhs", static_cast<long long>(nrhs))
      .set("forward_s", sweep_s[0]).set("backward_s", sweep_s[1])
      .set("forward_gbs", bytes / sweep_s[0] * 1e-9).set("backward_gbs", bytes / sweep_s[1] * 1e-9);
  std::printf("%s\n", out.str().c_str());
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_solve_kernel", e);
}
