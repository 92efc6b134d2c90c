// k-nearest-neighbour scheme model: fitting, prediction, leave-one-out (the model file is
// scheme_model_file.cpp).
#include "sptrsv/scheme_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <set>

#include "hetsparse/error.hpp"

namespace hetsparse::sptrsv {
namespace {

const double kMissing = std::log(10.0);  // a scheme a neighbour did not time: 10x its best
constexpr double kInfinity = std::numeric_limits<double>::infinity();

double get(const std::map<std::string, double>& f, const char* name) {
  const auto it = f.find(name);
  if (it == f.end()) throw InvalidArgument(std::string("scheme model: feature '") + name + "' missing");
  return it->second;
}

double log_pos(double v) { return std::log10(std::max(v, 1e-12)); }

}  // namespace

// Scores of every scheme (weighted mean log-ratio over the k nearest samples, skipping `skip`).
std::vector<double> SchemeModel::scores(const std::vector<double>& z, std::size_t skip) const {
  std::vector<std::pair<double, std::size_t>> dist;
  for (std::size_t i = 0; i < samples_.size(); ++i) {
    if (i == skip) continue;
    double d2 = 0;
    for (std::size_t j = 0; j < z.size(); ++j) {
      d2 += weight_[j] * (z[j] - samples_[i].z[j]) * (z[j] - samples_[i].z[j]);
    }
    dist.emplace_back(std::sqrt(d2), i);
  }
  std::vector<double> score(schemes_.size(), 0.0);
  const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(k_), dist.size());
  if (k == 0) return score;
  std::partial_sort(dist.begin(), dist.begin() + static_cast<std::ptrdiff_t>(k), dist.end());
  double den = 0;
  for (std::size_t n = 0; n < k; ++n) {
    const double w = 1.0 / (dist[n].first + 1e-3);  // an exact match dominates, but not infinitely
    for (std::size_t s = 0; s < schemes_.size(); ++s) score[s] += w * samples_[dist[n].second].log_ratio[s];
    den += w;
  }
  for (double& v : score) v /= den;
  return score;
}

// Mean log-ratio of the leave-one-out predictions with the current weights.
double SchemeModel::loo_loss() const {
  double loss = 0;
  for (std::size_t i = 0; i < samples_.size(); ++i) {
    const std::vector<double> sc = scores(samples_[i].z, i);
    const std::size_t pick = static_cast<std::size_t>(std::min_element(sc.begin(), sc.end()) - sc.begin());
    loss += samples_[i].log_ratio[pick];
  }
  return loss / double(samples_.size());
}

std::vector<std::string> model_input_names() {
  return {"log_m", "log_rnnz", "log_rnnz_max", "log1p_rnnz_cov", "log_layer_num", "log_rows_per_level",
          "log1p_lnnz_cov", "dep_dist"};
}

namespace {
// The inputs from the features they are computed from, in model_input_names() order (both overloads).
std::vector<double> inputs_of(double m, double rnnz, double rnnz_max, double rnnz_cov, double layer_num, double beta,
                              double lnnz_cov, double dep_dist) {
  return {log_pos(m),         log_pos(rnnz), log_pos(rnnz_max),     log_pos(1 + rnnz_cov),
          log_pos(layer_num), log_pos(beta), log_pos(1 + lnnz_cov), dep_dist};
}
}  // namespace

std::vector<double> model_inputs(const std::map<std::string, double>& f) {
  return inputs_of(get(f, "m"), get(f, "rnnz"), get(f, "rnnz_max"), get(f, "rnnz_cov"), get(f, "layer_num"),
                   get(f, "beta"), get(f, "lnnz_cov"), get(f, "dep_dist"));
}

// Straight from the fields: every analysis predicts, and the named list costs a map of strings.
std::vector<double> model_inputs(const TriangularFeatures& f) {
  return inputs_of(static_cast<double>(f.m), f.rnnz, static_cast<double>(f.rnnz_max), f.rnnz_cov,
                   static_cast<double>(f.layer_num), f.beta, f.lnnz_cov, f.dep_dist);
}

