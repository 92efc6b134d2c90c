// Task insertion for the split SpTRSV's own steps (planners/split_sptrsv.hpp): gather b into the two
// parts' right-hand sides, B2 -= A21 X1 between the parts, scatter the parts' solutions into x. The
// two sub-triangle solves are ordinary sptrsv tasks (sptrsv_codelet.hpp).
#pragma once
#include <cstdint>

#include "runtime/task_runtime.hpp"
#include "sparse/types.hpp"

namespace hetsparse::codelets {

// The sizes every split task carries: rows of part 1 and part 2, right-hand sides.
struct SplitArgs {
  index_t n1 = 0, n2 = 0, nrhs = 1;
};

const rt::Kernel& split_gather_kernel();
const rt::Kernel& split_scatter_kernel();
const rt::Kernel& split_update_kernel();

// order: index vector of n1 + n2 (kernels/split/split.hpp). b: (n1 + n2) x nrhs, Read; b1: n1 x nrhs and
// b2: n2 x nrhs, Write (matrix handles, or vector handles when nrhs is 1). InvalidArgument for empty
// parts or nrhs < 1.
void insert_split_gather(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId order, rt::HandleId b,
                         rt::HandleId b1, rt::HandleId b2, const SplitArgs& args);
// x1, x2: Read; x: Write (every row is written).
void insert_split_scatter(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId order, rt::HandleId x1,
                          rt::HandleId x2, rt::HandleId x, const SplitArgs& args);
// B2 -= A21 X1, column by column with the SpMV kernels (kernels/spmv): A21 a CSR handle of n2 rows and
// n1 columns (a21_nnz entries, for the flops), x1 Read, b2 ReadWrite.
void insert_split_update(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId a21, rt::HandleId x1,
                         rt::HandleId b2, const SplitArgs& args, std::int64_t a21_nnz);

}  // namespace hetsparse::codelets
