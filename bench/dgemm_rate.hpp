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

// OpenBLAS dgemm on one thread and on every hardware thread (cpu_dgemm_rate.cpp).
struct CpuDgemmRate {
  int threads = 0;
  double one_core_gflops = 0, all_cores_gflops = 0;
};
CpuDgemmRate measure_cpu_dgemm(int n = 1024);
}  // namespace hetsparse::bench
