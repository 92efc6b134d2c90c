// Tasks of a partitioned SpMV (spmv/partitioned_spmv.hpp): one part's product, with the own CUDA
// kernel its row profile calls for (tiled plan or sub-warp) or cuSPARSE, and the merge of partial
// results into y. No StarPU here; the glue is spmv_part_starpu.cpp.
#pragma once
#include <cstdint>
#include <vector>

#include "codelets/spmv/spmv_codelet.hpp"
#include "kernels/spmv/spmv_tiled.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

// The product task's argument struct. The plan's words come as a buffer; its shape comes here.
struct SpmvPartArgs {
  double alpha = 1.0, beta = 0.0;
  std::uint32_t tiles = 0, long_rows = 0, max_entries = 0, block_threads = 0;
  kernels::SpmvPath path = kernels::SpmvPath::Tiled;  // own CUDA kernel (cuda_impl Own)
  SpmvCudaImpl cuda_impl = SpmvCudaImpl::Own;
};

struct SpmvPartData {
  rt::HandleId A;          // CSR handle of the part
  rt::HandleId plan;       // vector of the plan's 32-bit words (kernels::TilePlan::words)
  rt::HandleId x, y;       // y: what the part writes (a slice of y, or a partial vector)
  rt::HandleId workspace;  // temporary of tiled_workspace_bytes bytes, used when long_rows > 0
};

const rt::Kernel& spmv_part_kernel();
// y = alpha A x + beta y on one part; y is written only (never read) when beta == 0.
void insert_spmv_part(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SpmvPartData& data,
                      const SpmvPartArgs& args);

// One partial result added into y: y[dst + i] += source[src + i], i < count.
struct MergeInput {
  rt::HandleId source;
  std::uint32_t src = 0, dst = 0, count = 0;
};
// The merge task's argument header; one MergeItem per input follows it.
struct MergeHeader {
  double beta;
  std::uint32_t n, inputs;
};
struct MergeItem {
  std::uint32_t src, dst, count, pad;
};

const rt::Kernel& spmv_merge_kernel();
// y (n entries) = beta y + the inputs, in the order given (kernels::spmv_merge_cpu / _cuda).
void insert_spmv_merge(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId y, std::uint32_t n, double beta,
                       const std::vector<MergeInput>& inputs);

}  // namespace hetsparse::codelets
