// The split SpTRSV's evaluation and calibration (issue 17; scripts/bench.d/split_eval.sh):
//   bench_sptrsv_split run --corpus FILE --output TABLE.tsv   every policy on every triangle of the
//       corpus through TriangularSolver::solve (unified: one CPU core, the CPUs' level-scheduled
//       parallel task, the GPU; split: CPU-GPU, CPU-CPU, GPU-GPU where their slicing cuts; and
//       auto, the split model's own pick), median wall time of a solve (timed in rounds over the
//       policies, bench/split_policy_timing.hpp), setup, error against ref::sptrsv; one table row per
//       triangle, appended as soon as it is measured
//   bench_sptrsv_split fit --input TABLE.tsv[,...] --output split_model.tsv   calibrate the thresholds
//   bench_sptrsv_split report --input TABLE.tsv[,...]   the issue's figures, as markdown
// The fit and the report replay the decision from the table's structure columns (split_fit.cpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "bench/split_corpus.hpp"
#include "bench/split_fit.hpp"
#include "bench/split_policy_timing.hpp"
#include "cli/args.hpp"
#include "cli/common.hpp"
#include "codelets/sptrsv/sptrsv_level_workers.hpp"
#include "hetsparse/error.hpp"
#include "planners/split_sptrsv_decision.hpp"
#include "planners/split_sptrsv_measure.hpp"
#include "planners/split_sptrsv_structure.hpp"
#include "reference/sparse_reference.hpp"
#include "sptrsv/split_model_store.hpp"
#include "sptrsv/split_solver.hpp"

using namespace hetsparse;

