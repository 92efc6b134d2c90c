// A "scheme" is a string naming one way to solve T x = b on a GPU: a kernels::gpu_variants() name,
// "cusparse" (cuSPARSE SpSV) or "ag" / "ag:key=val,..." (an AG-SpTRSV code variant, kernels::AgSolver).
// PreparedScheme does the scheme's preparation once (cuSPARSE analysis buffer, AG plan; nothing for
// the plain variants) and then solves. Used by the search, the bench and, through WorkerSchemes, the
// CUDA codelet. prepared_scheme_cuda.cpp does the work; prepared_scheme_none.cpp answers for builds
// without CUDA (every scheme is refused there).
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv.hpp"
#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "sptrsv/analysis.hpp"

namespace hetsparse::sptrsv {

enum class SchemeKind { Variant, Cusparse, Ag };

// The kind of a scheme this build can run. InvalidArgument naming the scheme when it is unknown
// (listing the known ones), when an "ag:" string does not parse, or in a build without CUDA.
SchemeKind check_scheme(const std::string& scheme);

// kernels::gpu_variants() in CUDA builds, empty otherwise.
std::vector<std::string> plain_variant_names();

// The search space for "auto" (search mode): every plain variant, cusparse, then the pruned AG space
// for this matrix (kernels::ag_search_space). Empty without CUDA.
std::vector<std::string> candidate_schemes(const TriangularPattern& p);

class PreparedScheme {
 public:
  // host: the analysed pattern's host view; device: its device copy. Both must outlive this object.
  // Prepares on `stream` and waits for it. cuSPARSE binds its handle to `stream`: solve() must then
  // be given the same stream (InvalidArgument otherwise).
  PreparedScheme(cudaStream_t stream, const kernels::TriangularView& host, const kernels::TriangularDeviceView& device,
                 const std::string& scheme);
  ~PreparedScheme();
  PreparedScheme(const PreparedScheme&) = delete;
  PreparedScheme& operator=(const PreparedScheme&) = delete;

  // Enqueues the solve (b, x in device memory; the workspace as kernels::make_solve_workspace for n).
  // cusparse needs b != x (InvalidArgument).
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const;

  const std::string& scheme() const;
  SchemeKind kind() const;
  double preprocess_seconds() const;  // wall time of the preparation (0 for a plain variant)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// What the sptrsv codelet's CUDA implementation calls for a scheme that needs preparation (cusparse,
// ag): lazily, on the first solve a CUDA worker runs for this pattern, that worker uploads its own
// copy of the matrix (DeviceTriangular, so no StarPU buffer can move under a prepared plan) and
// prepares the scheme on its StarPU stream; later solves on that worker reuse it. So the FIRST solve
// on each CUDA worker includes the preparation (TriangularSolver's callers warm up once per worker).
// The pattern must outlive this object and stay unchanged (TriangularSolver makes a new one after
// update_values).
class WorkerSchemes final : public codelets::SptrsvCudaPlans {
 public:
  WorkerSchemes(const TriangularPattern& pattern, std::string scheme);
  ~WorkerSchemes() override;
  void solve(int worker, cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) override;
  // Preparation wall time summed over the workers prepared so far (device upload included).
  double preprocess_seconds() const;

 private:
  struct Slot;
  const TriangularPattern& pattern_;
  std::string scheme_;
  mutable std::mutex mutex_;
  std::map<int, std::unique_ptr<Slot>> slots_;
  double preprocess_seconds_ = 0;
};

}  // namespace hetsparse::sptrsv
