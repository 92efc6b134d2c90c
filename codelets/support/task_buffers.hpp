// What a codelet's task functions read: the argument struct TaskSpec::set_args wrote, and typed views
// of the StarPU buffers. Only the StarPU glue (codelets/<k>/<k>_starpu.cpp) includes this.
#pragma once
#include <starpu.h>

#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/spmv/spmv.hpp"

namespace hetsparse::rt {

// The argument struct of a task, as set by TaskSpec::set_args.
template <class Args>
Args task_args(const void* cl_arg) {
  static_assert(std::is_trivially_copyable_v<Args>);
  Args a;
  std::memcpy(&a, cl_arg, sizeof(Args));
  return a;
}

// The items following the header written by TaskSpec::set_args(header, items); count from the header.
template <class Header, class Item>
std::vector<Item> task_items(const void* cl_arg, std::size_t count) {
  std::vector<Item> items(count);
  if (count) std::memcpy(items.data(), static_cast<const unsigned char*>(cl_arg) + sizeof(Header), count * sizeof(Item));
  return items;
}

template <class T = double>
T* vector_ptr(void* buffer) {
  return reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffer));
}
inline double* matrix_ptr(void* buffer) { return reinterpret_cast<double*>(STARPU_MATRIX_GET_PTR(buffer)); }
inline int matrix_ld(void* buffer) { return static_cast<int>(STARPU_MATRIX_GET_LD(buffer)); }

// A CSR handle's buffer as the SpMV kernels take it (32-bit, StarPU's layout).
inline kernels::CsrView csr_view(void* buffer) {
  return {STARPU_CSR_GET_NROW(buffer), STARPU_CSR_GET_NNZ(buffer),
          reinterpret_cast<const std::uint32_t*>(STARPU_CSR_GET_ROWPTR(buffer)),
          reinterpret_cast<const std::uint32_t*>(STARPU_CSR_GET_COLIND(buffer)),
          reinterpret_cast<const double*>(STARPU_CSR_GET_NZVAL(buffer)), STARPU_CSR_GET_FIRSTENTRY(buffer)};
}

// Columns of doubles that a task may get as a column-major matrix handle or as a vector handle (one
// column, its length as the leading dimension): every StarPU interface starts with its id.
struct Columns {
  double* ptr;
  int ld;
};
inline Columns columns(void* buffer) {
  if (static_cast<const starpu_vector_interface*>(buffer)->id == STARPU_VECTOR_INTERFACE_ID)
    return {vector_ptr(buffer), static_cast<int>(STARPU_VECTOR_GET_NX(buffer))};
  return {matrix_ptr(buffer), matrix_ld(buffer)};
}

}  // namespace hetsparse::rt
