// "auto" scheme selection: search with cache and timing table, model prediction, heuristic fallback.
#include "sptrsv/scheme_selection.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>

#include "hetsparse/error.hpp"
#include "sparse/named_values.hpp"
#include "sptrsv/fingerprint.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/scheme_model.hpp"
#include "sptrsv/scheme_spec.hpp"
#include "sptrsv/selection_store.hpp"
#include "sptrsv/timing_table.hpp"

namespace hetsparse::sptrsv {
namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void search(const TriangularPattern& p, const SelectionOptions& o, const SelectionStore& store,
            const std::vector<std::string>& candidates, Selection& s) {
  if (o.use_cache) {
    if (const std::optional<std::string> cached = store.cached_scheme(s.fingerprint)) {
      s.scheme = *cached;
      s.how = "search-cache";
      return;
    }
  }
  const kernels::TriangularView t = p.host_view();
  std::vector<double> b(static_cast<std::size_t>(p.rows())), expected(b.size());
  std::mt19937_64 rng(s.fingerprint);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& v : b) v = u(rng);
  kernels::sptrsv_cpu(t, b.data(), p.rows(), expected.data(), p.rows(), 1);
  s.timings = time_schemes(t, b, expected, candidates, o.timing);
  const SchemeTiming* best = cheapest(s.timings, o.expected_solves);
  if (best == nullptr) {
    s.scheme = heuristic_scheme(p.features());
    s.how = "heuristic";
    s.note = s.timings.available ? "no candidate scheme solved correctly" : s.timings.reason;
    return;
  }
  s.scheme = best->scheme;
  s.how = "search";
  s.best_ms = best->median_ms;
  if (o.use_cache) store.store_scheme(s.fingerprint, s.scheme, best->median_ms);
  if (o.record_timings) {
    std::vector<std::pair<std::string, double>> times;
    for (const SchemeTiming& e : s.timings.schemes)
      if (e.status == "ok") times.emplace_back(e.scheme, e.median_ms);
    store.append_timings(timing_record_json(o.matrix_name, s.fingerprint, s.gpu, p.features(), times));
  }
}

// The model in `path`, parsed once per version of the file (its size and modification time) and
// shared, not copied: the selection runs at every analysis and should cost microseconds. The file's
// version is looked at again only when the last look is not current (ModelFileStamp).
std::shared_ptr<const SchemeModel> load_model(const std::string& path) {
  struct Cached {
    long long size = -1, mtime_ns = -1;
    std::shared_ptr<const SchemeModel> model;
    ModelFileStamp stamp;
  };
  static std::mutex mutex;
  static std::map<std::string, Cached> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(path); it != cache.end() && it->second.model && it->second.stamp.current())
      return it->second.model;
  }
  const ModelFileStamp stamp = ModelFileStamp::now();
  struct stat st {};
  const bool known = ::stat(path.c_str(), &st) == 0;
  const long long size = known ? static_cast<long long>(st.st_size) : -1;
  const long long mtime = known ? static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec : -1;
  std::lock_guard<std::mutex> lock(mutex);
  Cached& c = cache[path];
  if (!c.model || c.size != size || c.mtime_ns != mtime) {
    c.model = std::make_shared<const SchemeModel>(SchemeModel::load(path));
    c.size = size;
    c.mtime_ns = mtime;
  }
  c.stamp = stamp;
  return c.model;
}

bool unpowered(const std::string& scheme) { return scheme_family(scheme) != SchemeKind::Powered; }

// The model's usable pick into s (true), else why not into s.note.
bool model_pick(const std::shared_ptr<const SchemeModel>& model, const TriangularFeatures& f,
                const std::vector<std::string>& candidates, const SelectionStore& store, int expected_solves,
                Selection& s) {
  std::string predicted;
  if (model) {
    const std::vector<double> inputs = model_inputs(f);
    const bool lives = is_candidate_list(candidates);
    predicted = model->predict(inputs, candidates, nullptr, lives);
    // A model trained on other AG schemes than this matrix's space: any scheme it knows will do.
    if (predicted.empty()) predicted = model->predict(inputs);
    if (!predicted.empty()) {
      std::string note;
      const std::string best_unpowered =
          scheme_family(predicted) == SchemeKind::Powered ? model->predict(inputs, candidates, unpowered, lives) : "";
      predicted = adjust_for_preparation(predicted, best_unpowered, f, candidates, expected_solves, note);
      if (!model->gpu().empty() && model->gpu() != s.gpu) {
        note = "model of " + model->gpu() + ", the same architecture (" + model->arch() + ")" +
               (note.empty() ? "" : "; " + note);
      }
      if (!note.empty()) s.note = note;
    }
  }
  std::string unusable;
  if (!predicted.empty()) {
    try {
      check_scheme(predicted);
      s.scheme = predicted;
      s.how = "model";
      return true;
    } catch (const InvalidArgument& e) {
      unusable = e.what();  // a model from another build's scheme set
    }
  }
  s.note = !model             ? "no trained model for " + s.gpu + " (looked for " + store.model_path() + ")"
           : unusable.empty() ? "the model knows no scheme"
                              : "the model's pick is unusable here (" + unusable + ")";
  return false;
}

}  // namespace

