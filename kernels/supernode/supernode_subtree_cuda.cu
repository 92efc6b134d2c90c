// GPU subtree factorization, level by level (supernode_subtree_gpu.hpp): a batched right-looking
// panel kernel for small panels, cuSOLVER/cuBLAS for large ones, a fused multi-target update kernel
// for small updates and cuBLAS GEMM + scatter (supernode_update_cuda) for large ones. Every job
// table of the call is built on the host and copied once.
#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode_batch_layout.hpp"
#include "kernels/supernode/supernode_device_common.cuh"
#include "kernels/potrf/potrf.hpp"
#include "kernels/supernode/supernode_subtree_gpu.hpp"

namespace hetsparse::kernels {
namespace {

using supernode_detail::kWorkAlignment;

struct FactorJob {
  double* a;
  std::int32_t nrows, ncols, info_index, pad;
};
// A small update with its own target: C = A A_top^T (m x k, inner n), tiles subtracted from t.
struct TargetedJob {
  const double* a;
  const std::int32_t* rows;
  PanelRef t;
  std::int32_t ld, m, k, n, first_block, row_tiles;
};

constexpr int kFactorThreads = 256;
constexpr int kTile = 32, kGroups = 8, kPerThread = kTile / kGroups, kChunk = 16;

// One block per panel: for each column, pivot, scale the column below it, rank-1 update of the
// columns to its right (lower part only). Column-major with ld = nrows, so consecutive threads walk
// down a column. info: 0 or the first column whose pivot was <= 0 or NaN.
__global__ void __launch_bounds__(kFactorThreads) factor_small(const FactorJob* __restrict__ jobs, int* info) {
  const FactorJob job = jobs[blockIdx.x];
  double* const a = job.a;
  const int n = job.nrows;
  __shared__ double pivot;
  int failed = 0;
  for (int j = 0; j < job.ncols; ++j) {
    if (threadIdx.x == 0) {
      const double d = a[j + static_cast<std::size_t>(j) * n];
      if (!(d > 0.0) && failed == 0) failed = j + 1;
      pivot = sqrt(d);  // NaN past a failure: the panel is then unspecified, as documented
      a[j + static_cast<std::size_t>(j) * n] = pivot;
    }
    __syncthreads();
    const double inv = 1.0 / pivot;
    double* const col = a + static_cast<std::size_t>(j) * n;
    for (int i = j + 1 + static_cast<int>(threadIdx.x); i < n; i += kFactorThreads) col[i] *= inv;
    __syncthreads();
    const int rows = n - j - 1, cols = job.ncols - j - 1;
    for (int idx = static_cast<int>(threadIdx.x); idx < rows * cols; idx += kFactorThreads) {
      const int c = j + 1 + idx / rows;
      const int i = j + 1 + idx % rows;
      if (i >= c) a[i + static_cast<std::size_t>(c) * n] -= col[i] * col[c];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) info[job.info_index] = failed;
}

// As supernode_update_fused_cuda.cu's kernel, with a target per job.
__global__ void __launch_bounds__(kTile * kGroups) targeted_updates(const TargetedJob* __restrict__ jobs, int count) {
  __shared__ double a_rows[kChunk][kTile + 1];
  __shared__ double a_cols[kChunk][kTile + 1];
  __shared__ int position[kTile];
  __shared__ int column[kTile];
  const int block = static_cast<int>(blockIdx.x);
  const TargetedJob& job = jobs[supernode_detail::job_of_block(jobs, count, block)];
  const PanelRef t = job.t;
  const int local = block - job.first_block;
  const int i0 = (local % job.row_tiles) * kTile;
  const int j0 = (local / job.row_tiles) * kTile;
  if (i0 + kTile <= j0) return;
  const int lane = static_cast<int>(threadIdx.x), group = static_cast<int>(threadIdx.y);
  if (group == 0) {
    const int i = i0 + lane;
    position[lane] = i < job.m ? supernode_detail::position_in_target(job.rows[i], t) : -1;
  } else if (group == 1) {
    const int j = j0 + lane;
    const long long c = j < job.k ? static_cast<long long>(job.rows[j]) - t.first_col : -1;
    column[lane] = c >= 0 && c < t.ncols ? static_cast<int>(c) : -1;
  }
  double acc[kPerThread] = {};
  for (int c0 = 0; c0 < job.n; c0 += kChunk) {
    for (int c = group; c < kChunk; c += kGroups) {
      const bool inside = c0 + c < job.n;
      const double* col = job.a + static_cast<std::size_t>(c0 + c) * job.ld;
      a_rows[c][lane] = inside && i0 + lane < job.m ? col[i0 + lane] : 0.0;
      a_cols[c][lane] = inside && j0 + lane < job.k ? col[j0 + lane] : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int c = 0; c < kChunk; ++c) {
      const double x = a_rows[c][lane];
#pragma unroll
      for (int q = 0; q < kPerThread; ++q) acc[q] += x * a_cols[c][group + q * kGroups];
    }
    __syncthreads();
  }
  __syncthreads();
  const int i = i0 + lane;
  const int pos = position[lane];
  if (i >= job.m || pos < 0) return;
#pragma unroll
  for (int q = 0; q < kPerThread; ++q) {
    const int j = j0 + group + q * kGroups;
    const int col = column[group + q * kGroups];
    if (j < job.k && i >= j && col >= 0) atomicAdd(t.values + static_cast<std::size_t>(col) * t.nrows + pos, -acc[q]);
  }
}

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
