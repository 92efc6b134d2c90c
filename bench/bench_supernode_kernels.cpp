// The supernodal Cholesky's CUDA kernels against cuBLAS dgemm on one large shape: the fused update
// (dgemm + scatter) and the panel factorization (potrf + trsm), called directly and as StarPU tasks
// on a CUDA worker (data already on the GPU). Tells kernel time from runtime time.
//   bench_supernode_kernels [--m 4000] [--ncols 1000] [--k 1000]
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "cli/args.hpp"
#include "kernels/common/cuda_check.hpp"
#include "codelets/supernode/supernode_codelet.hpp"
#include "runtime/starpu/runtime.hpp"

using namespace hetsparse;

namespace {

template <class F>
double gpu_ms(F&& f, int reps = 5) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();
  cudaDeviceSynchronize();
  cudaEventRecord(a);
  for (int i = 0; i < reps; ++i) f();
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms / reps;
}

}  // namespace

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_supernode_kernels", "supernode CUDA kernels vs cuBLAS dgemm, direct and through StarPU");
  p.option("m", "M", "update rows", "4000").option("ncols", "N", "descendant columns", "1000")
      .option("k", "K", "target columns", "1000");
  if (!p.parse(argc - 1, argv + 1)) return 0;
  const int m = int(p.get_int("m")), nc = int(p.get_int("ncols")), k = int(p.get_int("k"));
  // Descendant d: columns [0, nc), rows 0 .. nc + m - 1; target t: columns [nc, nc + k), rows nc ..
  const int dn = nc + m, tn = m;
  std::vector<std::int32_t> rows(dn);
  for (int i = 0; i < dn; ++i) rows[i] = i;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> hd(std::size_t(dn) * nc), ht(std::size_t(tn) * k);
  for (double& v : hd) v = u(rng);
  for (double& v : ht) v = u(rng);
  for (int j = 0; j < k; ++j) ht[j + std::size_t(j) * tn] += 4.0 * dn;  // SPD enough to factor
  double *dd, *dt, *work;
  std::int32_t* drows;
  kernels::check_cuda(cudaMalloc(&dd, hd.size() * 8), "cudaMalloc");
  kernels::check_cuda(cudaMalloc(&dt, ht.size() * 8), "cudaMalloc");
  kernels::check_cuda(cudaMalloc(&work, std::size_t(m) * k * 8 + (64 << 20)), "cudaMalloc");
  kernels::check_cuda(cudaMalloc(&drows, rows.size() * 4), "cudaMalloc");
  cudaMemcpy(dd, hd.data(), hd.size() * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dt, ht.data(), ht.size() * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(drows, rows.data(), rows.size() * 4, cudaMemcpyHostToDevice);
  cublasHandle_t blas;
  cusolverDnHandle_t solver;
  cublasCreate(&blas);
  cusolverDnCreate(&solver);
  const kernels::ConstPanelRef d{dd, drows, dn, nc, 0};
  const kernels::PanelRef t{dt, drows + nc, tn, k, nc};
  const double flops = 2.0 * m * k * nc;
  const double one = 1, zero = 0;
  const double gemm = gpu_ms([&] {
    cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, m, k, nc, &one, dd + nc, dn, dd + nc, dn, &zero, work, m);
  });
  const double upd = gpu_ms([&] { kernels::supernode_update_cuda(blas, nullptr, d, {nc, nc + k}, t, work); });
  const kernels::UpdateRange range{nc, nc + k};
  const std::size_t bbytes = kernels::supernode_update_batch_work_bytes(&d, &range, 1);
  const double batch = gpu_ms([&] { kernels::supernode_update_batch_cuda(blas, nullptr, &d, &range, 1, t, work, bbytes); });
  std::printf("direct: batch of one %.3f ms (%.1f TFLOP/s)\n", batch, flops / batch * 1e-9);
  int* info;
  cudaMalloc(&info, 4);
  const std::size_t fbytes = kernels::supernode_factor_cuda_work_bytes(solver, t);
  const double ff = double(k) * k * k / 3 + double(tn - k) * k * k;
  const double fac = gpu_ms([&] { kernels::supernode_factor_cuda(solver, blas, nullptr, t, work, fbytes, info); }, 1);
  std::printf("direct: dgemm %.3f ms (%.1f TFLOP/s), update %.3f ms (%.1f TFLOP/s), factor %.3f ms (%.1f TFLOP/s)\n",
              gemm, flops / gemm * 1e-9, upd, flops / upd * 1e-9, fac, ff / fac * 1e-9);
  cudaFree(dd), cudaFree(dt), cudaFree(work), cudaFree(drows), cudaFree(info);
  cublasDestroy(blas);
  cusolverDnDestroy(solver);

  // The same update as StarPU tasks restricted to the CUDA worker (first one moves the data).
  rt::RuntimeOptions ro;
  ro.ncpu = 1;
  ro.ncuda = 1;
  rt::Runtime r(ro);
  if (r.cuda_workers() == 0) return std::printf("no CUDA worker\n"), 0;
  const codelets::PanelLocation dl{0, 0, dn, nc, 0, 0}, tl{0, nc, tn, k, nc, 0};
  rt::DataHandle hd_(r, r.register_vector({hd.data(), hd.size(), 8}));
  rt::DataHandle ht_(r, r.register_vector({ht.data(), ht.size(), 8}));
  rt::DataHandle hr_(r, r.register_vector({rows.data(), rows.size(), 4}));
  auto submit = [&] {
    codelets::insert_supernode_update(r, {"upd", 0, rt::Where::Cuda, flops}, {{hd_.id(), dl, nc, nc + k}},
                                      {ht_.id(), tl}, hr_.id(), flops);
  };
  submit();
  r.wait_all();
  const int reps = 10;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) submit();
  r.wait_all();
  const double task = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps;
  std::printf("starpu: update task %.3f ms (%.1f TFLOP/s)\n", task, flops / task * 1e-9);
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_supernode_kernels", e);
}
