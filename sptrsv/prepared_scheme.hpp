// A "scheme" names one way to solve T x = b on a GPU: a kernels::gpu_variants() name, "cusparse"
// (cuSPARSE SpSV), "clusterlevels[:key=val,...]" (kernels::ClusterLevelsSolver: deep, narrow DAGs
// inside one thread-block cluster), "ag" / "ag:key=val,..." (an AG-SpTRSV code variant,
// kernels::AgSolver), or "powK:BASE" (K = 2, 4, 8, 16): the powered form of the system
// (powered_triangle.hpp), its right-hand-side passes then BASE (any scheme but another pow) on the
// triangle I - M^K. Names are parsed into a SchemeSpec (scheme_spec.hpp); PreparedScheme does the
// family's preparation once (sptrsv/schemes/: cuSPARSE analysis buffer, AG plan; nothing for the plain
// variants) and then solves. Used by the search, the bench and, through WorkerSchemes, the CUDA
// codelet. prepared_scheme_cuda.cpp does the work; prepared_scheme_none.cpp answers for builds
// without CUDA (every scheme is refused there).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/powered_triangle.hpp"
#include "sptrsv/preparation_steps.hpp"
#include "sptrsv/scheme_spec.hpp"

namespace hetsparse::sptrsv {

// The kind of a scheme this build can run: parse_scheme's, and InvalidArgument in a build without CUDA.
SchemeKind check_scheme(const std::string& scheme);

// The search space for "auto" (search mode): every plain variant, cusparse, clusterlevels, wavefront
// (long rows as warp rows, any length), the powered
// forms of long-chained matrices with short rows (at least kPoweredMinLevels levels, rows of at most
// kPoweredMaxRow entries: K = 2..16 over cusparse, syncfree_levelorder, yuenyeung_levelorder and clusterlevels;
// capellini trailed them by 2-4x on the Laplacians), then the pruned AG
// space for this matrix (kernels::ag_search_space). Empty without CUDA.
constexpr std::int64_t kPoweredMinLevels = 64;
constexpr std::int64_t kPoweredMaxRow = 64;
// The lists are made once per class of shapes (every "auto" analysis asks) and kept for the process:
// the references stay valid.
const std::vector<std::string>& candidate_schemes(const TriangularPattern& p);
// The same from the sizes and the longest row (entries) alone: a GPU analysis's features.
const std::vector<std::string>& candidate_schemes(index_t n, std::int64_t nnz, index_t levels, std::int64_t longest_row);
// The same without the powered schemes (which need the host pattern to qualify).
const std::vector<std::string>& unpowered_candidates(index_t n, std::int64_t nnz, index_t levels);
// Whether `list` is one of the lists above (they live, unchanged, for the process: SchemeModel::predict
// may remember a list by its address).
bool is_candidate_list(const std::vector<std::string>& list);
// The powered part of that space alone (empty when the matrix does not qualify, or without CUDA).
std::vector<std::string> powered_candidates(const TriangularPattern& p);

// A matrix the GPU analysis left on the device, for preparing a scheme without the host pattern:
// its device arrays, its level schedule on the host (levels: n, upper, num_levels, level_ptr,
// level_nnz; no rows) and the counts the preparations would otherwise take from the host rows.
struct DeviceMatrix {
  kernels::TriangularDeviceView view;
  kernels::TriangularView levels;
  std::int64_t nnz = 0;
  index_t longest_off_diagonals = 0;
};

// Whether `spec` can be prepared from a DeviceMatrix alone: cusparse, clusterlevels (rows that fit
// its pack) and powK:clusterlevels (transformed on the GPU); plain variants need no preparation.
bool prepares_from_device_matrix(const SchemeSpec& spec);

class PreparedScheme {
 public:
  // host: the analysed pattern's host view; device: its device copy. Both must outlive this object.
  // Prepares on `stream` and waits for it. cuSPARSE binds its handle to `stream`: solve() must then
  // be given the same stream (InvalidArgument otherwise). A pow scheme takes its host transform from
  // `powered` (built there once per power for this matrix) or, when null, builds its own; the
  // transform's failure (too many entries, growth) is an InvalidArgument from here.
  PreparedScheme(cudaStream_t stream, const kernels::TriangularView& host, const kernels::TriangularDeviceView& device,
                 const std::string& scheme, PoweredCache* powered = nullptr);
  // The same from a parsed spec (scheme() is then to_string(spec)).
  PreparedScheme(cudaStream_t stream, const kernels::TriangularView& host, const kernels::TriangularDeviceView& device,
                 const SchemeSpec& spec, PoweredCache* powered = nullptr);
  // From the device matrix alone (m outlives the result); null when the scheme needs the host
  // pattern after all (prepares_from_device_matrix false, or rows too long for the pack). A plain
  // variant solves on m's arrays.
  static std::unique_ptr<PreparedScheme> from_device(cudaStream_t stream, const DeviceMatrix& m, const SchemeSpec& spec);
  ~PreparedScheme();
  PreparedScheme(const PreparedScheme&) = delete;
  PreparedScheme& operator=(const PreparedScheme&) = delete;

