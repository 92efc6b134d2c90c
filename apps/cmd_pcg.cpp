// `hetsparse pcg`: preconditioned conjugate gradients for SPD A as StarPU tasks (SpMV, SpTRSV,
// vector kernels), with the preconditioner's set-up time, the iterations and residual history, the
// time split between SpMV, preconditioner and vector operations, and the backward error.
#include <algorithm>
#include <cstdio>

#include "apps/commands.hpp"
#include "cli/common.hpp"
#include "cli/json.hpp"
#include "krylov/pcg.hpp"
#include "reference/sparse_reference.hpp"

namespace hetsparse::cli {
namespace {

krylov::PcgOptions pcg_options(const ArgParser& p, const rt::Runtime& r) {
  krylov::PcgOptions o;
  o.rtol = p.get_double("rtol");
  o.atol = p.get_double("atol");
  o.max_iterations = static_cast<int>(p.get_int("max-iterations"));
  o.where = parse_device_or_auto(p.get("device"), "hetsparse pcg", r.cuda_workers());
  o.spmv_cuda = parse_spmv_cuda_impl(p.get("cuda-kernel"), "hetsparse pcg");
  o.time_phases = p.has("phase-times");
  o.inline_launches = !p.has("iteration-tasks");
  try {
    o.preconditioner.kind = krylov::parse_preconditioner(p.get("preconditioner"));
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("hetsparse pcg: --preconditioner: ") + e.what());
  }
  o.preconditioner.ic0.shift = p.get_double("ic0-shift");
  o.preconditioner.sptrsv.variant = p.get("variant");
  o.preconditioner.sptrsv.perfmodel_dir = r.options().perfmodel_dir;
  return o;
}

}  // namespace

int cmd_pcg(int argc, char** argv) {
  ArgParser p("hetsparse pcg", "Preconditioned conjugate gradients for SPD A x = b as StarPU tasks.");
  add_matrix_input(p, "lap3d:32");
  add_runtime_options(p);
  p.option("preconditioner", "none|jacobi|ic0|cholesky", "M: cholesky = the complete factor (a direct solve)", "ic0")
      .option("rtol", "R", "stop when ||r|| <= max(R ||b||, atol)", "1e-8")
      .option("atol", "A", "absolute residual tolerance", "0")
      .option("max-iterations", "N", "iteration limit", "1000")
      .option("ic0-shift", "S", "factor A + S diag(A) with IC(0) (avoids breakdowns of non-M-matrices)", "0")
      .option("device", "auto|any|cpu|gpu", "where every task runs (auto: the GPU when there is one)", "auto")
      .option("variant", "NAME|auto", "SpTRSV scheme of the IC(0) solves on a CUDA worker", "auto")
      .option("cuda-kernel", "own|cusparse", "SpMV implementation on a CUDA worker", "own")
      .option("seed", "S", "seed of the random right-hand side", "1")
      .flag("phase-times", "also wait after each phase, to split the time between SpMV, preconditioner and "
            "vector operations (slower: the GPU idles at each wait)")
      .flag("no-phase-times", "wait only for the scalars (the default)")
      .flag("iteration-tasks", "on the GPU, every operation of an iteration a task (by default they are launched "
            "on the calling thread's stream)");
  if (!p.parse(argc, argv)) return 0;
  const bool json = p.has("json");
  MatrixInput in = load_matrix_input(p);
  const Csr& A = in.A;
  if (A.rows != A.cols) throw InvalidArgument(in.name + ": PCG needs a square matrix");
  const std::vector<double> b = random_vector(static_cast<std::size_t>(A.rows), static_cast<std::uint64_t>(p.get_int("seed")));
  std::vector<double> x(b.size(), 0.0);

  rt::Runtime runtime(runtime_options(p));
  const krylov::PcgOptions opts = pcg_options(p, runtime);
  krylov::PcgReport rep;
  double setup_s = 0;
  {  // the solver's handles go before the runtime shuts down
    krylov::PcgSolver pcg(runtime, A, opts);
    setup_s = pcg.setup_seconds();
    rep = pcg.solve(b.data(), x.data());
  }
  const double berr = ref::backward_error(A, x.data(), b.data());
  const rt::TraceFiles tf = runtime.shutdown();
  const char* precond = krylov::to_string(opts.preconditioner.kind);
  const double per_it = rep.iterations > 0 ? 1e3 * rep.solve_s / rep.iterations : 0.0;

  if (json) {
    Json j;
    j.set("matrix", in.name).set("rows", static_cast<long long>(A.rows)).set("nnz", static_cast<long long>(A.nnz()))
        .set("preconditioner", precond).set("device", rt::to_string(opts.where))
        .set("inline_launches", krylov::launches_inline(opts))
        .set("scheduler", runtime.options().scheduler).set("cpu_workers", runtime.cpu_workers())
        .set("cuda_workers", runtime.cuda_workers()).set("setup_s", setup_s)
        .set("converged", rep.converged).set("breakdown", rep.breakdown).set("iterations", rep.iterations)
        .set("relative_residual", rep.relative_residual).set("backward_error", berr).set("solve_s", rep.solve_s)
        .set("ms_per_iteration", per_it);
    if (opts.time_phases) {
      Json split;
      split.set("spmv_s", rep.spmv_s).set("preconditioner_s", rep.precond_s).set("vector_s", rep.vector_s);
      // IC(0)'s step is its two triangular solves.
      if (opts.preconditioner.kind == krylov::PreconditionerKind::Ic0) split.set("sptrsv_s", rep.precond_s);
      j.set("time_split", split);
    }
    j.set("residual_history", rep.residual_norms);
    if (!tf.paje.empty()) j.set("trace", tf.paje);
    std::printf("%s\n", j.str().c_str());
  } else {
    std::printf("matrix      %s: %d rows, %lld nonzeros (loaded in %.2f s)\n", in.name.c_str(), A.rows,
                static_cast<long long>(A.nnz()), in.seconds);
    std::printf("runtime     %s, %d CPU + %d CUDA workers, tasks on %s\n", runtime.options().scheduler.c_str(),
                runtime.cpu_workers(), runtime.cuda_workers(), rt::to_string(opts.where));
    std::printf("setup       %s preconditioner, %.3f s\n", precond, setup_s);
    std::printf("pcg         %s after %d iterations: ||r||/||b|| = %.2e (tolerance %.1e), %.3f s, %.3f ms/iteration\n",
                rep.converged ? "converged" : (rep.breakdown ? "BREAKDOWN" : "NOT converged"), rep.iterations,
                rep.relative_residual, opts.rtol, rep.solve_s, per_it);
    if (opts.time_phases)
      std::printf("split       spmv %.3f s, preconditioner (%s) %.3f s, vector ops %.3f s\n", rep.spmv_s, precond,
                  rep.precond_s, rep.vector_s);
    std::printf("check       backward error |b-Ax|/(|A||x|+|b|) = %.2e\n", berr);
    if (!tf.paje.empty()) std::printf("trace       %s\n", tf.paje.c_str());
  }
  return rep.converged ? 0 : 1;
}

}  // namespace hetsparse::cli