namespace {

int run(int argc, char** argv) {
  cli::ArgParser p("bench_sptrsv_split run", "Time every split and unified policy on a corpus of triangles.");
  cli::add_runtime_options(p);
  p.option("corpus", "FILE", "lines 'name<TAB>generator spec or .mtx file'", "")
      .option("matrix-dir", "DIR", "folder of relative .mtx paths", ".")
      .option("output", "TABLE", "table to append one row per triangle to", "split_table.tsv")
      .option("policies", "LIST", "comma-separated, from cpu,cpu-levels,gpu,cpu-gpu,cpu-cpu,gpu-gpu,auto", "all")
      .option("split-model", "FILE", "thresholds for auto (default: the usual lookup, else the paper's)", "")
      .option("split-measure", "off|on[:...]", "auto's measured tie-break (hetsparse sptrsv --split-measure)", "on")
      .option("budget", "S", "seconds of timed solves per policy (within --min-runs and --max-runs)", "0.3")
      .option("min-runs", "N", "fewest timed solves per policy", "5")
      .option("max-runs", "N", "most timed solves per policy", "30")
      .option("rounds", "R", "rounds over the policies that share each one's timed solves", "3")
      .flag("skip-done", "skip triangles already in the output table");
  if (!p.parse(argc, argv)) return 0;
  bench::SplitRunOptions ro;
  ro.matrix_dir = p.get("matrix-dir");
  ro.model_file = p.get("split-model");
  ro.budget_s = p.get_double("budget");
  ro.rounds = static_cast<int>(p.get_int_in("rounds", 1, 100));
  ro.min_runs = static_cast<int>(p.get_int_in("min-runs", 1, 100000));
  ro.max_runs = static_cast<int>(p.get_int_in("max-runs", ro.min_runs, 100000));
  ro.measure = planners::SplitMeasureOptions::parse(p.get("split-measure"));
  ro.policies = p.get("policies") == "all" ? bench::split_policy_names() : cli::split_list(p.get("policies"), ',');
  rt::RuntimeOptions opts = cli::runtime_options(p);
  if (opts.scheduler.empty() && !std::getenv("STARPU_SCHED")) opts.scheduler = "peager";  // the CPUs' parallel task
  if (!std::getenv("STARPU_SINGLE_COMBINED_WORKER")) ::setenv("STARPU_SINGLE_COMBINED_WORKER", "1", 1);
  rt::Runtime runtime(opts);
  ro.perfmodel_dir = runtime.options().perfmodel_dir;
  ro.cpu_width = std::max(1, codelets::widest_parallel_worker());
  const std::string output = p.get("output");
  std::set<std::string> done;
  if (p.has("skip-done") && std::ifstream(output))
    for (const bench::TableRow& r : bench::read_tables({output})) done.insert(r.at("name"));
  const planners::SplitMachine machine{runtime.cuda_workers() > 0, ro.cpu_width};
  const sptrsv::LoadedThresholds thresholds =
      sptrsv::load_split_thresholds(ro.model_file, ro.perfmodel_dir, machine.gpu ? sptrsv::cuda_device_name() : "");
  std::fprintf(stderr, "%s, %d CPU + %d CUDA workers, CPU parallel task width %d; thresholds: %s\n",
               runtime.options().scheduler.c_str(), runtime.cpu_workers(), runtime.cuda_workers(), ro.cpu_width,
               thresholds.source.c_str());
  for (const bench::CorpusEntry& e : bench::read_corpus(p.get("corpus"))) {
    if (done.count(e.name)) continue;
    bench::TableRow row{{"name", e.name}, {"source", e.source}};
    try {
      const double t0 = cli::now_seconds();
      const Csr T = bench::corpus_triangle(e, ro.matrix_dir);
      const sptrsv::TriangularPattern whole(T, Triangle::Lower, false);
      planners::SplitStructure s = planners::analyse_split_structure(whole.host_view());
      if (machine.gpu)
        std::tie(s.gpu_family, s.gpu_level_factor) =
            sptrsv::gpu_scheme_steps(sptrsv::unified_gpu_scheme(whole, bench::policy_options("gpu", ro, whole, e.name)));
      const planners::SplitDecision d = planners::decide_split(s, thresholds.thresholds, machine);
      for (const auto& [key, value] : planners::structure_list(s)) row[key] = bench::number_field(value);
      row["analysis_s"] = bench::number_field(whole.analysis_seconds());
      row["cpu_width"] = std::to_string(ro.cpu_width);
      row["gpu"] = machine.gpu ? "1" : "0";
      row["decided"] = planners::to_string(d.policy);
      std::fprintf(stderr, "%s: %d rows, %lld nnz, %lld levels; decided %s (%s); loaded in %.2f s\n", e.name.c_str(),
                   T.rows, static_cast<long long>(s.nnz), static_cast<long long>(s.levels), row["decided"].c_str(),
                   d.reason.c_str(), cli::now_seconds() - t0);
      const std::vector<double> b = cli::random_vector(static_cast<std::size_t>(T.rows), 17);
      std::vector<double> xref(b.size());
      ref::sptrsv(T, Triangle::Lower, false, b.data(), xref.data());
      std::vector<bench::PolicyTiming> timings;
      for (const std::string& policy : ro.policies)
        timings.push_back(bench::start_policy(runtime, T, policy, ro, whole, e.name, b));
      bench::time_policies(timings, ro, b);
      for (const bench::PolicyTiming& t : timings) bench::record_policy(t, xref, row);
    } catch (const std::exception& ex) {
      row["decided"] = std::string("error: ") + ex.what();
      std::fprintf(stderr, "%s: %s\n", e.name.c_str(), ex.what());
    }
    bench::append_row(output, bench::split_table_columns(), row);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage = "usage: bench_sptrsv_split run|fit|report [options] (--help for each)\n";
  if (argc < 2) {
    std::fputs(usage.c_str(), stderr);
    return 2;
  }
  const std::string step = argv[1];
  try {
    if (step == "run") return run(argc - 2, argv + 2);
    if (step == "fit") return bench::split_fit(argc - 2, argv + 2);
    if (step == "report") return bench::split_report(argc - 2, argv + 2);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_sptrsv_split %s: %s\n", step.c_str(), e.what());
    return 1;
  }
  std::fputs(usage.c_str(), stderr);
  return 2;
}
