// GPU subtree factorization, level by level (supernode_subtree_gpu.hpp): a batched right-looking
// panel kernel for small panels, cuSOLVER/cuBLAS for large ones, a fused multi-target update kernel
// for small updates (supernode_subtree_device.cuh) and cuBLAS GEMM + scatter (supernode_update_cuda)
// for large ones. The host drives the levels; job tables travel through pinned memory.
#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode_batch_layout.hpp"
#include "kernels/potrf/potrf.hpp"
#include "kernels/supernode/supernode_subtree_device.cuh"
#include "kernels/supernode/supernode_subtree_gpu.hpp"

namespace hetsparse::kernels {
namespace {

using supernode_detail::kWorkAlignment;
using namespace subtree_detail;

// Event pairs around the phases of a call when timings are asked for; summed after the final sync.
class PhaseClock {
 public:
  PhaseClock(cudaStream_t stream, bool on) : stream_(stream), on_(on) {}
  ~PhaseClock() {
    for (auto& m : marks_) cudaEventDestroy(m.begin), cudaEventDestroy(m.end);
  }
  void begin(double* sink) {
    if (!on_) return;
    Mark m{nullptr, nullptr, sink};
    cudaEventCreate(&m.begin);
    cudaEventCreate(&m.end);
    cudaEventRecord(m.begin, stream_);
    marks_.push_back(m);
  }
  void end() {
    if (on_) cudaEventRecord(marks_.back().end, stream_);
  }
  void sum() {  // after the stream's work is done
    for (auto& m : marks_) {
      float ms = 0;
      cudaEventElapsedTime(&ms, m.begin, m.end);
      *m.sink += ms;
    }
  }

 private:
  struct Mark {
    cudaEvent_t begin, end;
    double* sink;
  };
  cudaStream_t stream_;
  bool on_;
  std::vector<Mark> marks_;
};

// Pinned host memory for the job tables, one buffer per thread (a StarPU CUDA worker), grown as
// needed. A call ends with a stream synchronisation, so the next call may overwrite it.
void* pinned_staging(std::size_t bytes, const char* routine) {
  struct Buffer {
    void* p = nullptr;
    std::size_t bytes = 0;
    ~Buffer() {
      if (p) cudaFreeHost(p);
    }
  };
  thread_local Buffer buffer;
  if (buffer.bytes < bytes) {
    if (buffer.p) check_cuda(cudaFreeHost(buffer.p), routine);
    buffer.p = nullptr;
    buffer.bytes = 0;
    const std::size_t grown = std::max(bytes, std::size_t(1) << 20) + bytes / 4;
    check_cuda(cudaHostAlloc(&buffer.p, grown, cudaHostAllocDefault), routine);
    buffer.bytes = grown;
  }
  return buffer.p;
}

std::size_t aligned(std::size_t bytes) { return (bytes + kWorkAlignment - 1) / kWorkAlignment * kWorkAlignment; }

double product_flops(const PanelLocation& d, const SubtreeLevels::Update& u) {
  return 2.0 * double(d.nrows - u.r0) * double(u.r1 - u.r0) * double(d.ncols);
}
bool batched_factor(const SubtreeLevels& p, const PanelLocation& l) { return l.ncols <= p.batched_max_cols; }
bool fused(const SubtreeLevels& p, const PanelLocation& d, const SubtreeLevels::Update& u) {
  return product_flops(d, u) < p.fused_max_flops;
}

// The work buffer: [factor jobs][targeted jobs][info ints][cuSOLVER work][one product C].
struct Layout {
  std::size_t factor_jobs = 0, targeted_jobs = 0, info = 0, solver = 0, product = 0, total = 0;
  std::size_t solver_bytes = 0;
};
Layout layout_of(cusolverDnHandle_t solver, const PanelLocation* loc, const SubtreeLevels& plan) {
  std::size_t nf = 0, nt = 0, solver_bytes = 0, product_doubles = 0;
  for (std::int32_t s : plan.order) {
    if (batched_factor(plan, loc[s])) {
      ++nf;
    } else {
      const PanelRef p{nullptr, nullptr, loc[s].nrows, loc[s].ncols, loc[s].first_col};
      const int bytes = potrf_cuda_workspace_size(solver, 'L', p.ncols, reinterpret_cast<double*>(8), p.nrows);
      solver_bytes = std::max(solver_bytes, static_cast<std::size_t>(bytes));
    }
  }
  for (const auto& u : plan.updates) {
    if (fused(plan, loc[u.d], u)) {
      ++nt;
    } else {
      product_doubles = std::max(product_doubles, std::size_t(loc[u.d].nrows - u.r0) * std::size_t(u.r1 - u.r0));
    }
  }
  Layout L;
  L.targeted_jobs = aligned(nf * sizeof(FactorJob));
  L.info = L.targeted_jobs + aligned(nt * sizeof(TargetedJob));
  L.solver = L.info + aligned(plan.order.size() * sizeof(int));
  L.product = L.solver + aligned(solver_bytes);
  L.total = L.product + product_doubles * sizeof(double);
  L.solver_bytes = solver_bytes;
  return L;
}

}  // namespace
}  // namespace hetsparse::kernels

