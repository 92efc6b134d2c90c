// What a PCG iteration's operations cost through the runtime, launched inline on one GPU: for each of
// xpby, dot, the CG step and the SpMV (vectors of lap3d's size, resident on the GPU), the host time
// of a launch, a chain of launches (the GPU's time per operation when the host keeps ahead), and a
// launch with its result read back (the round trip an iteration pays at each scalar). The gaps
// between these are the runtime's and the synchronisation's share of an iteration
// (docs/benchmarks.md). Then PCG's iteration without a preconditioner twice: with its scalars read
// before p's update, and as the solver runs it (beta on the device, step k + 1 launched before step
// k's scalars are read), with the host time of each of its calls. One JSON line per measure:
// microseconds, median, 10th and 90th percentile.
//   bench_inline_ops [--generate SPEC] [--runs N] [--ncpu N --ncuda N ...]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "codelets/krylov/krylov_codelet.hpp"
#include "codelets/spmv/spmv_codelet.hpp"
#include "codelets/vector/vector_codelet.hpp"
#include "kernels/krylov/krylov.hpp"
#include "krylov/preconditioner.hpp"
#include "runtime/csr32.hpp"

using namespace hetsparse;

namespace {

using clock_type = std::chrono::steady_clock;
double since_us(clock_type::time_point t0) {
  return std::chrono::duration<double, std::micro>(clock_type::now() - t0).count();
}

void report(const std::string& op, const std::string& measure, std::vector<double> us) {
  std::sort(us.begin(), us.end());
  const auto at = [&](double q) { return us[static_cast<std::size_t>(q * double(us.size() - 1))]; };
  std::printf("%s\n", cli::Json().set("op", op).set("measure", measure).set("runs", static_cast<long long>(us.size()))
                          .set("median_us", at(0.5)).set("p10_us", at(0.1)).set("p90_us", at(0.9)).str().c_str());
  std::fflush(stdout);
}

// launch: host time of one call; chain: (runs calls + one close) / runs; read: a call and its
// scalar read back, each.
void measure(rt::Runtime& runtime, const std::string& op, int runs, const std::function<void()>& launch,
             krylov::RegisteredVector* result) {
  for (int i = 0; i < 5; ++i) launch();  // data acquired, libraries made
  runtime.close_inline();
  std::vector<double> host, chain, read;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = clock_type::now();
    for (int i = 0; i < runs; ++i) {
      const auto t = clock_type::now();
      launch();
      host.push_back(since_us(t));
    }
    runtime.close_inline();
    chain.push_back(since_us(t0) / runs);
  }
  report(op, "launch", host);
  report(op, "chain", chain);
  if (result == nullptr) return;
  double value[kernels::kCgScalars];  // the largest result: the step's three scalars
  for (int i = 0; i < runs; ++i) {
    const auto t = clock_type::now();
    launch();
    krylov::read_values(runtime, *result, value);
    read.push_back(since_us(t));
  }
  report(op, "launch_and_read", read);
  std::vector<double> alone;
  for (int i = 0; i < runs; ++i) {
    const auto t = clock_type::now();
    if (!runtime.read_inline(result->id(), value, sizeof(double))) break;  // held: a copy and a wait
    alone.push_back(since_us(t));
  }
  if (!alone.empty()) report(op, "read_only", alone);
}

}  // namespace

