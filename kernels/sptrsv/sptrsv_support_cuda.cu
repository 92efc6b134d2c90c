// Host-side support of the CUDA SpTRSV variants: the workspace, the device copy of an analysed
// matrix, and the by-name dispatcher.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {
namespace {

using Variant = void (*)(cudaStream_t, const TriangularDeviceView&, const double*, double*, const SolveWorkspace&,
                         SolveOrder);

struct NamedVariant {
  const char* name;
  Variant run;
  SolveOrder order;
};

constexpr NamedVariant kVariants[] = {{"syncfree", sptrsv_syncfree_cuda, SolveOrder::Natural},
                                      {"capellini", sptrsv_capellini_cuda, SolveOrder::Natural},
                                      {"yuenyeung", sptrsv_yuenyeung_cuda, SolveOrder::Natural},
                                      {"levelset", sptrsv_levelset_cuda, SolveOrder::Level},
                                      {"syncfree_levelorder", sptrsv_syncfree_cuda, SolveOrder::Level},
                                      {"capellini_levelorder", sptrsv_capellini_cuda, SolveOrder::Level},
                                      {"yuenyeung_levelorder", sptrsv_yuenyeung_cuda, SolveOrder::Level}};

// A yuenyeung warp solves at most 32 rows; a longer segment would leave rows unsolved and the rows
// after them waiting forever, and so would split-row parts that never reach their last one: both
// are checked before they reach the device.
void check_segments(const index_t* segments, index_t count, index_t n) {
  if (segments == nullptr) return;
  const auto fail = [](const std::string& what) { throw InvalidArgument("DeviceTriangular: fusion segments " + what); };
  if (count < 0 || segments[0] != 0 || segments[count] != n) fail("must run from 0 to n");
  const index_t* codes = segments + count + 1;
  for (index_t s = 0; s < count; ++s) {
    const index_t length = segments[s + 1] - segments[s];
    const std::string which = "segment " + std::to_string(s);
    if (codes[s] == 0) {
      if (length < 1 || length > 32) fail("must each span 1 to 32 rows; " + which + " does not");
      continue;
    }
    if (codes[s] < 0) fail(which + " has a negative part code");
    const SegmentPart part = SegmentPart::decode(codes[s]);
    const bool last = part.q + 1 == part.k;
    if (part.k < 2 || part.q >= part.k || part.slot + part.k > SegmentPart::kSlots || length != (last ? 1 : 0))
      fail(which + " is not a valid part of a split row");
    if (!last && (s + 1 >= count || codes[s + 1] != SegmentPart::encode(part.slot, part.q + 1, part.k)))
      fail(which + " is not followed by the next part of its row");
  }
}

}  // namespace

namespace {
// Counter first, flags after it (one memset clears both), then the partial slots, 8-byte aligned.
std::size_t flag_bytes(index_t n) { return (static_cast<std::size_t>(n) + 1) * sizeof(int); }
std::size_t partials_offset(index_t n) { return (flag_bytes(n) + 7) / 8 * 8; }
}  // namespace

std::size_t solve_workspace_bytes(index_t n) {
  return partials_offset(n) + static_cast<std::size_t>(SegmentPart::kSlots) * sizeof(double);
}

SolveWorkspace make_solve_workspace(void* device_buffer, index_t n) {
  auto* words = static_cast<int*>(device_buffer);
  auto* partials = reinterpret_cast<double*>(static_cast<char*>(device_buffer) + partials_offset(n));
  return {reinterpret_cast<unsigned*>(words), words + 1, partials, n};
}

void reset_solve_workspace(cudaStream_t stream, const SolveWorkspace& ws) {
  // The partial slots need no clearing: a part writes its slot before its row's last part reads it.
  check_cuda(cudaMemsetAsync(ws.next_item, 0, flag_bytes(ws.n), stream), "cudaMemsetAsync in reset_solve_workspace");
}

std::vector<std::string> gpu_variants() {
  std::vector<std::string> names;
  for (const NamedVariant& v : kVariants) names.emplace_back(v.name);
  return names;
}

void solve_cuda(const std::string& variant, cudaStream_t stream, const TriangularDeviceView& t, const double* b,
                double* x, const SolveWorkspace& ws) {
  std::string known;
  for (const NamedVariant& v : kVariants) {
    if (variant == v.name) return v.run(stream, t, b, x, ws, v.order);
    known += std::string(known.empty() ? "" : ", ") + v.name;
  }
  throw InvalidArgument("solve_cuda: unknown SpTRSV variant '" + variant + "' (known: " + known + ")");
}

DeviceTriangular::DeviceTriangular(cudaStream_t stream, const TriangularView& host) {
  check_segments(host.segments, host.num_segments, host.n);
  check_segments(host.level_segments, host.num_level_segments, host.n);
  const auto upload = [&](const auto* data, std::size_t count) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(data)>>;
    if (data == nullptr || count == 0) return static_cast<const T*>(nullptr);
    void* device = nullptr;
    check_cuda(cudaMalloc(&device, count * sizeof(T)), "cudaMalloc in DeviceTriangular");
    allocations_.push_back(device);
    check_cuda(cudaMemcpyAsync(device, data, count * sizeof(T), cudaMemcpyHostToDevice, stream),
               "cudaMemcpyAsync in DeviceTriangular");
    return static_cast<const T*>(device);
  };
  const auto n = static_cast<std::size_t>(host.n);
  const auto nnz = static_cast<std::size_t>(host.rowptr[host.n]);
  try {
    view_.n = host.n;
    view_.upper = host.upper;
    view_.rowptr = upload(host.rowptr, n + 1);
    view_.colind = upload(host.colind, nnz);
    view_.values = upload(host.values, nnz);
    view_.num_levels = host.num_levels;
    view_.level_rows = upload(host.level_rows, n);
    if (host.level_ptr != nullptr) host_level_ptr_.assign(host.level_ptr, host.level_ptr + host.num_levels + 1);
    if (host.level_nnz != nullptr) host_level_nnz_.assign(host.level_nnz, host.level_nnz + host.num_levels);
    view_.host_level_ptr = host_level_ptr_.empty() ? nullptr : host_level_ptr_.data();
    view_.host_level_nnz = host_level_nnz_.empty() ? nullptr : host_level_nnz_.data();
    const auto bounds = [](const index_t* segments, index_t count) {
      return segments == nullptr ? std::size_t{0} : 2 * static_cast<std::size_t>(count) + 1;
    };
    view_.num_segments = host.segments == nullptr ? 0 : host.num_segments;
    view_.segments = upload(host.segments, bounds(host.segments, host.num_segments));
    view_.num_level_segments = host.level_segments == nullptr ? 0 : host.num_level_segments;
    view_.level_segments = upload(host.level_segments, bounds(host.level_segments, host.num_level_segments));
    if (host.level_rowptr != nullptr) {
      view_.level_rowptr = upload(host.level_rowptr, n + 1);
      view_.level_colind = upload(host.level_colind, nnz);
      view_.level_values = upload(host.level_values, nnz);
    }
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in DeviceTriangular");
  } catch (...) {
    for (void* p : allocations_) cudaFree(p);
    throw;
  }
}

DeviceTriangular::~DeviceTriangular() {
  for (void* p : allocations_) cudaFree(p);
}

}  // namespace hetsparse::kernels
