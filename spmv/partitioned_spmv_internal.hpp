// PartitionedSpmv's private parts, shared by its set-up and task files.
#pragma once
#include <string>
#include <vector>

#include "codelets/spmv_part/spmv_part_codelet.hpp"
#include "runtime/csr32.hpp"
#include "spmv/partitioned_spmv.hpp"

namespace hetsparse {

struct PartitionedSpmv::Part {
  explicit Part(const Csr& c) : A(c) {}
  rt::Csr32 A;
  kernels::TilePlanOptions tiles;  // what its plan was made with
  kernels::TilePlan plan;
  kernels::SpmvPath path = kernels::SpmvPath::Tiled;
  rt::DataHandle a, plan_h, workspace;
  rt::DataHandle out;   // what the part writes: its slice of y (pCSR) or a partial (pCSC, pCOO)
  rt::DataHandle head;  // pCOO: its first row's partial, copied out for an owner on another device
  rt::HandleId x = 0;   // the x it reads: all of x, or its slice (pCSC)
  rt::HandleId owned = 0;  // pCOO: the slice of y it owns (when it owns rows)
  bool has_task = false;
  std::string name;
};

// One merge task: y (n entries) = beta y + inputs, run at `home` (or where the merges run).
struct PartitionedSpmv::Merge {
  rt::HandleId y = 0;
  std::uint32_t n = 0;
  bool product_beta = false;  // beta of the product (final merges) or fixed_beta
  double fixed_beta = 0.0;
  std::vector<codelets::MergeInput> inputs;
  int home = -1;  // index of the part whose home runs it; -1: merge_device()
  std::string name;
};

}  // namespace hetsparse
