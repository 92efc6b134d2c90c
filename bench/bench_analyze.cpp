// Symbolic analysis benchmark, without StarPU: hetsparse's analyze phase by phase for each
// AnalyzeOptions::ordering_threads setting (serial METIS_NodeND vs the parallel dissection), the
// assembly map CholeskySolver::analyze builds after it, and CHOLMOD's own complete analysis (its
// METIS ordering) as the anchor. One JSON line per setting on stdout, a summary on stderr.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "bench/cholmod_anchor.hpp"
#include "cholesky/numeric/panel_storage.hpp"
#include "symbolic/adjacency_graph.hpp"
#include "symbolic/analysis.hpp"
#include "symbolic/nested_dissection.hpp"
#include "sparse/host_threads.hpp"
#include "sparse/convert.hpp"

using namespace hetsparse;

namespace {

std::vector<int> parse_list(const std::string& text) {
  std::vector<int> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) values.push_back(std::stoi(item));
  return values;
}

cli::Json phases_json(const cholesky::SymbolicFactor::Timings& t) {
  cli::Json j;
  j.set("input_s", t.input_s).set("ordering_s", t.ordering_s).set("etree_s", t.etree_s).set("counts_s", t.counts_s)
      .set("supernodes_s", t.supernodes_s).set("structure_s", t.structure_s);
  return j;
}

}  // namespace

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_analyze", "hetsparse's symbolic analysis (serial / parallel ordering) next to CHOLMOD's.");
  cli::add_matrix_input(p, "lap3d:100");
  p.option("ordering-threads", "LIST", "AnalyzeOptions::ordering_threads values (1: serial METIS_NodeND, 0: all "
           "hardware threads)", "1,0")
      .option("repeat", "N", "analyses per setting; the fastest is reported", "1")
      .option("min-part", "N", "parallel settings: split parts down to N vertices (nested_dissection.hpp; default "
              "kMinDissectionPart). The ordering is then timed apart and given to analyze as Ordering::User")
      .flag("no-cholmod", "skip CHOLMOD's analysis");
  if (!p.parse(argc - 1, argv + 1)) return 0;
  const cli::MatrixInput in = cli::load_matrix_input(p);
  const Csr lower = triangle(in.A, Triangle::Lower);
  const long repeat = std::max(1L, p.get_int("repeat"));
  const bool own_min_part = p.has("min-part");
  const cholesky::AdjacencyGraph graph =
      own_min_part ? cholesky::symmetric_graph(lower, cholesky::InputTriangle::Lower) : cholesky::AdjacencyGraph{};

  for (const int threads : parse_list(p.get("ordering-threads"))) {
    cholesky::AnalyzeOptions opts;
    opts.ordering_threads = threads;
    cholesky::SymbolicFactor best;
    double analyze_s = 0, map_s = 0;
    for (long r = 0; r < repeat; ++r) {
      const double t0 = cli::now_seconds();
      if (own_min_part && threads != 1) {
        opts.ordering = cholesky::Ordering::User;
        opts.user_perm = cholesky::parallel_nested_dissection(graph, host_thread_count(threads),
                                                              static_cast<index_t>(p.get_int("min-part")));
      }
      const double ordering_s = cli::now_seconds() - t0;  // 0 unless ordered apart
      cholesky::SymbolicFactor sym = cholesky::analyze(lower, opts);
      sym.timings.ordering_s += ordering_s;
      const double t1 = cli::now_seconds();
      const cholesky::AssemblyMap map = cholesky::build_assembly_map(lower, cholesky::InputTriangle::Lower, sym);
      const double t2 = cli::now_seconds();
      if (r == 0 || t1 - t0 < analyze_s) {
        analyze_s = t1 - t0;
        best = std::move(sym);
      }
      map_s = r == 0 ? t2 - t1 : std::min(map_s, t2 - t1);
    }
    cli::Json out;
    out.set("matrix", in.name).set("rows", static_cast<long long>(lower.rows))
        .set("ordering_threads", threads).set("threads_used", host_thread_count(threads))
        .set("analyze_s", analyze_s).set("phases", phases_json(best.timings)).set("assembly_map_s", map_s)
        .set("nnz_L", static_cast<long long>(best.nnz_L_exact)).set("flops", best.flops)
        .set("supernodes", static_cast<long long>(best.num_supernodes()));
    std::printf("%s\n", out.str().c_str());
    std::fprintf(stderr, "hetsparse  ordering_threads %d: analyze %.3f s (ordering %.3f s), assembly map %.3f s, "
                 "nnz(L) %.4g, flops %.4g\n", threads, analyze_s, best.timings.ordering_s, map_s,
                 static_cast<double>(best.nnz_L_exact), best.flops);
  }
  if (!p.has("no-cholmod")) {
    const bench::CholmodAnalysis c = bench::cholmod_analyze_metis(lower);
    cli::Json out;
    out.set("matrix", in.name).set("cholmod_analyze_metis_s", c.seconds).set("ok", c.ok).set("error", c.error)
        .set("nnz_L", c.nnz_L).set("flops", c.flops);
    std::printf("%s\n", out.str().c_str());
    std::fprintf(stderr, "CHOLMOD    analyze with its METIS %.3f s, nnz(L) %.4g, flops %.4g %s\n", c.seconds, c.nnz_L,
                 c.flops, c.error.c_str());
  }
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_analyze", e);
}
