// Task insertion for the sparse triangular solve T X = B (or T^T X = B) on one normalised triangular
// matrix (sptrsv::TriangularPattern, see kernels/sptrsv/sptrsv.hpp for the layout), as one task.
// CPU implementation: serial substitution (a StarPU CPU worker is one core). CUDA implementation:
// one of kernels::gpu_variants() on the registered buffers, or a prepared scheme (SptrsvCudaPlans:
// cuSPARSE, AG-SpTRSV) that keeps its own device copy; single right-hand side and no transpose only.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/types.hpp"

namespace hetsparse::codelets {

// A scheme that needs per-worker preparation (implemented by sptrsv::WorkerSchemes). The CUDA
// implementation hands it the StarPU worker id and stream, b and x on that device and the worker's
// solve workspace (not reset: the scheme resets what it uses). Called concurrently from different
// workers; the object must outlive every task that names it.
class SptrsvCudaPlans {
 public:
  virtual ~SptrsvCudaPlans() = default;
  virtual void solve(int worker, cudaStream_t stream, const double* b, double* x,
                     const kernels::SolveWorkspace& ws) = 0;
  // The same with b and x in (pinned) host memory: b is copied into device_scratch (2 n doubles),
  // solved there, and x copied back, all on `stream`; the task's end is x home.
  virtual void solve_host(int worker, cudaStream_t stream, index_t n, const double* host_b, double* host_x,
                          double* device_scratch, const kernels::SolveWorkspace& ws) = 0;
};

// The matrix as registered vector handles. rowptr, colind (index_t) and values (double) are the
// normalised CSR. The rest is what the CUDA variants read; set has_device_data only when they are
// registered (tasks without them must run on CPU workers).
struct SptrsvMatrixHandles {
  rt::HandleId rowptr = 0, colind = 0, values = 0;
  bool has_device_data = false;
  rt::HandleId level_rows = 0;      // n entries
  rt::HandleId segments = 0;        // num_segments + 1 entries (natural-order fusion segments)
  rt::HandleId level_segments = 0;  // num_level_segments + 1 entries
  bool has_level_copy = false;      // the level-ordered copy of the rows (optional)
  rt::HandleId level_rowptr = 0, level_colind = 0, level_values = 0;
};

struct SptrsvParams {
  index_t n = 0;
  bool upper = false;
  bool transpose = false;  // solve T^T X = B (CPU only)
  index_t nrhs = 1;        // columns of B and X (CUDA: 1 only)
  // Level schedule sizes and the two HOST arrays the level-set variant sizes its launches with
  // (TriangularDeviceView::host_level_ptr / host_level_nnz). They are read by the CUDA worker's
  // thread, so the caller keeps them alive and unchanged until the task has completed.
  index_t num_levels = 0, num_segments = 0, num_level_segments = 0;
  const index_t* host_level_ptr = nullptr;
  const std::int64_t* host_level_nnz = nullptr;
  int cuda_variant = 0;  // index into sptrsv_cuda_variants()
  // When set, CUDA tasks solve through it instead of cuda_variant (and need no device data handles).
  SptrsvCudaPlans* plans = nullptr;
};

// Buffer order: 0 rowptr, 1 colind, 2 values, 3 b, 4 x; with device data 5 level_rows, 6 segments,
// 7 level_segments; with the level-ordered copy 8 level_rowptr, 9 level_colind, 10 level_values.
// A prepared scheme on CUDA workers only (prepared_only): 0 b, 1 x, 2 values; with b and x in host
// memory (host_b, insert_sptrsv_host): on CUDA workers 0 values, on CPU workers 0 rowptr, 1 colind,
// 2 values.
struct SptrsvArgs {
  SptrsvParams p;
  bool has_device_data;
  bool has_level_copy;
  bool prepared_only;  // a prepared scheme on CUDA workers only: the task's data are b, x and values
  const double* host_b = nullptr;  // insert_sptrsv_host's vectors (then the only datum is values)
  double* host_x = nullptr;
};

const rt::Kernel& sptrsv_kernel();

// The CUDA variants this build has (kernels::gpu_variants()); empty in a CPU-only build.
std::vector<std::string> sptrsv_cuda_variants();

// b: matrix handle n x nrhs or vector handle of n (Read), x: the same (Write); leading dimensions come from
// the handles. InvalidArgument for a task that may run on CUDA (where != Cpu) with nrhs > 1,
// transposed, or (without plans) without device data or with a variant index out of range. flops defaults to 2 nnz nrhs.
void insert_sptrsv(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SptrsvMatrixHandles& T, rt::HandleId b,
                   rt::HandleId x, const SptrsvParams& params, std::int64_t nnz);

// One right-hand side in host memory, not registered: the caller leaves b unchanged and x unread
// until the task has completed. On a CUDA worker (opt.where Cuda, params.plans set) the task copies
// them in and out itself, on its stream (SptrsvCudaPlans::solve_host): no data requests of the
// runtime's before or after the kernel; b and x (n entries each) best pinned; its one datum is T's
// values (Read, held, not read). On a CPU worker (opt.where Cpu) serial substitution reads b and
// writes x in place (x may be b); its data are T's rowptr, colind and values. InvalidArgument for
// nrhs other than 1, a transpose, opt.where Any, or Cuda without plans.
void insert_sptrsv_host(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SptrsvMatrixHandles& T,
                        const double* b, double* x, const SptrsvParams& params, std::int64_t nnz);

// The CUDA solve through a prepared scheme (params.plans set), run now in the calling thread on the
// GPU (TaskRuntime::run_inline): run_sptrsv_inline on handles b (Read) and x (Write, another handle),
// run_sptrsv_host_inline on host vectors as insert_sptrsv_host's (b best pinned; no data). Returns
// false, doing nothing, where the runtime cannot run it so (submit the task then). InvalidArgument
// without plans, for nrhs other than 1, a transpose or opt.where Cpu.
bool run_sptrsv_inline(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId b, rt::HandleId x,
                       const SptrsvParams& params, std::int64_t nnz);
bool run_sptrsv_host_inline(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const double* host_b, double* host_x,
                            const SptrsvParams& params, std::int64_t nnz);

}  // namespace hetsparse::codelets
