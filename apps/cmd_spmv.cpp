// `hetsparse spmv`: N products y = A x as StarPU tasks, checked against the serial reference, timed,
// and (with a GPU) compared with cuSPARSE and the own CUDA kernel called directly in the same run.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "cli/result_checks.hpp"
#include "apps/cmd_spmv_partitioned.hpp"
#include "apps/commands.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/progress.hpp"
#include "spmv/cusparse_anchor.hpp"
#include "spmv/distributed_spmv.hpp"

namespace hetsparse::cli {
namespace {

// NaN as soon as one difference is NaN (std::max would skip it and call a NaN result correct).
double max_rel_diff(const std::vector<double>& y, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double d = std::abs(y[i] - ref[i]);
    num = std::isnan(d) || std::isnan(num) ? std::nan("") : std::max(num, d);
    den = std::max(den, std::abs(ref[i]));
  }
  return den > 0 ? num / den : num;
}

struct Rate {
  double ms, gflops, gbs;
};
// Minimum traffic as in docs/benchmarks.md: 12 B per nonzero (value + column) + 20 B per row.
Rate rate(const Csr& A, double ms) {
  const double bytes = 12.0 * double(A.nnz()) + 20.0 * A.rows;
  return {ms, 2.0 * double(A.nnz()) / (ms * 1e6), bytes / (ms * 1e6)};
}

}  // namespace

