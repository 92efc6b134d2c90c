// `hetsparse spmv --partition F --parts N [--resident]`: the partitioned product (spmv/partitioned_spmv.hpp)
// over the NUMA domains' GPUs and CPU workers, N products timed as a chain (each writes y, as in an
// iterative solver), checked against the serial reference and, with a GPU, set beside the own
// kernel and cuSPARSE called directly on device data in the same run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "apps/cmd_spmv_partitioned.hpp"
#include "cli/json.hpp"
#include "cli/spmv_topology.hpp"
#include "cli/vector_compare.hpp"
#include "reference/sparse_reference.hpp"
#include "spmv/cusparse_anchor.hpp"
#include "spmv/device_vector.hpp"
#include "spmv/partitioned_spmv.hpp"
#include "spmv/spmv_rates.hpp"

namespace hetsparse::cli {
namespace {

PartitionedSpmvOptions options_from(const ArgParser& p, codelets::SpmvCudaImpl impl) {
  PartitionedSpmvOptions o;
  try {
    o.format = planners::parse_partition_format(p.get("partition"));
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("hetsparse spmv: --partition: ") + e.what());
  }
  const long parts = p.get_int("parts");
  if (parts < 0 || parts > 4096)
    throw UsageError("hetsparse spmv: --parts must be 0 (automatic) to 4096, not " + std::to_string(parts));
  o.placement.parts = static_cast<int>(parts);
  const rt::Where where = parse_device(p.get("device"), "hetsparse spmv");
  o.placement.cpus = where == rt::Where::Cpu    ? planners::CpuUse::Only
                     : where == rt::Where::Cuda ? planners::CpuUse::Never
                                                : planners::CpuUse::Auto;
  o.cuda_impl = impl;
  o.inline_products = !p.has("product-tasks");
  return o;
}

Json part_json(const PartitionedSpmv& s, std::size_t k) {
  const planners::SpmvPart& part = s.partition().parts[k];
  const planners::PartHome& h = s.placement().homes[k];
  return Json()
      .set("home", h.cpu ? std::string("cpu") : "gpu" + std::to_string(h.device))
      .set("numa", h.numa)
      .set("weight", h.weight)
      .set("rows", static_cast<long long>(part.rows()))
      .set("cols", static_cast<long long>(part.col_end - part.col_begin))
      .set("nnz", static_cast<long long>(part.nnz))
      .set("cuda_path", kernels::to_string(s.paths()[k]))
      .set("tile_entries", static_cast<long long>(s.tile_entries()[k]));
}

}  // namespace