Selection select_scheme_by_model(const TriangularFeatures& f, const std::vector<std::string>& candidates,
                                 const SelectionOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  Selection s;
  s.gpu = cuda_device_name();
  if (!s.gpu.empty() && !candidates.empty()) {
    const SelectionStore store(resolve_perfmodel_dir(o.perfmodel_dir), s.gpu);
    std::shared_ptr<const SchemeModel> model;
    if (const std::optional<std::string> file = find_model_file(store)) model = load_model(*file);
    if (model_pick(model, f, candidates, store, o.expected_solves, s)) {
      s.seconds = since(t0);
      return s;
    }
    s.note += "; fixed heuristic (a search needs the host pattern: SelectMode::Search)";
  } else {
    s.note = "no GPU to predict for";
  }
  s.scheme = candidates.empty() ? heuristic_scheme(f) : heuristic_pick(f, candidates, o.expected_solves, s.note);
  s.how = "heuristic";
  s.seconds = since(t0);
  return s;
}

bool selects_by_model(const SelectionOptions& o) {
  if (o.mode == SelectMode::Search) return false;
  const std::string gpu = cuda_device_name();
  if (gpu.empty()) return false;
  // Default never searches (heuristic_pick without a model); Model without a model does.
  return o.mode == SelectMode::Default ||
         find_model_file(SelectionStore(resolve_perfmodel_dir(o.perfmodel_dir), gpu)).has_value();
}

SelectMode parse_select_mode(const std::string& s) {
  static constexpr Named<SelectMode> kModes[] = {
      {SelectMode::Default, "default"}, {SelectMode::Search, "search"}, {SelectMode::Model, "model"}};
  return s.empty() ? SelectMode::Default : parse_named(s, kModes, "SpTRSV selection mode");
}

namespace {
// Rows of the fullest level, estimated from its entries (the features keep entries a level, not rows).
double fullest_level_rows(const TriangularFeatures& f) { return f.rnnz > 0 ? double(f.lnnz_max) / f.rnnz : 0.0; }
}  // namespace

int cluster_rows_lanes(const TriangularFeatures& f) {
  // Measured on the H200 (docs/benchmarks.md, issue 16): groups of lanes beat wavefront by 1.06-1.7x on
  // the real triangles of 20-30 off-diagonals a row in levels of at most 335 rows (EX5, bcsstk13,
  // bcsstk16, ego-Facebook), and by 1.09-1.29x (4 lanes) on rows of 5-10 entries in levels of a few
  // rows (bcsstk08/09/10/26: one small block). They lost on every other real triangle (shorter rows,
  // wider levels). 8 lanes hold 32 entries a row; 32 suit longer rows and hubs (rows far past the mean).
  const double off_diagonals = f.rnnz - 1.0, fullest_rows = fullest_level_rows(f);
  if (f.layer_num < 32) return 0;
  if (off_diagonals >= 16.0 && fullest_rows <= 512.0)
    return off_diagonals >= 24.0 || double(f.rnnz_max) >= 4.0 * f.rnnz ? 32 : 8;
  if (f.rnnz >= 6.0 && f.ap <= 16.0 && fullest_rows <= 64.0) return 4;
  return 0;
}

