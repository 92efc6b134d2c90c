// The preconditioners of preconditioner.hpp.
#include <cstring>
#include <string>

#include "codelets/krylov/krylov_codelet.hpp"
#include "hetsparse/error.hpp"
#include "sparse/named_values.hpp"
#include "krylov/preconditioner.hpp"
#include "sparse/convert.hpp"

namespace hetsparse::krylov {
namespace {

rt::TaskOptions task_options(const char* name, const PreconditionerOptions& o) {
  rt::TaskOptions t;
  t.name = name;
  t.where = o.where;
  t.launch_inline = o.launch_inline;
  return t;
}

class Identity final : public Preconditioner {
 public:
  Identity(rt::TaskRuntime& rt, const PreconditionerOptions& o) : rt_(rt), task_(task_options("precond_copy", o)) {}
  void submit(RegisteredVector& r, RegisteredVector& z) override {
    codelets::insert_xpby(rt_, task_, static_cast<int>(r.size()), r.id(), 0.0, z.id());  // z = r
  }
  PreconditionerKind kind() const override { return PreconditionerKind::None; }
  bool pointwise() const override { return true; }

 private:
  rt::TaskRuntime& rt_;
  rt::TaskOptions task_;
};

class Jacobi final : public Preconditioner {
 public:
  Jacobi(rt::TaskRuntime& rt, const Csr& A, const PreconditionerOptions& o)
      : rt_(rt), task_(task_options("jacobi", o)), inv_diag_(rt, A.rows) {
    rt::HostAccess w(rt_, inv_diag_.id(), rt::Access::Write);
    double* d = inv_diag_.host();
    for (index_t i = 0; i < A.rows; ++i) {
      double a = 0;
      for (offset_t t = A.rowptr[i]; t < A.rowptr[i + 1]; ++t)
        if (A.colind[t] == i) a += A.values[t];
      if (!(a > 0)) throw NotPositiveDefinite(i, "Jacobi preconditioner: non-positive diagonal entry");
      d[i] = 1.0 / a;
    }
  }
  void submit(RegisteredVector& r, RegisteredVector& z) override {
    codelets::insert_diag_scale(rt_, task_, static_cast<int>(r.size()), inv_diag_.id(), r.id(), z.id());
  }
  PreconditionerKind kind() const override { return PreconditionerKind::Jacobi; }
  bool pointwise() const override { return true; }
  const RegisteredVector* inverse_diagonal() const override { return &inv_diag_; }

 private:
  rt::TaskRuntime& rt_;
  rt::TaskOptions task_;
  RegisteredVector inv_diag_;
};

class Ic0 final : public Preconditioner {
 public:
  Ic0(rt::TaskRuntime& rt, const Csr& A, const PreconditionerOptions& o)
      : L_(ic0_factor(rt, A, o.ic0)), lower_(rt), upper_(rt), y_(rt, A.rows), in_thread_(o.launch_inline) {
    lower_.analyze(L_, Triangle::Lower, false, o.sptrsv);
    upper_.analyze(transpose(L_), Triangle::Upper, false, o.sptrsv);
    // One solve each now: schemes prepared on first use (cuSPARSE, AG, powered) belong to the
    // set-up, not to the first iteration.
    RegisteredVector r(rt, static_cast<std::size_t>(A.rows)), z(rt, static_cast<std::size_t>(A.rows));
    submit(r, z);
    rt.wait_all();
  }
  void submit(RegisteredVector& r, RegisteredVector& z) override {
    if (in_thread_ && lower_.inline_solves() && upper_.inline_solves()) {
      lower_.solve(r.id(), y_.id());  // done on return: the iteration reads r.z next anyway
      upper_.solve(y_.id(), z.id());
      return;
    }
    lower_.submit(r.id(), y_.id());  // y = L^-1 r
    upper_.submit(y_.id(), z.id());  // z = L^-T y
  }
  PreconditionerKind kind() const override { return PreconditionerKind::Ic0; }
  std::vector<std::string> schemes() const override { return {lower_.chosen_variant(), upper_.chosen_variant()}; }
  const Csr& factor() const { return L_; }

 private:
  Csr L_;
  sptrsv::TriangularSolver lower_, upper_;
  RegisteredVector y_;
  bool in_thread_;  // PreconditionerOptions::launch_inline
};

class CompleteCholesky final : public Preconditioner {
 public:
  CompleteCholesky(rt::TaskRuntime& rt, const Csr& A, const PreconditionerOptions& o)
      : rt_(rt), chol_(rt), work_(static_cast<std::size_t>(A.rows)) {
    cholesky::AnalyzeOptions ao = o.cholesky;
    ao.input = cholesky::InputTriangle::Lower;
    const Csr lower = triangle(A, Triangle::Lower);
    chol_.analyze(lower, ao);
    chol_.factorize(lower);
  }
  // The supernodal solve works on host arrays: r comes home, x goes back as z's new host values.
  void submit(RegisteredVector& r, RegisteredVector& z) override {
    const std::size_t bytes = r.size() * sizeof(double);
    {
      rt::HostAccess in(rt_, r.id(), rt::Access::Read);
      std::memcpy(work_.data(), r.host(), bytes);
    }
    chol_.solve(work_);
    rt::HostAccess out(rt_, z.id(), rt::Access::Write);
    std::memcpy(z.host(), work_.data(), bytes);
  }
  PreconditionerKind kind() const override { return PreconditionerKind::Cholesky; }

 private:
  rt::TaskRuntime& rt_;
  cholesky::CholeskySolver chol_;
  std::vector<double> work_;
};

}  // namespace

constexpr Named<PreconditionerKind> kPreconditioners[] = {{PreconditionerKind::None, "none"},
                                                           {PreconditionerKind::Jacobi, "jacobi"},
                                                           {PreconditionerKind::Ic0, "ic0"},
                                                           {PreconditionerKind::Cholesky, "cholesky"}};

PreconditionerKind parse_preconditioner(const std::string& name) {
  return parse_named(name, kPreconditioners, "preconditioner");
}

const char* to_string(PreconditionerKind k) { return name_of(k, kPreconditioners); }

std::unique_ptr<Preconditioner> make_preconditioner(rt::TaskRuntime& rt, const Csr& A,
                                                    const PreconditionerOptions& options) {
  std::unique_ptr<Preconditioner> p;
  switch (options.kind) {
    case PreconditionerKind::None: p = std::make_unique<Identity>(rt, options); break;
    case PreconditionerKind::Jacobi: p = std::make_unique<Jacobi>(rt, A, options); break;
    case PreconditionerKind::Ic0: p = std::make_unique<Ic0>(rt, A, options); break;
    case PreconditionerKind::Cholesky: p = std::make_unique<CompleteCholesky>(rt, A, options); break;
  }
  return p;
}

const Csr* ic0_factor_of(const Preconditioner& p) {
  const auto* ic0 = dynamic_cast<const Ic0*>(&p);
  return ic0 ? &ic0->factor() : nullptr;
}

}  // namespace hetsparse::krylov
