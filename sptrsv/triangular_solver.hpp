// Sparse triangular solver on the StarPU runtime: analyse a triangular matrix once
// (sptrsv::TriangularPattern), then solve T X = B or T^T X = B as one `sptrsv` task per solve,
// on a CPU worker (serial substitution) or a CUDA worker (one of the GPU variants).
//
//   sptrsv::TriangularSolver s(runtime);
//   s.analyze(L, Triangle::Lower, /*unit_diagonal=*/false, {});
//   s.solve(b.data(), x.data());
#pragma once
#include <memory>
#include <string>

#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"
#include "sparse/types.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/features.hpp"

namespace hetsparse::sptrsv {

struct TriangularSolveOptions {
  // Where solves may run: Any (the scheduler decides), Cpu, or Cuda. Solves with nrhs > 1 or
  // transposed always run on a CPU worker (the CUDA variants solve one right-hand side with T).
  rt::Where device = rt::Where::Any;
  // A name from kernels::gpu_variants() for solves placed on a CUDA worker, or "auto" (see
  // TriangularSolver::analyze). Solves on CPU workers always use serial substitution.
  std::string variant = "auto";
  AnalysisOptions analysis;
};

class TriangularSolver {
 public:
  explicit TriangularSolver(rt::TaskRuntime& runtime);
  ~TriangularSolver();
  TriangularSolver(const TriangularSolver&) = delete;
  TriangularSolver& operator=(const TriangularSolver&) = delete;

  // Analyses T (StructureError / InvalidArgument as TriangularPattern), picks the GPU variant and
  // registers the matrix with the runtime. InvalidArgument for an unknown variant, and for a
  // named variant or device Cuda in a build without CUDA. A second call replaces the first.
  //
  // variant "auto": a fixed heuristic on the features, NOT a search or a learned model (neither is
  // implemented yet): rows of at most 32 entries and a row-length coefficient of variation below 1
  // (PDE-like, e.g. Laplacian triangles) take "syncfree_levelorder", which keeps a whole level in
  // flight; anything else (power-law rows, e.g. R-MAT) takes "yuenyeung", whose per-warp choice
  // between a thread and a warp per row follows the row lengths.
  void analyze(const Csr& T, Triangle tri, bool unit_diagonal, const TriangularSolveOptions& options = {});
  // New values for the analysed pattern (TriangularPattern::update_values); the values are
  // registered again, the structure is kept.
  void update_values(const Csr& T);
  // X = T^-1 B (or T^-T B): b and x are n x nrhs, column-major with leading dimension n; x may be b.
  // Submits one task and waits for it; task errors are rethrown here.
  void solve(const double* b, double* x, int nrhs = 1, bool transpose = false);

  const TriangularFeatures& features() const;
  // The GPU variant solves placed on a CUDA worker use, or "cpu_serial" when the device is Cpu or
  // the build has no CUDA variants.
  const std::string& chosen_variant() const { return variant_; }
  double analysis_seconds() const;  // of the last analyze(): TriangularPattern's analysis
  const TriangularPattern& pattern() const;

 private:
  struct Handles;
  void register_matrix();
  void register_values();

  rt::TaskRuntime& rt_;
  std::unique_ptr<TriangularPattern> pattern_;
  std::unique_ptr<Handles> handles_;
  rt::Where device_ = rt::Where::Any;
  std::string variant_;
  int variant_index_ = -1;  // into codelets::sptrsv_cuda_variants(); -1: CPU only
};

}  // namespace hetsparse::sptrsv
