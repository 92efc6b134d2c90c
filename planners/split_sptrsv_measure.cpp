// The measured tie-break: its options' text form, the candidates and the interleaved timing.
#include "planners/split_sptrsv_measure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "hetsparse/error.hpp"
#include "sparse/key_values.hpp"
#include "sparse/number_text.hpp"

namespace hetsparse::planners {
namespace {

std::string number(double v) { return number_text(v, 4); }

double positive_number(const std::string& key, const std::string& value, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !std::isfinite(v) || v <= 0)
    throw InvalidArgument("split measure '" + text + "': " + key + "=" + value + " is not a positive number");
  return v;
}

double prediction(const SplitDecision& d, SplitPolicy p) { return d.predicted_ms[static_cast<std::size_t>(p)]; }

}  // namespace

SplitMeasureOptions SplitMeasureOptions::parse(const std::string& text) {
  SplitMeasureOptions o;
  if (text == "off") {
    o.enabled = false;
    return o;
  }
  std::string pairs = text;
  if (pairs == "on") pairs.clear();
  else if (pairs.rfind("on:", 0) == 0) pairs = pairs.substr(3);
  const std::string who =
      "split measure '" + text + "' (off, on, or on:margin=..,max-ms=..,candidates=..,rounds=..,solves=..,extra=..)";
  for (const KeyValue& item : split_key_values(pairs, who)) {
    const std::string& key = item.key;
    const std::string& value = item.value;
    if (key == "margin") {
      o.margin = positive_number(key, value, text);
      if (o.margin < 1) throw InvalidArgument("split measure '" + text + "': margin must be at least 1");
    } else if (key == "max-ms") {
      o.max_predicted_ms = positive_number(key, value, text);
    } else if (key == "candidates" || key == "rounds" || key == "solves" || key == "extra") {
      const double v = key == "extra" && value == "0" ? 0.0 : positive_number(key, value, text);
      if (v != std::floor(v) || v > 1000) throw InvalidArgument("split measure '" + text + "': " + key + " must be a whole number up to 1000");
      (key == "solves" ? o.solves : key == "rounds" ? o.rounds : key == "extra" ? o.extra_rounds : o.max_candidates) =
          static_cast<int>(v);
    } else {
      throw InvalidArgument("split measure '" + text + "': unknown key '" + key + "' (margin, max-ms, candidates, rounds, solves, extra)");
    }
  }
  if (o.max_candidates < 2) throw InvalidArgument("split measure '" + text + "': candidates must be at least 2");
  return o;
}

std::string SplitMeasureOptions::to_string() const {
  if (!enabled) return "off";
  return "on:margin=" + number(margin) + ",max-ms=" + number(max_predicted_ms) +
         ",candidates=" + std::to_string(max_candidates) + ",rounds=" + std::to_string(rounds) +
         ",solves=" + std::to_string(solves) + ",extra=" + std::to_string(extra_rounds);
}

std::vector<SplitPolicy> measure_candidates(const SplitDecision& d, const SplitMeasureOptions& o, std::string* why) {
  const auto say = [why](std::string text) {
    if (why) *why = std::move(text);
    return std::vector<SplitPolicy>{};
  };
  if (!o.enabled) return say("measuring off");
  // The decided policy's prediction; GPU-GPU has none, its alternative is the unified GPU's.
  const bool gpu_gpu = d.policy == SplitPolicy::GpuGpu;
  const double decided = prediction(d, gpu_gpu ? SplitPolicy::UnifiedGpu : d.policy);
  double best = decided;
  for (SplitPolicy p : kAllSplitPolicies)
    if (std::isfinite(prediction(d, p))) best = std::isfinite(best) ? std::min(best, prediction(d, p)) : prediction(d, p);
  if (!std::isfinite(best)) return say("no prediction");
  if (best > o.max_predicted_ms) return say("predicted " + number(best) + " ms > " + number(o.max_predicted_ms) + " ms");
  // A split that could not pay back its setup over the expected solves even margin x faster than
  // predicted is not built to be timed (the decided policy passed the payback already).
  double unified = INFINITY;
  for (SplitPolicy p : kAllSplitPolicies)
    if (!is_split(p) && std::isfinite(prediction(d, p))) unified = std::min(unified, prediction(d, p));
  const auto may_pay = [&](SplitPolicy p) {
    const double setup = d.setup_ms[static_cast<std::size_t>(p)];
    return !is_split(p) || !std::isfinite(d.expected_solves) ||
           (std::isfinite(setup) && (unified - prediction(d, p) / o.margin) * d.expected_solves >= setup);
  };
  std::vector<SplitPolicy> near;
  for (SplitPolicy p : kAllSplitPolicies)
    if (p != d.policy && std::isfinite(prediction(d, p)) && prediction(d, p) <= o.margin * best && may_pay(p))
      near.push_back(p);
  std::stable_sort(near.begin(), near.end(),
                   [&d](SplitPolicy a, SplitPolicy b) { return prediction(d, a) < prediction(d, b); });
  // The decided policy first (GPU-GPU: with the unified GPU next), then the nearest predictions.
  std::vector<SplitPolicy> c = {d.policy};
  if (gpu_gpu) {
    c.push_back(SplitPolicy::UnifiedGpu);
    near.erase(std::remove(near.begin(), near.end(), SplitPolicy::UnifiedGpu), near.end());
  }
  for (SplitPolicy p : near)
    if (static_cast<int>(c.size()) < o.max_candidates) c.push_back(p);
  if (c.size() < 2) return say("confident: nothing else predicted within " + number(o.margin) + "x of " + number(best) + " ms");
  if (why) *why = std::to_string(c.size()) + " candidates within " + number(o.margin) + "x of " + number(best) + " ms";
  return c;
}

