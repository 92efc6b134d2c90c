// `hetsparse sptrsv`: sparse triangular solve T x = b as a StarPU task: analysis (levels, fusion
// segments, features), the scheme choice (named, or "auto": search / model), timed solves, the
// preprocessing cost (analysis + selection + preparation, also in solves) and ||b - T x|| / ||b||.
// On CPU workers, --cpu-mode picks serial substitution, one parallel task or per-level tasks.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "cli/result_checks.hpp"
#include "apps/commands.hpp"
#include "apps/sptrsv_input.hpp"
#include "apps/sptrsv_options.hpp"
#include "apps/sptrsv_preprocess.hpp"
#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "codelets/sptrsv/sptrsv_level_workers.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/progress.hpp"
#include "sptrsv/solve_paths.hpp"
#include "sptrsv/split_solver.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::cli {
namespace {

// Solves can only go to CUDA workers when there are some: say so rather than name a GPU scheme
// that never ran.
void check_device(const ArgParser& p, const rt::Runtime& runtime) {
  if (runtime.cuda_workers() > 0) return;
  if (p.get("device") == "gpu" || p.get("device") == "cuda")
    throw InvalidSetting("--device gpu: there is no CUDA worker (no GPU found, --ncuda 0, or a CPU-only build)");
  if (p.has("variant") && p.get("variant") != "auto")
    std::fprintf(stderr, "hetsparse sptrsv: warning: --variant %s is a scheme for CUDA workers and there are none: "
                 "solves run on CPU workers (--cpu-mode)\n", p.get("variant").c_str());
}

constexpr double kBackwardErrorLimit = 1e-10;  // rounding stays near 1e-16; a wrong x gives O(1)

double norm2(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
}

}  // namespace

