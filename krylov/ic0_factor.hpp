// IC(0), the incomplete Cholesky factor with zero fill, computed as one task on the runtime (a CPU
// worker: serial; a CUDA worker: level by level, kernels/ic0).
#pragma once
#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::krylov {

struct Ic0Options {
  // Factor A + shift * diag(A) (Manteuffel's shift): IC(0) of an SPD matrix that is not an
  // M-matrix can meet a non-positive pivot; a small shift (1e-3 .. 1e-1) usually avoids it.
  double shift = 0.0;
  rt::Where where = rt::Where::Any;  // where the factorization task may run
};

// L with the pattern of tril(A) (lower CSR, sorted rows, the diagonal last) and L L^T = A + shift
// diag(A) on that pattern. A is square and symmetric; only its lower triangle is read. Throws
// StructureError for a missing diagonal entry and NotPositiveDefinite naming the first column
// (= row) whose pivot is not positive.
Csr ic0_factor(rt::TaskRuntime& rt, const Csr& A, const Ic0Options& options = {});

}  // namespace hetsparse::krylov
