#include "sptrsv/solve_paths.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

#include "sptrsv/scheme_timing.hpp"

namespace hetsparse::sptrsv {
namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

ResidentTimes time_resident_solves(TriangularSolver& solver, rt::TaskRuntime& rt, const std::vector<double>& b,
                                   int runs) {
  ResidentTimes t;
  std::vector<double> rb(b), rx(b.size());
  rt::DataHandle hb = rt::make_vector_handle(rt, rb), hx = rt::make_vector_handle(rt, rx);
  const auto timed = [&](const std::function<void()>& one) {
    one();  // warm-up: b and x move to where the solve runs and stay there
    std::vector<double> ms;
    for (int i = 0; i < std::max(runs, 1); ++i) {
      const double t0 = now_ms();
      one();
      ms.push_back(now_ms() - t0);
    }
    return median(ms);
  };
  t.submit_ms = timed([&] {
    solver.submit(hb.id(), hx.id());
    rt.wait_all();
  });
  t.solve_ms = timed([&] { solver.solve(hb.id(), hx.id()); });
  hx.reset();  // x home
  t.x = std::move(rx);
  return t;
}

void time_kernel_path(TriangularSolver& solver, const rt::TaskRuntime& rt, const std::vector<double>& b,
                      const std::vector<double>& x, int runs, SolvePathTimes& t) {
  const std::string& scheme = solver.chosen_variant();
  if (rt.cuda_workers() == 0 || scheme.rfind("cpu_", 0) == 0) {
    t.kernel_note = "solves run on CPU workers";
    return;
  }
  SchemeTimingOptions o;
  o.warmups = 2;
  o.runs = std::max(runs, 1);
  o.tolerance = 1e-8;
  const SchemeTimings k = time_schemes(solver.pattern().host_view(), b, x, {scheme}, o);
  if (k.schemes.empty() || k.schemes[0].status != "ok") {
    t.kernel_note = k.schemes.empty() ? k.reason : k.schemes[0].status + ": " + k.schemes[0].error;
    return;
  }
  t.kernel_ms = k.schemes[0].median_ms;
  t.kernel_call_ms = k.schemes[0].call_ms;
  t.copy_ms = pageable_copy_ms(b.size(), o.runs);
}

SolvePathTimes time_solve_paths(TriangularSolver& solver, rt::TaskRuntime& rt, const std::vector<double>& b,
                                int runs) {
  SolvePathTimes t;
  t.runs = std::max(runs, 1);
  std::vector<double> x(b.size());
  std::vector<double> host;
  solver.solve(b.data(), x.data());  // warm-up: the matrix moves to where solves run
  for (int i = 0; i < t.runs; ++i) {
    const double t0 = now_ms();
    solver.solve(b.data(), x.data());
    host.push_back(now_ms() - t0);
  }
  t.host_ms = median(host);
  const ResidentTimes r = time_resident_solves(solver, rt, b, t.runs);
  t.resident_ms = r.solve_ms;
  t.resident_submit_ms = r.submit_ms;
  time_kernel_path(solver, rt, b, x, t.runs, t);
  return t;
}

}  // namespace hetsparse::sptrsv
