// Exceptions cannot cross StarPU's C callbacks, so a codelet that throws (a CUDA or library error,
// say) has its first exception kept here and rethrown on the submitting thread at the next
// wait_all() or shutdown() of the Runtime (not at unregister, which runs in destructors).
#pragma once
#include <exception>

namespace hetsparse::rt {

void record_task_error(std::exception_ptr e, const char* task_name);
void rethrow_task_error();  // throws the recorded error (once), if any

// Wraps a codelet function so that it never lets an exception escape into StarPU.
template <void (*F)(void*[], void*)>
void guarded(void* buffers[], void* cl_arg) {
  try {
    F(buffers, cl_arg);
  } catch (...) {
    record_task_error(std::current_exception(), nullptr);
  }
}

}  // namespace hetsparse::rt
