// The partitioned path of `hetsparse spmv` (--partition, --parts, --resident): see its .cpp.
#pragma once
#include "cli/args.hpp"
#include "cli/common.hpp"
#include "codelets/spmv/spmv_codelet.hpp"

namespace hetsparse::cli {

int cmd_spmv_partitioned(const ArgParser& p, const MatrixInput& in, codelets::SpmvCudaImpl impl);

}  // namespace hetsparse::cli
