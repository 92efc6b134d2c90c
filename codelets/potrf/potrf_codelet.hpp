// Task insertion for dense Cholesky POTRF. The LAPACK info (0, or the 1-based failing column) is
// written to `info`, a 1-element int vector handle, so a failed pivot is reported without a sync.
#pragma once
#include "runtime/task_runtime.hpp"

namespace hetsparse::codelets {

// The task's argument struct (insert_potrf writes it, the StarPU glue reads it).
struct PotrfArgs {
  char uplo;
  int n;
};

const rt::Kernel& potrf_kernel();
void insert_potrf(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char uplo, int n, rt::HandleId A,
                  rt::HandleId info);
}  // namespace hetsparse::codelets
