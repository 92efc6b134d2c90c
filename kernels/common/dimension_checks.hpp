// Size and leading-dimension checks shared by the CPU and CUDA dense kernels. Both back ends then
// reject a bad shape the same way, with InvalidArgument, instead of OpenBLAS's xerbla printing a line
// and returning with nothing computed, or cuBLAS answering a bare INVALID_VALUE.
#pragma once
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::kernels {

inline void require_nonnegative(const char* routine, const char* name, int value) {
  if (value < 0) {
    throw InvalidArgument(std::string(routine) + ": " + name + " = " + std::to_string(value) + " is negative");
  }
}

// A column-major matrix with `rows` rows needs ld >= max(1, rows).
inline void require_leading_dimension(const char* routine, const char* name, int ld, int rows) {
  if (ld < std::max(1, rows)) {
    throw InvalidArgument(std::string(routine) + ": " + name + " = " + std::to_string(ld) + " is below max(1, " +
                          std::to_string(rows) + ")");
  }
}

}  // namespace hetsparse::kernels