SplitMeasurement measure_split(const SplitDecision& d, const std::vector<SplitPolicy>& candidates,
                               const SplitMeasureOptions& o, const SolveTimer& timer) {
  SplitMeasurement m;
  m.pick = d.policy;
  std::vector<std::vector<double>> times(candidates.size());
  for (SplitPolicy p : candidates) m.candidates.push_back({p, prediction(d, p), std::nan(""), ""});
  const auto time_one = [&](std::size_t k, bool keep) {
    MeasuredPolicy& c = m.candidates[k];
    if (!c.error.empty()) return;
    try {
      const double s = timer(c.policy);
      if (keep) times[k].push_back(s);
    } catch (const std::exception& e) {
      c.error = e.what();
    }
  };
  const std::size_t n = candidates.size();
  const auto turn = [&](std::size_t k) {
    time_one(k, false);  // untimed: caches and workers as the previous candidate left them
    for (int s = 0; s < o.solves; ++s) time_one(k, true);
  };
  const auto median_ms = [&](std::size_t k) {
    if (!m.candidates[k].error.empty() || times[k].empty()) return std::nan("");
    std::vector<double> t = times[k];
    std::sort(t.begin(), t.end());
    return 1e3 * (t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]));
  };
  // The candidates by median, fastest first (those without one left out).
  const auto ranked = [&]() {
    std::vector<double> ms(n);
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < n; ++k)
      if (std::isfinite(ms[k] = median_ms(k))) order.push_back(k);
    std::stable_sort(order.begin(), order.end(), [&ms](std::size_t a, std::size_t b) { return ms[a] < ms[b]; });
    return order;
  };
  for (std::size_t k = 0; k < n; ++k) time_one(k, false);  // warm-ups: the lazy preparations
  // Once more, untimed, in the same order: the first timed turn no longer follows the setups of the
  // other candidates (their allocations and first solves), which left it the noisiest of the turns.
  for (std::size_t k = 0; k < n; ++k) time_one(k, false);
  for (int r = 0; r < o.rounds; ++r)
    for (std::size_t j = 0; j < n; ++j) turn((j + static_cast<std::size_t>(r)) % n);
  // A close call between the best two gets more rounds of those two alone: the other candidates
  // are out of it, and a median of a few solves cannot separate policies a few percent apart.
  int extra = 0;
  for (; extra < o.extra_rounds; ++extra) {
    const std::vector<std::size_t> order = ranked();
    if (order.size() < 2 || median_ms(order[1]) > kCloseCall * median_ms(order[0])) break;
    turn(order[static_cast<std::size_t>(extra % 2)]);
    turn(order[static_cast<std::size_t>(1 - extra % 2)]);
  }
  for (std::size_t k = 0; k < n; ++k) m.candidates[k].measured_ms = median_ms(k);
  const std::vector<std::size_t> order = ranked();
  if (!order.empty()) {
    m.pick = m.candidates[order[0]].policy;
    m.measured = true;
  }
  m.why = m.measured ? std::to_string(n) + " candidates, " + std::to_string(o.rounds) + " rounds of " +
                         std::to_string(o.solves) + " timed solves each" +
                         (extra ? ", " + std::to_string(extra) + " more for the best two" : "")
                     : "every candidate failed; the model's decision stands";
  return m;
}

std::string SplitMeasurement::describe() const {
  if (!measured) return std::string("model (") + why + ")";
  std::string text = "measured:";
  for (const MeasuredPolicy& c : candidates)
    text += std::string(" ") + planners::to_string(c.policy) + " " +
            (c.error.empty() ? number(c.measured_ms) + " ms" : "failed (" + c.error + ")") + ",";
  text.back() = ' ';
  return text + "-> " + planners::to_string(pick) + " (" + number(seconds * 1e3) + " ms of setup)";
}

}  // namespace hetsparse::planners
