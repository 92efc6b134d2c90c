#include "krylov/pcg.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "codelets/krylov/krylov_codelet.hpp"
#include "codelets/vector/vector_codelet.hpp"
#include "hetsparse/error.hpp"
#include "kernels/krylov/krylov.hpp"

namespace hetsparse::krylov {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

const Csr& checked(const Csr& A, const PcgOptions& o) {
  if (A.rows != A.cols)
    throw InvalidArgument("PCG: the matrix must be square, not " + std::to_string(A.rows) + " x " +
                          std::to_string(A.cols));
  if (!(o.rtol >= 0) || !(o.atol >= 0)) throw InvalidArgument("PCG: rtol and atol must be >= 0");
  if (o.max_iterations < 0) throw InvalidArgument("PCG: max_iterations must be >= 0");
  return A;
}

sptrsv::SolveDevice solve_device(rt::Where w) {
  switch (w) {
    case rt::Where::Cpu: return sptrsv::SolveDevice::Cpu;
    case rt::Where::Cuda: return sptrsv::SolveDevice::Gpu;
    case rt::Where::Any: break;
  }
  return sptrsv::SolveDevice::Auto;
}

}  // namespace

struct PcgSolver::Vectors {
  Vectors(rt::TaskRuntime& rt, std::size_t n)
      : x(rt, n), r(rt, n), z(rt, n), p(rt, n), q(rt, n), pq(rt, 1), rnorm(rt, 1), rz(rt, 1),
        odd(rt, kernels::kCgScalars), even(rt, kernels::kCgScalars),
        step_work(rt, rt.register_temporary(kernels::kCgStepWorkspaceDoubles, sizeof(double))) {}
  RegisteredVector x, r, z, p, q;
  RegisteredVector pq, rnorm, rz;
  RegisteredVector odd, even;  // the scalars of the odd and the even steps (kernels::CgScalar)
  rt::DataHandle step_work;    // the CUDA step's scratch
  RegisteredVector& scalars(int step) { return step % 2 != 0 ? odd : even; }
};

PcgSolver::PcgSolver(rt::TaskRuntime& rt, const Csr& A, const PcgOptions& options)
    : rt_(rt), options_(options), n_(A.rows), A32_(checked(A, options)) {
  const auto t0 = Clock::now();
  A_ = rt::make_csr_handle(rt_, A32_);
  PreconditionerOptions po = options_.preconditioner;
  po.where = po.ic0.where = options_.where;
  po.sptrsv.device = solve_device(options_.where);
  po.launch_inline = launches_inline(options_);
  precond_ = make_preconditioner(rt_, A, po);
  v_ = std::make_unique<Vectors>(rt_, static_cast<std::size_t>(n_));
  rt_.wait_all();
  setup_s_ = seconds_since(t0);
}

PcgSolver::~PcgSolver() = default;