SchemeModel SchemeModel::fit(const std::vector<TimingSample>& samples, int k, const std::string& gpu,
                             const std::string& arch) {
  if (k < 1) throw InvalidArgument("SchemeModel::fit: k must be at least 1");
  SchemeModel m;
  m.gpu_ = gpu;
  m.arch_ = arch;
  m.k_ = k;
  std::set<std::string> names;
  std::vector<const TimingSample*> used;
  for (const TimingSample& s : samples) {
    bool any = false;
    for (const auto& [scheme, ms] : s.times_ms) {
      if (std::isfinite(ms) && ms > 0) {
        names.insert(scheme);
        any = true;
      }
    }
    if (any) used.push_back(&s);
  }
  if (used.empty()) throw InvalidArgument("SchemeModel::fit: no sample has a timed scheme");
  m.schemes_.assign(names.begin(), names.end());
  m.index_schemes();
  const std::size_t d = model_input_names().size();
  std::vector<std::vector<double>> x;
  for (const TimingSample* s : used) x.push_back(model_inputs(s->features));
  m.mean_.assign(d, 0.0);
  m.scale_.assign(d, 0.0);
  for (const auto& xi : x)
    for (std::size_t j = 0; j < d; ++j) m.mean_[j] += xi[j] / double(x.size());
  for (const auto& xi : x)
    for (std::size_t j = 0; j < d; ++j) m.scale_[j] += (xi[j] - m.mean_[j]) * (xi[j] - m.mean_[j]) / double(x.size());
  // A constant input carries no information: scale 1 keeps it from dividing by zero.
  for (double& s : m.scale_) s = s > 1e-24 ? std::sqrt(s) : 1.0;
  for (std::size_t i = 0; i < used.size(); ++i) {
    Sample smp;
    smp.name = used[i]->name;
    smp.z = m.standardise(x[i]);
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [scheme, ms] : used[i]->times_ms)
      if (std::isfinite(ms) && ms > 0) best = std::min(best, ms);
    for (const std::string& scheme : m.schemes_) {
      const auto it = used[i]->times_ms.find(scheme);
      const bool timed = it != used[i]->times_ms.end() && std::isfinite(it->second) && it->second > 0;
      smp.log_ratio.push_back(timed ? std::min(std::log(it->second / best), kMissing) : kMissing);
    }
    m.samples_.push_back(std::move(smp));
  }
  // Forward selection of the inputs (weights 0/1) by leave-one-out loss: plain k-NN drowns a rule
  // carried by one feature in the noise of the others. Ties keep the smaller set.
  m.weight_.assign(d, 1.0);
  if (m.samples_.size() >= 4) {
    m.weight_.assign(d, 0.0);
    double best = std::numeric_limits<double>::infinity();
    for (;;) {
      std::size_t add = d;
      for (std::size_t j = 0; j < d; ++j) {
        if (m.weight_[j] > 0) continue;
        m.weight_[j] = 1.0;
        const double loss = m.loo_loss();
        m.weight_[j] = 0.0;
        if (loss < best - 1e-12) {
          best = loss;
          add = j;
        }
      }
      if (add == d) break;
      m.weight_[add] = 1.0;
    }
    if (std::all_of(m.weight_.begin(), m.weight_.end(), [](double w) { return w == 0.0; })) m.weight_.assign(d, 1.0);
  }
  return m;
}

std::vector<double> SchemeModel::standardise(const std::vector<double>& inputs) const {
  if (inputs.size() != mean_.size()) throw InvalidArgument("SchemeModel: wrong number of inputs");
  std::vector<double> z(inputs.size());
  for (std::size_t j = 0; j < z.size(); ++j) z[j] = (inputs[j] - mean_[j]) / scale_[j];
  return z;
}

struct SchemeModel::Memo {
  std::mutex mutex;
  std::map<const std::vector<std::string>*, std::vector<std::size_t>> indices;  // of lists that live
};

