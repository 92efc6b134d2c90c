// The CPU's FP64 dense ceiling: OpenBLAS dgemm (n = 1024) on one thread, and on all of them, in the
// same process as the benchmark it calibrates.
#include <chrono>
#include <thread>
#include <vector>

#include "bench/dgemm_rate.hpp"
#include "kernels/common/blas.hpp"
#include "kernels/common/blas_threads.hpp"

extern "C" int openblas_get_num_threads() __attribute__((weak));

namespace hetsparse::bench {
namespace {

double gflops_with(int threads, int n) {
  kernels::set_blas_threads(threads);
  std::vector<double> a(std::size_t(n) * n, 0.5), b(std::size_t(n) * n, 0.25), c(std::size_t(n) * n, 0.0);
  auto once = [&] {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
  };
  once();  // warm-up: thread pool, page faults
  double best = 1e300;
  for (int r = 0; r < 3; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    once();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return 2.0 * double(n) * n * n / best * 1e-9;
}

}  // namespace

CpuDgemmRate measure_cpu_dgemm(int n) {
  const int before = openblas_get_num_threads ? openblas_get_num_threads() : 1;
  CpuDgemmRate r;
  r.threads = static_cast<int>(std::thread::hardware_concurrency());
  r.one_core_gflops = gflops_with(1, n);
  r.all_cores_gflops = gflops_with(r.threads, n);
  kernels::set_blas_threads(before);
  return r;
}

}  // namespace hetsparse::bench
