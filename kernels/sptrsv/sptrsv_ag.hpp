// AG-SpTRSV (Hu et al., "An Automatic Framework to Optimize Sparse Triangular Solve on GPUs",
// sections 4.2-4.5): one parameterised code-variant template instead of fixed algorithms. A scheme
// picks the parallelism (n_g subwarps per warp, sw_rnnz, resident warps n_w), the graph transform
// (rows merged into nodes), and the multi-hierarchy schedule (nodes -> node groups -> warps ->
// kernels). The host transform and schedule (sptrsv/ag/) make an AgPlan
// (sptrsv_ag_plan.hpp) once; AgSolver uploads it and solves with persistent warps that walk their own
// static list of node groups (kernels: sptrsv_ag_cuda.cu). Compiles without CUDA headers (cudaStream_t comes from sptrsv.hpp).
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"

namespace hetsparse::kernels {

// How consecutive rows (in the solve order, see AgScheme::level_reorder) are merged into nodes.
enum class AgTransform {
  MergeFixed,   // every rb rows form a node
  MergeAvg,     // each chunk of rb rows is one node if its mean row length <= thresh, else a node per row
  MergeThresh,  // rows of <= thresh entries merged greedily up to rb per node; longer rows stand alone
};
// First hierarchy: how nodes of one level are packed into node groups of n_g.
enum class AgRowGrouping { Sequential, Balance };  // by start position / by entries, decreasing
// Second hierarchy: which persistent warp gets a node group.
enum class AgWarpSchedule { RoundRobin, Balance, Locality };

constexpr index_t kAgSwInfinity = std::numeric_limits<index_t>::max();  // "sw=inf": never collaborate
constexpr double kAgAlphaInfinity = std::numeric_limits<double>::infinity();  // "al=inf": one kernel

struct AgScheme {
  int subwarps = 4;        // n_g in {1,2,4,8,16,32}: subwarps per warp, 32 / n_g lanes each  (key ng)
  index_t sw_rnnz = 8;     // a node whose mean row length (entries incl. diagonal) exceeds this is
                           // solved row by row by its whole subwarp, else a row per lane  (key sw)
  bool shared_read = false;       // warp copies its group's entries to shared memory first  (key sr)
  bool sync_elimination = true;   // single-level kernels skip flag waits (and flags nobody reads)  (key se)
  int resident_warps = 16;        // n_w in 1..32: working warps per block, one block per SM  (key nw)
  AgTransform transform = AgTransform::MergeFixed;  // (key tf: fixed|avg|thresh)
  index_t rb = 1;                 // rows per node bound, >= 1  (key rb)
  index_t thresh = 8;             // row-length threshold of merge_avg / merge_thresh  (key th)
  bool level_reorder = false;     // rows taken in level order instead of natural order  (key lr)
  AgRowGrouping rg = AgRowGrouping::Sequential;     // (key rg: seq|balance)
  AgWarpSchedule ws = AgWarpSchedule::RoundRobin;   // (key ws: rr|balance|locality)
  double alpha_level = kAgAlphaInfinity;  // a level with more than alpha * (resident warps of the GPU)
                                          // node groups gets its own kernel; smaller adjacent levels
                                          // share one sync-free kernel. 0 = level-set  (key al)
};
inline bool operator==(const AgScheme& a, const AgScheme& b) {
  return a.subwarps == b.subwarps && a.sw_rnnz == b.sw_rnnz && a.shared_read == b.shared_read &&
         a.sync_elimination == b.sync_elimination && a.resident_warps == b.resident_warps &&
         a.transform == b.transform && a.rb == b.rb && a.thresh == b.thresh && a.level_reorder == b.level_reorder &&
         a.rg == b.rg && a.ws == b.ws && a.alpha_level == b.alpha_level;
}
inline bool operator!=(const AgScheme& a, const AgScheme& b) { return !(a == b); }

namespace ag {
struct AgPlan;
struct AgMachine;
}  // namespace ag

// The current CUDA device as AG-SpTRSV plans for it with `scheme`: one persistent block of
// scheme.resident_warps working warps per SM. InvalidArgument when such a block cannot be resident.
ag::AgMachine ag_machine(const AgScheme& scheme);

// Upload of a plan (made on the host by sptrsv::ag::make_ag_plan for ag_machine(scheme)), then solves on
// the device. Not copyable.
class AgSolver {
 public:
  // host: the analysed matrix (its diagonal is read); device: the same matrix on the GPU (e.g.
  // DeviceTriangular::view()), which must outlive the solver; plan: made for this matrix, this scheme
  // and ag_machine(scheme). Uploads on `stream` and waits for it. InvalidArgument when they disagree.
  AgSolver(cudaStream_t stream, const TriangularView& host, const TriangularDeviceView& device,
           const AgScheme& scheme, const ag::AgPlan& plan);
  ~AgSolver();
  AgSolver(const AgSolver&) = delete;
  AgSolver& operator=(const AgSolver&) = delete;
  AgSolver(AgSolver&&) noexcept;
  AgSolver& operator=(AgSolver&&) noexcept;

  // Async on `stream`, graph-capturable (kernel launches and one memset only), x may equal b, both in
  // device memory. ws as for the sync-free variants (solve_workspace_bytes(n)), reset by the solve.
  void solve(cudaStream_t stream, const double* b, double* x, const SolveWorkspace& ws) const;

  double preprocess_seconds() const;  // the plan's host transform + schedule (AgPlan::seconds) + upload
  const AgScheme& scheme() const;
  index_t num_kernels() const;  // kernel launches per solve (third hierarchy)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hetsparse::kernels
