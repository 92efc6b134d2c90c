// CPU SpTRSV benchmark: in one process, on the same analysed lower triangles, the serial kernel, the
// level-order kernel on one thread and the threaded level kernel called directly (StarPU paused),
// then through StarPU under each asked-for scheduler the level-scheduled solve as one parallel task
// (SPMD, and fork-join) and as per-level tasks (TriangularSolver, device cpu: the times include
// registering b and x). One JSON line per (matrix, mode, scheduler) on stdout, a table on stderr.
// Default matrices: the CPU anchors lap2d 1000^2, lap3d 100^3, rmat18_ef8 and rmat20_ef8.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "cli/vector_compare.hpp"
#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "codelets/sptrsv/sptrsv_level_workers.hpp"
#include "kernels/sptrsv/sptrsv_level_plan.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generator_spec.hpp"
#include "sptrsv/triangular_solver.hpp"

using namespace hetsparse;

namespace {

const std::vector<std::string> kAnchors = {"anchor-lap2d:1000", "anchor-lap3d:100", "anchor-rmat:18:8",
                                           "anchor-rmat:20:8"};

struct Matrix {
  std::string name;
  Csr T;
  std::unique_ptr<sptrsv::TriangularPattern> pattern;
  std::vector<double> b, expected;
  double serial_ms = 0;
};

struct Settings {
  int runs = 10, warmups = 2;
  std::int64_t parallel_entries = sptrsv::kParallelTaskMinEntries, level_entries = sptrsv::kLevelTaskMinEntries;
};

struct Timing {
  double median_ms = 0, min_ms = 0, error = 0;
};

// warmups + runs of solve(x), wall time each; the error of the last x.
Timing time_solves(const Matrix& m, const Settings& s, const std::function<void(double*)>& solve) {
  std::vector<double> x(m.b.size());
  std::vector<double> ms;
  for (int i = 0; i < s.warmups + s.runs; ++i) {
    std::fill(x.begin(), x.end(), std::nan(""));
    const auto t0 = std::chrono::steady_clock::now();
    solve(x.data());
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (i >= s.warmups) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), cli::max_rel_diff(x, m.expected)};
}

void report(Matrix& m, const std::string& mode, const std::string& sched, int workers, const Timing& t,
            cli::Json extra) {
  if (mode == "serial") m.serial_ms = t.median_ms;
  const double nnz = static_cast<double>(m.pattern->nnz());
  const bool ok = t.error <= 1e-10;
  cli::Json j;
  j.set("bench", "sptrsv_cpu")
      .set("matrix", m.name)
      .set("rows", static_cast<long long>(m.pattern->rows()))
      .set("nnz", static_cast<long long>(m.pattern->nnz()))
      .set("levels", static_cast<long long>(m.pattern->num_levels()))
      .set("mode", mode)
      .set("scheduler", sched)
      .set("cpu_workers", workers)
      .set("median_ms", t.median_ms)
      .set("min_ms", t.min_ms)
      .set("gflops", t.median_ms > 0 ? 2.0 * nnz / (t.median_ms * 1e6) : 0.0)
      .set("speedup_vs_serial", m.serial_ms > 0 && t.median_ms > 0 ? m.serial_ms / t.median_ms : 0.0)
      .set("relative_error", t.error)
      .set("correct", ok)
      .set("details", extra);
  std::printf("%s\n", j.str().c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "  %-22s %-8s %10.3f %10.3f %8.2f %9.1e %s %s\n", mode.c_str(), sched.c_str(), t.median_ms,
               t.min_ms, m.serial_ms > 0 ? m.serial_ms / t.median_ms : 0.0, t.error, ok ? "" : "WRONG",
               extra.str().c_str());
}

// The direct kernels, with StarPU's workers paused so that they do not poll the cores.
void direct_kernels(Matrix& m, const Settings& s, rt::Runtime& r, int threads) {
  const rt::PausedWorkers paused(r);
  const kernels::TriangularView v = m.pattern->host_view();
  const index_t n = m.pattern->rows();
  report(m, "serial", "none", 0, time_solves(m, s, [&](double* x) { kernels::sptrsv_cpu(v, m.b.data(), n, x, n, 1); }),
         cli::Json());
  // The level order alone (one thread, the level-ordered copy): what the StarPU modes' serial runs cost.
  report(m, "level_order_1thread", "none", 0, time_solves(m, s, [&](double* x) {
           kernels::sptrsv_cpu_levels(v, m.b.data(), n, x, n, 1, 1);
         }), cli::Json());
  const auto steps = kernels::plan_level_steps(v, 1, threads, s.parallel_entries);
  const auto shared =
      std::count_if(steps.begin(), steps.end(), [](const kernels::LevelStep& st) { return st.shared(); });
  cli::Json d;
  d.set("threads", threads)
      .set("steps", static_cast<long long>(steps.size()))
      .set("shared_steps", static_cast<long long>(shared));
  report(m, "threads", "none", 0, time_solves(m, s, [&](double* x) {
           kernels::sptrsv_cpu_levels(v, m.b.data(), n, x, n, 1, threads, s.parallel_entries);
         }), d);
}

