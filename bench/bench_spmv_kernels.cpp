// Single-GPU SpMV kernels side by side on device-resident data, no runtime: cuSPARSE (CSR_ALG1), the
// own sub-warp CSR kernel, the tiled kernel with several tile shapes, and the path the row profile
// picks ("auto"). One JSON line per matrix and kernel: median time (CUDA events), GB/s (12 B per
// nonzero + 20 B per row), ratio to cuSPARSE, share of a 3 TB/s device and the error against the
// serial product.
// --order degree also times each square matrix with its vertices relabelled by decreasing degree
// (B = P A P^T): how much locality of the x gathers a reordering could give the kernels.
//   bench_spmv_kernels [--runs N] [--tiles E:R,E:R,...] [--order given|degree] SPEC|FILE.mtx ...
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/json.hpp"
#include "cli/vector_compare.hpp"
#include "kernels/spmv/spmv_tiled.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generator_spec.hpp"
#include "sparse/matrix_market.hpp"
#include "spmv/cusparse_anchor.hpp"

using namespace hetsparse;

namespace {

constexpr double kDeviceBytesPerS = 3.0e12;  // the H100's device-copy ceiling (shared/notes/gpu-machine.md)

// E:R[:T[:S[:M]]]: entries, rows, block threads, solo_entries, reduce (a auto, g grouped, b balanced).
std::vector<kernels::TilePlanOptions> parse_tiles(const std::string& list) {
  std::vector<kernels::TilePlanOptions> out;
  for (const std::string& item : cli::split_list(list, ',')) {
    const std::vector<std::string> f = cli::split_list(item, ':');
    if (f.size() < 2 || f.size() > 5)
      throw cli::UsageError("bench_spmv_kernels: --tiles item '" + item + "' is not E:R[:T[:S[:M]]]");
    kernels::TilePlanOptions o;
    o.max_entries = static_cast<std::uint32_t>(std::stoul(f[0]));
    o.max_rows = static_cast<std::uint32_t>(std::stoul(f[1]));
    if (f.size() > 2) o.block_threads = static_cast<std::uint32_t>(std::stoul(f[2]));
    if (f.size() > 3) o.solo_entries = static_cast<std::uint32_t>(std::stoul(f[3]));
    if (f.size() > 4) {
      if (f[4] != "a" && f[4] != "g" && f[4] != "b")
        throw cli::UsageError("bench_spmv_kernels: --tiles reduce '" + f[4] + "' is not a, g or b");
      o.reduce = f[4] == "g" ? kernels::TileReduce::Grouped
                 : f[4] == "b" ? kernels::TileReduce::Balanced
                               : kernels::TileReduce::Auto;
    }
    out.push_back(o);
  }
  return out;
}

// The vertices in order of decreasing degree (entries of the row and of the column).
std::vector<index_t> degree_order(const Csr& A) {
  std::vector<long long> degree(static_cast<std::size_t>(A.rows), 0);
  for (index_t i = 0; i < A.rows; ++i) {
    degree[static_cast<std::size_t>(i)] += A.rowptr[i + 1] - A.rowptr[i];
    for (auto k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k) ++degree[static_cast<std::size_t>(A.colind[k])];
  }
  std::vector<index_t> perm(static_cast<std::size_t>(A.rows));
  std::iota(perm.begin(), perm.end(), index_t{0});
  std::stable_sort(perm.begin(), perm.end(), [&](index_t a, index_t b) {
    return degree[static_cast<std::size_t>(a)] > degree[static_cast<std::size_t>(b)];
  });
  return perm;
}

// P as a matrix, one entry a row: its product is the gather x[perm[i]] a reordered product pays on
// the way in (and, scattered, on the way out).
Csr permutation_matrix(const std::vector<index_t>& perm) {
  Csr P;
  P.rows = P.cols = static_cast<index_t>(perm.size());
  P.rowptr.resize(perm.size() + 1);
  for (std::size_t i = 0; i <= perm.size(); ++i) P.rowptr[i] = static_cast<decltype(P.rowptr)::value_type>(i);
  P.colind.assign(perm.begin(), perm.end());
  P.values.assign(perm.size(), 1.0);
  return P;
}

}  // namespace

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_spmv_kernels", "Own SpMV kernels against cuSPARSE on one GPU, no runtime.");
  p.option("runs", "N", "timed runs per kernel (median reported)", "50")
      .option("tiles", "E:R[:T[:S[:M]]],...",
              "tiled plans to time: entries:rows[:block threads[:solo entries[:reduce a|g|b]]]",
              "1024:256,2048:512,4096:1024")
      .option("order", "given|degree", "degree: also each square matrix relabelled by decreasing degree", "given")
      .positional("matrices", "generator specs or .mtx files, comma-separated", true);
  if (!p.parse(argc - 1, argv + 1)) return 0;
  const int runs = static_cast<int>(p.get_int("runs"));
  const auto tiles = parse_tiles(p.get("tiles"));
  if (p.get("order") != "given" && p.get("order") != "degree")
    throw cli::UsageError("bench_spmv_kernels: --order is given or degree, not '" + p.get("order") + "'");
  enum class Form { Given, Degree, Permutation };  // the matrix, P A P^T, P
  std::vector<std::pair<std::string, Form>> inputs;
  for (const std::string& spec : cli::split_list(p.get("matrices"), ',')) {
    inputs.emplace_back(spec, Form::Given);
    if (p.get("order") == "degree") {
      inputs.emplace_back(spec, Form::Degree);
      inputs.emplace_back(spec, Form::Permutation);
    }
  }
  for (const auto& [spec, form] : inputs) {
    const bool file = spec.find(".mtx") != std::string::npos;
    Csr A = file ? load_matrix(spec) : generate(spec);
    if (form != Form::Given && A.rows != A.cols) continue;
    if (form == Form::Degree) A = symmetric_permute(A, degree_order(A));
    if (form == Form::Permutation) A = permutation_matrix(degree_order(A));
    const std::string label = spec + (form == Form::Degree ? "@degree" : form == Form::Permutation ? "@perm" : "");
    std::vector<double> x(A.cols), ref(A.rows);
    for (index_t j = 0; j < A.cols; ++j) x[j] = std::sin(0.001 * j) + 0.5;
    ref::spmv(A, x.data(), ref.data());
    std::vector<std::uint32_t> rowptr(A.rowptr.begin(), A.rowptr.end());
    const kernels::RowProfile prof = kernels::row_profile(rowptr.data(), static_cast<std::uint32_t>(A.rows));
    const kernels::SpmvChoice chosen = kernels::choose_spmv(prof);
    const double bytes = 12.0 * double(A.nnz()) + 20.0 * double(A.rows);
    struct Variant {
      std::string name;
      DirectSpmv impl;
      kernels::TilePlanOptions tiles;
    };
    std::vector<Variant> variants{{"cusparse", DirectSpmv::Cusparse, {}}, {"subwarp", DirectSpmv::OwnKernel, {}},
                                  {"auto", DirectSpmv::OwnAuto, {}}};
    for (const auto& t : tiles)
      variants.push_back({"tiled_" + std::to_string(t.max_entries) + "_" + std::to_string(t.max_rows) + "_" +
                              std::to_string(t.block_threads) + "_" + std::to_string(t.solo_entries) + "_" +
                              "agb"[static_cast<int>(t.reduce)],
                          DirectSpmv::OwnTiled, t});
    double cusparse_ms = 0;
    for (const Variant& v : variants) {
      const DirectSpmvTiming t = time_direct_spmv(A, x, runs, v.impl, v.tiles);
      cli::Json j;
      j.set("matrix", label).set("rows", static_cast<long long>(A.rows)).set("nnz", static_cast<long long>(A.nnz()))
          .set("mean_row", prof.mean).set("max_row", static_cast<long long>(prof.max)).set("row_cv", prof.cv)
          .set("chosen_path", kernels::to_string(chosen.path))
          .set("chosen_tile_entries", static_cast<long long>(chosen.tiles.max_entries)).set("kernel", v.name)
          .set("available", t.available);
      if (!t.available) {
        j.set("reason", t.reason);
      } else {
        if (v.impl == DirectSpmv::Cusparse) cusparse_ms = t.median_ms;
        j.set("path", t.path).set("device", t.device).set("median_ms", t.median_ms).set("min_ms", t.min_ms)
            .set("gbs", bytes / (t.median_ms * 1e6)).set("of_3tbs", bytes / (t.median_ms * 1e-3) / kDeviceBytesPerS)
            .set("speedup_vs_cusparse", cusparse_ms > 0 ? cusparse_ms / t.median_ms : 0.0)
            .set("max_rel_error", cli::max_rel_diff(t.y, ref));
      }
      std::printf("%s\n", j.str().c_str());
      std::fflush(stdout);
    }
  }
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_spmv_kernels", e);
}
