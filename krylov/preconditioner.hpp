// Preconditioners of the PCG solver, each applied as tasks on vectors the runtime holds:
//   none      z = r
//   jacobi    z = D^-1 r, one diag_scale task
//   ic0       z = L^-T L^-1 r with L = IC(0) of A: two SpTRSV solves (TriangularSolver::submit on L
//             and on the upper triangle L^T), wherever the solver places them
//   cholesky  z = A^-1 r with the complete (supernodal) factor: one step is a direct solve, so PCG
//             stops after one or two iterations; r goes through host memory for the solve.
#pragma once
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cholesky/cholesky_solver.hpp"
#include "krylov/ic0_factor.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::krylov {

enum class PreconditionerKind { None, Jacobi, Ic0, Cholesky };
// "none", "jacobi", "ic0", "cholesky"; InvalidArgument naming the accepted ones.
PreconditionerKind parse_preconditioner(const std::string& name);
const char* to_string(PreconditionerKind);

struct PreconditionerOptions {
  PreconditionerKind kind = PreconditionerKind::Ic0;
  rt::Where where = rt::Where::Any;  // the copy's and the Jacobi task's device restriction
  Ic0Options ic0;
  sptrsv::TriangularSolveOptions sptrsv;  // the IC(0) solves (device, scheme)
  cholesky::AnalyzeOptions cholesky;      // the complete factor's ordering (input is set here)
  // Launch the copy / Jacobi scaling inline and run the IC(0) solves in the calling thread
  // (PcgOptions::inline_launches); set by the PCG solver.
  bool launch_inline = false;
};

// A vector of n doubles registered for the life of a solver: its host memory and its handle.
class RegisteredVector {
 public:
  RegisteredVector(rt::TaskRuntime& rt, std::size_t n)
      : host_(n, 0.0), handle_(rt, rt.register_vector({host_.data(), n})) {}
  rt::HandleId id() const { return handle_.id(); }
  std::size_t size() const { return host_.size(); }
  // Host memory: only under an rt::HostAccess of id().
  double* host() { return host_.data(); }
  const double* host() const { return host_.data(); }

 private:
  std::vector<double> host_;
  rt::DataHandle handle_;
};

// Copies v's values to out (v.size() of them): from the GPU, v kept there, when inline launches hold
// it (TaskRuntime::read_inline), else through a host access. The scalars an iterative solver reads.
inline void read_values(rt::TaskRuntime& rt, RegisteredVector& v, double* out) {
  if (rt.read_inline(v.id(), out, v.size() * sizeof(double))) return;
  rt::HostAccess a(rt, v.id(), rt::Access::Read);
  std::copy(v.host(), v.host() + v.size(), out);
}

// A read of a small vector begun now and finished later, so that the host can queue more work in
// between: by inline launches, a copy queued after those so far, the host waiting for it alone
// (TaskRuntime::begin_read_inline); else read_values at finish(), whose host access waits for the
// vector's writers only. Unfinished at destruction: finished and dropped.
class PendingRead {
 public:
  PendingRead(rt::TaskRuntime& rt, RegisteredVector& v)
      : rt_(&rt), v_(&v), begun_(rt.begin_read_inline(v.id(), v.size() * sizeof(double))) {}
  PendingRead(PendingRead&& o) noexcept : rt_(o.rt_), v_(o.v_), begun_(o.begun_) { o.v_ = nullptr; }
  PendingRead(const PendingRead&) = delete;
  PendingRead& operator=(const PendingRead&) = delete;
  PendingRead& operator=(PendingRead&&) = delete;
  ~PendingRead() {
    if (v_ == nullptr || !begun_) return;
    std::vector<double> drop(v_->size());
    try {
      rt_->finish_read_inline(v_->id(), drop.data());
    } catch (...) {  // a GPU error: the next wait reports it
    }
  }
  bool begun() const { return begun_; }  // by a copy queued on the GPU
  // Writes the vector's values to out (v.size() doubles).
  void finish(double* out) {
    RegisteredVector* v = std::exchange(v_, nullptr);
    if (begun_) {
      rt_->finish_read_inline(v->id(), out);
    } else {
      read_values(*rt_, *v, out);
    }
  }

 private:
  rt::TaskRuntime* rt_;
  RegisteredVector* v_;  // null once finished
  bool begun_;
};

class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  // Submits z = M^-1 r (z and r are distinct vectors of A's size).
  virtual void submit(RegisteredVector& r, RegisteredVector& z) = 0;
  virtual PreconditionerKind kind() const = 0;
  // Whether M^-1 is pointwise, so that the PCG step applies it in its own pass over r instead of
  // submitting it: none (z = r) and Jacobi (z = inverse_diagonal() .* r).
  virtual bool pointwise() const { return false; }
  virtual const RegisteredVector* inverse_diagonal() const { return nullptr; }
  // The SpTRSV schemes of its solves (IC(0): the lower one, then the upper one); empty for the others.
  virtual std::vector<std::string> schemes() const { return {}; }
};

// Builds the preconditioner of `options.kind` for the square symmetric A (both triangles stored):
// computes the diagonal, the IC(0) factor and its solvers, or the complete factor. Errors:
// NotPositiveDefinite for a non-positive diagonal entry (jacobi) or pivot (ic0, cholesky), naming
// the column.
std::unique_ptr<Preconditioner> make_preconditioner(rt::TaskRuntime& rt, const Csr& A,
                                                    const PreconditionerOptions& options);

// The IC(0) preconditioner's factor, for callers that want it (the Python module exposes it); null for
// the other kinds.
const Csr* ic0_factor_of(const Preconditioner& p);

}  // namespace hetsparse::krylov
