#include "cholesky/cholesky_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <thread>

#include "cholesky/numeric/panel_storage.hpp"
#include "symbolic/analysis.hpp"
#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/progress.hpp"

namespace hetsparse::cholesky {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Waits for the submitted tasks while reporting how many are done (a task graph of a large problem
// runs for minutes); the caller's wait_all() then returns at once and rethrows task errors.
void report_tasks_until_done(const rt::TaskRuntime& rt, long long total, ProgressReporter& progress) {
  progress.begin("factorization tasks");
  for (std::size_t pending; (pending = rt.pending_tasks()) > 0;) {
    progress.update(std::max(0LL, total - static_cast<long long>(pending)), total, "tasks");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the end is noticed within 20 ms
  }
  progress.end();
}

// Begins a phase of a report that may be absent.
void begin_phase(ProgressReporter* progress, const char* phase) {
  if (progress) progress->begin(phase);
}

}  // namespace

CholeskySolver::CholeskySolver(rt::TaskRuntime& runtime) : rt_(runtime) {}
CholeskySolver::~CholeskySolver() { release_panels(); }

void CholeskySolver::release_panels() {
  if (L_) rt_.unpin_host_range(L_->values.data());
  L_.reset();
}

const SymbolicFactor& CholeskySolver::symbolic() const {
  if (!sym_) throw InvalidArgument("Cholesky: analyze() has not been called");
  return *sym_;
}

void CholeskySolver::require_factor(const char* what) const {
  if (!factorized_) throw InvalidArgument(std::string("Cholesky: ") + what + " needs a successful factorize()");
}

const SymbolicFactor& CholeskySolver::analyze(const Csr& A, const AnalyzeOptions& opts) {
  {
    rt::PausedWorkers paused(rt_);  // host-only work: the workers' polling would slow it down
    sym_ = std::make_unique<SymbolicFactor>(cholesky::analyze(A, opts));
    input_ = opts.input;
    begin_phase(opts.progress, "analysis: assembly map");
    map_ = std::make_unique<AssemblyMap>(build_assembly_map(A, input_, *sym_));
    if (opts.progress) opts.progress->end();
  }
  layout_.reset();
  release_panels();
  factorized_ = false;
  return *sym_;
}

const FactorizeReport& CholeskySolver::factorize(const Csr& A, const FactorizeOptions& opts) {
  const SymbolicFactor& sym = symbolic();
  const auto t0 = std::chrono::steady_clock::now();
  factorized_ = false;
  options_ = opts;
  report_ = FactorizeReport{};
  begin_phase(opts.progress, "assembly");
  if (!L_) {
    L_ = std::make_unique<PanelStorage>(sym);
    // One pinned range for every panel, instead of one cudaHostRegister per panel handle.
    rt_.pin_host_range(L_->values.data(), L_->values.size() * sizeof(double));
  }
  {
    rt::PausedWorkers paused(rt_);
    assemble(A, *map_, *L_);
  }
  report_.assemble_s = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  // The layout depends on the subtree threshold only: kept across refactorizations.
  // A 2D-like factor goes to the GPUs whole: one subtree group per GPU share or one in all
  // (planners::gpu_factor_subtree_limit).
  const double subtree_max = planners::gpu_factor_subtree_limit(sym, opts.thresholds, rt_.cuda_workers());
  if (!layout_ || subtree_max != requested_subtree_max_flops_) {
    layout_ = std::make_unique<planners::FactorLayout>(planners::plan_factor_layout(sym, subtree_max));
    requested_subtree_max_flops_ = subtree_max;
  }
  std::vector<int> info(sym.num_supernodes(), 0);
  {
    auto t = std::chrono::steady_clock::now();
    begin_phase(opts.progress, "data registration");
    auto reg = std::make_unique<planners::RegisteredFactor>(rt_, sym, *layout_, L_->values.data(), info.data());
    report_.register_s = seconds_since(t);
    t = std::chrono::steady_clock::now();
    begin_phase(opts.progress, "task submission");
    report_.plan = planners::submit_supernodal_cholesky(rt_, sym, *layout_, *reg, opts.thresholds);
    report_.submit_s = seconds_since(t);
    t = std::chrono::steady_clock::now();
    // Polling only when the lines are shown: a blocking wait notices the end at once.
    if (opts.progress && opts.progress->enabled()) report_tasks_until_done(rt_, report_.plan.tasks, *opts.progress);
    rt_.wait_all();
    report_.wait_s = seconds_since(t);
    t = std::chrono::steady_clock::now();
    begin_phase(opts.progress, "factor back to host memory");
    reg.reset();  // panels and info back in host memory
    report_.unregister_s = seconds_since(t);
    if (opts.progress) opts.progress->end();
  }
  report_.factorize_s = seconds_since(t1);
  report_.total_s = seconds_since(t0);
  report_.flops = sym.flops_amalgamated;
  // The first failure in elimination order is the informative one; later ones follow from it.
  index_t failed = std::numeric_limits<index_t>::max();
  for (index_t s = 0; s < sym.num_supernodes(); ++s)
    if (info[s] > 0) failed = std::min(failed, sym.supernodes[s].first_col + info[s] - 1);
  if (failed != std::numeric_limits<index_t>::max())
    throw NotPositiveDefinite(sym.perm[failed], "Cholesky: the matrix is not positive definite: non-positive pivot");
  factorized_ = true;
  return report_;
}

void CholeskySolver::solve(double* B, int nrhs, int ldb) {
  require_factor("solve()");
  const SymbolicFactor& sym = *sym_;
  if (nrhs < 1 || ldb < sym.n) throw InvalidArgument("Cholesky solve: need nrhs >= 1 and ldb >= n");
  std::vector<double> x(std::size_t(sym.n) * nrhs);
  for (int c = 0; c < nrhs; ++c)
    for (index_t i = 0; i < sym.n; ++i) x[i + std::size_t(c) * sym.n] = B[sym.perm[i] + std::size_t(c) * ldb];
  {
    auto* rows = const_cast<index_t*>(sym.rows.data());  // read-only in the sweeps
    rt::DataHandle hv(rt_, rt_.register_vector({L_->values.data(), L_->values.size(), sizeof(double)}));
    rt::DataHandle hr(rt_, rt_.register_vector({rows, sym.rows.size(), sizeof(index_t)}));
    const auto& loc = layout_->loc;  // a factorization happened, so the layout exists
    rt::DataHandle hl(rt_, rt_.register_vector({const_cast<codelets::PanelLocation*>(loc.data()), loc.size(),
                                                sizeof(loc[0])}));
    rt::DataHandle hx(rt_, rt_.register_vector({x.data(), x.size(), sizeof(double)}));
    planners::submit_supernodal_solve(rt_, sym, {hv.id(), hr.id(), hl.id()}, hx.id(), nrhs, sym.n);
    rt_.wait_all();
  }
  for (int c = 0; c < nrhs; ++c)
    for (index_t i = 0; i < sym.n; ++i) B[sym.perm[i] + std::size_t(c) * ldb] = x[i + std::size_t(c) * sym.n];
}

double CholeskySolver::logdet() const {
  require_factor("logdet()");
  double s = 0;
  for (index_t k = 0; k < sym_->num_supernodes(); ++k) {
    const Supernode& sn = sym_->supernodes[k];
    const double* p = L_->panel(k);
    for (index_t j = 0; j < sn.ncols; ++j) s += std::log(p[j + offset_t(j) * sn.nrows]);
  }
  return 2.0 * s;
}

Csr CholeskySolver::factor_L() const {
  require_factor("factor_L()");
  const SymbolicFactor& sym = *sym_;
  Coo coo;
  coo.rows = coo.cols = sym.n;
  for (index_t k = 0; k < sym.num_supernodes(); ++k) {
    const Supernode& sn = sym.supernodes[k];
    const double* p = L_->panel(k);
    for (index_t j = 0; j < sn.ncols; ++j)
      for (offset_t r = j; r < sn.nrows; ++r) {
        coo.row.push_back(sym.rows[sn.row_begin + r]);
        coo.col.push_back(sn.first_col + j);
        coo.val.push_back(p[r + offset_t(j) * sn.nrows]);
      }
  }
  return to_csr(coo);
}

}  // namespace hetsparse::cholesky