const PcgReport& PcgSolver::solve(const double* b, double* x) {
  const auto start = Clock::now();
  report_ = PcgReport{};
  Vectors& v = *v_;
  const int n = n_;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(double);
  const bool in_thread = launches_inline(options_);
  auto task = [this, in_thread](const char* name) {
    rt::TaskOptions o;
    o.name = name;
    o.where = options_.where;
    o.launch_inline = in_thread;
    return o;
  };
  auto read = [this](RegisteredVector& scalar) {  // a 1-element vector
    double value = 0;
    read_values(rt_, scalar, &value);
    return value;
  };
  // A pointwise M^-1 is applied by the CG step itself; with none, z is r.
  const bool pointwise = precond_->pointwise();
  const RegisteredVector* inv_diag = precond_->inverse_diagonal();
  RegisteredVector& z = pointwise && inv_diag == nullptr ? v.r : v.z;
  std::optional<codelets::CgScaling> scaling;
  if (inv_diag != nullptr) scaling = codelets::CgScaling{inv_diag->id(), v.z.id()};
  // Runs one phase of the iteration and adds its time to `seconds`.
  auto phase = [this](double& seconds, auto&& work) {
    const auto t = Clock::now();
    work();
    if (options_.time_phases) rt_.wait_all();
    seconds += seconds_since(t);
  };

  const bool zero_guess = std::all_of(x, x + n, [](double e) { return e == 0.0; });
  {
    rt::HostAccess hr(rt_, v.r.id(), rt::Access::Write);
    std::memcpy(v.r.host(), b, bytes);
  }
  double rnorm = 0, rz = 0;
  if (zero_guess) {  // x0 = 0 made where the iteration runs: no copy, no upload
    phase(report_.vector_s, [&] { codelets::insert_fill(rt_, task("x=0"), n, 0.0, v.x.id()); });
  } else {
    {
      rt::HostAccess hx(rt_, v.x.id(), rt::Access::Write);
      std::memcpy(v.x.host(), x, bytes);
    }
    phase(report_.vector_s, [&] {  // ||b||, where b is, before r becomes b - A x0
      codelets::insert_nrm2(rt_, task("nrm2_b"), n, v.r.id(), v.rnorm.id());
      report_.b_norm = read(v.rnorm);
    });
    phase(report_.spmv_s, [&] {
      codelets::insert_spmv(rt_, task("spmv_r0"), A_.id(), v.x.id(), v.r.id(), -1.0, 1.0, options_.spmv_cuda);
    });
  }
  phase(report_.vector_s, [&] {
    codelets::insert_nrm2(rt_, task("nrm2"), n, v.r.id(), v.rnorm.id());
    rnorm = read(v.rnorm);
  });
  if (zero_guess) report_.b_norm = rnorm;  // r0 = b
  report_.tolerance = std::max(options_.rtol * report_.b_norm, options_.atol);
  report_.residual_norms.push_back(rnorm);
  report_.converged = rnorm <= report_.tolerance;
  auto precondition = [&] {
    if (&z == &v.r) {
      rz = rnorm * rnorm;
    } else {
      phase(report_.precond_s, [&] { precond_->submit(v.r, v.z); });
      phase(report_.vector_s, [&] {
        codelets::insert_dot(rt_, task("dot_rz"), n, v.r.id(), v.z.id(), v.rz.id());
        rz = read(v.rz);
      });
    }
    report_.breakdown = !(rz > 0);
  };
  if (!report_.converged && options_.max_iterations > 0) {
    precondition();
    if (!report_.breakdown) phase(report_.vector_s, [&] { codelets::insert_xpby(rt_, task("p=z"), n, z.id(), 0.0, v.p.id()); });
  }
  const bool go = !report_.converged && !report_.breakdown && options_.max_iterations > 0;
  const double tol2 = report_.tolerance * report_.tolerance;
  // Step k's launches: q = A p, p.q (left on the device for the step to divide by), and the step
  // (x += alpha p, r -= alpha q, ||r||, with a pointwise M^-1 also z and r.z) writing its scalars.
  auto step = [&](int k, const codelets::CgStepStart& from) {
    phase(report_.spmv_s, [&] {
      codelets::insert_spmv(rt_, task("spmv"), A_.id(), v.p.id(), v.q.id(), 1.0, 0.0, options_.spmv_cuda);
    });
    phase(report_.vector_s, [&] {
      codelets::insert_dot(rt_, task("dot_pq"), n, v.p.id(), v.q.id(), v.pq.id());
      codelets::insert_cg_step(rt_, task("cg_step"), n, from, v.pq.id(), v.p.id(), v.q.id(), v.x.id(), v.r.id(),
                               scaling, v.scalars(k).id(), v.step_work.id());
    });
  };
  // What the host learns from a step's scalars; false: the iteration ends there.
  auto take = [&](const double* s) {
    const double stop = s[kernels::kCgStop];
    if (stop == kernels::kCgBreakdown && !(s[kernels::kCgPQ] > 0)) {  // p.q <= 0: the step left x and r alone
      report_.breakdown = true;
      return false;
    }
    rnorm = std::sqrt(s[kernels::kCgRR]);
    ++report_.iterations;
    report_.residual_norms.push_back(rnorm);
    report_.converged = stop == kernels::kCgConverged;
    report_.breakdown = stop == kernels::kCgBreakdown;  // r.z <= 0
    return stop == kernels::kCgGoOn && report_.iterations < options_.max_iterations;
  };
  double s[kernels::kCgScalars];
  if (go && pointwise) {
    // beta and the stopping test on the device as well: the host launches step k + 1 before it reads
    // step k's scalars, so that the GPU need not wait for the host between iterations. A step after
    // the last finds the previous one stopped and changes nothing.
    auto launch = [&](int k) {
      step(k, k == 1 ? codelets::CgStepStart{rz, std::nullopt, tol2} : codelets::CgStepStart{0, v.scalars(k - 1).id(), tol2});
      phase(report_.vector_s, [&] {
        codelets::insert_cg_direction(rt_, task("cg_direction"), n, z.id(), v.scalars(k).id(), v.p.id());
      });
      return PendingRead(rt_, v.scalars(k));
    };
    std::optional<PendingRead> next(launch(1));
    for (int k = 1; next; ++k) {
      PendingRead now = std::move(*next);
      next.reset();
      if (k < options_.max_iterations) next.emplace(launch(k + 1));
      phase(report_.vector_s, [&] { now.finish(s); });
      if (!take(s)) break;
    }
  } else if (go) {
    for (int k = 1;; ++k) {
      step(k, {rz, std::nullopt, tol2});
      phase(report_.vector_s, [&] { read_values(rt_, v.scalars(k), s); });
      if (!take(s)) break;
      const double rz_old = rz;
      precondition();  // the new rz
      if (report_.breakdown) break;
      phase(report_.vector_s, [&] { codelets::insert_xpby(rt_, task("xpby_p"), n, z.id(), rz / rz_old, v.p.id()); });
    }
  }
  {
    rt::HostAccess hx(rt_, v.x.id(), rt::Access::Read);
    std::memcpy(x, v.x.host(), bytes);
  }
  report_.relative_residual = report_.b_norm > 0 ? rnorm / report_.b_norm : rnorm;
  report_.solve_s = seconds_since(start);
  return report_;
}

}  // namespace hetsparse::krylov
