// SpTRSV benchmark: every hetsparse GPU variant, a fixed set of AG-SpTRSV schemes and cuSPARSE SpSV
// on the same analysed matrix, timed directly with CUDA events (no StarPU, sptrsv::time_schemes),
// with the critical-path bound measured in the same run; then "auto" in both modes: the search
// (its winner and selection time) and the trained model's pick with its time over the searched
// best. One JSON line per matrix on stdout (for scripts/sptrsv_report.py), a table on stderr.
// Default matrices: the six anchors of shared/notes/anchors.md; --generate SPEC or a file for one.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "bench/bench_sptrsv_analysis.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generator_spec.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/scheme_model.hpp"
#include "sptrsv/scheme_selection.hpp"
#include "sptrsv/scheme_spec.hpp"
#include "sptrsv/selection_store.hpp"

using namespace hetsparse;

namespace {

// A small fixed AG set: the defaults, a level-ordered balanced one, merged rows with a few
// kernels, and a thread-per-row level-set-like one.
const std::vector<std::string> kAgSchemes = {"ag", "ag:ng=4,sw=8,lr=1,rg=balance,ws=balance",
                                             "ag:ng=8,sw=4,tf=avg,rb=4,th=4,lr=1,ws=locality,al=2",
                                             "ag:ng=32,sw=64,lr=1,al=0"};

struct BenchOptions {
  sptrsv::SchemeTimingOptions timing;
  std::vector<std::string> schemes;  // variants, AG set, cusparse
  bool auto_modes = true;
  bool fusion_sweep = false;  // also time yuenyeung over fusion thresholds and split rules (GPU analysis)
  bool powered = true;  // also the powered schemes (sptrsv::powered_candidates) where the matrix qualifies
  std::string perfmodel_dir;
};

const std::vector<std::string> kAnchors = {"anchor-lap2d:1000",  "anchor-lap3d:100",  "anchor-lap3d:160",
                                           "anchor-rmat:18:8", "anchor-rmat:20:8", "anchor-rmat:22:4"};

constexpr double kPeakBytesPerSecond = 3e12;  // the bound's memory term (anchors.md: ~3 TB/s)
constexpr index_t kChainRows = 10000;

// cuSPARSE's kernel does the triangular part: "cusparse" itself or a powered form over it.
bool runs_cusparse(const std::string& scheme) {
  const sptrsv::SchemeSpec spec = sptrsv::parse_scheme(scheme);
  return (spec.kind == sptrsv::SchemeKind::Powered ? spec.base->kind : spec.kind) == sptrsv::SchemeKind::Cusparse;
}

double minimum_bytes(long long rows, long long nnz) { return 12.0 * double(nnz) + 20.0 * double(rows); }

std::vector<double> random_rhs(std::size_t n, std::uint64_t seed) {
  std::vector<double> b(n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& v : b) v = u(rng);
  return b;
}

// Lower bidiagonal chain: one row per level, so a solve's time / rows is the latency of one dependent
// step. The bound takes the fastest of hetsparse's kernels on it: the level-set kernel pays a launch
// per level (~3 us), the sync-free ones a flag hand-off through L2, which is what a level costs at best.
Csr chain_lower(index_t n) {
  Csr c;
  c.rows = c.cols = n;
  c.rowptr.assign(1, 0);
  for (index_t i = 0; i < n; ++i) {
    if (i > 0) {
      c.colind.push_back(i - 1);
      c.values.push_back(-0.5);
    }
    c.colind.push_back(i);
    c.values.push_back(2.0);
    c.rowptr.push_back(static_cast<offset_t>(c.colind.size()));
  }
  return c;
}

// Milliseconds per level (0 when no variant could be timed); `fastest` names the variant.
double measure_level_latency_ms(const sptrsv::SchemeTimingOptions& o, std::string& device, std::string& reason,
                                std::string& fastest) {
  const Csr chain = chain_lower(kChainRows);
  const sptrsv::TriangularPattern pattern(chain, Triangle::Lower, false);
  const std::vector<double> b = random_rhs(static_cast<std::size_t>(kChainRows), 7);
  std::vector<double> expected(b.size());
  ref::sptrsv(chain, Triangle::Lower, false, b.data(), expected.data());
  const sptrsv::SchemeTimings t = sptrsv::time_schemes(pattern.host_view(), b, expected, sptrsv::plain_variant_names(), o);
  device = t.device;
  reason = t.reason;
  double best = 0.0;
  for (const auto& s : t.schemes) {
    if (s.status != "ok" || (best > 0 && s.median_ms >= best)) continue;
    best = s.median_ms;
    fastest = s.scheme;
  }
  return t.available ? best / kChainRows : 0.0;
}

// "auto" in both modes on this matrix: a fresh search (no cache, nothing recorded) and the trained
// model's pick, with its time over the searched best (timed apart when the search skipped it).
void auto_modes(const sptrsv::TriangularPattern& pattern, const std::vector<double>& b,
                const std::vector<double>& expected, const BenchOptions& options, cli::Json& out) {
  sptrsv::SelectionOptions so;
  so.mode = sptrsv::SelectMode::Search;
  so.use_cache = false;
  so.record_timings = false;
  so.perfmodel_dir = options.perfmodel_dir;
  so.timing.warmups = options.timing.warmups;
  const sptrsv::Selection s = sptrsv::select_scheme(pattern, so);
  cli::Json a;
  a.set("scheme", s.scheme).set("how", s.how).set("select_s", s.seconds).set("ms", s.best_ms);
  if (!s.note.empty()) a.set("note", s.note);
  out.set("auto_search", a);
  std::fprintf(stderr, "  auto search: %s (%s, %.4f ms) in %.2f s\n", s.scheme.c_str(), s.how.c_str(), s.best_ms,
               s.seconds);
  if (s.how != "search") return;
  const sptrsv::SelectionStore store(sptrsv::resolve_perfmodel_dir(options.perfmodel_dir), s.gpu);
  const std::optional<std::string> file = sptrsv::find_model_file(store);
  cli::Json m;
  if (!file) {
    m.set("note", "no trained model for " + s.gpu);
    out.set("auto_model", m);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const sptrsv::SchemeModel model = sptrsv::SchemeModel::load(*file);
  const std::string pick = model.predict(pattern.features(), sptrsv::candidate_schemes(pattern));
  const double predict_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double ms = 0;
  for (const sptrsv::SchemeTiming& e : s.timings.schemes)
    if (e.scheme == pick && e.status == "ok") ms = e.median_ms;
  if (ms == 0 && !pick.empty()) {
    const sptrsv::SchemeTimings t = sptrsv::time_schemes(pattern.host_view(), b, expected, {pick}, options.timing);
    if (!t.schemes.empty() && t.schemes[0].status == "ok") ms = t.schemes[0].median_ms;
  }
  m.set("scheme", pick).set("model_file", *file).set("select_s", predict_s).set("ms", ms);
  if (ms > 0 && s.best_ms > 0) m.set("vs_search", ms / s.best_ms);
  out.set("auto_model", m);
  std::fprintf(stderr, "  auto model:  %s (%.4f ms, %.2fx the searched best)\n", pick.c_str(), ms,
               ms > 0 && s.best_ms > 0 ? ms / s.best_ms : 0.0);
}

void run_matrix(const std::string& name, const Csr& input, const BenchOptions& options, double level_latency_ms,
                const std::string& device) {
  const Csr T = triangle(input, Triangle::Lower);
  const sptrsv::TriangularPattern pattern(T, Triangle::Lower, false);
  const sptrsv::TriangularFeatures& f = pattern.features();
  const auto rows = static_cast<long long>(pattern.rows());
  const long long nnz = pattern.nnz();
  const long long levels = pattern.num_levels();
  const std::vector<double> b = random_rhs(static_cast<std::size_t>(rows), 1);
  std::vector<double> expected(b.size());
  ref::sptrsv(T, Triangle::Lower, false, b.data(), expected.data());
  std::vector<std::string> schemes = options.schemes;
  if (options.powered) {
    const std::vector<std::string> pow = sptrsv::powered_candidates(pattern);
    schemes.insert(schemes.end(), pow.begin(), pow.end());
  }
  const sptrsv::SchemeTimings g = sptrsv::time_schemes(pattern.host_view(), b, expected, schemes, options.timing);

  const double bytes = minimum_bytes(rows, nnz);
  const double bound_ms = level_latency_ms > 0 ? double(levels) * level_latency_ms + bytes / kPeakBytesPerSecond * 1e3 : 0.0;
  double cusparse_ms = 0;
  double cusparse_analysis_ms = 0;
  for (const sptrsv::SchemeTiming& s : g.schemes) {
    if (s.scheme == "cusparse" && s.status == "ok") cusparse_ms = s.median_ms;
    if (s.scheme == "cusparse") cusparse_analysis_ms = s.preprocess_ms;
  }

  cli::Json out;
  out.set("matrix", name).set("rows", rows).set("nnz", nnz).set("levels", levels)
      .set("delta", f.delta).set("rnnz_max", static_cast<long long>(f.rnnz_max))
      .set("rows_per_level", f.beta).set("nnz_per_row", f.alpha)
      .set("analysis_ms", f.analysis_ms).set("gpu_available", g.available)
      .set("device", g.available ? g.device : device).set("runs", options.timing.runs).set("warmups", options.timing.warmups)
      .set("bytes", bytes).set("level_latency_us", level_latency_ms * 1e3)
      .set("critical_path_bound_ms", bound_ms);
  if (!g.available) out.set("reason", g.reason);
  if (g.available) out.set("cusparse_analysis_ms", cusparse_analysis_ms);
  cli::Json variants;
  std::string best, best_own;
  double best_ms = 0, best_own_ms = 0;
  std::fprintf(stderr, "\n%s: %lld rows, %lld nnz, %lld levels, delta %.3f, rnnz_max %lld, analysis %.1f ms\n",
               name.c_str(), rows, nnz, levels, f.delta, static_cast<long long>(f.rnnz_max), f.analysis_ms);
  if (!g.available) std::fprintf(stderr, "  GPU parts unavailable: %s\n", g.reason.c_str());
  else
    std::fprintf(stderr, "  device %s, cuSPARSE analysis %.2f ms, critical-path bound %.4f ms\n", g.device.c_str(),
                 cusparse_analysis_ms, bound_ms);
  std::fprintf(stderr, "  %-27s %-11s %10s %9s %9s %8s %9s %9s\n", "scheme", "status", "ms", "GFLOP/s", "GB/s",
               "vs cuSP", "rel.err", "prep ms");
  for (const sptrsv::SchemeTiming& s : g.schemes) {
    cli::Json v;
    v.set("preprocess_ms", s.preprocess_ms);
    v.set("status", s.status);
    if (!s.error.empty()) v.set("error", s.error);
    const bool timed = s.status == "ok" || s.status == "wrong";
    if (timed) {
      v.set("median_ms", s.median_ms).set("min_ms", s.min_ms).set("relative_error", s.relative_error);
    }
    if (s.status == "ok") {
      const double sec = s.median_ms * 1e-3;
      const double speedup = cusparse_ms > 0 && s.median_ms > 0 ? cusparse_ms / s.median_ms : 0.0;
      v.set("gflops", sec > 0 ? 2.0 * double(nnz) / sec * 1e-9 : 0.0)
          .set("gbps", sec > 0 ? bytes / sec * 1e-9 : 0.0);
      if (cusparse_ms > 0) v.set("speedup_vs_cusparse", speedup);
      if (bound_ms > 0) v.set("fraction_of_bound", s.median_ms > 0 ? bound_ms / s.median_ms : 0.0);
      if (s.scheme != "cusparse" && (best.empty() || s.median_ms < best_ms)) {
        best = s.scheme;
        best_ms = s.median_ms;
      }
      // The best with a hetsparse kernel doing the triangular part (not pow*:cusparse).
      if (!runs_cusparse(s.scheme) && (best_own.empty() || s.median_ms < best_own_ms)) {
        best_own = s.scheme;
        best_own_ms = s.median_ms;
      }
      std::fprintf(stderr, "  %-27s %-11s %10.4f %9.2f %9.1f %8.2f %9.1e %9.2f\n", s.scheme.c_str(),
                   s.status.c_str(), s.median_ms, sec > 0 ? 2.0 * double(nnz) / sec * 1e-9 : 0.0,
                   sec > 0 ? bytes / sec * 1e-9 : 0.0, speedup, s.relative_error, s.preprocess_ms);
    } else if (timed) {
      std::fprintf(stderr, "  %-27s %-11s %10.4f %9s %9s %8s %9.1e\n", s.scheme.c_str(), s.status.c_str(), s.median_ms,
                   "-", "-", "-", s.relative_error);
    } else {
      std::fprintf(stderr, "  %-27s %-11s %s\n", s.scheme.c_str(), s.status.c_str(), s.error.c_str());
    }
    variants.set(s.scheme, v);
  }
  out.set("variants", variants);
  if (!best.empty()) {
    out.set("best_variant", best).set("best_ms", best_ms);
    if (cusparse_ms > 0) out.set("best_speedup_vs_cusparse", cusparse_ms / best_ms);
  }
  if (!best_own.empty()) out.set("best_own_kernel", best_own).set("best_own_kernel_ms", best_own_ms);
  if (g.available) {
    const std::string fastest = bench::fastest_plain_variant(g);
    if (!fastest.empty()) out.set("gpu_analysis", bench::report_device_analysis(pattern, b, expected, fastest, options.timing));
    if (options.fusion_sweep) out.set("fusion_sweep", bench::fusion_sweep(pattern, b, expected, options.timing));
  }
  if (g.available && options.auto_modes) auto_modes(pattern, b, expected, options, out);
  std::printf("%s\n", out.str().c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_sptrsv",
                   "Every hetsparse GPU SpTRSV variant next to cuSPARSE SpSV (CUDA events, same matrices, same run). "
                   "Without a matrix: the six SpTRSV anchors.");
  p.positional("matrix", "Matrix Market file (.mtx or .mtx.gz); its lower triangle is solved")
      .option("generate", "SPEC", "generate the matrix instead (see `hetsparse gen --help`), e.g. anchor-rmat:12:8")
      .option("runs", "N", "timed solves per variant (the median is reported)", "20")
      .option("warmups", "N", "untimed solves before them", "3")
      .option("ag", "S1;S2;...", "the AG-SpTRSV schemes to time (default: a fixed set of four)", "")
      .option("schemes", "S1;S2;...", "more schemes to time, e.g. clusterlevels:blocks=8;pow2:clusterlevels", "")
      .option("perfmodel-dir", "DIR", "where the trained scheme model is looked for (as the runtime's)", "")
      .flag("no-auto", "skip the auto search / model comparison")
      .flag("no-pow", "skip the powered schemes (powK:BASE)")
      .flag("fusion-sweep", "also time yuenyeung (both orders) over fusion thresholds x hub-row split rules");
  if (!p.parse(argc - 1, argv + 1)) return 0;
  BenchOptions options;
  options.timing.runs = static_cast<int>(std::max(1L, p.get_int("runs")));
  options.timing.warmups = static_cast<int>(std::max(0L, p.get_int("warmups")));
  options.timing.tolerance = 1e-10;
  options.auto_modes = !p.has("no-auto");
  options.powered = !p.has("no-pow");
  options.fusion_sweep = p.has("fusion-sweep");
  options.perfmodel_dir = p.get("perfmodel-dir");
  options.schemes = sptrsv::plain_variant_names();
  if (options.schemes.empty()) options.schemes = {"syncfree", "yuenyeung", "levelset"};  // reported unavailable
  const std::vector<std::string> ag = p.get("ag").empty() ? kAgSchemes : cli::split_list(p.get("ag"), ';');
  options.schemes.insert(options.schemes.end(), ag.begin(), ag.end());
  options.schemes.emplace_back("cusparse");
  options.schemes.emplace_back("clusterlevels");
  for (const std::string& extra : cli::split_list(p.get("schemes"), ';'))
    if (std::find(options.schemes.begin(), options.schemes.end(), extra) == options.schemes.end())
      options.schemes.push_back(extra);

  std::string device, reason, fastest;
  const double latency_ms = measure_level_latency_ms(options.timing, device, reason, fastest);
  if (latency_ms > 0)
    std::fprintf(stderr, "one-level latency %.3f us (%s, fastest on a %d-row chain), device %s\n", latency_ms * 1e3,
                 fastest.c_str(), kChainRows, device.c_str());
  else
    std::fprintf(stderr, "one-level latency unavailable: %s\n", reason.empty() ? "no variant ran" : reason.c_str());

  if (p.has("matrix") || p.has("generate")) {
    const cli::MatrixInput in = cli::load_matrix_input(p);
    run_matrix(in.name, in.A, options, latency_ms, device);
  } else {
    for (const std::string& spec : kAnchors) run_matrix(spec, generate(spec), options, latency_ms, device);
  }
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_sptrsv", e);
}