  // Enqueues the solve (b, x in device memory; the workspace as kernels::make_solve_workspace for n).
  // cusparse needs b != x (InvalidArgument).
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const;

  const std::string& scheme() const;
  SchemeKind kind() const;
  double preprocess_seconds() const;  // wall time of the preparation (0 for a plain variant)
  // The preparation by step where the family times its parts (else one step, "scheme").
  PreparationSteps steps() const;

 private:
  PreparedScheme();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Where WorkerSchemes takes the matrix from: the host pattern (built on the first call when the
// solver was analysed on the GPU), and the GPU analysis when there was one: a worker on its device
// then prepares from the arrays already there (no upload) where the scheme allows.
struct SchemeSource {
  std::function<const TriangularPattern&()> pattern;
  const DeviceMatrix* device = nullptr;
  int device_ordinal = -1;  // the CUDA device holding `device`
};

// What the sptrsv codelet's CUDA implementation calls for a scheme that needs preparation (cusparse,
// ag): lazily, on the first solve a CUDA worker runs for this pattern, that worker uploads its own
// copy of the matrix (DeviceTriangular, so no StarPU buffer can move under a prepared plan) and
// prepares the scheme on its StarPU stream; later solves on that worker reuse it. A worker on the
// device of a GPU analysis prepares from its arrays instead (SchemeSource), which live as long as the
// solver's analysis. So the FIRST solve on each CUDA worker includes the preparation
// (TriangularSolver's callers warm up once per worker). The pattern must outlive this object and
// stay unchanged (TriangularSolver makes a new one after update_values).
class WorkerSchemes final : public codelets::SptrsvCudaPlans {
 public:
  WorkerSchemes(const TriangularPattern& pattern, std::string scheme);
  WorkerSchemes(SchemeSource source, std::string scheme);
  ~WorkerSchemes() override;
  void solve(int worker, cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) override;
  void solve_host(int worker, cudaStream_t stream, index_t n, const double* host_b, double* host_x,
                  double* device_scratch, const kernels::SolveWorkspace& ws) override;
  // Preparation wall time summed over the workers prepared so far (device upload included).
  double preprocess_seconds() const;
  // The same by step (matrix_upload, the scheme's parts), summed over the workers.
  PreparationSteps steps() const;

 private:
  struct Slot;
  // The matrix uploaded (or taken from the GPU analysis) and the scheme prepared; adds its steps.
  std::unique_ptr<Slot> make_slot(cudaStream_t stream, PreparationSteps& steps);
  PoweredCache& powered();  // built on first use from the host pattern
  SchemeSource source_;
  std::string scheme_;
  SchemeSpec spec_;  // scheme_, parsed once
  mutable std::mutex mutex_;
  std::unique_ptr<PoweredCache> powered_;  // one host transform for all workers
  std::map<int, std::unique_ptr<Slot>> slots_;
  std::unique_ptr<Slot> prebuilt_;  // powK:clusterlevels, prepared at construction on prebuilt_device_
  int prebuilt_device_ = -1;
  PreparationSteps steps_;  // preprocess_seconds() is their total
};

}  // namespace hetsparse::sptrsv
