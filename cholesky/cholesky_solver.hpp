// Sparse Cholesky A = P^T L L^T P for symmetric positive definite A, as with CHOLMOD or PaStiX:
// analyze once per pattern, factorize (or refactorize with new values), solve many times.
// The numeric phases run as StarPU task graphs on the TaskRuntime given at construction.
#pragma once
#include <memory>
#include <vector>

#include "symbolic/analyze_options.hpp"
#include "symbolic/symbolic_factor.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "planners/supernodal_solve.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::cholesky {

struct PanelStorage;
struct AssemblyMap;
struct EntryHandles;
struct GroupedAssembly;
struct SolveState;

struct FactorizeOptions {
  planners::SizeClassThresholds thresholds;
  // Not owned; when set, assembly, submission and the tasks done so far are reported.
  ProgressReporter* progress = nullptr;
};

struct FactorizeReport {
  // assemble_s: A's values gathered in panel-group order on the host (the panels themselves are
  // zeroed and filled by assembly tasks on each group's home device, inside wait_s).
  double assemble_s = 0, factorize_s = 0, total_s = 0;
  // factorize_s split: layout + registering the panels (analyze() does it for the default options;
  // here for other thresholds, or after a refused factorization), submitting the
  // tasks, waiting for them, reading the pivots' status (the panels stay where the tasks left them)
  double register_s = 0, submit_s = 0, wait_s = 0, unregister_s = 0;
  double flops = 0;  // executed by the panels (with amalgamation zeros)
  // Factored on the calling thread, without tasks (planners::host_takes_whole_factor): wait_s is the
  // kernel's time, assemble_s the scatter of A into the panels.
  bool on_calling_thread = false;
  planners::UpdatePlanStats plan;
  // Panel groups by home (planners::panel_homes) and their panels' doubles: Cuda ones are assembled
  // on the GPU and stay there, Any ones go where the scheduler puts their tasks.
  long long groups_cuda = 0, groups_any = 0, groups_cpu = 0;
  double values_cuda = 0, values_any = 0, values_cpu = 0;
};

// CUDA workers a GPU that a runtime made for the factorization should have
// (rt::RuntimeOptions::cuda_workers_per_gpu; `hetsparse cholesky` and bench_cholesky use it unless
// told otherwise): with one stream and one driver thread each, independent update and factor tasks
// overlap on the GPU (docs/benchmarks.md, issue 15: twelfth, thirteenth and nineteenth sessions;
// with wide supernodes cut into pieces there are more, smaller update tasks to overlap). Each takes
// a core from the CPU workers: the command line scales it down on nodes with few cores a GPU
// (rt::scaled_cuda_workers_per_gpu).
inline constexpr int kCudaWorkersPerGpu = 6;

// The runtime must outlive the solver.
class CholeskySolver {
 public:
  explicit CholeskySolver(rt::TaskRuntime& runtime);
  ~CholeskySolver();
  CholeskySolver(const CholeskySolver&) = delete;
  CholeskySolver& operator=(const CholeskySolver&) = delete;

  // Ordering, symbolic factor and assembly map; then, as cuDSS's analysis allocates its factor, L's
  // storage (uninitialised), its layout and StarPU handles for the default FactorizeOptions, the
  // GPU groups allocated on their GPUs, so that the first factorize() with those options assembles
  // and runs only (skipped when L does not fit: factorize() then reports InsufficientMemory).
  const SymbolicFactor& analyze(const Csr& A, const AnalyzeOptions& opts = {});
  // Numeric factorization; NotPositiveDefinite names the failing column in A's numbering.
  // InsufficientMemory, before allocating it, when the factor does not fit in the available memory.
  const FactorizeReport& factorize(const Csr& A, const FactorizeOptions& opts = {});
  // New values, same pattern: no new analysis.
  const FactorizeReport& refactorize(const Csr& A) { return factorize(A, options_); }
  const FactorizeReport& report() const { return report_; }
  // Solves A X = B for nrhs columns stored column-major with leading dimension ldb (overwritten by X).
  // A task graph over the factor's panel groups (planners/supernodal_solve.hpp), each task where
  // its panels are: no copy of L per solve.
  void solve(double* B, int nrhs, int ldb);
  void solve(std::vector<double>& b) { solve(b.data(), 1, static_cast<int>(b.size())); }
  // The same on data StarPU already holds (e.g. vectors resident on a GPU): b and x are vector
  // handles of n * nrhs doubles (column-major, ld n; x may be b). Submits and returns; the tasks
  // follow StarPU's sequential consistency on b and x (rt.wait_all() or an acquire to wait).
  void submit_solve(rt::HandleId b, rt::HandleId x, int nrhs = 1);
  // Tasks of the last solve (and how many were restricted to CUDA workers), and its phases: the plan
  // and handles (first call, or a new nrhs), filling the stage, submitting, waiting for the tasks,
  // copying the solution out of the stage (the level solve of a GPU; 0 otherwise).
  const planners::SolvePlanStats& last_solve_stats() const { return solve_stats_; }
  struct SolveTimes {
    double setup_s = 0, stage_s = 0, submit_s = 0, wait_s = 0, unstage_s = 0;
  };
  const SolveTimes& last_solve_times() const { return solve_times_; }