void starpu_modes(Matrix& m, const Settings& s, rt::Runtime& r, const std::string& sched) {
  const int workers = r.cpu_workers();
  struct Mode {
    const char* name;
    sptrsv::CpuMode mode;
    bool fork_join;
  };
  for (const Mode& mode : {Mode{"parallel_task", sptrsv::CpuMode::ParallelTask, false},
                           Mode{"parallel_task_forkjoin", sptrsv::CpuMode::ParallelTask, true},
                           Mode{"level_tasks", sptrsv::CpuMode::LevelTasks, false}}) {
    sptrsv::TriangularSolver solver(r);
    sptrsv::TriangularSolveOptions o;
    o.device = sptrsv::SolveDevice::Cpu;
    o.cpu_mode = mode.mode;
    o.cpu_fork_join = mode.fork_join;
    o.cpu_min_entries = mode.mode == sptrsv::CpuMode::ParallelTask ? s.parallel_entries : s.level_entries;
    solver.analyze(m.T, Triangle::Lower, false, o);
    int narrowest = 1 << 30, widest = 0;  // the parallel task's widths over the solves
    const Timing t = time_solves(m, s, [&](double* x) {
      solver.solve(m.b.data(), x);
      narrowest = std::min(narrowest, codelets::last_parallel_task_width());
      widest = std::max(widest, codelets::last_parallel_task_width());
    });
    cli::Json d;
    d.set("widest_parallel_worker", codelets::widest_parallel_worker());
    if (mode.mode == sptrsv::CpuMode::ParallelTask) {
      d.set("width_min", narrowest).set("width_max", widest)
          .set("min_entries", static_cast<long long>(s.parallel_entries));
    } else {
      const auto& steps = solver.level_tasks()->steps();
      d.set("tasks_per_solve", static_cast<long long>(solver.level_tasks()->tasks_last_submit()))
          .set("steps", static_cast<long long>(steps.size()))
          .set("shared_steps",
               static_cast<long long>(
                   std::count_if(steps.begin(), steps.end(), [](const kernels::LevelStep& st) { return st.shared(); })))
          .set("chunks", solver.level_tasks()->options().chunks)
          .set("min_entries", static_cast<long long>(s.level_entries));
    }
    report(m, mode.name, sched, workers, t, d);
  }
}

}  // namespace

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_sptrsv_cpu",
                   "CPU SpTRSV: serial and threaded kernels directly, then the StarPU parallel task and per-level "
                   "tasks under each scheduler. Without a matrix: lap2d 1000^2, lap3d 100^3, rmat18_ef8, rmat20_ef8.");
  p.positional("matrix", "Matrix Market file (.mtx or .mtx.gz); its lower triangle is solved")
      .option("generate", "SPEC", "generate the matrix instead (see `hetsparse gen --help`)")
      .option("runs", "N", "timed solves per mode (the median is reported)", "10")
      .option("warmups", "N", "untimed solves before them", "2")
      .option("ncpu", "N", "StarPU CPU workers, also the threaded kernel's threads (default: StarPU's choice)", "-1")
      .option("sched", "A,B,...", "schedulers to run the StarPU modes under", "peager,pheft,dmdas,lws")
      .option("parallel-entries", "N", "threaded kernel and parallel task: smallest share of a level in entries",
              "2048")
      .option("level-entries", "N", "per-level tasks: smallest task of a cut level in entries", "16384")
      .option("combined", "all|hwloc",
              "combined workers for the parallel task: all = one master, every width (STARPU_SINGLE_COMBINED_WORKER); "
              "hwloc = StarPU's default, by topology (a task may get a narrower one)",
              "all");
  if (!p.parse(argc - 1, argv + 1)) return 0;
  Settings s;
  s.runs = static_cast<int>(std::max(1L, p.get_int("runs")));
  s.warmups = static_cast<int>(std::max(0L, p.get_int("warmups")));
  s.parallel_entries = std::max(1L, p.get_int("parallel-entries"));
  s.level_entries = std::max(1L, p.get_int("level-entries"));
  if (!std::getenv("STARPU_SILENT")) ::setenv("STARPU_SILENT", "1", 1);
  if (p.get("combined") == "all") ::setenv("STARPU_SINGLE_COMBINED_WORKER", "1", 1);
  else if (p.get("combined") != "hwloc") throw std::invalid_argument("--combined must be all or hwloc");

  std::vector<Matrix> matrices;
  const auto add = [&](const std::string& name, const Csr& A) {
    Matrix m;
    m.name = name;
    m.T = triangle(A, Triangle::Lower);
    m.pattern = std::make_unique<sptrsv::TriangularPattern>(m.T, Triangle::Lower, false);
    m.b = cli::random_vector(static_cast<std::size_t>(m.T.rows), 1);
    m.expected.resize(m.b.size());
    ref::sptrsv(m.T, Triangle::Lower, false, m.b.data(), m.expected.data());
    matrices.push_back(std::move(m));
  };
  if (p.has("matrix") || p.has("generate")) {
    const cli::MatrixInput in = cli::load_matrix_input(p);
    add(in.name, in.A);
  } else {
    for (const std::string& spec : kAnchors) add(spec, generate(spec));
  }

  bool first = true;
  for (const std::string& sched : cli::split_list(p.get("sched"), ',')) {
    rt::RuntimeOptions ro;
    ro.scheduler = sched;
    ro.ncpu = static_cast<int>(p.get_int("ncpu"));
    ro.ncuda = 0;  // the CPU half: no GPU worker (nor the core that would drive it)
    rt::Runtime r(ro);
    std::fprintf(stderr, "\nscheduler %s: %d CPU workers, widest combined worker %d\n", sched.c_str(),
                 r.cpu_workers(), codelets::widest_parallel_worker());
    for (Matrix& m : matrices) {
      std::fprintf(stderr, "%s: %d rows, %lld entries, %d levels\n", m.name.c_str(), m.pattern->rows(),
                   static_cast<long long>(m.pattern->nnz()), m.pattern->num_levels());
      std::fprintf(stderr, "  %-22s %-8s %10s %10s %8s %9s\n", "mode", "sched", "median ms", "min ms", "speedup",
                   "rel.err");
      if (first) direct_kernels(m, s, r, std::max(1, r.cpu_workers()));
      starpu_modes(m, s, r, sched);
    }
    first = false;
  }
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_sptrsv_cpu", e);
}
