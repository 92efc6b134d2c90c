// Preconditioned conjugate gradients on the task runtime: A registered once, the iteration's vectors
// registered once per solver, every operation a task or, on one GPU, a launch on the calling thread's
// stream (PcgOptions::inline_launches) (SpMV: the spmv codelet; preconditioner:
// preconditioner.hpp; dot/nrm2/xpby and the fused CG step: codelets/vector, codelets/krylov). An
// iteration is the SpMV, p.q, the step (alpha = rz / p.q on the device; x, r, ||r|| in one pass; with
// none or Jacobi also z and r.z), the IC(0) solves and r.z, and p = z + beta p. Only the scalars come
// back to the host, for the stopping test: with none or Jacobi, beta and the test are made on the
// device too, and the host reads step k's scalars after launching step k + 1 (one step more is
// launched than needed, and changes nothing); with IC(0), two reads an iteration (the step's
// scalars, then r.z for beta).
//
//   krylov::PcgSolver pcg(runtime, A, {});          // A: both triangles; IC(0) by default
//   const krylov::PcgReport& rep = pcg.solve(b.data(), x.data());   // x: initial guess -> solution
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "codelets/spmv/spmv_codelet.hpp"
#include "krylov/preconditioner.hpp"
#include "runtime/csr32.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::krylov {

struct PcgOptions {
  // Stop when ||r_k||_2 <= max(rtol ||b||_2, atol) (r_k the recursively updated residual, as scipy's cg).
  double rtol = 1e-8;
  double atol = 0.0;
  int max_iterations = 1000;
  // Device restriction of every task of the iteration (SpMV, vector operations, Jacobi, the IC(0)
  // factorization and solves): Any leaves it to the scheduler, which may move the vectors between
  // devices; Cuda or Cpu keeps them in one memory.
  rt::Where where = rt::Where::Any;
  codelets::SpmvCudaImpl spmv_cuda = codelets::SpmvCudaImpl::Own;
  // Wait after the SpMV, the preconditioner and the vector updates too, so that each phase's time is
  // its own (PcgReport's split), at the price of an idle GPU at each wait; off, an iteration waits
  // only for its scalars.
  bool time_phases = false;
  // With where == Cuda, the iteration's operations are launched on the calling thread's stream
  // (TaskRuntime::launch_inline) and the IC(0) solves run in it (TriangularSolver::solve), rather
  // than each being a task: an iteration then costs its kernels and its scalar reads.
  bool inline_launches = true;
  // .where, .ic0.where and .sptrsv.device are set from `where` by the solver.
  PreconditionerOptions preconditioner;
};

// Whether a solver with these options launches its iteration inline: inline_launches, every task on
// the GPU.
inline bool launches_inline(const PcgOptions& o) { return o.inline_launches && o.where == rt::Where::Cuda; }

struct PcgReport {
  bool converged = false;
  bool breakdown = false;  // p.q <= 0 or r.z <= 0: A (or M) is not positive definite
  int iterations = 0;      // SpMV products with the search direction
  std::vector<double> residual_norms;  // ||r_k||_2 for k = 0 .. iterations
  double b_norm = 0, tolerance = 0;
  double relative_residual = 0;  // ||r_final|| / ||b|| (recursive residual)
  // Wall-clock seconds: the solve, and (time_phases) its split; vector = dot, nrm2, the CG step, xpby
  // and the scalar read-backs (with none and Jacobi, the preconditioner is in the step: precond_s
  // holds only the first scaling). Each includes the runtime's task overheads.
  double solve_s = 0, spmv_s = 0, precond_s = 0, vector_s = 0;
};

class PcgSolver {
 public:
  // Registers A (square; symmetric positive definite, both triangles stored: symmetry is not
  // checked) and builds the preconditioner. The runtime must outlive the solver.
  PcgSolver(rt::TaskRuntime& rt, const Csr& A, const PcgOptions& options = {});
  ~PcgSolver();
  PcgSolver(const PcgSolver&) = delete;
  PcgSolver& operator=(const PcgSolver&) = delete;

  // Solves A x = b; x holds the initial guess on entry (zeros if there is none) and the last iterate
  // on return, converged or not (see the report).
  const PcgReport& solve(const double* b, double* x);
  const PcgReport& report() const { return report_; }
  double setup_seconds() const { return setup_s_; }  // registering A and building the preconditioner
  const Preconditioner& preconditioner() const { return *precond_; }
  const PcgOptions& options() const { return options_; }
  index_t rows() const { return n_; }

 private:
  struct Vectors;
  rt::TaskRuntime& rt_;
  PcgOptions options_;
  index_t n_ = 0;
  rt::Csr32 A32_;
  rt::DataHandle A_;
  std::unique_ptr<Preconditioner> precond_;
  std::unique_ptr<Vectors> v_;
  PcgReport report_;
  double setup_s_ = 0;
};

}  // namespace hetsparse::krylov