std::string adjust_for_preparation(const std::string& predicted, const std::string& model_best_unpowered,
                                   const TriangularFeatures& f, const std::vector<std::string>& candidates,
                                   int expected_solves, std::string& note) {
  std::string pick = predicted;
  if (scheme_family(pick) == SchemeKind::Powered && expected_solves < kPoweredPaybackSolves && !model_best_unpowered.empty()) {
    note = pick + "'s preparation does not pay back in " + std::to_string(expected_solves) + " solves: " +
           model_best_unpowered;
    pick = model_best_unpowered;
  }
  // Measured on the H100 and the H200 (docs/benchmarks.md, issue 16): wavefront (hub and long rows as
  // warp rows) was the fastest own scheme on every mesh in sweep order (2D, 3D, 27-point, elasticity),
  // R-MAT and all but one real triangle, deep or shallow, and it prepares in a few solves. Only a
  // powered form on 5-point rows (2D meshes) solved faster, after seconds of preparation: such a pick
  // stands when it pays back. Where the caller's candidates leave wavefront out, 2D-like profiles
  // (fullest level within two blocks, rows of <= 5 entries) go to clusterlevels. Long rows in narrow
  // levels go to clusterlevels' groups of lanes (cluster_rows_lanes).
  const double fullest_rows = fullest_level_rows(f);
  const bool deep = f.layer_num >= 64;
  const auto offered = [&](const char* s) { return std::find(candidates.begin(), candidates.end(), s) != candidates.end(); };
  // A powered pick still standing pays back its preparation: fewer levels to walk.
  const bool powered = scheme_family(pick) == SchemeKind::Powered;
  std::string level_pick;
  if (const int lanes = cluster_rows_lanes(f); lanes > 0 && !powered && offered("clusterlevels")) {
    level_pick = "clusterlevels:lanes=" + std::to_string(lanes);
  } else if (offered("wavefront") && !(powered && f.rnnz_max <= 3)) {
    level_pick = "wavefront";
  } else if (deep && f.rnnz_max <= 5 && fullest_rows <= 2048 && !powered && offered("clusterlevels")) {
    // Rows of at most 3 entries (5-point stencils): M^4 still fits the pack, and its transform on the
    // GPU pays back in about kPoweredClusterPaybackSolves solves.
    const bool powered_pays = f.rnnz_max <= 3 && expected_solves >= kPoweredClusterPaybackSolves;
    level_pick = powered_pays ? "pow4:clusterlevels" : "clusterlevels";
  }
  if (!level_pick.empty() && level_pick != pick) {
    note += std::string(note.empty() ? "" : "; ") + "level profile (" + std::to_string(f.layer_num) +
            " levels, fullest ~" + std::to_string(static_cast<long long>(fullest_rows)) + " rows, rows of <= " +
            std::to_string(f.rnnz_max) + " entries): " + level_pick + " over " + pick;
    pick = level_pick;
  }
  return pick;
}

std::string heuristic_scheme(const TriangularFeatures& f) {
  const bool pde_like = f.rnnz_max <= 32 && f.rnnz_cov < 1.0;
  return pde_like ? "syncfree_levelorder" : "yuenyeung";
}

std::string heuristic_pick(const TriangularFeatures& f, const std::vector<std::string>& candidates, int expected_solves,
                           std::string& note) {
  return adjust_for_preparation(heuristic_scheme(f), "", f, candidates, expected_solves, note);
}

namespace {
// The "ok" entry of least cost(entry), the first on a tie; nullptr if none.
template <class Cost>
const SchemeTiming* least_ok(const SchemeTimings& t, Cost cost) {
  const SchemeTiming* best = nullptr;
  for (const SchemeTiming& s : t.schemes)
    if (s.status == "ok" && (best == nullptr || cost(s) < cost(*best))) best = &s;
  return best;
}
}  // namespace

const SchemeTiming* cheapest(const SchemeTimings& t, int expected_solves) {
  return least_ok(t, [&](const SchemeTiming& s) { return s.preprocess_ms + std::max(expected_solves, 1) * s.median_ms; });
}

const SchemeTiming* fastest(const SchemeTimings& t) {
  return least_ok(t, [](const SchemeTiming& s) { return s.median_ms; });
}

Selection select_scheme(const TriangularPattern& p, const SelectionOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  Selection s;
  s.gpu = cuda_device_name();
  const std::vector<std::string>& candidates = candidate_schemes(p);
  if (s.gpu.empty() || candidates.empty()) {
    s.scheme = heuristic_scheme(p.features());
    s.how = "heuristic";
    s.note = "no GPU to time or predict for";
    s.seconds = since(t0);
    return s;
  }
  const SelectionStore store(resolve_perfmodel_dir(o.perfmodel_dir), s.gpu);
  const std::optional<std::string> model_file = find_model_file(store);
  std::shared_ptr<const SchemeModel> model;
  if (model_file) model = load_model(*model_file);
  if (o.mode == SelectMode::Default && !model_file) {  // the search is opt-in: it takes seconds
    s.note = "no trained model for " + s.gpu + " or its architecture (--select search times the candidates)";
    s.scheme = heuristic_pick(p.features(), candidates, o.expected_solves, s.note);
    s.how = "heuristic";
    s.seconds = since(t0);
    return s;
  }
  const SelectMode mode = o.mode == SelectMode::Default ? SelectMode::Model : o.mode;
  if (mode == SelectMode::Model) {
    if (model_pick(model, p.features(), candidates, store, o.expected_solves, s)) {
      s.seconds = since(t0);
      return s;
    }
    s.note += "; searched";
  }
  s.fingerprint = pattern_fingerprint(p);  // the search's cache key: a pass over the pattern
  search(p, o, store, candidates, s);
  if (model && s.how == "search") {
    s.model_prediction = model->predict(p.features(), candidates);
    for (const SchemeTiming& e : s.timings.schemes)
      if (e.scheme == s.model_prediction && e.status == "ok" && s.best_ms > 0) s.model_ratio = e.median_ms / s.best_ms;
  }
  s.seconds = since(t0);
  return s;
}

}  // namespace hetsparse::sptrsv