  double logdet() const;               // log det(A) = 2 sum log L_jj
  Csr factor_L() const;                // L in the permuted order: lower CSR, sorted columns
  const std::vector<index_t>& permutation() const { return symbolic().perm; }  // old = perm[new]
  const SymbolicFactor& symbolic() const;
  bool factorized() const { return factorized_; }

 private:
  void require_factor(const char* what) const;
  void release_panels();
  void set_up_layout(const FactorizeOptions& opts);
  // opts as the layout takes them: a factor made on the calling thread is one CPU group.
  FactorizeOptions placed_options(const FactorizeOptions& opts) const;
  // L's storage (uninitialised; InsufficientMemory, with nothing kept, unless it fits, checked again
  // while it is untouched) and set_up_layout(placed).
  void prepare_factor(const FactorizeOptions& placed);
  // The GPU-homed panel groups zeroed on their GPUs (analysis: allocations out of factorize()).
  void place_panels();
  void factorize_here(const Csr& A, ProgressReporter* progress);    // a small factor, no tasks
  void run_factor_tasks(const Csr& A, const FactorizeOptions& opts);  // the task graph
  SolveState& solve_state(int nrhs);
  planners::SolvePlanStats submit(const SolveState& st, rt::HandleId stage, const planners::SolveRhs& rhs);
  void solve_levels(SolveState& st, double* B, int nrhs, int ldb);
  // Every panel group's handle (and, with_status, its pivot status handle) held on the host.
  std::vector<std::unique_ptr<rt::HostAccess>> host_panels(rt::Access mode, bool with_status) const;
  // Calls fn() with every panel group's up-to-date values in host memory (L_).
  template <class Fn>
  void with_host_panels(Fn&& fn) const;
  rt::TaskRuntime& rt_;
  std::unique_ptr<SymbolicFactor> sym_;
  std::unique_ptr<PanelStorage> L_;
  std::unique_ptr<AssemblyMap> map_;
  std::unique_ptr<planners::SymbolicWork> work_;     // per analysis: work, critical paths, update lists
  std::unique_ptr<planners::SubtreePlans> subtree_plans_;  // per layout: the GPU subtrees' schedules
  std::unique_ptr<planners::FactorLayout> layout_;  // for the subtree threshold in layout_->subtree_max_flops
  std::vector<rt::Where> homes_;                      // per group (planners::panel_homes)
  std::unique_ptr<GroupedAssembly> grouped_;          // A's entries by group, for the assembly tasks
  std::unique_ptr<EntryHandles> entries_;             // grouped_'s arrays registered (per layout)
  std::vector<int> info_;                             // per supernode: the factor tasks' status
  std::vector<double> host_work_;                     // per layout: factorize_here's update buffer
  // The panels stay registered after factorize(): the solves read them where the tasks left them.
  std::unique_ptr<planners::RegisteredFactor> reg_;
  std::unique_ptr<SolveState> solve_;                 // the solve's plan and handles
  planners::SizeClassThresholds layout_thresholds_;   // what homes_ was computed with
  planners::SolvePlanStats solve_stats_;
  SolveTimes solve_times_;
  InputTriangle input_ = InputTriangle::Lower;
  FactorizeOptions options_;
  FactorizeReport report_;
  bool factorized_ = false;
  bool panels_written_ = false;  // L_ has been assembled since it was allocated (its pages are in use)
};

}  // namespace hetsparse::cholesky