int cmd_sptrsv(int argc, char** argv) {
  ArgParser p("hetsparse sptrsv", "Sparse triangular solve T x = b as a StarPU task on a CPU or GPU worker.");
  add_matrix_input(p, "anchor-lap3d:32");
  add_runtime_options(p);
  add_sptrsv_options(p);
  if (!p.parse(argc, argv)) return 0;
  const bool json = p.has("json");
  const long iters = p.get_int("iterations");
  if (iters < 1) throw UsageError("hetsparse sptrsv: --iterations must be at least 1");
  const Triangle tri = parse_triangle(p.get("triangle"));
  const bool unit = p.has("unit");

  // Peak ~85 B per row and ~28 per entry (4e6-row diagonal and 27-point 70^3 Laplacian), plus a margin.
  MatrixInput in = load_matrix_input(p, {"sptrsv", 96, 32, !unit});
  const Csr T = requested_triangle(in.A, tri);
  const index_t n = T.rows;
  const std::vector<double> b = random_vector(static_cast<std::size_t>(n), static_cast<std::uint64_t>(p.get_int("seed")));
  std::vector<double> x(static_cast<std::size_t>(n), std::nan(""));

  sptrsv::TriangularSolveOptions so;
  try {
    so.cpu_mode = sptrsv::parse_cpu_mode(p.get("cpu-mode"));
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("hetsparse sptrsv: --cpu-mode: ") + e.what());
  }
  so.cpu_min_entries = p.get_int("cpu-min-entries");
  if (so.cpu_min_entries < 0) throw UsageError("hetsparse sptrsv: --cpu-min-entries must not be negative");
  try {  // split execution (split_solver.hpp): it may level-schedule on the CPUs, as parallel-task does
    so.split.mode = sptrsv::parse_split_mode(p.get("split"));
    so.split.measure = planners::SplitMeasureOptions::parse(p.get("split-measure"));
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("hetsparse sptrsv: --split or --split-measure: ") + e.what());
  }
  rt::RuntimeOptions ro = runtime_options(p);
  // A parallel task spans several workers only under a scheduler that builds combined workers; with
  // StarPU's topology-based ones a worker that is master of a narrow one may take the task, with
  // STARPU_SINGLE_COMBINED_WORKER one worker is master of every width, so peager takes the widest.
  if (so.cpu_mode == sptrsv::CpuMode::ParallelTask || so.split.mode != sptrsv::SplitMode::Off) {
    if (ro.scheduler.empty() && !std::getenv("STARPU_SCHED")) ro.scheduler = "peager";
    if (!std::getenv("STARPU_SINGLE_COMBINED_WORKER")) ::setenv("STARPU_SINGLE_COMBINED_WORKER", "1", 1);
  }
  const double runtime_t0 = now_seconds();
  rt::Runtime runtime(ro);
  const double runtime_start_s = now_seconds() - runtime_t0;  // StarPU, its workers and their CUDA contexts
  check_device(p, runtime);
  const int widest = codelets::widest_parallel_worker();
  try {
    so.device = sptrsv::parse_solve_device(p.get("device"));
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("hetsparse sptrsv: --device: ") + e.what());
  }
  so.variant = p.get("variant");
  so.select = sptrsv::parse_select_mode(p.get("select"));
  if (p.get_int("expected-solves") < 1) throw UsageError("hetsparse sptrsv: --expected-solves must be at least 1");
  so.expected_solves = static_cast<int>(std::min<long>(p.get_int("expected-solves"), 1L << 30));
  so.perfmodel_dir = runtime.options().perfmodel_dir;
  so.inline_solves = !p.has("solve-tasks");
  so.matrix_name = in.name;
  so.split.model_file = p.get("split-model");
  so.split.cpu_parallel_width = std::max(1, widest);
  try {
    so.analysis_place = sptrsv::parse_analysis_place(p.get("analysis"));
  } catch (const InvalidArgument&) {
    throw UsageError("hetsparse sptrsv: --analysis must be auto, host or gpu, not '" + p.get("analysis") + "'");
  }
  const long analyses = p.get_int("analyses");
  if (analyses < 1) throw UsageError("hetsparse sptrsv: --analyses must be at least 1");
  // Owned apart so that its handles are unregistered before the runtime shuts down.
  SptrsvPreprocess pre = preprocess_sptrsv(runtime, T, tri, unit, so, b, x, analyses);
  sptrsv::TriangularSolver& solver = *pre.solver;
  const double preprocess_s = pre.seconds;

  std::vector<double> times;
  ProgressReporter progress("sptrsv", progress_wanted(p.has("progress")));
  progress.begin("solves");
  for (long i = 0; i < iters; ++i) {
    const double t0 = now_seconds();
    solver.solve(b.data(), x.data());
    times.push_back(now_seconds() - t0);
    progress.update(i + 1, iters, "solves");
  }
  progress.end();
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  // The same solve by the other paths (sptrsv/solve_paths.hpp): on vectors the runtime keeps where the
  // solve runs (what an iterative solver pays), and the scheme's kernel alone plus the copies of b and
  // x that a user of the kernel alone pays.
  sptrsv::SolvePathTimes paths;
  const int path_runs = static_cast<int>(std::min(iters, 20L));
  const sptrsv::ResidentTimes resident = sptrsv::time_resident_solves(solver, runtime, b, path_runs);
  paths.resident_ms = resident.solve_ms;
  paths.resident_submit_ms = resident.submit_ms;
  const bool resident_matches = same_solution(resident.x, x);
  sptrsv::time_kernel_path(solver, runtime, b, x, path_runs, paths);

  // r = b - T x; with a unit diagonal T's stored diagonal does not count.
  std::vector<double> Tx(static_cast<std::size_t>(n));
  if (unit) {
    ref::spmv(triangle(T, tri, false), x.data(), Tx.data());
    for (index_t i = 0; i < n; ++i) Tx[i] += x[i];
  } else {
    ref::spmv(T, x.data(), Tx.data());
  }
  std::vector<double> r(b);
  for (index_t i = 0; i < n; ++i) r[i] -= Tx[i];
  const double bnorm = norm2(b);
  const double residual = bnorm > 0 ? norm2(r) / bnorm : norm2(r);
  // The check is the normwise backward error ||r|| / (||T|| ||x|| + ||b||) (infinity norms): a
  // triangular solve is backward stable, so a right x keeps it near rounding whatever T's scaling,
  // where ||r|| / ||b|| grows with |T||x| / |b| (e.g. bcsstk13's lower triangle: 1.9e-6).
  const double backward = triangular_backward_error(T, tri == Triangle::Upper, unit, x, b, r);
  const bool ok = std::isfinite(backward) && backward <= kBackwardErrorLimit && resident_matches;
  const auto nnz = solver.nnz();
  const double gflops = 2.0 * double(nnz) / (median * 1e9);
  const sptrsv::TriangularFeatures features = solver.features();
  const std::string variant = solver.chosen_variant();
  const double analysis_s = solver.analysis_seconds();
  const bool analysed_on_gpu = solver.analysed_on_device();
  const sptrsv::Selection selection = solver.selection();
  const bool host_on_cpu = solver.host_solves_on_cpu();
  const bool solver_inline = solver.inline_solves();
  const std::string placement = solver.host_solve_placement().why();
  const index_t levels = solver.num_levels();
  const int parallel_width = codelets::last_parallel_task_width();
  const long long level_tasks =
      solver.level_tasks() ? static_cast<long long>(solver.level_tasks()->tasks_last_submit()) : 0;
  const std::string cpu_mode = p.get("cpu-mode");
  const sptrsv::SplitSolver* split = solver.split();
  const std::string split_line = split ? split->describe() : "";
  const std::string split_source = split ? split->thresholds_source() : "";
  const planners::SplitMeasurement measurement = split ? split->measurement() : planners::SplitMeasurement{};
  const double split_setup_s = split ? split->setup_seconds() : 0.0;  // structure, decision, measurement, split
  const auto split_features = split ? planners::structure_list(split->structure())
                                    : std::vector<std::pair<std::string, double>>{};
  pre.solver.reset();
  const rt::TraceFiles tf = runtime.shutdown();

  if (json) {
    Json j;
    j.set("matrix", in.name).set("triangle", p.get("triangle")).set("unit_diagonal", unit)
        .set("rows", static_cast<long long>(n)).set("nnz", static_cast<long long>(nnz))
        .set("levels", static_cast<long long>(levels))
        .set("scheduler", runtime.options().scheduler).set("cpu_workers", runtime.cpu_workers())
        .set("cuda_workers", runtime.cuda_workers()).set("device", p.get("device"))
        .set("variant", variant).set("cpu_mode", cpu_mode).set("widest_parallel_worker", widest)
        .set("analysis_s", analysis_s).set("analysis_place", std::string(analysed_on_gpu ? "gpu" : "host"))
        .set("preprocess_s", preprocess_s)
        .set("preprocess_in_solves", median > 0 ? preprocess_s / median : 0.0)
        .set("runtime_start_s", runtime_start_s).set("warmup_solve_s", pre.warmup_solve_seconds)
        .set("iterations", static_cast<long long>(iters)).set("solve_ms", median * 1e3).set("gflops", gflops)
        .set("resident_solve_ms", paths.resident_ms).set("resident_submit_ms", paths.resident_submit_ms)
        .set("resident_matches", resident_matches).set("inline_solves", solver_inline)
        .set("relative_residual", residual).set("backward_error", backward).set("correct", ok)
        .set("host_solves_in_cpu_task", host_on_cpu);
    if (paths.kernel_ms > 0) {
      j.set("kernel_ms", paths.kernel_ms).set("kernel_call_ms", paths.kernel_call_ms).set("copy_ms", paths.copy_ms)
          .set("solve_over_kernel_and_copies", median * 1e3 / (paths.kernel_ms + paths.copy_ms))
          .set("resident_over_kernel", paths.resident_ms / paths.kernel_ms);
    } else {
      j.set("kernel_note", paths.kernel_note);
    }
    if (!placement.empty()) j.set("host_solve_placement", placement);
    j.set("preprocess_steps", steps_json(pre.steps));
    if (analyses > 1) {
      j.set("analyses", static_cast<long long>(analyses)).set("preprocess_first_s", pre.first_seconds)
          .set("preprocess_first_steps", steps_json(pre.first_steps));
    }
    if (parallel_width > 0) j.set("parallel_task_width", parallel_width);
    if (level_tasks > 0) j.set("tasks_per_solve", level_tasks);
    if (p.has("analyze")) {
      Json f;
      for (const auto& [name, value] : features.as_list()) f.set(name, value);
      j.set("features", f);
    }
    if (!selection.how.empty()) {
      j.set("selection", selection.how).set("selection_s", selection.seconds);
      if (!selection.note.empty()) j.set("selection_note", selection.note);
      if (!selection.model_prediction.empty()) {
        j.set("model_prediction", selection.model_prediction).set("model_vs_best", selection.model_ratio);
      }
    }
    if (!split_line.empty()) {
      j.set("split", split_line).set("split_model", split_source).set("split_setup_s", split_setup_s)
          .set("split_setup_in_solves", median > 0 ? split_setup_s / median : 0.0)
          .set("split_expected_solves", static_cast<long long>(so.expected_solves));
      if (so.split.mode == sptrsv::SplitMode::Auto) {  // how the decision went, and the measured times
        j.set("split_decision", measurement.how()).set("split_decision_note", measurement.why);
        Json c;
        for (const planners::MeasuredPolicy& m : measurement.candidates) c.set(planners::to_string(m.policy), m.measured_ms);
        if (measurement.measured) j.set("split_candidates_ms", c).set("split_measure_s", measurement.seconds);
      }
      if (p.has("analyze")) {
        Json f;
        for (const auto& [name, value] : split_features) f.set(name, value);
        j.set("split_features", f);
      }
    }
    if (!tf.paje.empty()) j.set("trace", tf.paje);
    std::printf("%s\n", j.str().c_str());
  } else {
    std::printf("matrix      %s: %s triangle%s, %d rows, %lld entries, %d levels (loaded in %.2f s)\n",
                in.name.c_str(), p.get("triangle").c_str(), unit ? " (unit diagonal)" : "", n,
                static_cast<long long>(nnz), levels, in.seconds);
    std::printf("runtime     %s, %d CPU + %d CUDA workers, device %s, variant %s\n",
                runtime.options().scheduler.c_str(), runtime.cpu_workers(), runtime.cuda_workers(),
                p.get("device").c_str(), variant.c_str());
    if (parallel_width > 0)
      std::printf("cpu mode    parallel task on %d worker(s) (widest combined worker %d)\n", parallel_width, widest);
    if (level_tasks > 0) std::printf("cpu mode    %lld per-level tasks per solve\n", level_tasks);
    std::printf("analysis    %.4f s (%s)\n", analysis_s, analysed_on_gpu ? "GPU" : "host");
    if (!selection.how.empty()) {
      std::printf("selection   %s in %.4f s%s%s\n", selection.how.c_str(), selection.seconds,
                  selection.note.empty() ? "" : ": ", selection.note.c_str());
      if (!selection.model_prediction.empty())
        std::printf("model       would pick %s: %.2fx the searched best's time\n", selection.model_prediction.c_str(),
                    selection.model_ratio);
    }
    std::printf("preprocess  %.4f s (analysis + selection + preparation) = %.0f solves\n", preprocess_s,
                median > 0 ? preprocess_s / median : 0.0);
    for (const sptrsv::PreparationStep& st : pre.steps.steps())
      std::printf("  %-26s %.4f s\n", st.name.c_str(), st.seconds);
    if (analyses > 1) std::printf("first       preprocess %.4f s (the first of %ld analyses)\n", pre.first_seconds, analyses);
    std::printf("solve       %.4f ms (median of %ld, host vectors)  %.3f GFLOP/s\n", median * 1e3, iters, gflops);
    std::printf("resident    %.4f ms solve(b, x) on handles the runtime keeps where the solve runs (%s); "
                "submit + wait %.4f ms%s\n", paths.resident_ms, solver_inline ? "inline" : "a task",
                paths.resident_submit_ms, resident_matches ? "" : "; x DIFFERS from the host solve's");
    if (!placement.empty()) std::printf("host solves %s (device auto)\n", placement.c_str());
    if (paths.kernel_ms > 0)
      std::printf("kernel      %.4f ms alone (%s), %.4f ms to copy b in and x out: host path %.2fx, resident %.2fx\n",
                  paths.kernel_ms, variant.c_str(), paths.copy_ms, median * 1e3 / (paths.kernel_ms + paths.copy_ms),
                  paths.resident_ms / paths.kernel_ms);
    if (paths.kernel_call_ms > 0)
      std::printf("kernel call %.4f ms (launched and synchronized by plain CUDA, no runtime)\n", paths.kernel_call_ms);
    std::printf("check       ||b - T x|| / (||T|| ||x|| + ||b||) = %.2e  %s  (||b - T x|| / ||b|| = %.2e)\n", backward,
                ok ? "OK" : "WRONG", residual);
    if (!split_line.empty())
      std::printf("split       %s; thresholds: %s; setup %.4f s = %.1f solves\n", split_line.c_str(), split_source.c_str(),
                  split_setup_s, median > 0 ? split_setup_s / median : 0.0);
    if (p.has("analyze")) std::printf("features\n%s", features.to_text().c_str());
    if (p.has("analyze") && !split_features.empty()) {
      std::printf("split features\n");
      for (const auto& [name, value] : split_features) std::printf("%s %.17g\n", name.c_str(), value);
    }
    if (!tf.paje.empty()) std::printf("trace       %s (open with: vite %s)\n", tf.paje.c_str(), tf.paje.c_str());
  }
  require_finite(x, "x", "the solution overflows a double: T is too ill-conditioned for double precision "
                        "(smallest |T(i,i)| = " + short_number(min_abs_diagonal(T)) + ", largest |T(i,j)| = " +
                        short_number(max_abs_value(T)) + ")");
  require_at_most(backward, kBackwardErrorLimit, "||b - T x|| / (||T|| ||x|| + ||b||)", ": the solve is wrong");
  return 0;
}

}  // namespace hetsparse::cli