void SchemeModel::index_schemes() {
  by_name_.resize(schemes_.size());
  std::iota(by_name_.begin(), by_name_.end(), std::size_t{0});
  std::sort(by_name_.begin(), by_name_.end(), [&](std::size_t a, std::size_t b) { return schemes_[a] < schemes_[b]; });
  memo_ = std::make_shared<Memo>();
}

std::optional<std::size_t> SchemeModel::scheme_index(const std::string& name) const {
  const auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                                   [&](std::size_t i, const std::string& n) { return schemes_[i] < n; });
  if (it == by_name_.end() || schemes_[*it] != name) return std::nullopt;
  return *it;
}

void SchemeModel::allowed_indices(const std::vector<std::string>& allowed, bool lives,
                                  std::vector<std::size_t>& pool) const {
  pool.clear();
  std::unique_lock<std::mutex> lock(memo_->mutex);
  if (lives) {
    if (const auto it = memo_->indices.find(&allowed); it != memo_->indices.end()) {
      pool = it->second;
      return;
    }
  }
  lock.unlock();
  for (const std::string& name : allowed)
    if (const std::optional<std::size_t> i = scheme_index(name)) pool.push_back(*i);
  lock.lock();
  if (lives) memo_->indices.emplace(&allowed, pool);
}

std::string SchemeModel::predict(const std::vector<double>& inputs, const std::vector<std::string>& allowed,
                                 bool (*accept)(const std::string&), bool allowed_lives) const {
  if (samples_.empty()) return "";
  const std::vector<double> sc = scores(standardise(inputs), samples_.size());
  // The schemes to choose from: every one, or those of `allowed` the model knows (allowed_indices).
  std::vector<std::size_t> pool;
  if (allowed.empty()) {
    pool.resize(schemes_.size());
    std::iota(pool.begin(), pool.end(), std::size_t{0});
  } else {
    allowed_indices(allowed, allowed_lives, pool);
  }
  // The best score, the first of equal scores (the lower index) before the others; the next best
  // only when `accept` refuses.
  for (;;) {
    std::size_t best = schemes_.size(), at = 0;
    for (std::size_t j = 0; j < pool.size(); ++j) {
      const std::size_t i = pool[j];
      if (sc[i] < kInfinity && (best == schemes_.size() || sc[i] < sc[best] || (sc[i] == sc[best] && i < best))) {
        best = i;
        at = j;
      }
    }
    if (best == schemes_.size()) return "";
    if (accept == nullptr || accept(schemes_[best])) return schemes_[best];
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(at));
  }
}

ModelEvaluation leave_one_out(const std::vector<TimingSample>& samples, int k) {
  if (samples.size() < 2) throw InvalidArgument("leave_one_out: needs at least 2 samples");
  ModelEvaluation e;
  double log_sum = 0;
  int close = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::vector<TimingSample> rest;
    for (std::size_t j = 0; j < samples.size(); ++j)
      if (j != i) rest.push_back(samples[j]);
    double best = std::numeric_limits<double>::infinity();
    std::vector<std::string> timed;
    for (const auto& [scheme, ms] : samples[i].times_ms) {
      if (std::isfinite(ms) && ms > 0) {
        best = std::min(best, ms);
        timed.push_back(scheme);
      }
    }
    if (timed.empty()) continue;
    const SchemeModel m = SchemeModel::fit(rest, k);
    const std::string p = m.predict(model_inputs(samples[i].features), timed);
    const double ratio = p.empty() ? 10.0 : samples[i].times_ms.at(p) / best;
    log_sum += std::log(ratio);
    close += ratio <= 1.1 ? 1 : 0;
    ++e.samples;
  }
  if (e.samples > 0) {
    e.geomean_ratio = std::exp(log_sum / e.samples);
    e.within_10_percent = double(close) / e.samples;
  }
  return e;
}

}  // namespace hetsparse::sptrsv
