// GPU subtree factorization, level by level (supernode_subtree_gpu.hpp): batched block-column
// panel kernels (supernode_subtree_panels.cuh) up to batched_max_cols, cuSOLVER/cuBLAS above, a fused multi-target update kernel
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
#include "kernels/supernode/supernode_subtree_panels.cuh"

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
// needed. A call ends with a stream synchronisation, so the next call may overwrite it. Allocating
// pinned memory serializes the GPU's streams and freeing it waits for the whole device, so a grown
// buffer keeps the smaller ones until the thread ends, and reserve_subtree_staging() lets a worker
// allocate before it runs tasks.
void* pinned_staging(std::size_t bytes, const char* routine) {
  struct Buffers {
    std::vector<void*> held;  // the last one is in use
    std::size_t bytes = 0;
    ~Buffers() {
      for (void* p : held) cudaFreeHost(p);
    }
  };
  thread_local Buffers buffers;
  if (buffers.bytes < bytes) {
    const std::size_t grown = std::max({bytes + bytes / 4, 2 * buffers.bytes, std::size_t(1) << 20});
    void* p = nullptr;
    check_cuda(cudaHostAlloc(&p, grown, cudaHostAllocDefault), routine);
    buffers.held.push_back(p);
    buffers.bytes = grown;
  }
  return buffers.held.back();
}

std::size_t aligned(std::size_t bytes) { return (bytes + kWorkAlignment - 1) / kWorkAlignment * kWorkAlignment; }

double product_flops(const PanelLocation& d, const SubtreeLevels::Update& u) {
  return 2.0 * double(d.nrows - u.r0) * double(u.r1 - u.r0) * double(d.ncols);
}
bool batched_factor(const SubtreeLevels& p, const PanelLocation& l) { return l.ncols <= p.batched_max_cols; }
bool fused(const SubtreeLevels& p, const PanelLocation& d, const SubtreeLevels::Update& u) {
  return product_flops(d, u) < p.fused_max_flops;
}

int panel_steps(const PanelLocation& l) { return (l.ncols + kPanelCols - 1) / kPanelCols; }

// The work buffer: [column jobs][trail jobs][targeted jobs][info ints][cuSOLVER work][one product C].
struct Layout {
  std::size_t column_jobs = 0, trail_jobs = 0, targeted_jobs = 0, info = 0, solver = 0, product = 0, total = 0;
  std::size_t solver_bytes = 0;
};
Layout layout_of(cusolverDnHandle_t solver, const PanelLocation* loc, const SubtreeLevels& plan) {
  std::size_t nc = 0, ntr = 0, nt = 0, solver_bytes = 0, product_doubles = 0;
  for (std::int32_t s : plan.order) {
    if (batched_factor(plan, loc[s])) {
      nc += static_cast<std::size_t>(panel_steps(loc[s]));
      ntr += static_cast<std::size_t>(std::max(0, panel_steps(loc[s]) - 1));
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
  L.trail_jobs = aligned(nc * sizeof(ColumnJob));
  L.targeted_jobs = L.trail_jobs + aligned(ntr * sizeof(TrailJob));
  L.info = L.targeted_jobs + aligned(nt * sizeof(TargetedJob));
  L.solver = L.info + aligned(plan.order.size() * sizeof(int));
  L.product = L.solver + aligned(solver_bytes);
  L.total = L.product + product_doubles * sizeof(double);
  L.solver_bytes = solver_bytes;
  return L;
}

// The batched panels' steps, level by level: level l's steps are [level_step[l], level_step[l + 1]),
// step g has the column jobs [column_begin[g], column_begin[g + 1]) and the trail jobs
// [trail_begin[g], trail_begin[g + 1]) (panels still wider than the columns done after it).
struct PanelSteps {
  std::vector<std::int32_t> level_step{0}, column_begin{0}, trail_begin{0};
  std::vector<std::int32_t> row_blocks, trail_blocks;  // grids, filled as levels are staged
};
PanelSteps count_steps(const SubtreeLevels& plan, const PanelLocation* loc) {
  PanelSteps st;
  for (int l = 0; l < plan.levels(); ++l) {
    int steps = 0;
    for (std::int32_t k = plan.level_begin[l]; k < plan.level_begin[l + 1]; ++k)
      if (batched_factor(plan, loc[plan.order[k]])) steps = std::max(steps, panel_steps(loc[plan.order[k]]));
    for (int step = 0; step < steps; ++step) {
      std::int32_t columns = 0, trails = 0;
      for (std::int32_t k = plan.level_begin[l]; k < plan.level_begin[l + 1]; ++k) {
        const PanelLocation& p = loc[plan.order[k]];
        if (!batched_factor(plan, p)) continue;
        columns += p.ncols > step * kPanelCols;
        trails += p.ncols > (step + 1) * kPanelCols;
      }
      st.column_begin.push_back(st.column_begin.back() + columns);
      st.trail_begin.push_back(st.trail_begin.back() + trails);
    }
    st.level_step.push_back(st.level_step.back() + steps);
  }
  st.row_blocks.assign(st.column_begin.size() - 1, 0);
  st.trail_blocks.assign(st.trail_begin.size() - 1, 0);
  return st;
}

}  // namespace
}  // namespace hetsparse::kernels

