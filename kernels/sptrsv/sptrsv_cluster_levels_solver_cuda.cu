// ClusterLevelsSolver (see sptrsv_cluster_levels.hpp): the plan shrunk to what the device
// co-schedules, the rows packed (on the device when no row overflows), b gathered into level order
// and the runs launched (sptrsv_cluster_levels_cuda.cu) or solved by level-set launches.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_allocations_cuda.hpp"
#include "kernels/split/split.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels_launch.hpp"

namespace hetsparse::kernels {
namespace {

using cluster_levels_detail::feasible_for;
using cluster_levels_detail::launch_for;
using cluster_levels_detail::Packed;
using cluster_levels_detail::RowsInput;

}  // namespace

struct ClusterLevelsSolver::DeviceArrays {
  DeviceAllocations memory{"ClusterLevelsSolver"};
  Packed packed{};
  RowsInput rows{};  // lanes > 1 (then no pack)
  bool shared_x = false;
  const index_t* level_ptr = nullptr;
  double* rhs = nullptr;
};

// A group of lanes a row reads the rows as analysed: the plan, the cluster the device co-schedules.
void ClusterLevelsSolver::prepare_rows(cudaStream_t stream, const TriangularView& host, int rows_per_group) {
  DeviceArrays& a = *arrays_;
  a.level_ptr = a.memory.upload(stream, host.level_ptr, static_cast<std::size_t>(host.num_levels) + 1);
  const StoredRows stored = stored_rows(device_);
  a.rows = RowsInput{host.n,         host.upper,    stored.by_position, device_.level_rows, stored.rowptr,
                     stored.colind,  stored.values, nullptr,            a.level_ptr};
  // x's copy must also fit what this device lets a block opt in to (227 KB on Hopper, less before).
  int device = 0, optin = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice in ClusterLevelsSolver");
  check_cuda(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
             "cudaDeviceGetAttribute in ClusterLevelsSolver");
  a.shared_x = host.n <= cluster_levels_detail::kRowsSharedX &&
               static_cast<std::size_t>(host.n) * sizeof(double) <= static_cast<std::size_t>(optin);
  // A smaller cluster than planned (the device's limit) takes more threads a block.
  for (;;) {
    const int blocks = cluster_levels_detail::rows_feasible_for(plan_.lanes, a.shared_x, plan_.cluster_blocks,
                                                                plan_.block_threads, host.n);
    if (blocks == plan_.cluster_blocks) break;
    plan_.cluster_blocks = blocks;
    plan_.block_threads = cluster_rows_block_threads(plan_.fullest_narrow, plan_.lanes, blocks, rows_per_group);
  }
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in ClusterLevelsSolver");
}

ClusterLevelsSolver::ClusterLevelsSolver(cudaStream_t stream, const TriangularView& host,
                                         const TriangularDeviceView& device, const ClusterLevelsOptions& options,
                                         index_t longest_row)
    : device_(device), arrays_(std::make_unique<DeviceArrays>()) {
  if (host.n != device.n || host.num_levels != device.num_levels || host.upper != device.upper) {
    throw InvalidArgument("ClusterLevelsSolver: the host and device views describe different matrices");
  }
  if (options.lanes > 1) {
    plan_ = plan_cluster_levels(host, options);
    if (host.n == 0) return;
    if (device.level_rows == nullptr) throw InvalidArgument("ClusterLevelsSolver: the device view carries no level schedule");
    prepare_rows(stream, host, options.target_rows_per_thread);
    return;
  }
  const index_t longest = longest_row >= 0 ? longest_row : cluster_levels_longest(host);
  if (longest > ClusterLevelsPack::kMaxWidth && host.rowptr == nullptr) {
    throw InvalidArgument("ClusterLevelsSolver: rows of " + std::to_string(longest) +
                          " off-diagonals overflow the pack, which then needs the host matrix");
  }
  width_ = longest <= 2 ? 2 : longest <= 4 ? 4 : ClusterLevelsPack::kMaxWidth;
  ClusterLevelsOptions o = options;
  // A 1024-thread block of width 4 spills its two held rows (64 registers) and measured slower than
  // 512-thread blocks; width 8 does not fit at all.
  if (width_ == ClusterLevelsPack::kMaxWidth || (width_ == 4 && o.block_threads == 0)) o.block_threads = 512;
  plan_ = plan_cluster_levels(host, o);
  if (host.n == 0) return;
  if (device.level_rows == nullptr || device.host_level_ptr == nullptr || device.host_level_nnz == nullptr) {
    throw InvalidArgument("ClusterLevelsSolver: the device view carries no level schedule");
  }
  plan_.cluster_blocks = feasible_for(width_, plan_.block_threads, plan_.cluster_blocks);
  DeviceArrays& a = *arrays_;
  DeviceAllocations& mem = a.memory;
  a.level_ptr = mem.upload(stream, host.level_ptr, static_cast<std::size_t>(host.num_levels) + 1);
  a.packed.n = host.n;
  a.packed.level_rows = device.level_rows;
  if (longest <= ClusterLevelsPack::kMaxWidth) {  // no overflow: pack on the device (ring codes follow the final plan)
    const auto n = static_cast<std::size_t>(host.n), w = static_cast<std::size_t>(width_);
    ClusterLevelsDevicePack out{mem.allocate<double>(n), mem.allocate<index_t>(w * n), mem.allocate<double>(w * n)};
    pack_cluster_levels_cuda(stream, device, a.level_ptr, plan_, width_, out);
    a.packed.diagonal = out.diagonal;
    a.packed.cols = out.cols;
    a.packed.values = out.values;
  } else {
    const ClusterLevelsPack pack = pack_cluster_levels(host, plan_);
    a.packed.diagonal = mem.upload(stream, pack.diagonal);
    a.packed.cols = mem.upload(stream, pack.cols);
    a.packed.values = mem.upload(stream, pack.values);
    a.packed.overflow_ptr = mem.upload(stream, pack.overflow_ptr);
    a.packed.overflow_cols = mem.upload(stream, pack.overflow_cols);
    a.packed.overflow_values = mem.upload(stream, pack.overflow_values);
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in ClusterLevelsSolver");  // pack freed next
  }
  a.rhs = mem.allocate<double>(static_cast<std::size_t>(host.n));
  a.packed.rhs = a.rhs;
  a.packed.prefetch_levels = plan_.prefetch_levels;
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in ClusterLevelsSolver");
}

ClusterLevelsSolver::~ClusterLevelsSolver() = default;

void ClusterLevelsSolver::solve(cudaStream_t stream, const double* b, double* x) const {
  if (device_.n == 0) return;
  const DeviceArrays& a = *arrays_;
  const bool by_groups = plan_.lanes > 1;
  // A thread a row reads b gathered into level order; a group reads b[row] itself.
  if (!by_groups) split_gather_cuda(stream, device_.level_rows, device_.n, 0, b, device_.n, a.rhs, device_.n, nullptr, 0, 1);
  RowsInput rows = a.rows;
  rows.b = b;
  const int blocks = plan_.cluster_blocks;
  for (const ClusterLevelsRun& run : plan_.runs) {
    if (run.wide) {
      // Reads b itself, which still holds every row of these levels: b may be x, but a row's x is
      // written only when its level is solved.
      sptrsv_levelset_range_cuda(stream, device_, b, x, run.level_begin, run.level_end);
    } else if (by_groups) {
      cluster_levels_detail::rows_launch_for(plan_.lanes, a.shared_x, stream, blocks, plan_.block_threads, rows, run, x);
    } else {
      launch_for(width_, plan_.block_threads, stream, blocks, plan_.one_block_ring, a.packed, a.level_ptr, run, x);
    }
  }
}

}  // namespace hetsparse::kernels
