// Two-level placement of a partitioned product's parts (spmv_placement.hpp).
#include "planners/spmv_placement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hetsparse/error.hpp"

namespace hetsparse::planners {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// n items over buckets in proportion to shares, largest remainders first (sum exactly n).
std::vector<int> apportion(int n, const std::vector<double>& shares) {
  std::vector<int> out(shares.size(), 0);
  double total = 0;
  for (double s : shares) total += s;
  if (n <= 0 || total <= 0) return out;
  std::vector<std::pair<double, std::size_t>> remainders;
  int given = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const double exact = n * shares[i] / total;
    out[i] = static_cast<int>(std::floor(exact));
    given += out[i];
    remainders.push_back({exact - out[i], i});
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; given < n; ++i, ++given) ++out[remainders[i % remainders.size()].second];
  return out;
}

}  // namespace

int SpmvTopology::gpus() const {
  int n = 0;
  for (const SpmvDomain& d : domains) n += static_cast<int>(d.gpus.size());
  return n;
}

int SpmvTopology::cpu_workers() const {
  int n = 0;
  for (const SpmvDomain& d : domains) n += d.cpu_workers;
  return n;
}

SpmvTopology flat_topology(int cuda_workers, int cpu_workers) {
  SpmvTopology t;
  t.source = "flat: the runtime's worker counts, default rates";
  SpmvDomain d;
  for (int g = 0; g < cuda_workers; ++g) d.gpus.push_back({g});
  d.cpu_workers = cpu_workers;
  t.domains.push_back(d);
  return t;
}

Placement place_parts(const SpmvTopology& topo, double bytes, offset_t nnz, index_t cols,
                      const PlacementOptions& o) {
  if (o.parts < 0)
    throw InvalidArgument("SpMV placement: " + std::to_string(o.parts) + " parts (0: one per device)");
  const int G = topo.gpus(), C = topo.cpu_workers();
  if (G + C == 0) throw InvalidArgument("SpMV placement: the topology has no GPU and no CPU worker");
  if (o.cpus == CpuUse::Only && C == 0) throw InvalidArgument("SpMV placement: CPU parts asked, no CPU worker");
  if (o.cpus == CpuUse::Never && G == 0) throw InvalidArgument("SpMV placement: GPU parts only, no GPU");

  double gpu_rate = 0, cpu_rate = 0;
  for (const SpmvDomain& d : topo.domains) {
    for (const SpmvGpu& g : d.gpus) gpu_rate += g.bytes_per_s;
    cpu_rate += d.cpu_workers * d.cpu_bytes_per_s;
  }
  Placement pl;
  pl.gpu_only_s = G > 0 ? bytes / gpu_rate + o.step_overhead_s : kInf;
  if (C > 0) {
    // CPU share by the rates; its parts also wait for x to reach the host when x moves.
    const double share = cpu_rate / (cpu_rate + gpu_rate);
    const double copy = o.x_moves && G > 0 ? 8.0 * cols / topo.host_link_bytes_per_s : 0.0;
    const double gpu_side = G > 0 ? bytes * (1 - share) / gpu_rate : 0.0;
    pl.with_cpus_s = std::max(gpu_side, bytes * share / cpu_rate + copy) + o.step_overhead_s;
  } else {
    pl.with_cpus_s = kInf;
  }
  switch (o.cpus) {
    case CpuUse::Only: pl.cpus_used = true; pl.reason = "CPU workers only (asked)"; break;
    case CpuUse::Never: pl.cpus_used = false; pl.reason = "GPUs only (asked)"; break;
    case CpuUse::Auto:
      pl.cpus_used = G == 0 || pl.with_cpus_s < 0.95 * pl.gpu_only_s;
      pl.reason = G == 0 ? "no GPU"
                  : pl.cpus_used ? "CPU parts shorten the product by the model"
                                 : "CPU parts would not shorten the product by 5% (rates, copy of x)";
      break;
  }
  const bool gpu_parts_wanted = G > 0 && o.cpus != CpuUse::Only;
  const int by_size = static_cast<int>(std::clamp<offset_t>(nnz / std::max<offset_t>(1, o.min_part_nnz), 1, 1 << 20));
  const int gpu_parts = gpu_parts_wanted ? (o.parts > 0 ? o.parts : std::min(G, by_size)) : 0;
  const int cpu_parts =
      !pl.cpus_used ? 0 : (!gpu_parts_wanted && o.parts > 0 ? o.parts : std::min(C, std::max(1, by_size - gpu_parts)));

  // Level 1: parts over domains by their devices' rates; level 2: a domain's GPU parts round-robin
  // over its GPUs (kept together per GPU), its CPU parts over its CPU workers.
  std::vector<double> gpu_share, cpu_share;
  for (const SpmvDomain& d : topo.domains) {
    double r = 0;
    for (const SpmvGpu& g : d.gpus) r += g.bytes_per_s;
    gpu_share.push_back(r);
    cpu_share.push_back(d.cpu_workers * d.cpu_bytes_per_s);
  }
  const std::vector<int> gpu_n = apportion(gpu_parts, gpu_share), cpu_n = apportion(cpu_parts, cpu_share);
  double total = 0;
  for (std::size_t di = 0; di < topo.domains.size(); ++di) {
    const SpmvDomain& d = topo.domains[di];
    const int ng = static_cast<int>(d.gpus.size());
    for (int gi = 0; gi < ng && gpu_n[di] > 0; ++gi) {
      const int mine = gpu_n[di] / ng + (gi < gpu_n[di] % ng ? 1 : 0);  // round-robin count
      for (int j = 0; j < mine; ++j) {
        PartHome h;
        h.device = d.gpus[gi].device;
        h.numa = d.numa;
        h.domain = static_cast<int>(di);
        h.bytes_per_s = d.gpus[gi].bytes_per_s / mine;
        pl.homes.push_back(h);
        total += h.bytes_per_s;
      }
    }
    for (int j = 0; j < cpu_n[di]; ++j) {
      PartHome h;
      h.cpu = true;
      h.numa = d.numa;
      h.domain = static_cast<int>(di);
      h.bytes_per_s = d.cpu_bytes_per_s * std::max(1.0, double(d.cpu_workers) / cpu_n[di]);
      pl.homes.push_back(h);
      total += h.bytes_per_s;
    }
  }
  for (PartHome& h : pl.homes) h.weight = h.bytes_per_s / total;
  return pl;
}

}  // namespace hetsparse::planners