int main(int argc, char** argv) {
  cli::ArgParser p("bench_inline_ops", "A PCG iteration's operations through the runtime: launch, chain, read.");
  cli::add_matrix_input(p, "lap3d:100");
  cli::add_runtime_options(p);
  p.option("runs", "N", "launches per measure", "200").flag("tasks", "as tasks, not launched inline");
  try {
    if (!p.parse(argc - 1, argv + 1)) return 0;
    const cli::MatrixInput in = cli::load_matrix_input(p);
    const int runs = static_cast<int>(p.get_int("runs"));
    rt::Runtime runtime(cli::runtime_options(p));
    const auto n = static_cast<std::size_t>(in.A.rows);
    const int ni = static_cast<int>(n);
    rt::Csr32 A32(in.A);
    const rt::DataHandle A = rt::make_csr_handle(runtime, A32);
    krylov::RegisteredVector x(runtime, n), r(runtime, n), z(runtime, n), pv(runtime, n), q(runtime, n),
        d(runtime, n), scalar(runtime, 1), dots(runtime, kernels::kCgScalars);
    const rt::DataHandle work(runtime, runtime.register_temporary(kernels::kCgStepWorkspaceDoubles, sizeof(double)));
    rt::TaskOptions o;
    o.where = runtime.cuda_workers() > 0 ? rt::Where::Cuda : rt::Where::Any;
    o.launch_inline = !p.has("tasks");
    std::printf("%s\n", cli::Json().set("matrix", in.name).set("rows", static_cast<long long>(n))
                            .set("cuda_workers", runtime.cuda_workers()).set("inline", o.launch_inline).str().c_str());
    measure(runtime, "xpby", runs, [&] { codelets::insert_xpby(runtime, o, ni, r.id(), 0.5, pv.id()); }, nullptr);
    measure(runtime, "dot", runs, [&] { codelets::insert_dot(runtime, o, ni, pv.id(), q.id(), scalar.id()); }, &scalar);
    measure(runtime, "cg_step", runs, [&] {
      codelets::insert_cg_step(runtime, o, ni, {1e-9, std::nullopt, 0.0}, scalar.id(), pv.id(), q.id(), x.id(), r.id(),
                               codelets::CgScaling{d.id(), z.id()}, dots.id(), work.id());
    }, &dots);
    measure(runtime, "spmv", runs, [&] { codelets::insert_spmv(runtime, o, A.id(), pv.id(), q.id(), 1.0, 0.0); }, nullptr);
    // The iteration of PCG without a preconditioner, as the solver issues it: SpMV, p.q, the step
    // (dividing by p.q on the device) and its dots read back, p = r + beta p.
    std::vector<double> iteration;
    double value[kernels::kCgScalars];
    for (int i = 0; i < runs + 5; ++i) {
      const auto t = clock_type::now();
      codelets::insert_spmv(runtime, o, A.id(), pv.id(), q.id(), 1.0, 0.0);
      codelets::insert_dot(runtime, o, ni, pv.id(), q.id(), scalar.id());
      codelets::insert_cg_step(runtime, o, ni, {1e-9, std::nullopt, 0.0}, scalar.id(), pv.id(), q.id(), x.id(), r.id(), std::nullopt,
                               dots.id(), work.id());
      krylov::read_values(runtime, dots, value);
      codelets::insert_xpby(runtime, o, ni, r.id(), 0.5, pv.id());
      if (i >= 5) iteration.push_back(since_us(t));
    }
    report("cg_iteration", "spmv_dot_step_read_xpby", iteration);
    // The iteration as PCG with a pointwise M runs it: beta and the stopping test on the device, step
    // k + 1 launched before step k's scalars are read (a begun read, krylov::PendingRead).
    krylov::RegisteredVector odd(runtime, kernels::kCgScalars), even(runtime, kernels::kCgScalars);
    std::vector<double> lagged;
    std::optional<krylov::PendingRead> pending;
    int begun = 0;
    std::vector<std::vector<double>> parts(6);  // host time of each call of the lagged iteration
    for (int i = 0; i < runs + 5; ++i) {
      const auto t = clock_type::now();
      auto lap = clock_type::now();
      const auto part = [&](int k) {
        if (i >= 5) parts[static_cast<std::size_t>(k)].push_back(since_us(lap));
        lap = clock_type::now();
      };
      krylov::RegisteredVector& out = i % 2 != 0 ? odd : even;
      const codelets::CgStepStart from =
          i == 0 ? codelets::CgStepStart{1e-9, std::nullopt, 0.0} : codelets::CgStepStart{0, (i % 2 != 0 ? even : odd).id(), 0.0};
      codelets::insert_spmv(runtime, o, A.id(), pv.id(), q.id(), 1.0, 0.0);
      part(0);
      codelets::insert_dot(runtime, o, ni, pv.id(), q.id(), scalar.id());
      part(1);
      codelets::insert_cg_step(runtime, o, ni, from, scalar.id(), pv.id(), q.id(), x.id(), r.id(), std::nullopt, out.id(),
                               work.id());
      part(2);
      codelets::insert_cg_direction(runtime, o, ni, r.id(), out.id(), pv.id());
      part(3);
      krylov::PendingRead next(runtime, out);
      part(4);
      begun += next.begun() ? 1 : 0;
      if (pending) pending->finish(value);
      part(5);
      pending.emplace(std::move(next));
      if (i >= 5) lagged.push_back(since_us(t));
    }
    const char* names[] = {"spmv", "dot", "cg_step", "cg_direction", "begin_read", "finish_read"};
    for (int k = 0; k < 6; ++k) report("cg_iteration_lagged", std::string("host_") + names[k], parts[static_cast<std::size_t>(k)]);
    pending->finish(value);
    report("cg_iteration", "spmv_dot_step_direction_lagged_read (" + std::to_string(begun) + " reads begun)", lagged);
    return 0;  // the handles go before the runtime
  } catch (const std::exception& e) {
    return cli::report_failure("bench_inline_ops", e);
  }
}
