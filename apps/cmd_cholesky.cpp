// `hetsparse cholesky`: analyze, factorize and solve A x = b for SPD A as StarPU task graphs, with
// the analysis summary, the time of each phase, the factorization rate and the backward error.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cli/common.hpp"
#include "cli/planner_options.hpp"
#include "cli/json.hpp"
#include "cli/result_checks.hpp"
#include "apps/commands.hpp"
#include "cholesky/autotune/autotune.hpp"
#include "cholesky/cholesky_solver.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/progress.hpp"

namespace hetsparse::cli {
namespace {

cholesky::Ordering parse_ordering(const std::string& s) {
  if (s == "metis") return cholesky::Ordering::Metis;
  if (s == "natural") return cholesky::Ordering::Natural;
  throw UsageError("hetsparse cholesky: --ordering must be metis or natural, not '" + s + "'");
}

// Right-hand side: a file (Matrix Market, n x 1, coordinate or dense entries listed) or random.
std::vector<double> rhs(const ArgParser& p, index_t n) {
  if (p.has("rhs")) {
    std::vector<double> b(n, 0.0);
    const MatrixMarket mm = read_matrix_market(p.get("rhs"));
    if (mm.entries.rows != n || mm.entries.cols != 1)
      throw InvalidArgument(p.get("rhs") + ": the right-hand side must be " + std::to_string(n) + " x 1, not " +
                            std::to_string(mm.entries.rows) + " x " + std::to_string(mm.entries.cols));
    for (offset_t k = 0; k < mm.entries.nnz(); ++k) b[mm.entries.row[k]] += mm.entries.val[k];
    return b;
  }
  return random_vector(static_cast<std::size_t>(n), static_cast<std::uint64_t>(p.get_int("seed")));
}

// A positive definite matrix has a positive diagonal: a missing or non-positive A(i, i) is named at
// once, not after the analysis and the factorization.
void check_positive_diagonal(const Csr& A) {
  for (index_t i = 0; i < A.rows; ++i) {
    double d = 0;
    bool stored = false;
    for (offset_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k) {
      if (A.colind[k] != i) continue;
      d += A.values[k];
      stored = true;
    }
    if (!stored) throw NotPositiveDefinite(i, "A has no diagonal entry in this row: A is not positive definite");
    if (!(d > 0))
      throw NotPositiveDefinite(i, "diagonal entry " + short_number(d) + " is not positive: A is not positive definite");
  }
}

// The factorization; a pattern file's NotPositiveDefinite comes with the reason it is likely.
const cholesky::FactorizeReport& factorize(cholesky::CholeskySolver& solver, const MatrixInput& in,
                                           const cholesky::FactorizeOptions& fo) {
  try {
    return solver.factorize(in.A, fo);
  } catch (const NotPositiveDefinite&) {
    if (in.pattern)
      std::fprintf(stderr, "hetsparse cholesky: note: %s is a pattern file: every stored value was taken as 1, which "
                   "is seldom positive definite; give a file with values\n", in.name.c_str());
    throw;
  }
}

namespace tune = cholesky::autotune;

// --autotune: tune for the workers and perf models of this runtime.
tune::AutotuneOptions autotune_options(const ArgParser& p, const rt::Runtime& r) {
  tune::AutotuneOptions o;
  o.machine.ncpu = r.cpu_workers();
  o.machine.ngpu = r.cuda_devices();
  o.perfmodel_dir = r.options().perfmodel_dir;
  o.search.budget_s = p.get_double("autotune-budget");
  if (!(o.search.budget_s > 0))
    throw UsageError("hetsparse cholesky: --autotune-budget must be a positive number of seconds");
  return o;
}

Json autotune_json(const tune::AutotuneResult& t, double measured_s) {
  std::vector<Json> models;
  for (const tune::ModelSummary& m : t.cost_models)
    models.push_back(Json().set("kernel", m.kernel).set("arch", tune::to_string(m.arch)).set("a", m.cost.law.a)
                         .set("b", m.cost.law.b).set("c", m.cost.law.c)
                         .set("points", static_cast<long long>(m.cost.points)));
  return Json().set("start", tune::describe(t.start)).set("chosen", tune::describe(t.chosen))
      .set("predicted_start_s", t.predicted_start.total_s).set("predicted_chosen_s", t.predicted_chosen.total_s)
      .set("measured_factorize_s", measured_s).set("evaluations", t.evaluations)
      .set("distinct_settings", t.distinct_settings)
      .set("stopped_by_budget", t.stopped_by_budget).set("analyze_s", t.analyze_s).set("tuning_s", t.tuning_s)
      .set("cost_models", models);
}

void print_autotune(const tune::AutotuneResult& t, double measured_s) {
  std::printf("autotune    %.2f s after a %.2f s analysis: %d evaluations, %d distinct settings%s\n", t.tuning_s,
              t.analyze_s, t.evaluations, t.distinct_settings, t.stopped_by_budget ? " (stopped by the budget)" : "");
  std::printf("            start   %s: predicted %.4f s\n", tune::describe(t.start).c_str(), t.predicted_start.total_s);
  std::printf("            chosen  %s: predicted %.4f s, measured %.4f s\n", tune::describe(t.chosen).c_str(),
              t.predicted_chosen.total_s, measured_s);
  for (const tune::ModelSummary& m : t.cost_models) std::printf("            model   %s\n", tune::describe(m).c_str());
}

}  // namespace

int cmd_cholesky(int argc, char** argv) {
  ArgParser p("hetsparse cholesky", "Sparse Cholesky A = P'LL'P of an SPD matrix: analyze, factorize, solve.");
  add_matrix_input(p, "lap3d:40");
  add_runtime_options(p);
  p.option("rhs", "FILE", "right-hand side (Matrix Market, n x 1); default: random")
      .option("ordering", "metis|natural", "fill-reducing ordering", "metis")
      .option("refine", "N", "iterative refinement steps", "0")
      .option("seed", "S", "seed of the random right-hand side", "1")
      .flag("autotune", "choose amalgamation and planner thresholds by simulated annealing on a simulated schedule")
      .option("autotune-budget", "S", "time limit of the --autotune search in seconds", "5");
  add_planner_options(p);
  if (!p.parse(argc, argv)) return 0;
  const bool json = p.has("json");
  const long refine = p.get_int_in("refine", 0, 1000);
  ProgressReporter progress("cholesky", progress_wanted(p.has("progress")));
  progress.begin(p.has("matrix") ? "reading " + p.get("matrix") : "generating " + p.get("generate"));
  // Before the analysis (the factor's own size is checked once known): ~190 B per row and entry
  // (4e6-row diagonal), plus a margin.
  MatrixInput in = load_matrix_input(p, {"cholesky", 160, 40, true});
  progress.end();
  const Csr& A = in.A;
  if (A.rows != A.cols) throw InvalidArgument(in.name + ": Cholesky needs a square matrix");
  check_positive_diagonal(A);
  std::vector<double> b = rhs(p, A.rows), x = b;

  rt::Runtime runtime(runtime_options(p, cholesky::kCudaWorkersPerGpu));
  cholesky::CholeskySolver solver(runtime);
  cholesky::AnalyzeOptions ao;
  ao.ordering = parse_ordering(p.get("ordering"));
  apply_analysis_options(p, ao);
  // The whole matrix goes in, so an asymmetric input is reported (row and column), not symmetrised.
  ao.input = cholesky::InputTriangle::Full;
  cholesky::FactorizeOptions fo;
  std::optional<tune::AutotuneResult> tuned;
  if (p.has("autotune")) {
    tuned = tune::autotune(A, ao, fo.thresholds, autotune_options(p, runtime));
    ao = tuned->analyze;
    fo.thresholds = tuned->thresholds;
  }
  apply_planner_options(p, fo.thresholds);  // explicit options win over the tuner's choice
  ao.progress = fo.progress = &progress;     // after the tuner, whose many analyses stay quiet
  const cholesky::SymbolicFactor& sym = solver.analyze(A, ao);
  const cholesky::FactorizeReport rep = factorize(solver, in, fo);
  progress.begin("solve");
  double t0 = now_seconds();
  solver.solve(x);
  std::vector<double> r(A.rows);
  for (long it = 0; it < refine; ++it) {  // x += A^-1 (b - A x)
    ref::spmv(A, x.data(), r.data());
    for (index_t i = 0; i < A.rows; ++i) r[i] = b[i] - r[i];
    solver.solve(r);
    for (index_t i = 0; i < A.rows; ++i) x[i] += r[i];
  }
  const double solve_s = now_seconds() - t0;
  progress.end();
  const double berr = ref::backward_error(A, x.data(), b.data());
  const rt::TraceFiles tf = runtime.shutdown();
  const double gflops = sym.flops_amalgamated / rep.factorize_s * 1e-9;
  const auto& pl = rep.plan;
  if (json) {
    Json j;
    j.set("matrix", in.name).set("rows", static_cast<long long>(A.rows)).set("nnz_A", static_cast<long long>(A.nnz()))
        .set("nnz_L", static_cast<long long>(sym.nnz_L)).set("nnz_L_exact", static_cast<long long>(sym.nnz_L_exact))
        .set("flops", sym.flops).set("flops_executed", sym.flops_amalgamated)
        .set("supernodes", static_cast<long long>(sym.num_supernodes())).set("analyze_s", sym.timings.total_s)
        .set("ordering_s", sym.timings.ordering_s).set("factorize_s", rep.factorize_s).set("assemble_s", rep.assemble_s)
        .set("gflops", gflops).set("register_s", rep.register_s).set("submit_s", rep.submit_s)
        .set("wait_s", rep.wait_s).set("unregister_s", rep.unregister_s).set("solve_s", solve_s).set("backward_error", berr)
        .set("scheduler", runtime.options().scheduler).set("cpu_workers", runtime.cpu_workers())
        .set("cuda_workers", runtime.cuda_workers()).set("on_calling_thread", rep.on_calling_thread).set("tasks", pl.tasks).set("gpu_eligible_tasks", pl.gpu_eligible_tasks)
        .set("updates_inst", pl.updates[0]).set("updates_tpq", pl.updates[1]).set("updates_dpq", pl.updates[2])
        .set("subtree_tasks", pl.subtree_tasks).set("updates_subtree", pl.updates[3]).set("flops_subtree", pl.flops[3])
        .set("flops_inst", pl.flops[0]).set("flops_tpq", pl.flops[1]).set("flops_dpq", pl.flops[2]);
    if (tuned) j.set("autotune", autotune_json(*tuned, rep.factorize_s));
    if (!tf.paje.empty()) j.set("trace", tf.paje);
    std::printf("%s\n", j.str().c_str());
  } else {
    std::printf("matrix      %s: %d rows, %lld nonzeros%s (loaded in %.2f s)\n", in.name.c_str(), A.rows,
                static_cast<long long>(A.nnz()), in.pattern ? " (pattern file: values taken as 1)" : "", in.seconds);
    std::printf("analyze     %.3f s (ordering %.3f s): %d supernodes, nnz(L) %.3e (exact %.3e), %.3e flops\n",
                sym.timings.total_s, sym.timings.ordering_s, sym.num_supernodes(), double(sym.nnz_L),
                double(sym.nnz_L_exact), sym.flops);
    if (rep.on_calling_thread)
      std::printf("plan        no tasks: a factor of %.3e flops (at most --host-whole-max-flops %.3g) is factored on the "
                  "calling thread\n", sym.flops, fo.thresholds.host_whole_max_flops);
    else
      std::printf("plan        %lld tasks (%lld may run on a GPU, %lld leaf subtrees holding %.0f%% of the flops); "
                  "updates InstQ %lld / TPQ %lld / DPQ %lld / in subtrees %lld\n",
                  pl.tasks, pl.gpu_eligible_tasks, pl.subtree_tasks,
                  100.0 * pl.flops[3] / std::max(1.0, pl.flops[0] + pl.flops[1] + pl.flops[2] + pl.flops[3]),
                  pl.updates[0], pl.updates[1], pl.updates[2], pl.updates[3]);
    std::printf("factorize   %.3f s (+ %.3f s assembly), %.2f GFLOP/s on %d CPU + %d CUDA workers (%s)\n",
                rep.factorize_s, rep.assemble_s, gflops, runtime.cpu_workers(), runtime.cuda_workers(),
                runtime.options().scheduler.c_str());
    std::printf("            register %.3f s, submit %.3f s, wait %.3f s, pivot status %.3f s\n", rep.register_s,
                rep.submit_s, rep.wait_s, rep.unregister_s);
    std::printf("solve       %.3f s%s\n", solve_s, refine ? (" (" + std::to_string(refine) + " refinement steps)").c_str() : "");
    std::printf("check       backward error |b-Ax|/(|A||x|+|b|) = %.2e\n", berr);
    if (tuned) print_autotune(*tuned, rep.factorize_s);
    if (!tf.paje.empty()) std::printf("trace       %s\n", tf.paje.c_str());
  }
  require_finite(x, "x", "the solution overflows a double (largest |A(i,j)| = " + short_number(max_abs_value(A)) +
                            "): A is too ill-conditioned for double precision, or its values too large");
  require_at_most(berr, 1e-12, "backward error |b-Ax|/(|A||x|+|b|)",
                  ": A may be too ill-conditioned for double precision (try --refine 2)");
  return 0;
}

}  // namespace hetsparse::cli