namespace hetsparse::kernels {

std::size_t supernode_subtree_cuda_work_bytes(cusolverDnHandle_t solver, const PanelLocation* loc,
                                              const SubtreeLevels& plan) {
  return layout_of(solver, loc, plan).total;
}

void reserve_subtree_staging(std::size_t bytes) { pinned_staging(bytes, "reserve_subtree_staging"); }

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
  PanelSteps steps = count_steps(plan, loc);
  std::vector<std::int32_t> targeted_begin(levels + 1, 0);
  for (int l = 0; l < levels; ++l) {
    std::int32_t nt = 0;
    for (std::int32_t k = plan.update_begin[l]; k < plan.update_begin[l + 1]; ++k) {
      const auto& u = plan.updates[k];
      nt += fused(plan, loc[u.d], u) && u.r1 > u.r0;
    }
    targeted_begin[l + 1] = targeted_begin[l] + nt;
  }
  // Pinned staging laid out as the device work: [column jobs][trail jobs][targeted jobs].
  const std::size_t staged_trails = aligned(steps.column_begin.back() * sizeof(ColumnJob));
  const std::size_t staged_targeted = staged_trails + aligned(steps.trail_begin.back() * sizeof(TrailJob));
  auto* const staging = static_cast<unsigned char*>(
      pinned_staging(staged_targeted + targeted_begin[levels] * sizeof(TargetedJob), routine));
  ColumnJob* const columns = reinterpret_cast<ColumnJob*>(staging);
  TrailJob* const trails = reinterpret_cast<TrailJob*>(staging + staged_trails);
  TargetedJob* const targeted = reinterpret_cast<TargetedJob*>(staging + staged_targeted);
  auto* const column_table = reinterpret_cast<ColumnJob*>(base + L.column_jobs);
  auto* const trail_table = reinterpret_cast<TrailJob*>(base + L.trail_jobs);
  auto* const targeted_table = reinterpret_cast<TargetedJob*>(base + L.targeted_jobs);
  int* const info_device = reinterpret_cast<int*>(base + L.info);
  void* const solver_work = base + L.solver;
  double* const product = reinterpret_cast<double*>(base + L.product);
  SubtreeTimings ignored;
  SubtreeTimings& tm = timings ? *timings : ignored;
  PhaseClock clock(stream, timings != nullptr);
  // Builds level l's tables, copies them, returns the fused grid's blocks.
  auto stage_level = [&](int l) {
    for (std::int32_t g = steps.level_step[l]; g < steps.level_step[l + 1]; ++g) {
      const std::int32_t j0 = (g - steps.level_step[l]) * kPanelCols;
      ColumnJob* c = columns + steps.column_begin[g];
      TrailJob* t = trails + steps.trail_begin[g];
      long long rows = 0, trail_blocks = 0;
      for (std::int32_t k = plan.level_begin[l]; k < plan.level_begin[l + 1]; ++k) {
        const std::int32_t s = plan.order[k];
        const PanelLocation& p = loc[s];
        if (!batched_factor(plan, p) || p.ncols <= j0) continue;
        *c++ = {panel(s).values, p.nrows, p.ncols, j0, static_cast<std::int32_t>(rows), s - first, 0};
        rows += row_blocks(p.nrows, p.ncols, j0);
        if (p.ncols <= j0 + kPanelCols) continue;
        const std::int32_t row_tiles = trail_tiles(p.nrows - j0 - kPanelCols);
        *t++ = {panel(s).values, p.nrows, p.ncols, j0, static_cast<std::int32_t>(trail_blocks), row_tiles, 0};
        trail_blocks += static_cast<long long>(row_tiles) * trail_tiles(p.ncols - j0 - kPanelCols);
      }
      if (rows > INT_MAX || trail_blocks > INT_MAX)
        throw InvalidArgument(std::string(routine) + ": a level's panel grid exceeds a grid");
      steps.row_blocks[g] = static_cast<std::int32_t>(rows);
      steps.trail_blocks[g] = static_cast<std::int32_t>(trail_blocks);
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
    const std::int32_t g0 = steps.level_step[l], g1 = steps.level_step[l + 1];
    if (const int n = steps.column_begin[g1] - steps.column_begin[g0]; n > 0)
      check_cuda(cudaMemcpyAsync(column_table + steps.column_begin[g0], columns + steps.column_begin[g0],
                                 n * sizeof(ColumnJob), cudaMemcpyHostToDevice, stream),
                 "panel jobs upload in supernode_subtree_cuda");
    if (const int n = steps.trail_begin[g1] - steps.trail_begin[g0]; n > 0)
      check_cuda(cudaMemcpyAsync(trail_table + steps.trail_begin[g0], trails + steps.trail_begin[g0],
                                 n * sizeof(TrailJob), cudaMemcpyHostToDevice, stream),
                 "trailing jobs upload in supernode_subtree_cuda");
    if (const int n = targeted_begin[l + 1] - targeted_begin[l]; n > 0)
      check_cuda(cudaMemcpyAsync(targeted_table + targeted_begin[l], targeted + targeted_begin[l],
                                 n * sizeof(TargetedJob), cudaMemcpyHostToDevice, stream),
                 "update jobs upload in supernode_subtree_cuda");
    clock.end();
    return static_cast<int>(blocks);
  };
  for (int l = 0; l < levels; ++l) {
    const int fused_blocks = stage_level(l);
    if (steps.level_step[l + 1] > steps.level_step[l]) {
      clock.begin(&tm.batched_factor_ms);
      tm.batched_factors += steps.column_begin[steps.level_step[l] + 1] - steps.column_begin[steps.level_step[l]];
      for (std::int32_t g = steps.level_step[l]; g < steps.level_step[l + 1]; ++g) {
        const int n = steps.column_begin[g + 1] - steps.column_begin[g];
        factor_diagonal<<<(n + kDiagonalWarps - 1) / kDiagonalWarps, 32 * kDiagonalWarps, 0, stream>>>(
            column_table + steps.column_begin[g], n, info_device);
        check_cuda(cudaGetLastError(), "factor_diagonal launch in supernode_subtree_cuda");
        if (steps.row_blocks[g] > 0) {
          solve_rows<<<steps.row_blocks[g], kRowThreads, 0, stream>>>(column_table + steps.column_begin[g], n);
          check_cuda(cudaGetLastError(), "solve_rows launch in supernode_subtree_cuda");
        }
        if (const int t = steps.trail_begin[g + 1] - steps.trail_begin[g]; t > 0) {
          trailing_update<<<steps.trail_blocks[g], dim3(kTrailSide, kTrailSide), 0, stream>>>(
              trail_table + steps.trail_begin[g], t);
          check_cuda(cudaGetLastError(), "trailing_update launch in supernode_subtree_cuda");
        }
      }
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