int cmd_spmv_partitioned(const ArgParser& p, const MatrixInput& in, codelets::SpmvCudaImpl impl) {
  const bool json = p.has("json");
  const long iters = p.get_int("iterations");
  const Csr& A = in.A;
  PartitionedSpmvOptions o = options_from(p, impl);
  std::vector<double> x = random_vector(A.cols, static_cast<std::uint64_t>(p.get_int("seed")));
  std::vector<double> y(A.rows, std::nan("")), yref(A.rows);
  ref::spmv(A, x.data(), yref.data());

  rt::Runtime runtime(runtime_options(p));
  o.topology = spmv_topology(runtime);
  {
    rt::PausedWorkers quiet(runtime);  // idle workers would poll while the rates are measured
    apply_rates(o.topology, measure_spmv_rates(A, runtime.cpu_workers(), runtime.cuda_workers() > 0));
  }
  std::unique_ptr<DeviceVector> dx, dy;
  VectorRef xr{x.data(), x.size()}, yr{y.data(), y.size()};
  if (p.has("resident")) {
    const auto gpu = std::find_if(runtime.workers().begin(), runtime.workers().end(),
                                  [](const rt::WorkerInfo& w) { return w.kind == rt::WorkerInfo::Kind::Cuda; });
    if (gpu == runtime.workers().end()) throw UsageError("hetsparse spmv: --resident needs a CUDA worker");
    dx = std::make_unique<DeviceVector>(gpu->device_id, x.size());
    dy = std::make_unique<DeviceVector>(gpu->device_id, y.size());
    dx->upload(x);
    dy->fill_nan();
    xr = {dx->data(), x.size(), gpu->device_id};
    yr = {dy->data(), y.size(), gpu->device_id};
    o.placement.x_moves = true;
  }
  PartitionedSpmv spmv(runtime, A, xr, yr, o);
  spmv.submit();  // warm-up: the parts move to their devices, history models learn
  runtime.wait_all();
  const double t0 = now_seconds();
  for (long i = 0; i < iters; ++i) spmv.submit();
  // Submission alone: when it is close to the whole, the calling thread sets the pace, not the tasks.
  const double submit_ms = 1e3 * (now_seconds() - t0) / double(iters);
  runtime.wait_all();
  const double ms = 1e3 * (now_seconds() - t0) / double(iters);
  spmv.finish();
  if (dy) y = dy->download();
  const double err = max_rel_diff(y, yref);
  const bool ok = err <= 1e-12;
  const double bytes = 12.0 * double(A.nnz()) + 20.0 * A.rows;

  std::vector<std::pair<std::string, DirectSpmvTiming>> anchors;
  if (!p.has("no-anchor") && runtime.cuda_workers() > 0) {
    const int runs = static_cast<int>(std::clamp(iters, 10L, 200L));
    anchors.emplace_back("cusparse_direct", time_direct_spmv(A, x, runs, DirectSpmv::Cusparse));
    anchors.emplace_back("own_kernel_direct", time_direct_spmv(A, x, runs, DirectSpmv::OwnAuto));
  }
  runtime.shutdown();

  const planners::PartitionChoice& c = spmv.choice();
  if (json) {
    Json j;
    std::vector<Json> parts, costs;
    for (std::size_t k = 0; k < spmv.partition().parts.size(); ++k) parts.push_back(part_json(spmv, k));
    for (const planners::FormatCost& f : c.costs)
      costs.push_back(Json().set("format", planners::to_string(f.format)).set("predicted_ms", 1e3 * f.seconds)
                          .set("imbalance", f.imbalance));
    j.set("matrix", in.name).set("rows", static_cast<long long>(A.rows)).set("nnz", static_cast<long long>(A.nnz()))
        .set("partition", planners::to_string(spmv.partition().format)).set("parts", parts).set("model", costs)
        .set("cpus_used", spmv.placement().cpus_used).set("cpu_reason", spmv.placement().reason)
        .set("topology", topology_json(spmv.topology())).set("resident", static_cast<bool>(dy))
        .set("tasks_per_product", static_cast<long long>(spmv.tasks_per_product()))
        .set("inline_products", spmv.launches_inline())
        .set("iterations", static_cast<long long>(iters)).set("ms_per_product", ms)
        .set("submit_ms_per_product", submit_ms)
        .set("gbs", bytes / (ms * 1e6)).set("max_rel_error", err).set("correct", ok);
    for (const auto& [name, t] : anchors) {
      Json a;
      a.set("available", t.available).set("reason", t.reason);
      if (t.available)
        a.set("device", t.device).set("path", t.path).set("median_ms", t.median_ms).set("chain_ms", t.chain_ms)
            .set("gbs", bytes / (t.median_ms * 1e6)).set("max_rel_error", max_rel_diff(t.y, yref));
      j.set(name, a);
    }
    std::printf("%s\n", j.str().c_str());
  } else {
    std::printf("matrix      %s: %d x %d, %lld nonzeros\n", in.name.c_str(), A.rows, A.cols,
                static_cast<long long>(A.nnz()));
    for (const std::string& line : describe_topology(spmv.topology())) std::printf("topology    %s\n", line.c_str());
    std::printf("partition   %s, %zu parts, %zu %s a product; CPU parts: %s\n",
                planners::to_string(spmv.partition().format), spmv.partition().parts.size(),
                spmv.tasks_per_product(), spmv.launches_inline() ? "inline launches" : "tasks",
                spmv.placement().reason.c_str());
    for (const planners::FormatCost& f : c.costs)
      std::printf("  model     %-5s %.4f ms predicted, imbalance %.2f\n", planners::to_string(f.format),
                  1e3 * f.seconds, f.imbalance);
    std::printf("hetsparse   %8.4f ms/product  %8.1f GB/s   (%ld chained products, %s vectors; submitting "
                "them took %.4f ms a product)\n",
                ms, bytes / (ms * 1e6), iters, dy ? "GPU-resident" : "host", submit_ms);
    for (const auto& [name, t] : anchors) {
      if (!t.available) {
        std::printf("%-11s unavailable: %s\n", name.c_str(), t.reason.c_str());
        continue;
      }
      std::printf("%-11s %8.4f ms/product  %8.1f GB/s   (%s, median of %d alone; %.4f ms a product back to back; "
                  "hetsparse / that = %.2f)\n",
                  name == "cusparse_direct" ? "cuSPARSE" : "own kernel", t.median_ms,
                  bytes / (t.median_ms * 1e6), t.path.c_str(), t.runs, t.chain_ms, ms / t.chain_ms);
    }
    std::printf("check       max |y - y_ref| / max |y_ref| = %.2e  %s\n", err, ok ? "OK" : "WRONG");
  }
  return ok ? 0 : 1;
}

}  // namespace hetsparse::cli
