// AG-SpTRSV (Hu et al., "An Automatic Framework to Optimize Sparse Triangular Solve on GPUs",
// sections 4.2-4.5): one parameterised code-variant template instead of fixed algorithms. A scheme
// picks the parallelism (n_g subwarps per warp, sw_rnnz, resident warps n_w), the graph transform
// (rows merged into nodes), and the multi-hierarchy schedule (nodes -> node groups -> warps ->
// kernels). AgSolver does the host transform and schedule once, then solves with persistent warps
// that walk their own static list of node groups. Host plan: sptrsv_ag_plan.hpp; kernels:
// sptrsv_ag_cuda.cu. Compiles without CUDA headers (cudaStream_t comes from sptrsv.hpp).
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
bool operator==(const AgScheme& a, const AgScheme& b);
inline bool operator!=(const AgScheme& a, const AgScheme& b) { return !(a == b); }

// InvalidArgument naming the field when a scheme is out of range.
void validate(const AgScheme& scheme);
// "ag:ng=4,sw=8,sr=0,se=1,nw=16,tf=fixed,rb=1,th=8,lr=0,rg=seq,ws=rr,al=inf"; every field written.
std::string to_string(const AgScheme& scheme);
// Accepts "ag" (defaults) and "ag:key=val,..." (any subset of the keys above, in any order; the rest
// default). InvalidArgument naming the bad key or value. parse_ag_scheme(to_string(s)) == s.
AgScheme parse_ag_scheme(const std::string& name);

// The pruned scheme space of AG 4.5 for a matrix of this shape: tens of schemes, each valid and
// distinct, chosen by mean row length (subwarp width, sw_rnnz, merging) and by parallelism n /
// num_levels (alpha_level, scheduling). Deterministic.
std::vector<AgScheme> ag_search_space(index_t n, std::int64_t nnz, index_t num_levels, double mean_row_nnz);

// Host preprocessing (transform + schedule, validated: InvalidArgument if a warp could wait on a node
// not scheduled before it) and upload of the plan; then solves on the device. Not copyable.
class AgSolver {
 public:
  // host: the analysed matrix with its level schedule (level_ptr, level_rows); device: the same
  // matrix on the GPU (e.g. DeviceTriangular::view()); both must outlive the solver. Uses the current
  // CUDA device's SM count; uploads on `stream` and waits for it.
  AgSolver(cudaStream_t stream, const TriangularView& host, const TriangularDeviceView& device,
           const AgScheme& scheme);
  ~AgSolver();
  AgSolver(const AgSolver&) = delete;
  AgSolver& operator=(const AgSolver&) = delete;

  // Async on `stream`, graph-capturable (kernel launches and one memset only), x may equal b, both in
  // device memory. ws as for the sync-free variants (solve_workspace_bytes(n)), reset by the solve.
  void solve(cudaStream_t stream, const double* b, double* x, const SolveWorkspace& ws) const;

  double preprocess_seconds() const;  // host transform + schedule + upload
  const AgScheme& scheme() const;
  index_t num_kernels() const;  // kernel launches per solve (third hierarchy)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hetsparse::kernels
