// Sparse Cholesky A = P^T L L^T P for symmetric positive definite A, as with CHOLMOD or PaStiX:
// analyze once per pattern, factorize (or refactorize with new values), solve many times.
// The numeric phases run as StarPU task graphs on the TaskRuntime given at construction.
#pragma once
#include <memory>
#include <vector>

#include "symbolic/analyze_options.hpp"
#include "symbolic/symbolic_factor.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::cholesky {

struct PanelStorage;
struct AssemblyMap;

struct FactorizeOptions {
  planners::SizeClassThresholds thresholds;
  // Not owned; when set, assembly, submission and the tasks done so far are reported.
  ProgressReporter* progress = nullptr;
};

struct FactorizeReport {
  double assemble_s = 0, factorize_s = 0, total_s = 0;
  // factorize_s split: registering the panels, submitting the tasks, waiting for them, bringing data home
  double register_s = 0, submit_s = 0, wait_s = 0, unregister_s = 0;
  double flops = 0;  // executed by the panels (with amalgamation zeros)
  planners::UpdatePlanStats plan;
};

// The runtime must outlive the solver.
class CholeskySolver {
 public:
  explicit CholeskySolver(rt::TaskRuntime& runtime);
  ~CholeskySolver();
  CholeskySolver(const CholeskySolver&) = delete;
  CholeskySolver& operator=(const CholeskySolver&) = delete;

  const SymbolicFactor& analyze(const Csr& A, const AnalyzeOptions& opts = {});
  // Numeric factorization; NotPositiveDefinite names the failing column in A's numbering.
  // InsufficientMemory, before allocating it, when the factor does not fit in the available memory.
  const FactorizeReport& factorize(const Csr& A, const FactorizeOptions& opts = {});
  // New values, same pattern: no new analysis.
  const FactorizeReport& refactorize(const Csr& A) { return factorize(A, options_); }
  // Solves A X = B for nrhs columns stored column-major with leading dimension ldb (overwritten by X).
  void solve(double* B, int nrhs, int ldb);
  void solve(std::vector<double>& b) { solve(b.data(), 1, static_cast<int>(b.size())); }

  double logdet() const;               // log det(A) = 2 sum log L_jj
  Csr factor_L() const;                // L in the permuted order: lower CSR, sorted columns
  const std::vector<index_t>& permutation() const { return symbolic().perm; }  // old = perm[new]
  const SymbolicFactor& symbolic() const;
  bool factorized() const { return factorized_; }

 private:
  void require_factor(const char* what) const;
  void release_panels();
  rt::TaskRuntime& rt_;
  std::unique_ptr<SymbolicFactor> sym_;
  std::unique_ptr<PanelStorage> L_;
  std::unique_ptr<AssemblyMap> map_;
  std::unique_ptr<planners::FactorLayout> layout_;  // for the subtree threshold in layout_->subtree_max_flops
  double requested_subtree_max_flops_ = 0;
  InputTriangle input_ = InputTriangle::Lower;
  FactorizeOptions options_;
  FactorizeReport report_;
  bool factorized_ = false;
};

}  // namespace hetsparse::cholesky
