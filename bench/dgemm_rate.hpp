// The FP64 dense ceiling of the machine: cuBLAS dgemm rate at n = 8192 measured in the same run.
#pragma once
#include <string>

namespace hetsparse::bench {
struct DgemmRate {
  bool available = false;
  std::string reason;
  double tflops = 0;
};
DgemmRate measure_cublas_dgemm(int n = 8192);
}  // namespace hetsparse::bench
