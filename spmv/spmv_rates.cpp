// SpMV rate measurements: CPU threads on the host, the GPU through the direct anchor (no runtime).
#include "spmv/spmv_rates.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "kernels/spmv/spmv.hpp"
#include "runtime/csr32.hpp"
#include "sparse/convert.hpp"
#include "spmv/cusparse_anchor.hpp"

namespace hetsparse {
namespace {

double bytes_of(const Csr& A) { return 12.0 * double(A.nnz()) + 20.0 * double(A.rows); }

// The best of three rounds of every thread running one product of the sample at the same time.
double cpu_rate(const Csr& sample, int threads) {
  const rt::Csr32 a(sample);
  const kernels::CsrView view{a.rows, static_cast<std::uint32_t>(a.colind.size()), a.rowptr.data(), a.colind.data(),
                              a.values.data(), 0};
  const std::vector<double> x(static_cast<std::size_t>(sample.cols), 1.0);
  std::vector<std::vector<double>> y(threads, std::vector<double>(a.rows));
  double best = 1e300;
  for (int round = 0; round < 3; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] { kernels::spmv_cpu(view, x.data(), y[t].data(), 1.0, 0.0); });
    for (std::thread& th : pool) th.join();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return bytes_of(sample) / best;
}

}  // namespace

SpmvRates measure_spmv_rates(const Csr& A, int cpu_threads, bool gpu, long long sample_nnz) {
  SpmvRates r;
  if (A.rows == 0 || A.nnz() == 0) return r;
  const auto last = static_cast<index_t>(std::lower_bound(A.rowptr.begin(), A.rowptr.end(), sample_nnz) -
                                         A.rowptr.begin());
  const Csr sample = row_block(A, 0, std::clamp<index_t>(last, 1, A.rows));
  r.how = "row block of " + std::to_string(sample.nnz()) + " nonzeros:";
  if (cpu_threads > 0) {
    r.cpu_bytes_per_s = cpu_rate(sample, cpu_threads);
    r.how += " spmv_cpu on " + std::to_string(cpu_threads) + " threads at once";
  }
  if (gpu) {
    const std::vector<double> x(static_cast<std::size_t>(sample.cols), 1.0);
    const DirectSpmvTiming t = time_direct_spmv(sample, x, 20, DirectSpmv::OwnAuto);
    if (t.available && t.median_ms > 0) {
      r.gpu_bytes_per_s = bytes_of(sample) / (t.median_ms * 1e-3);
      r.how += ", own " + t.path + " kernel on GPU 0 (median of 20)";
    }
  }
  return r;
}

void apply_rates(planners::SpmvTopology& topology, const SpmvRates& rates) {
  for (planners::SpmvDomain& d : topology.domains) {
    if (rates.cpu_bytes_per_s > 0) d.cpu_bytes_per_s = rates.cpu_bytes_per_s;
    if (rates.gpu_bytes_per_s > 0)
      for (planners::SpmvGpu& g : d.gpus) g.bytes_per_s = rates.gpu_bytes_per_s;
  }
  if (rates.cpu_bytes_per_s > 0 || rates.gpu_bytes_per_s > 0) topology.source += "; rates measured (" + rates.how + ")";
}

}  // namespace hetsparse
