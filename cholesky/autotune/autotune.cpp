#include "cholesky/autotune/autotune.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>

#include "cholesky/autotune/recorded_dag.hpp"
#include "symbolic/analysis.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The objective: predicted makespan of a setting. Annealing moves one or two coordinates at a time,
// so the last symbolic factor is kept (a threshold move re-plans without re-amalgamating), and every
// value is memoised (the amalgamation values are discrete and recur).
class Evaluator {
 public:
  Evaluator(const SymbolicSkeleton& sk, const SimMachine& m, const CostModels& models, index_t max_supernode_cols)
      : sk_(sk), machine_(m), models_(models), max_supernode_cols_(max_supernode_cols) {}

  SimResult simulate(const TunedSettings& s) {
    const std::string akey = amalgamation_key(s.amalgamation);
    if (!sym_ || akey != sym_key_) {
      AnalyzeOptions o;
      o.amalgamation = s.amalgamation;
      o.max_supernode_cols = max_supernode_cols_;
      sym_ = std::make_unique<SymbolicFactor>(amalgamate_skeleton(sk_, o));
      sym_key_ = akey;
      amalgamations_.insert(akey);
    }
    return simulate_schedule(record_factorization_dag(*sym_, s.thresholds, machine_.ngpu), machine_, models_);
  }
  double operator()(const TunedSettings& s) {
    const std::string key = settings_key(s);
    const auto it = values_.find(key);
    if (it != values_.end()) return it->second;
    return values_[key] = simulate(s).total_s;
  }
  int distinct_settings() const { return static_cast<int>(values_.size()); }
  int distinct_amalgamations() const { return static_cast<int>(amalgamations_.size()); }

 private:
  const SymbolicSkeleton& sk_;
  SimMachine machine_;
  const CostModels& models_;
  index_t max_supernode_cols_;
  std::unique_ptr<SymbolicFactor> sym_;
  std::string sym_key_;
  std::map<std::string, double> values_;
  std::set<std::string> amalgamations_;
};

std::vector<std::string> kernels_of(const TaskGraph& g) {
  std::set<std::string> names;
  for (const SimTask& t : g.tasks) names.insert(t.kernel);
  return {names.begin(), names.end()};
}

AutotuneResult tune(const SymbolicSkeleton& sk, const AnalyzeOptions& base, const TunedSettings& start,
                    const AutotuneOptions& opts, const CostModels& models) {
  const auto t0 = std::chrono::steady_clock::now();
  Evaluator eval(sk, opts.machine, models, base.max_supernode_cols);
  const planners::SizeClassThresholds base_th = start.thresholds;
  // The annealer sees [0,1]^d; the starting point itself is evaluated exactly as given.
  const std::vector<double> x0 = encode(start);
  const AnnealResult ar = anneal(
      x0, [&](const std::vector<double>& x) { return x == x0 ? eval(start) : eval(decode(x, base_th)); },
      opts.search);
  AutotuneResult r;
  r.start = start;
  r.chosen = ar.best == x0 ? start : decode(ar.best, base_th);
  r.predicted_start = eval.simulate(r.start);
  r.predicted_chosen = eval.simulate(r.chosen);
  r.analyze = base;
  r.analyze.amalgamate = true;
  r.analyze.amalgamation = r.chosen.amalgamation;
  r.thresholds = r.chosen.thresholds;
  r.evaluations = ar.evaluations;
  r.distinct_settings = eval.distinct_settings();
  r.distinct_amalgamations = eval.distinct_amalgamations();
  r.stopped_by_budget = ar.stopped_by_budget;
  r.tuning_s = seconds_since(t0);
  return r;
}

// The shared analysis and the kernels of the starting task graph (the ones worth fitting).
struct Prepared {
  SymbolicSkeleton sk;
  planners::SizeClassThresholds thresholds;  // the caller's, automatic values resolved
  std::vector<std::string> kernels;
  double analyze_s = 0;
};

Prepared prepare(const Csr& A, const AnalyzeOptions& base, const planners::SizeClassThresholds& th) {
  const auto t0 = std::chrono::steady_clock::now();
  Prepared p{analyze_skeleton(A, base), th, {}, 0.0};
  p.analyze_s = seconds_since(t0);
  AnalyzeOptions o;
  o.amalgamation = base.amalgamation;
  o.max_supernode_cols = base.max_supernode_cols;
  const SymbolicFactor start = amalgamate_skeleton(p.sk, o);
  p.thresholds = applied_thresholds(start, th);
  p.kernels = kernels_of(record_factorization_dag(start, p.thresholds, 0));  // names only
  return p;
}

AutotuneResult run(const Prepared& p, const AnalyzeOptions& base, const AutotuneOptions& opts,
                   const CostModels& models) {
  AutotuneResult r = tune(p.sk, base, {base.amalgamation, p.thresholds}, opts, models);
  r.analyze_s = p.analyze_s;
  r.cost_models = models.summary(p.kernels, opts.machine.ngpu > 0);
  return r;
}

}  // namespace

AutotuneResult autotune(const Csr& A, const AnalyzeOptions& base, const planners::SizeClassThresholds& base_thresholds,
                        const AutotuneOptions& opts, const CostModels& models) {
  return run(prepare(A, base, base_thresholds), base, opts, models);
}

AutotuneResult autotune(const Csr& A, const AnalyzeOptions& base, const planners::SizeClassThresholds& base_thresholds,
                        const AutotuneOptions& opts) {
  const Prepared p = prepare(A, base, base_thresholds);
  return run(p, base, opts, load_cost_models(opts.perfmodel_dir, p.kernels));
}

}  // namespace hetsparse::cholesky::autotune
