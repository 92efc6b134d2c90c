// Direct cuSPARSE / own-kernel SpMV timing on device-resident data (no StarPU in the way).
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <memory>

#include "kernels/common/cuda_check.hpp"
#include "kernels/spmv/spmv.hpp"
#include "runtime/csr32.hpp"
#include "spmv/cusparse_anchor.hpp"

namespace hetsparse {
namespace {

template <class T>
struct DeviceArray {
  T* p = nullptr;
  explicit DeviceArray(const std::vector<T>& h) {
    kernels::check_cuda(cudaMalloc(&p, std::max<std::size_t>(1, h.size()) * sizeof(T)), "cudaMalloc (anchor)");
    kernels::check_cuda(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (anchor)");
  }
  ~DeviceArray() { cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

}  // namespace

DirectSpmvTiming time_direct_spmv(const Csr& A, const std::vector<double>& x, int runs, DirectSpmv impl,
                                  kernels::TilePlanOptions tiles) {
  DirectSpmvTiming t;
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    cudaGetLastError();
    t.reason = "no CUDA device";
    return t;
  }
  cudaDeviceProp prop{};
  kernels::check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  t.device = prop.name;
  rt::Csr32 a(A);
  DeviceArray<std::uint32_t> rowptr(a.rowptr), colind(a.colind);
  DeviceArray<double> values(a.values), dx(x), dy(std::vector<double>(a.rows, 0.0));
  cudaStream_t s;
  kernels::check_cuda(cudaStreamCreate(&s), "cudaStreamCreate");
  cusparseHandle_t h;
  kernels::check_cusparse(cusparseCreate(&h), "cusparseCreate");
  kernels::check_cusparse(cusparseSetStream(h, s), "cusparseSetStream");
  kernels::CsrView view{a.rows, static_cast<std::uint32_t>(a.colind.size()), rowptr.p, colind.p, values.p, 0};
  kernels::CusparseWorkspace ws;
  if (impl == DirectSpmv::OwnAuto) {
    const kernels::SpmvChoice chosen = kernels::choose_spmv(kernels::row_profile(a.rowptr.data(), a.rows));
    impl = chosen.path == kernels::SpmvPath::Tiled ? DirectSpmv::OwnTiled : DirectSpmv::OwnKernel;
    tiles = chosen.tiles;
  }
  const kernels::TilePlan plan(a.rowptr.data(), a.rows, 0, tiles);
  DeviceArray<std::uint32_t> words(plan.words());
  DeviceArray<double> workspace(std::vector<double>(plan.workspace_bytes() / sizeof(double) + 1));
  t.path = impl == DirectSpmv::Cusparse ? "cusparse" : impl == DirectSpmv::OwnTiled ? "tiled" : "subwarp";
  auto product = [&] {
    if (impl == DirectSpmv::Cusparse)
      kernels::spmv_cusparse(h, s, view, a.cols, dx.p, dy.p, 1.0, 0.0, ws);
    else if (impl == DirectSpmv::OwnTiled)
      kernels::spmv_tiled_cuda(s, plan.view_at(words.p), view, dx.p, dy.p, 1.0, 0.0, workspace.p);
    else
      kernels::spmv_cuda(s, view, dx.p, dy.p, 1.0, 0.0);
  };
  for (int i = 0; i < 3; ++i) product();  // warm-up: workspace, caches, clocks
  cudaEvent_t e0, e1;
  kernels::check_cuda(cudaEventCreate(&e0), "cudaEventCreate");
  kernels::check_cuda(cudaEventCreate(&e1), "cudaEventCreate");
  std::vector<double> ms;
  for (int i = 0; i < std::max(runs, 1); ++i) {
    kernels::check_cuda(cudaEventRecord(e0, s), "cudaEventRecord");
    product();
    kernels::check_cuda(cudaEventRecord(e1, s), "cudaEventRecord");
    kernels::check_cuda(cudaEventSynchronize(e1), "cudaEventSynchronize");
    float f = 0;
    kernels::check_cuda(cudaEventElapsedTime(&f, e0, e1), "cudaEventElapsedTime");
    ms.push_back(f);
  }
  // Back to back, as a chain of products runs: each launch's latency hides behind the kernel before.
  kernels::check_cuda(cudaEventRecord(e0, s), "cudaEventRecord");
  for (int i = 0; i < std::max(runs, 1); ++i) product();
  kernels::check_cuda(cudaEventRecord(e1, s), "cudaEventRecord");
  kernels::check_cuda(cudaEventSynchronize(e1), "cudaEventSynchronize");
  float chain = 0;
  kernels::check_cuda(cudaEventElapsedTime(&chain, e0, e1), "cudaEventElapsedTime");
  t.chain_ms = chain / std::max(runs, 1);
  std::sort(ms.begin(), ms.end());
  t.available = true;
  t.runs = static_cast<int>(ms.size());
  t.median_ms = ms[ms.size() / 2];
  t.min_ms = ms.front();
  t.y.resize(a.rows);
  kernels::check_cuda(cudaMemcpy(t.y.data(), dy.p, a.rows * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy");
  kernels::release_cusparse_workspace(s, ws);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cusparseDestroy(h);
  cudaStreamDestroy(s);
  return t;
}

}  // namespace hetsparse
