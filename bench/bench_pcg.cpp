// PCG per iteration against its kernels: the IC(0)-preconditioned CG of krylov/ through StarPU (one
// SpMV, two SpTRSVs, two dots, a norm, three vector updates per iteration, three scalars read back),
// next to the same SpMV kernel and the same two SpTRSV schemes timed directly on the GPU (no StarPU,
// CUDA events, median): the target is iteration <= 2 x (SpMV + lower + upper SpTRSV).
// Without a GPU the kernel columns say "unavailable". One JSON line on stdout.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "krylov/pcg.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "spmv/cusparse_anchor.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/scheme_timing.hpp"

namespace hetsparse {
namespace {

// The direct time of `scheme` solving with T (the analysis TriangularSolver makes): median ms, or < 0.
double scheme_ms(const Csr& T, Triangle tri, const std::string& scheme, cli::Json& out) {
  const sptrsv::TriangularPattern pattern(T, tri, false, {});
  const std::vector<double> b = cli::random_vector(static_cast<std::size_t>(T.rows), 3);
  std::vector<double> expected(b.size());
  ref::sptrsv(T, tri, false, b.data(), expected.data());
  sptrsv::SchemeTimingOptions o;
  o.runs = 20;
  const sptrsv::SchemeTimings t = sptrsv::time_schemes(pattern.host_view(), b, expected, {scheme}, o);
  out.set("scheme", scheme).set("available", t.available);
  if (!t.available || t.schemes.empty() || t.schemes[0].status != "ok") {
    out.set("reason", t.available ? t.schemes[0].status + " " + t.schemes[0].error : t.reason);
    return -1;
  }
  out.set("median_ms", t.schemes[0].median_ms);
  return t.schemes[0].median_ms;
}

}  // namespace
}  // namespace hetsparse

int main(int argc, char** argv) {
  using namespace hetsparse;
  cli::ArgParser p("bench_pcg", "IC(0)-PCG per iteration through StarPU against its SpMV and SpTRSV kernels.");
  cli::add_matrix_input(p, "lap3d:100");
  cli::add_runtime_options(p);
  p.option("preconditioner", "none|jacobi|ic0|cholesky", "M", "ic0")
      .option("iterations", "N", "PCG iterations to time (rtol 0: exactly N)", "100")
      .option("device", "auto|any|cpu|gpu", "where every task runs", "auto")
      .option("variant", "NAME|auto", "SpTRSV scheme of the IC(0) solves on a CUDA worker", "auto")
      .flag("iteration-tasks", "every operation of an iteration a task, none launched inline");
  try {
    if (!p.parse(argc - 1, argv + 1)) return 0;
    const cli::MatrixInput in = cli::load_matrix_input(p);
    const Csr& A = in.A;
    const std::vector<double> b = cli::random_vector(static_cast<std::size_t>(A.rows), 1);
    rt::Runtime runtime(cli::runtime_options(p));
    krylov::PcgOptions o;
    o.rtol = 0;  // a fixed number of iterations
    o.max_iterations = static_cast<int>(p.get_int("iterations"));
    o.where = cli::parse_device_or_auto(p.get("device"), "bench_pcg", runtime.cuda_workers());
    o.preconditioner.kind = krylov::parse_preconditioner(p.get("preconditioner"));
    o.preconditioner.sptrsv.perfmodel_dir = runtime.options().perfmodel_dir;
    o.preconditioner.sptrsv.variant = p.get("variant");
    o.inline_launches = !p.has("iteration-tasks");
    cli::Json j;
    j.set("matrix", in.name).set("rows", static_cast<long long>(A.rows)).set("nnz", static_cast<long long>(A.nnz()))
        .set("preconditioner", p.get("preconditioner")).set("device", rt::to_string(o.where))
        .set("cpu_workers", runtime.cpu_workers()).set("cuda_workers", runtime.cuda_workers())
        .set("inline_launches", krylov::launches_inline(o));
    std::vector<std::string> schemes;
    Csr L;
    krylov::PcgReport fast, split;
    {
      o.time_phases = false;
      krylov::PcgSolver pcg(runtime, A, o);
      j.set("setup_s", pcg.setup_seconds());
      schemes = pcg.preconditioner().schemes();
      if (const Csr* f = krylov::ic0_factor_of(pcg.preconditioner())) L = *f;
      std::vector<double> x(b.size(), 0.0);
      pcg.solve(b.data(), x.data());  // warm-up: data to the device, lazy scheme preparations
      x.assign(b.size(), 0.0);
      fast = pcg.solve(b.data(), x.data());
    }
    {
      o.time_phases = true;
      krylov::PcgSolver pcg(runtime, A, o);
      std::vector<double> x(b.size(), 0.0);
      pcg.solve(b.data(), x.data());
      x.assign(b.size(), 0.0);
      split = pcg.solve(b.data(), x.data());
    }
    runtime.shutdown();
    const double it_ms = 1e3 * fast.solve_s / std::max(1, fast.iterations);
    j.set("iterations", fast.iterations).set("ms_per_iteration", it_ms)
        .set("relative_residual", fast.relative_residual)
        .set("split_ms_per_iteration", cli::Json().set("spmv", 1e3 * split.spmv_s / split.iterations)
                                           .set("preconditioner", 1e3 * split.precond_s / split.iterations)
                                           .set("vector", 1e3 * split.vector_s / split.iterations)
                                           .set("total", 1e3 * split.solve_s / split.iterations));
    // The kernels alone.
    const DirectSpmvTiming spmv = time_direct_spmv(A, b, 50, DirectSpmv::OwnKernel);
    j.set("spmv_kernel_ms", spmv.available ? spmv.median_ms : -1.0).set("gpu", spmv.device);
    double kernels_ms = spmv.available ? spmv.median_ms : -1;
    if (schemes.size() == 2 && kernels_ms > 0) {
      cli::Json lo, up;
      const double l = scheme_ms(L, Triangle::Lower, schemes[0], lo);
      const double u = scheme_ms(transpose(L), Triangle::Upper, schemes[1], up);
      j.set("sptrsv_lower", lo).set("sptrsv_upper", up);
      kernels_ms = l > 0 && u > 0 ? kernels_ms + l + u : -1;
    }
    if (kernels_ms > 0) j.set("kernels_ms", kernels_ms).set("iteration_over_kernels", it_ms / kernels_ms);
    std::printf("%s\n", j.str().c_str());
    return 0;
  } catch (const std::exception& e) {
    return cli::report_failure("bench_pcg", e);
  }
}
