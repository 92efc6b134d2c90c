// Cholesky benchmark: hetsparse (StarPU, CPUs + GPUs) next to CHOLMOD on the same matrix and METIS
// ordering and next to cuDSS (its own ordering, when libcudss.so.1 is found at run time), in one
// process, with the cuBLAS dgemm ceiling measured in the same run. One JSON line
// per run on stdout (scripts/bench.d/cholesky.sh collects them), a readable summary on stderr.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/common.hpp"
#include "cli/planner_options.hpp"
#include "cli/json.hpp"
#include "bench/cholmod_anchor.hpp"
#include "bench/cudss_anchor.hpp"
#include "bench/dgemm_rate.hpp"
#include "cholesky/cholesky_solver.hpp"
#include "symbolic/analysis.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"

using namespace hetsparse;

namespace {
// The symbolic analysis's phases; total_s is the whole cholesky::analyze, without the solver's
// assembly map and factor preparation that CholeskySolver::analyze adds.
cli::Json phases_json(const cholesky::SymbolicFactor::Timings& t) {
  cli::Json j;
  j.set("input_s", t.input_s).set("ordering_s", t.ordering_s).set("etree_s", t.etree_s).set("counts_s", t.counts_s)
      .set("supernodes_s", t.supernodes_s).set("structure_s", t.structure_s).set("total_s", t.total_s);
  return j;
}

// The "cudss" JSON object and the summary line: times, or why it was skipped.
void report_cudss(cli::Json& out, const bench::CudssResult& c) {
  cli::Json j;
  j.set("ran", c.ran);
  if (!c.ran) {
    j.set("skipped", c.skip_reason);
    std::fprintf(stderr, "cuDSS: skipped (%s)\n", c.skip_reason.c_str());
  } else {
    j.set("version", c.version).set("error", c.error).set("upload_s", c.upload_s).set("analysis_s", c.analysis_s)
        .set("factorize_first_s", c.factorize_first_s).set("factorize_second_s", c.factorize_second_s)
        .set("solve_s", c.solve_s).set("solve_many_s", c.solve_many_s).set("many_rhs", c.many_rhs)
        .set("nnz_L", c.nnz_L).set("backward_error", c.backward_error).set("backward_error_many", c.backward_error_many);
    std::fprintf(stderr, "cuDSS %s %s analysis %.3f s, factorize %.3f s / %.3f s (1st / 2nd), solve %.3f s "
                 "(%d rhs %.3f s), nnz(L) %.3g, backward error %.1e (%d rhs %.1e)\n", c.version.c_str(),
                 c.error.empty() ? "" : ("FAILED: " + c.error + ";").c_str(), c.analysis_s, c.factorize_first_s,
                 c.factorize_second_s, c.solve_s, c.many_rhs, c.solve_many_s, c.nnz_L, c.backward_error, c.many_rhs,
                 c.backward_error_many);
  }
  out.set("cudss", j);
}
}  // namespace

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_cholesky", "hetsparse's sparse Cholesky next to CHOLMOD (same ordering, same run).");
  cli::add_matrix_input(p, "lap3d:60");
  cli::add_runtime_options(p);
  p.flag("no-cholmod", "skip CHOLMOD")
      .flag("no-cudss", "skip cuDSS (loaded from $HETSPARSE_CUDSS_LIB or the loader's path)")
      .flag("no-dgemm", "skip the cuBLAS dgemm ceiling")
      .option("cholmod-threads", "N", "OpenBLAS threads for CHOLMOD (default: all cores)")
      .option("repeat", "N", "hetsparse factorizations (the first also calibrates the perf models)", "2")
      .option("solve-repeat", "N", "steady-state solves of each kind after the first (the median is reported)", "1");
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
  out.set("analyze_phases_without_runtime", phases_json(sym0.timings));
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
  // The many-rhs solves (hetsparse's and cuDSS's): b, then random columns.
  const int many = 16;
  std::vector<double> bm(static_cast<std::size_t>(A.rows) * many);
  for (int j = 0; j < many; ++j) {
    const std::vector<double> col = j == 0 ? b : cli::random_vector(A.rows, 100 + j);
    std::copy(col.begin(), col.end(), bm.begin() + std::ptrdiff_t(j) * A.rows);
  }
  // cuDSS before StarPU starts: it has the GPU to itself, and frees it all before StarPU takes it.
  if (!p.has("no-cudss")) report_cudss(out, bench::run_cudss(A, lower, b, bm, many));
  double dgemm_tflops = 0;
  if (!p.has("no-dgemm")) {
    const bench::DgemmRate d = bench::measure_cublas_dgemm();
    dgemm_tflops = d.tflops;
    out.set("cublas_dgemm_tflops", d.tflops);
    const bench::CpuDgemmRate c = bench::measure_cpu_dgemm();
    out.set("cpu_dgemm_gflops_1thread", c.one_core_gflops).set("cpu_dgemm_gflops_all", c.all_cores_gflops)
        .set("cpu_threads", c.threads);
  }

  rt::Runtime runtime(cli::runtime_options(p, cholesky::kCudaWorkersPerGpu));
  auto solver_owner = std::make_unique<cholesky::CholeskySolver>(runtime);
  cholesky::CholeskySolver& solver = *solver_owner;
  const double t0 = cli::now_seconds();
  cholesky::AnalyzeOptions ao;
  cli::apply_analysis_options(p, ao);
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
        .set("unregister_s", rep.unregister_s).set("factorize_s", rep.factorize_s)
        .set("on_calling_thread", rep.on_calling_thread);
    std::fprintf(stderr, "hetsparse  factorization %ld: %.3f s (assemble %.3f, register %.3f, submit %.3f, wait %.3f, "
                 "status %.3f)\n", i + 1, rep.total_s, rep.assemble_s, rep.register_s, rep.submit_s, rep.wait_s,
                 rep.unregister_s);
    factorizations.push_back(fj);
  }
  // Solves: one right-hand side (the first call builds the solve's plan and handles, the next ones
  // are the steady state: their median is reported), then 16 at once; backward errors of the last
  // call of each. With StarPU's profiling on (STARPU_PROFILING=1), the bytes the last steady call
  // of each kind moved between host and GPU.
  const int solve_repeat = static_cast<int>(std::max(1L, p.get_int("solve-repeat")));
  std::vector<double> x = b;
  double solve_first_s = 0, solve_s = 0, solve_many_s = 0, berr = 0, berr_many = 0;
  std::vector<cli::Json> solves;
  auto record_solve = [&](int nrhs, double s) {
    const auto& st = solver.last_solve_times();
    cli::Json j;
    j.set("nrhs", nrhs).set("call_s", s).set("setup_s", st.setup_s).set("stage_s", st.stage_s)
        .set("submit_s", st.submit_s).set("wait_s", st.wait_s).set("unstage_s", st.unstage_s);
    if (const auto bus = runtime.take_bus_bytes())
      j.set("bus_to_gpu_bytes", bus->to_gpu).set("bus_from_gpu_bytes", bus->from_gpu).set("bus_transfers", bus->transfers);
    std::fprintf(stderr, "hetsparse  solve nrhs %d: %.4f s (setup %.4f, stage %.4f, submit %.4f, wait %.4f, unstage %.4f)\n",
                 nrhs, s, st.setup_s, st.stage_s, st.submit_s, st.wait_s, st.unstage_s);
    solves.push_back(j);
  };
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  runtime.wait_all();
  runtime.take_bus_bytes();  // the factorization's transfers are not the solve's
  std::vector<double> steady;
  for (int call = 0; call <= solve_repeat; ++call) {
    x = b;
    const double t1 = cli::now_seconds();
    solver.solve(x);
    const double s = cli::now_seconds() - t1;
    if (call == 0) {
      solve_first_s = s;
    } else {
      steady.push_back(s);
    }
    record_solve(1, s);
  }
  solve_s = median(steady);
  berr = ref::backward_error(A, x.data(), b.data());
  std::vector<double> xm;
  steady.clear();
  for (int call = 0; call <= solve_repeat; ++call) {  // the first call with `many` sizes the solve's blocks
    xm = bm;
    const double t1 = cli::now_seconds();
    solver.solve(xm.data(), many, static_cast<int>(A.rows));
    const double s = cli::now_seconds() - t1;
    if (call > 0) steady.push_back(s);
    record_solve(many, s);
  }
  solve_many_s = median(steady);
  for (int j = 0; j < many; ++j)
    berr_many = std::max(berr_many, ref::backward_error(A, xm.data() + std::ptrdiff_t(j) * A.rows,
                                                        bm.data() + std::ptrdiff_t(j) * A.rows));
  const double gflops = sym.flops / rep.factorize_s * 1e-9;
  cli::Json hj;
  hj.set("analyze_s", analyze_s).set("ordering_s", sym.timings.ordering_s).set("analyze_phases", phases_json(sym.timings)).set("factorize_s", rep.factorize_s)
      .set("assemble_s", rep.assemble_s).set("solve_s", solve_s).set("solve_first_s", solve_first_s)
      .set("solve_many_s", solve_many_s).set("many_rhs", many).set("backward_error_many", berr_many)
      .set("factorizations", factorizations).set("solves", solves)
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
               "(first call %.3f s; %d rhs %.3f s), backward error %.1e (%d rhs %.1e)\n", analyze_s,
               rep.factorize_s, gflops, runtime.cpu_workers(), runtime.cuda_workers(), solve_s, solve_first_s, many,
               solve_many_s, berr, many, berr_many);
  std::fprintf(stderr, "hetsparse  panel groups: %lld on the GPU (%.2f GB), %lld either (%.2f GB), %lld on CPUs (%.2f GB); "
               "solve %lld tasks (%lld on CUDA)\n", rep.groups_cuda, rep.values_cuda * 8e-9, rep.groups_any,
               rep.values_any * 8e-9, rep.groups_cpu, rep.values_cpu * 8e-9, solver_tasks, solver_gpu_tasks);
  std::printf("%s\n", out.str().c_str());
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_cholesky", e);
}
