// cuDSS (NVIDIA's GPU sparse direct solver, default settings: its own reordering, one GPU) on the
// same matrix and right-hand side as hetsparse, in the same process: the GPU anchor of
// bench_cholesky. The library is loaded at run time (bench/cudss_library.hpp); without it, or in a
// build without cudss.h or CUDA, the result says why cuDSS was skipped.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sparse/csr.hpp"

namespace hetsparse::bench {

struct CudssResult {
  bool ran = false;         // false: skipped, skip_reason says why (not an error of the benchmark)
  std::string skip_reason;  // e.g. "libcudss.so.1 not found (...): set HETSPARSE_CUDSS_LIB ..."
  std::string error;        // a CUDA or cuDSS call that failed while running (ran stays true)
  std::string version;      // "1.0.0"
  // Seconds, each phase between device synchronizations; upload: A and b to the GPU.
  double upload_s = 0, analysis_s = 0, factorize_first_s = 0, factorize_second_s = 0;
  double solve_s = 0, solve_many_s = 0;  // one right-hand side; many_rhs of them at once
  int many_rhs = 0;
  double nnz_L = 0;  // cuDSS's CUDSS_DATA_LU_NNZ (its ordering, not hetsparse's)
  double backward_error = 0, backward_error_many = 0;  // the latter: the worst column
};

// The lower triangle's row offsets as cuDSS takes them (32-bit, zero-based; column indices are
// hetsparse's index_t already). Throws InvalidArgument when lower is not square, holds an entry
// above the diagonal or has more entries than 32-bit offsets reach.
std::vector<std::int32_t> cudss_row_offsets(const Csr& lower);

// full: A (for the backward error); lower: its lower triangle (CSR, sorted columns); b: one
// right-hand side; b_many: many_rhs of them, column-major (n x many_rhs). Frees all its GPU memory
// before returning, so StarPU starts on an empty GPU afterwards.
CudssResult run_cudss(const Csr& full, const Csr& lower, const std::vector<double>& b,
                      const std::vector<double>& b_many, int many_rhs);

}  // namespace hetsparse::bench
