// Cholesky benchmark: hetsparse (StarPU, CPUs + GPUs) next to CHOLMOD on the same matrix and METIS
// ordering, in one process, with the cuBLAS dgemm ceiling measured in the same run. One JSON line
// per run on stdout (scripts/bench.d/cholesky.sh collects them), a readable summary on stderr.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/common.hpp"
#include "cli/planner_options.hpp"
#include "cli/json.hpp"
#include "bench/cholmod_anchor.hpp"
#include "bench/dgemm_rate.hpp"
#include "cholesky/cholesky_solver.hpp"
#include "symbolic/analysis.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"

using namespace hetsparse;

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_cholesky", "hetsparse's sparse Cholesky next to CHOLMOD (same ordering, same run).");
  cli::add_matrix_input(p, "lap3d:60");
  cli::add_runtime_options(p);
  p.flag("no-cholmod", "skip CHOLMOD")
      .flag("no-dgemm", "skip the cuBLAS dgemm ceiling")
      .option("cholmod-threads", "N", "OpenBLAS threads for CHOLMOD (default: all cores)")
      .option("repeat", "N", "hetsparse factorizations (the first also calibrates the perf models)", "2");
  cli::add_planner_options(p);
  if (!p.parse(argc - 1, argv + 1)) return 0;
  cli::MatrixInput in = cli::load_matrix_input(p);
  const Csr& A = in.A;
  const Csr lower = triangle(A, Triangle::Lower);
  const std::vector<double> b = cli::random_vector(A.rows, 1);

  cli::Json out;
  out.set("matrix", in.name).set("rows", static_cast<long long>(A.rows)).set("nnz_A", static_cast<long long>(A.nnz()));
  // Analysed once before StarPU starts (for CHOLMOD's ordering) and again through the solver below:
  // the difference shows what busy workers cost the analysis.
  const double ta = cli::now_seconds();
  const cholesky::SymbolicFactor sym0 = cholesky::analyze(lower);
  out.set("nnz_L", static_cast<long long>(sym0.nnz_L_exact)).set("flops", sym0.flops)
      .set("analyze_without_runtime_s", cli::now_seconds() - ta).set("ordering_without_runtime_s", sym0.timings.ordering_s);
  const auto& t = sym0.timings;
  cli::Json phases;
  phases.set("input_s", t.input_s).set("ordering_s", t.ordering_s).set("etree_s", t.etree_s)
      .set("counts_s", t.counts_s).set("supernodes_s", t.supernodes_s).set("structure_s", t.structure_s);
  out.set("analyze_phases_without_runtime", phases);
  if (!p.has("no-cholmod")) {
    const int threads = p.has("cholmod-threads") ? static_cast<int>(p.get_int("cholmod-threads"))
                                                 : static_cast<int>(std::thread::hardware_concurrency());
    const bench::CholmodResult c = bench::run_cholmod(A, lower, sym0.perm, b, threads);
    cli::Json cj;
    // analyze_s: given our permutation; analyze_metis_s: CHOLMOD's own METIS ordering, the anchor
    // for hetsparse's analysis without the runtime (analyze_phases_without_runtime).
    cj.set("ok", c.ok).set("error", c.error).set("threads", threads).set("analyze_s", c.analyze_s)
        .set("analyze_metis_s", c.analyze_metis_s).set("nnz_L_metis", c.nnz_L_metis).set("flops_metis", c.flops_metis)
        .set("factorize_s", c.factorize_s).set("solve_s", c.solve_s).set("flops", c.flops).set("nnz_L", c.nnz_L)
        .set("gflops", c.factorize_s > 0 ? c.flops / c.factorize_s * 1e-9 : 0.0).set("backward_error", c.backward_error);
    out.set("cholmod", cj);
    std::fprintf(stderr, "CHOLMOD    %s analyze with its METIS %.3f s (ours %.3f s), factorize %.3f s (%.1f GFLOP/s, "
                 "%d threads), backward error %.1e\n", c.ok ? "" : c.error.c_str(), c.analyze_metis_s,
                 sym0.timings.total_s, c.factorize_s, c.factorize_s > 0 ? c.flops / c.factorize_s * 1e-9 : 0.0,
                 threads, c.backward_error);
  }
  double dgemm_tflops = 0;
  if (!p.has("no-dgemm")) {
    const bench::DgemmRate d = bench::measure_cublas_dgemm();
    dgemm_tflops = d.tflops;
    out.set("cublas_dgemm_tflops", d.tflops);
    const bench::CpuDgemmRate c = bench::measure_cpu_dgemm();
    out.set("cpu_dgemm_gflops_1thread", c.one_core_gflops).set("cpu_dgemm_gflops_all", c.all_cores_gflops)
        .set("cpu_threads", c.threads);
  }

  rt::Runtime runtime(cli::runtime_options(p));
  auto solver_owner = std::make_unique<cholesky::CholeskySolver>(runtime);
  cholesky::CholeskySolver& solver = *solver_owner;
  const double t0 = cli::now_seconds();
  cholesky::AnalyzeOptions ao;
  cli::apply_amalgamation_option(p, ao);
  const cholesky::SymbolicFactor& sym = solver.analyze(lower, ao);
  const double analyze_s = cli::now_seconds() - t0;
  cholesky::FactorizeReport rep;
  const long repeat = std::max(1L, p.get_int("repeat"));
  cholesky::FactorizeOptions fo;
  cli::apply_planner_options(p, fo.thresholds);
  // Every factorization's times: the first pays the registration, first touch and perf-model
  // calibration (issue 15: the first call as fast as the second).
  std::vector<cli::Json> factorizations;
  for (long i = 0; i < repeat; ++i) {
    const double tf = cli::now_seconds();
    rep = solver.factorize(lower, fo);
    cli::Json fj;
    fj.set("call_s", cli::now_seconds() - tf).set("total_s", rep.total_s).set("assemble_s", rep.assemble_s)
        .set("register_s", rep.register_s).set("submit_s", rep.submit_s).set("wait_s", rep.wait_s)
        .set("unregister_s", rep.unregister_s).set("factorize_s", rep.factorize_s);
    std::fprintf(stderr, "hetsparse  factorization %ld: %.3f s (assemble %.3f, register %.3f, submit %.3f, wait %.3f, "
                 "status %.3f)\n", i + 1, rep.total_s, rep.assemble_s, rep.register_s, rep.submit_s, rep.wait_s,
                 rep.unregister_s);
    factorizations.push_back(fj);
  }
  // Solves: one right-hand side (the first call builds the solve's plan and handles, the second is
  // the steady state), then 16 at once; backward errors of the last call of each.
  std::vector<double> x = b;
  double solve_first_s = 0, solve_s = 0, solve16_s = 0, berr = 0, berr16 = 0;
  std::vector<cli::Json> solves;
  auto record_solve = [&](int nrhs, double s) {
    const auto& st = solver.last_solve_times();
    cli::Json j;
    j.set("nrhs", nrhs).set("call_s", s).set("setup_s", st.setup_s).set("stage_s", st.stage_s)
        .set("submit_s", st.submit_s).set("wait_s", st.wait_s);
    std::fprintf(stderr, "hetsparse  solve nrhs %d: %.4f s (setup %.4f, stage %.4f, submit %.4f, wait %.4f)\n", nrhs, s,
                 st.setup_s, st.stage_s, st.submit_s, st.wait_s);
    solves.push_back(j);
  };
  for (int call = 0; call < 2; ++call) {
    x = b;
    const double t1 = cli::now_seconds();
    solver.solve(x);
    (call == 0 ? solve_first_s : solve_s) = cli::now_seconds() - t1;
    record_solve(1, call == 0 ? solve_first_s : solve_s);
  }
  berr = ref::backward_error(A, x.data(), b.data());
  const int nrhs16 = 16;
  std::vector<double> B16(std::size_t(A.rows) * nrhs16);
  for (int r = 0; r < nrhs16; ++r) {
    const std::vector<double> br = cli::random_vector(A.rows, 2 + r);
    std::copy(br.begin(), br.end(), B16.begin() + std::ptrdiff_t(r) * A.rows);
  }
  std::vector<double> X16;
  for (int call = 0; call < 2; ++call) {
    X16 = B16;
    const double t1 = cli::now_seconds();
    solver.solve(X16.data(), nrhs16, A.rows);
    solve16_s = cli::now_seconds() - t1;
    record_solve(nrhs16, solve16_s);
  }
  for (int r = 0; r < nrhs16; ++r)
    berr16 = std::max(berr16, ref::backward_error(A, X16.data() + std::size_t(r) * A.rows,
                                                  B16.data() + std::size_t(r) * A.rows));
  const double gflops = sym.flops / rep.factorize_s * 1e-9;
  cli::Json hj;
  hj.set("analyze_s", analyze_s).set("ordering_s", sym.timings.ordering_s).set("factorize_s", rep.factorize_s)
      .set("assemble_s", rep.assemble_s).set("solve_s", solve_s).set("solve_first_s", solve_first_s)
      .set("solve_nrhs16_s", solve16_s).set("backward_error_nrhs16", berr16).set("factorizations", factorizations).set("solves", solves)
      .set("solve_tasks", solver.last_solve_stats().tasks).set("solve_gpu_tasks", solver.last_solve_stats().gpu_tasks)
      .set("groups_cuda", rep.groups_cuda).set("groups_any", rep.groups_any).set("groups_cpu", rep.groups_cpu)
      .set("values_cuda", rep.values_cuda).set("values_any", rep.values_any).set("values_cpu", rep.values_cpu)
      .set("gflops", gflops)
      .set("fraction_of_dgemm", dgemm_tflops > 0 ? gflops / (dgemm_tflops * 1e3) : 0.0).set("backward_error", berr)
      .set("scheduler", runtime.options().scheduler).set("cpu_workers", runtime.cpu_workers())
      .set("cuda_workers", runtime.cuda_workers()).set("supernodes", static_cast<long long>(sym.num_supernodes()))
      .set("tasks", rep.plan.tasks).set("updates_inst", rep.plan.updates[0]).set("updates_tpq", rep.plan.updates[1])
      .set("updates_dpq", rep.plan.updates[2]).set("flops_inst", rep.plan.flops[0]).set("flops_tpq", rep.plan.flops[1])
      .set("flops_dpq", rep.plan.flops[2]).set("subtree_tasks", rep.plan.subtree_tasks)
      .set("flops_subtree", rep.plan.flops[3]).set("register_s", rep.register_s).set("submit_s", rep.submit_s)
      .set("wait_s", rep.wait_s).set("unregister_s", rep.unregister_s);
  out.set("hetsparse", hj);
  const long long solver_tasks = solver.last_solve_stats().tasks, solver_gpu_tasks = solver.last_solve_stats().gpu_tasks;
  solver_owner.reset();  // its panels are discarded where they are (shutdown would bring them home)
  runtime.shutdown();
  std::fprintf(stderr, "hetsparse  analyze %.3f s, factorize %.3f s (%.1f GFLOP/s, %d CPU + %d CUDA), solve %.3f s "
               "(first call %.3f s; nrhs 16: %.3f s), backward error %.1e (nrhs 16: %.1e)\n", analyze_s,
               rep.factorize_s, gflops, runtime.cpu_workers(), runtime.cuda_workers(), solve_s, solve_first_s, solve16_s,
               berr, berr16);
  std::fprintf(stderr, "hetsparse  panel groups: %lld on the GPU (%.2f GB), %lld either (%.2f GB), %lld on CPUs (%.2f GB); "
               "solve %lld tasks (%lld on CUDA)\n", rep.groups_cuda, rep.values_cuda * 8e-9, rep.groups_any,
               rep.values_any * 8e-9, rep.groups_cpu, rep.values_cpu * 8e-9, solver_tasks, solver_gpu_tasks);
  std::printf("%s\n", out.str().c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_cholesky: error: %s\n", e.what());
  return 1;
}