namespace hetsparse::kernels {

std::size_t supernode_subtree_cuda_work_bytes(cusolverDnHandle_t solver, const PanelLocation* loc,
                                              const SubtreeLevels& plan) {
  return layout_of(solver, loc, plan).total;
}

void supernode_subtree_cuda(cublasHandle_t blas, cusolverDnHandle_t solver, cudaStream_t stream,
                            const PanelLocation* loc, const SubtreeLevels& plan, std::int32_t first,
                            std::int32_t last, const std::int32_t* rows_device, double* values_device, int* info_host,
                            void* work_device, std::size_t work_bytes, SubtreeTimings* timings) {
  constexpr const char* routine = "supernode_subtree_cuda";
  if (static_cast<std::size_t>(last - first) != plan.order.size())
    throw InvalidArgument(std::string(routine) + ": the plan is not the range's");
  if (first == last) return;
  if (values_device == nullptr || rows_device == nullptr || info_host == nullptr)
    throw InvalidArgument(std::string(routine) + ": null values, rows or info");
  const Layout L = layout_of(solver, loc, plan);
  if (work_bytes < L.total || (L.total > 0 && work_device == nullptr))
    throw InvalidArgument(std::string(routine) + ": work of " + std::to_string(work_bytes) + " bytes is below the " +
                          std::to_string(L.total) + " the plan needs");
  auto* const base = static_cast<unsigned char*>(work_device);
  const std::int64_t origin = loc[first].value_offset;
  auto panel = [&](std::int32_t s) {
    const PanelLocation& l = loc[s];
    return PanelRef{values_device + (l.value_offset - origin), rows_device + l.row_begin, l.nrows, l.ncols,
                    l.first_col};
  };
  // Job tables are built level by level into pinned host memory and copied asynchronously, so the
  // host builds level l + 1 while the GPU runs level l (pageable copies would wait for the stream).
  const int levels = plan.levels();
  std::vector<std::int32_t> factor_begin(levels + 1, 0), targeted_begin(levels + 1, 0);
  for (int l = 0; l < levels; ++l) {
    std::int32_t nf = 0, nt = 0;
    for (std::int32_t k = plan.level_begin[l]; k < plan.level_begin[l + 1]; ++k) nf += batched_factor(plan, loc[plan.order[k]]);
    for (std::int32_t k = plan.update_begin[l]; k < plan.update_begin[l + 1]; ++k) {
      const auto& u = plan.updates[k];
      nt += fused(plan, loc[u.d], u) && u.r1 > u.r0;
    }
    factor_begin[l + 1] = factor_begin[l] + nf;
    targeted_begin[l + 1] = targeted_begin[l] + nt;
  }
  const std::size_t staged_factors = aligned(factor_begin[levels] * sizeof(FactorJob));
  auto* const staging = static_cast<unsigned char*>(
      pinned_staging(staged_factors + targeted_begin[levels] * sizeof(TargetedJob), routine));
  FactorJob* const factors = reinterpret_cast<FactorJob*>(staging);
  TargetedJob* const targeted = reinterpret_cast<TargetedJob*>(staging + staged_factors);
  auto* const factor_table = reinterpret_cast<FactorJob*>(base + L.factor_jobs);
  auto* const targeted_table = reinterpret_cast<TargetedJob*>(base + L.targeted_jobs);
  int* const info_device = reinterpret_cast<int*>(base + L.info);
  void* const solver_work = base + L.solver;
  double* const product = reinterpret_cast<double*>(base + L.product);
  SubtreeTimings ignored;
  SubtreeTimings& tm = timings ? *timings : ignored;
  PhaseClock clock(stream, timings != nullptr);
  // Builds level l's tables, copies them, returns the fused grid's blocks.
  auto stage_level = [&](int l) {
    FactorJob* f = factors + factor_begin[l];
    for (std::int32_t k = plan.level_begin[l]; k < plan.level_begin[l + 1]; ++k) {
      const std::int32_t s = plan.order[k];
      if (batched_factor(plan, loc[s])) *f++ = {panel(s).values, loc[s].nrows, loc[s].ncols, s - first, 0};
    }
    TargetedJob* t = targeted + targeted_begin[l];
    long long blocks = 0;
    for (std::int32_t k = plan.update_begin[l]; k < plan.update_begin[l + 1]; ++k) {
      const auto& u = plan.updates[k];
      if (!fused(plan, loc[u.d], u) || u.r1 == u.r0) continue;
      const PanelRef d = panel(u.d);
      TargetedJob j{d.values + u.r0, d.rows + u.r0, panel(u.t), d.nrows, d.nrows - u.r0, u.r1 - u.r0, d.ncols,
                    static_cast<std::int32_t>(blocks), 0};
      j.row_tiles = (j.m + kTile - 1) / kTile;
      blocks += static_cast<long long>(j.row_tiles) * ((j.k + kTile - 1) / kTile);
      if (blocks > INT_MAX) throw InvalidArgument(std::string(routine) + ": a level's fused grid exceeds a grid");
      *t++ = j;
    }
    clock.begin(&tm.upload_ms);
    if (const int n = factor_begin[l + 1] - factor_begin[l]; n > 0)
      check_cuda(cudaMemcpyAsync(factor_table + factor_begin[l], factors + factor_begin[l], n * sizeof(FactorJob),
                                 cudaMemcpyHostToDevice, stream), "factor jobs upload in supernode_subtree_cuda");
    if (const int n = targeted_begin[l + 1] - targeted_begin[l]; n > 0)
      check_cuda(cudaMemcpyAsync(targeted_table + targeted_begin[l], targeted + targeted_begin[l],
                                 n * sizeof(TargetedJob), cudaMemcpyHostToDevice, stream),
                 "update jobs upload in supernode_subtree_cuda");
    clock.end();
    return static_cast<int>(blocks);
  };
  for (int l = 0; l < levels; ++l) {
    const int fused_blocks = stage_level(l);
    if (const int n = factor_begin[l + 1] - factor_begin[l]; n > 0) {
      clock.begin(&tm.batched_factor_ms);
      tm.batched_factors += n;
      factor_small<<<n, kFactorThreads, 0, stream>>>(factor_table + factor_begin[l], info_device);
      check_cuda(cudaGetLastError(), "factor_small launch in supernode_subtree_cuda");
      clock.end();
    }
    bool timed = false;
    for (std::int32_t k = plan.level_begin[l]; k < plan.level_begin[l + 1]; ++k) {
      const std::int32_t s = plan.order[k];
      if (batched_factor(plan, loc[s])) continue;
      if (!timed) clock.begin(&tm.solver_factor_ms), timed = true;
      ++tm.solver_factors;
      supernode_factor_cuda(solver, blas, stream, panel(s), solver_work, L.solver_bytes, info_device + (s - first));
    }
    if (timed) clock.end();
    if (const int n = targeted_begin[l + 1] - targeted_begin[l]; n > 0) {
      clock.begin(&tm.fused_update_ms);
      tm.fused_updates += n;
      targeted_updates<<<fused_blocks, dim3(kTile, kGroups), 0, stream>>>(targeted_table + targeted_begin[l], n);
      check_cuda(cudaGetLastError(), "targeted_updates launch in supernode_subtree_cuda");
      clock.end();
    }
    timed = false;
    for (std::int32_t k = plan.update_begin[l]; k < plan.update_begin[l + 1]; ++k) {
      const auto& u = plan.updates[k];
      if (timings && u.r1 > u.r0) (fused(plan, loc[u.d], u) ? tm.fused_flops : tm.cublas_flops) += product_flops(loc[u.d], u);
      if (fused(plan, loc[u.d], u) || u.r1 == u.r0) continue;
      if (!timed) clock.begin(&tm.cublas_update_ms), timed = true;
      ++tm.cublas_updates;
      const PanelRef d = panel(u.d);
      supernode_update_cuda(blas, stream, as_const(d), {u.r0, u.r1}, panel(u.t), product);
    }
    if (timed) clock.end();
  }
  check_cuda(cudaMemcpyAsync(info_host, info_device, plan.order.size() * sizeof(int), cudaMemcpyDeviceToHost, stream),
             "pivot reports download in supernode_subtree_cuda");
  check_cuda(cudaStreamSynchronize(stream), "supernode_subtree_cuda");
  clock.sum();
}

}  // namespace hetsparse::kernels
