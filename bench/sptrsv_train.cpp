// Per-device training for the SpTRSV engine (run once per GPU model; scripts/bench.d/sptrsv_train.sh
// runs all three steps):
//   bench_sptrsv_train search [A.mtx | --generate SPEC]   search one matrix's lower triangle (no cache);
//                                                   the timing table is appended to the store
//   bench_sptrsv_train fit [--input T.jsonl,...] [--output FILE] [--k K]
//                                                   fit the scheme model from the timing tables
//                                                   (default: this GPU's table in the store), print
//                                                   its leave-one-out quality, save it to the store
//                                                   (and to FILE, e.g. data/sptrsv_model_<gpu>.tsv)
//   bench_sptrsv_train fusion [--scales 18,20,22] [--edge-factors 4,8,16]
//                                                   calibrate YuenyeungSpTRSV's fusion threshold on
//                                                   R-MAT triangles (paper 6.2), store it
// Every step takes --perfmodel-dir DIR (default $STARPU_PERF_MODEL_DIR, else ~/.cache/hetsparse/perfmodels).
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "bench/fusion_calibration.hpp"
#include "cli/args.hpp"
#include "cli/common.hpp"
#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generator_spec.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/scheme_model.hpp"
#include "sptrsv/scheme_timing.hpp"
#include "sptrsv/scheme_selection.hpp"
#include "sptrsv/selection_store.hpp"
#include "sptrsv/timing_table.hpp"

using namespace hetsparse;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

sptrsv::SelectionStore store_for(const cli::ArgParser& p) {
  const std::string gpu = sptrsv::cuda_device_name();
  if (gpu.empty()) throw InvalidArgument("bench_sptrsv_train: no CUDA device (training times schemes on the GPU)");
  return {sptrsv::resolve_perfmodel_dir(p.get("perfmodel-dir")), gpu};
}

int search(int argc, char** argv) {
  cli::ArgParser p("bench_sptrsv_train search", "Search the scheme space on one matrix and record its timing table.");
  p.positional("matrix", "Matrix Market file; its lower triangle is searched")
      .option("generate", "SPEC", "generate the matrix instead (see `hetsparse gen --help`)")
      .option("budget", "S", "seconds the search may spend", "20")
      .option("perfmodel-dir", "DIR", "selection store directory", "");
  if (!p.parse(argc, argv)) return 0;
  const cli::MatrixInput in = cli::load_matrix_input(p);
  const sptrsv::TriangularPattern pattern(triangle(in.A, Triangle::Lower), Triangle::Lower, false);
  sptrsv::SelectionOptions so;
  so.mode = sptrsv::SelectMode::Search;
  so.use_cache = false;  // always time: this is the training data
  so.perfmodel_dir = p.get("perfmodel-dir");
  so.matrix_name = in.name;
  so.timing.budget_seconds = p.get_double("budget");
  const sptrsv::Selection s = sptrsv::select_scheme(pattern, so);
  int ok = 0, skipped = 0;
  for (const sptrsv::SchemeTiming& t : s.timings.schemes) {
    ok += t.status == "ok";
    skipped += t.status == "skipped";
    if (t.status == "error" || t.status == "wrong")
      std::fprintf(stderr, "  %s: %s %s\n", t.scheme.c_str(), t.status.c_str(), t.error.c_str());
  }
  std::printf("%s: %d rows, %lld nnz, %d levels -> %s (%s) %.4f ms; %d schemes ok, %d skipped, %.1f s%s%s\n",
              in.name.c_str(), pattern.rows(), static_cast<long long>(pattern.nnz()), pattern.num_levels(),
              s.scheme.c_str(), s.how.c_str(), s.best_ms, ok, skipped, s.seconds, s.note.empty() ? "" : "; ",
              s.note.c_str());
  return s.how == "search" ? 0 : 1;
}

