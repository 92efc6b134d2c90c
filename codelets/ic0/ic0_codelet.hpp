// Task insertion for the IC(0) factorization (kernels/ic0) of a lower CSR handle, on a CPU worker
// (serial) or a CUDA worker (level by level).
#pragma once
#include <cstdint>

#include "kernels/ic0/ic0.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

// The task's argument struct (insert_ic0 writes it, the StarPU glue reads it).
struct Ic0Args {
  std::uint32_t n;
  int num_levels;
  const std::uint32_t* host_level_ptr;  // Ic0Levels::level_ptr, owned by the caller
};

const rt::Kernel& ic0_kernel();
// L: CSR handle holding tril(A) with the diagonal last in each row (kernels::ic0_check_structure),
// overwritten by the factor. level_rows: vector handle of levels.rows (n uint32). info: vector handle
// of one int, written with ic0_cpu's return value. `levels` must outlive the task.
void insert_ic0(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId L, rt::HandleId level_rows,
                rt::HandleId info, const kernels::Ic0Levels& levels, std::int64_t nnz);

}  // namespace hetsparse::codelets
