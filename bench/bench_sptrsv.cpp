// SpTRSV benchmark: every hetsparse GPU variant next to cuSPARSE SpSV on the same analysed matrix,
// timed directly with CUDA events (no StarPU), with the critical-path bound measured in the same
// run. One JSON line per matrix on stdout (for scripts/sptrsv_report.py), a table on stderr.
// Default matrices: the six anchors of shared/notes/anchors.md; --generate SPEC or a file for one.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "apps/cli/common.hpp"
#include "apps/cli/json.hpp"
#include "bench/sptrsv_timing.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generator_spec.hpp"
#include "sptrsv/analysis.hpp"

using namespace hetsparse;

namespace {

const std::vector<std::string> kAnchors = {"anchor-lap2d:1000",  "anchor-lap3d:100",  "anchor-lap3d:160",
                                           "anchor-rmat:18:8", "anchor-rmat:20:8", "anchor-rmat:22:4"};

constexpr double kPeakBytesPerSecond = 3e12;  // the bound's memory term (anchors.md: ~3 TB/s)
constexpr index_t kChainRows = 10000;

double minimum_bytes(long long rows, long long nnz) { return 12.0 * double(nnz) + 20.0 * double(rows); }

std::vector<double> random_rhs(std::size_t n, std::uint64_t seed) {
  std::vector<double> b(n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& v : b) v = u(rng);
  return b;
}

// Lower bidiagonal chain: one row per level, so the levelset variant's time / rows is the latency
// of one dependent level step.
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

// Milliseconds per level (0 when the levelset variant could not be timed).
double measure_level_latency_ms(const bench::SptrsvTimingOptions& base, std::string& device, std::string& reason) {
  const Csr chain = chain_lower(kChainRows);
  const sptrsv::TriangularPattern pattern(chain, Triangle::Lower, false);
  const std::vector<double> b = random_rhs(static_cast<std::size_t>(kChainRows), 7);
  std::vector<double> expected(b.size());
  ref::sptrsv(chain, Triangle::Lower, false, b.data(), expected.data());
  bench::SptrsvTimingOptions o = base;
  o.variants = {"levelset"};
  o.cusparse = false;
  const bench::SptrsvGpuTiming t = bench::time_sptrsv_gpu(pattern.host_view(), b, expected, o);
  device = t.device;
  reason = t.reason;
  if (!t.available || t.solves.empty() || t.solves[0].status != "ok") return 0.0;
  return t.solves[0].median_ms / kChainRows;
}

void run_matrix(const std::string& name, const Csr& input, const bench::SptrsvTimingOptions& options,
                double level_latency_ms, const std::string& device) {
  const Csr T = triangle(input, Triangle::Lower);
  const sptrsv::TriangularPattern pattern(T, Triangle::Lower, false);
  const sptrsv::TriangularFeatures& f = pattern.features();
  const auto rows = static_cast<long long>(pattern.rows());
  const long long nnz = pattern.nnz();
  const long long levels = pattern.num_levels();
  const std::vector<double> b = random_rhs(static_cast<std::size_t>(rows), 1);
  std::vector<double> expected(b.size());
  ref::sptrsv(T, Triangle::Lower, false, b.data(), expected.data());
  const bench::SptrsvGpuTiming g = bench::time_sptrsv_gpu(pattern.host_view(), b, expected, options);

  const double bytes = minimum_bytes(rows, nnz);
  const double bound_ms = level_latency_ms > 0 ? double(levels) * level_latency_ms + bytes / kPeakBytesPerSecond * 1e3 : 0.0;
  double cusparse_ms = 0;
  for (const bench::SptrsvSolveTiming& s : g.solves)
    if (s.name == "cusparse" && s.status == "ok") cusparse_ms = s.median_ms;

  cli::Json out;
  out.set("matrix", name).set("rows", rows).set("nnz", nnz).set("levels", levels)
      .set("delta", f.delta).set("rnnz_max", static_cast<long long>(f.rnnz_max))
      .set("rows_per_level", f.beta).set("nnz_per_row", f.alpha)
      .set("analysis_ms", f.analysis_ms).set("gpu_available", g.available)
      .set("device", g.available ? g.device : device).set("runs", options.runs).set("warmups", options.warmups)
      .set("bytes", bytes).set("level_latency_us", level_latency_ms * 1e3)
      .set("critical_path_bound_ms", bound_ms);
  if (!g.available) out.set("reason", g.reason);
  if (g.available) out.set("cusparse_analysis_ms", g.cusparse_analysis_ms);
  cli::Json variants;
  std::string best;
  double best_ms = 0;
  std::fprintf(stderr, "\n%s: %lld rows, %lld nnz, %lld levels, delta %.3f, rnnz_max %lld, analysis %.1f ms\n",
               name.c_str(), rows, nnz, levels, f.delta, static_cast<long long>(f.rnnz_max), f.analysis_ms);
  if (!g.available) std::fprintf(stderr, "  GPU parts unavailable: %s\n", g.reason.c_str());
  else
    std::fprintf(stderr, "  device %s, cuSPARSE analysis %.2f ms, critical-path bound %.4f ms\n", g.device.c_str(),
                 g.cusparse_analysis_ms, bound_ms);
  std::fprintf(stderr, "  %-22s %-11s %10s %9s %9s %8s %9s\n", "variant", "status", "ms", "GFLOP/s", "GB/s",
               "vs cuSP", "rel.err");
  for (const bench::SptrsvSolveTiming& s : g.solves) {
    cli::Json v;
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
      if (s.name != "cusparse" && (best.empty() || s.median_ms < best_ms)) {
        best = s.name;
        best_ms = s.median_ms;
      }
      std::fprintf(stderr, "  %-22s %-11s %10.4f %9.2f %9.1f %8.2f %9.1e\n", s.name.c_str(), s.status.c_str(),
                   s.median_ms, sec > 0 ? 2.0 * double(nnz) / sec * 1e-9 : 0.0, sec > 0 ? bytes / sec * 1e-9 : 0.0,
                   speedup, s.relative_error);
    } else if (timed) {
      std::fprintf(stderr, "  %-22s %-11s %10.4f %9s %9s %8s %9.1e\n", s.name.c_str(), s.status.c_str(), s.median_ms,
                   "-", "-", "-", s.relative_error);
    } else {
      std::fprintf(stderr, "  %-22s %-11s %s\n", s.name.c_str(), s.status.c_str(), s.error.c_str());
    }
    variants.set(s.name, v);
  }
  out.set("variants", variants);
  if (!best.empty()) {
    out.set("best_variant", best).set("best_ms", best_ms);
    if (cusparse_ms > 0) out.set("best_speedup_vs_cusparse", cusparse_ms / best_ms);
  }
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
      .option("warmups", "N", "untimed solves before them", "3");
  if (!p.parse(argc - 1, argv + 1)) return 0;
  bench::SptrsvTimingOptions options;
  options.runs = static_cast<int>(std::max(1L, p.get_int("runs")));
  options.warmups = static_cast<int>(std::max(0L, p.get_int("warmups")));

  std::string device, reason;
  const double latency_ms = measure_level_latency_ms(options, device, reason);
  if (latency_ms > 0)
    std::fprintf(stderr, "one-level latency %.3f us (levelset on a %d-row chain), device %s\n", latency_ms * 1e3,
                 kChainRows, device.c_str());
  else
    std::fprintf(stderr, "one-level latency unavailable: %s\n", reason.empty() ? "levelset failed" : reason.c_str());

  if (p.has("matrix") || p.has("generate")) {
    const cli::MatrixInput in = cli::load_matrix_input(p);
    run_matrix(in.name, in.A, options, latency_ms, device);
  } else {
    for (const std::string& spec : kAnchors) run_matrix(spec, generate(spec), options, latency_ms, device);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_sptrsv: error: %s\n", e.what());
  return 1;
}