int fit(int argc, char** argv) {
  cli::ArgParser p("bench_sptrsv_train fit", "Fit the k-NN scheme model from timing tables.");
  p.option("input", "T1.jsonl,...", "timing tables (default: this GPU's table in the store)", "")
      .option("output", "FILE", "also write the model here (e.g. data/sptrsv_model_<gpu>.tsv)", "")
      .option("k", "K", "neighbours", "3")
      .option("perfmodel-dir", "DIR", "selection store directory", "");
  if (!p.parse(argc, argv)) return 0;
  const sptrsv::SelectionStore store = store_for(p);
  const std::vector<std::string> inputs = p.get("input").empty() ? std::vector<std::string>{store.timings_path()}
                                                                  : split(p.get("input"), ',');
  const std::vector<sptrsv::TimingSample> samples = sptrsv::read_timing_tables(inputs);
  const int k = static_cast<int>(p.get_int("k"));
  // The architecture is known only for the GPU this runs on (a model may be fitted elsewhere from its tables).
  const std::string arch = store.gpu() == sptrsv::cuda_device_name() ? sptrsv::cuda_device_architecture() : "";
  const sptrsv::SchemeModel model = sptrsv::SchemeModel::fit(samples, k, store.gpu(), arch);
  std::printf("model for %s: %zu matrices, %zu schemes\n", store.gpu().c_str(), model.num_samples(),
              model.schemes().size());
  if (samples.size() >= 2) {
    const sptrsv::ModelEvaluation e = sptrsv::leave_one_out(samples, k);
    std::printf("leave-one-out: geometric mean of predicted / best time %.3f, %.0f %% within 10 %% of the best\n",
                e.geomean_ratio, 100 * e.within_10_percent);
  }
  model.save(store.model_path());
  std::printf("saved %s\n", store.model_path().c_str());
  if (!p.get("output").empty()) {
    model.save(p.get("output"));
    std::printf("saved %s\n", p.get("output").c_str());
  }
  return 0;
}

int fusion(int argc, char** argv) {
  cli::ArgParser p("bench_sptrsv_train fusion", "Calibrate YuenyeungSpTRSV's fusion threshold on R-MAT triangles.");
  // Scales 18-22: on 14-18 the calibration chose 2, which costs rmat22_ef4 32 % (its hub rows only
  // matter at size); on 18-22 it chose 6, within 0.3 % of 8 (H100, docs/benchmarks.md, session 5).
  p.option("scales", "S,...", "R-MAT scales (2^S rows)", "18,20,22")
      .option("edge-factors", "E,...", "edge factors (entries per row ~ E)", "4,8,16")
      .option("perfmodel-dir", "DIR", "selection store directory", "");
  if (!p.parse(argc, argv)) return 0;
  const sptrsv::SelectionStore store = store_for(p);
  std::vector<Csr> lowers;
  for (const std::string& s : split(p.get("scales"), ','))
    for (const std::string& e : split(p.get("edge-factors"), ','))
      lowers.push_back(triangle(generate("anchor-rmat:" + s + ":" + e), Triangle::Lower));
  const bench::FusionCalibration c =
      bench::calibrate_fusion_threshold(lowers, bench::default_fusion_thresholds(), {2, 7, 1e-8, 0});
  for (std::size_t i = 0; i < c.thresholds.size(); ++i)
    std::printf("threshold %5.1f: geometric mean %.4f ms\n", c.thresholds[i], c.geomean_ms[i]);
  if (!c.note.empty()) std::printf("note: %s\n", c.note.c_str());
  if (c.matrices == 0) {
    std::fprintf(stderr, "bench_sptrsv_train fusion: nothing could be timed\n");
    return 1;
  }
  store.store_fusion_threshold(c.threshold);
  std::printf("fusion threshold %g over %d matrices on %s -> %s\n", c.threshold, c.matrices, c.device.c_str(),
              store.fusion_path().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string usage = "usage: bench_sptrsv_train search|fit|fusion [options] (--help after the step for its options)";
  if (argc < 2) {
    std::fprintf(stderr, "%s\n", usage.c_str());
    return 2;
  }
  const std::string step = argv[1];
  if (step == "search") return search(argc - 2, argv + 2);
  if (step == "fit") return fit(argc - 2, argv + 2);
  if (step == "fusion") return fusion(argc - 2, argv + 2);
  std::fprintf(stderr, "bench_sptrsv_train: unknown step '%s'\n%s\n", step.c_str(), usage.c_str());
  return 2;
} catch (const std::exception& e) {
  return cli::report_failure("bench_sptrsv_train", e);
}