int cmd_spmv(int argc, char** argv) {
  ArgParser p("hetsparse spmv", "Sparse matrix-vector products y = A*x as StarPU tasks over CPUs and GPUs.");
  add_matrix_input(p, "lap3d:64");
  add_runtime_options(p);
  p.option("iterations", "N", "products to time", "100")
      .option("blocks", "B", "row blocks = tasks per product (0: one per worker)", "0")
      .option("device", "any|cpu|gpu", "where the tasks may run", "any")
      .option("cuda-kernel", "own|cusparse", "CUDA implementation inside the codelet", "own")
      .option("seed", "S", "seed of the random x", "1")
      .flag("no-anchor", "do not time cuSPARSE / the own kernel directly on the GPU")
      .option("partition", "pcsr|pcsc|pcoo|auto", "MSREP partition over NUMA domains, GPUs and CPU workers (replaces "
              "--blocks; given, or --parts or --resident: the partitioned product runs)", "auto")
      .option("parts", "N", "parts of the partitioned product (0: one per GPU, CPU parts when they help)", "0")
      .flag("resident", "partitioned product on x and y in GPU memory")
      .flag("product-tasks", "partitioned product: each product's parts as tasks, even when one GPU runs them all "
            "(by default they are launched on the calling thread's stream)");
  if (!p.parse(argc, argv)) return 0;
  const bool json = p.has("json");
  const long iters = p.get_int("iterations");
  if (iters < 1) throw UsageError("hetsparse spmv: --iterations must be at least 1");

  // Peak 44 B per row (2e8 empty rows: 8.8 GB) and ~28 per entry (A, its copy while loading, the
  // 32-bit block copies), plus a margin.
  MatrixInput in = load_matrix_input(p, {"spmv", 56, 32, false});
  if (p.has("partition") || p.has("parts") || p.has("resident") || p.has("product-tasks"))
    return cmd_spmv_partitioned(p, in, parse_spmv_cuda_impl(p.get("cuda-kernel"), "hetsparse spmv"));
  const Csr& A = in.A;
  std::vector<double> x = random_vector(A.cols, static_cast<std::uint64_t>(p.get_int("seed")));
  std::vector<double> y(A.rows, std::nan(""));
  std::vector<double> yref(A.rows);
  ref::spmv(A, x.data(), yref.data());
  require_finite(yref, "(A x)", "the product overflows a double (largest |A(i,j)| = " +
                                    short_number(max_abs_value(A)) + ", |x(j)| <= 1): scale the matrix down");

  rt::Runtime runtime(runtime_options(p));
  SpmvOptions so;
  so.blocks = static_cast<int>(p.get_int_in("blocks", 0, 1 << 20));
  if (so.blocks == 0) so.blocks = std::max<int>(1, static_cast<int>(runtime.workers().size()));
  so.where = parse_device(p.get("device"), "hetsparse spmv");
  so.cuda_impl = parse_spmv_cuda_impl(p.get("cuda-kernel"), "hetsparse spmv");

  DistributedSpmv spmv(runtime, A, x, y, so);
  // Warm-up product: moves A and x to where they run and lets history models learn.
  spmv.submit();
  runtime.wait_all();
  ProgressReporter progress("spmv", progress_wanted(p.has("progress")));
  progress.begin("products");
  const double t0 = now_seconds();
  const long chunk = std::max(1L, iters / 20);
  for (long i = 0; i < iters; i += chunk) {
    for (long k = i; k < std::min(iters, i + chunk); ++k) spmv.submit();
    runtime.wait_all();
    progress.update(std::min(iters, i + chunk), iters, "products");
  }
  const double total = now_seconds() - t0;
  progress.end();
  spmv.finish();
  const double err = max_rel_diff(y, yref);
  const bool ok = err <= 1e-12;
  const Rate r = rate(A, 1e3 * total / double(iters));

  std::vector<std::pair<std::string, DirectSpmvTiming>> anchors;
  if (!p.has("no-anchor") && runtime.cuda_workers() > 0) {
    const int runs = static_cast<int>(std::clamp(iters, 10L, 200L));
    anchors.emplace_back("cusparse_direct", time_direct_spmv(A, x, runs, DirectSpmv::Cusparse));
    anchors.emplace_back("own_kernel_direct", time_direct_spmv(A, x, runs, DirectSpmv::OwnKernel));
  }
  const std::string trace = runtime.options().trace_dir;
  const rt::TraceFiles tf = runtime.shutdown();

  if (json) {
    Json j;
    j.set("matrix", in.name).set("rows", static_cast<long long>(A.rows)).set("nnz", static_cast<long long>(A.nnz()))
        .set("scheduler", runtime.options().scheduler).set("cpu_workers", runtime.cpu_workers())
        .set("cuda_workers", runtime.cuda_workers()).set("blocks", static_cast<int>(spmv.num_blocks()))
        .set("iterations", static_cast<long long>(iters)).set("ms_per_product", r.ms).set("gflops", r.gflops)
        .set("gbs", r.gbs).set("max_rel_error", err).set("correct", ok);
    for (const auto& [name, t] : anchors) {
      Json a;
      a.set("available", t.available).set("reason", t.reason);
      if (t.available) {
        const Rate ar = rate(A, t.median_ms);
        a.set("device", t.device).set("median_ms", t.median_ms).set("chain_ms", t.chain_ms).set("gbs", ar.gbs).set("gflops", ar.gflops)
            .set("max_rel_error", max_rel_diff(t.y, yref));
      }
      j.set(name, a);
    }
    if (!tf.paje.empty()) j.set("trace", tf.paje);
    std::printf("%s\n", j.str().c_str());
  } else {
    std::printf("matrix      %s: %d x %d, %lld nonzeros (loaded in %.2f s)\n", in.name.c_str(), A.rows, A.cols,
                static_cast<long long>(A.nnz()), in.seconds);
    std::printf("runtime     %s, %d CPU + %d CUDA workers, %zu row blocks, device %s\n",
                runtime.options().scheduler.c_str(), runtime.cpu_workers(), runtime.cuda_workers(),
                spmv.num_blocks(), p.get("device").c_str());
    std::printf("hetsparse   %8.4f ms/product  %8.2f GFLOP/s  %8.1f GB/s   (%ld products, StarPU tasks)\n", r.ms,
                r.gflops, r.gbs, iters);
    for (const auto& [name, t] : anchors) {
      if (!t.available) {
        std::printf("%-11s unavailable: %s\n", name.c_str(), t.reason.c_str());
        continue;
      }
      const Rate ar = rate(A, t.median_ms);
      std::printf("%-11s %8.4f ms/product  %8.2f GFLOP/s  %8.1f GB/s   (median of %d, %s, error %.1e)\n",
                  name == "cusparse_direct" ? "cuSPARSE" : "own kernel", ar.ms, ar.gflops, ar.gbs, t.runs,
                  t.device.c_str(), max_rel_diff(t.y, yref));
    }
    std::printf("check       max |y - y_ref| / max |y_ref| = %.2e  %s\n", err, ok ? "OK" : "WRONG");
    if (!tf.paje.empty()) std::printf("trace       %s (open with: vite %s)\n", tf.paje.c_str(), tf.paje.c_str());
  }
  require_at_most(err, 1e-12, "max |y - y_ref| / max |y_ref|",
                  ": the product through StarPU differs from the serial reference (a bug: please report it)");
  return 0;
}

}  // namespace hetsparse::cli
