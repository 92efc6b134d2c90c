// The right-hand-side passes of the powered SpTRSV form (sptrsv/powered_triangle.hpp): with A one
// strictly triangular factor M^(2^t) and s an optional row scale (D^-1 for the first pass),
//   out = s*in + A (s*in),   i.e. out_i = s_i in_i + sum_j A_ij s_j in_j.
// Rows are independent: a pass is an SpMV, bandwidth-bound on the GPU. Pure kernels, no StarPU.
#pragma once
#include <cstdint>

#include <memory>
#include <vector>

#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "sparse/types.hpp"

typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// CSR of a strictly triangular factor (no diagonal stored), host or device arrays.
struct PowerFactorView {
  index_t n = 0;
  std::int64_t nnz = 0;  // rowptr[n], known on the host (sizes the CUDA launch)
  const index_t* rowptr = nullptr;
  const index_t* colind = nullptr;
  const double* values = nullptr;
};

// One pass on the host; scale may be null (ones). out must not alias in.
void powered_rhs_step_cpu(const PowerFactorView& a, const double* scale, const double* in, double* out);

// The same pass enqueued on `stream` (device arrays, out must not alias in); rows are split among
// 1 to 32 lanes by the mean row length, and each row sums in a fixed lane order and tree.
void powered_rhs_step_cuda(cudaStream_t stream, const PowerFactorView& a, const double* scale, const double* in,
                           double* out);

// The transform itself on the GPU (sptrsv_powered_transform_cuda.cu, CUDA builds only), for a
// normalised triangle already in device memory (diagonal last in lower rows, first in upper): D^-1,
// the factors M .. M^(K/2) and I - M^K with its unit diagonal stored, a normalised triangle as
// DeviceAnalysis takes it. The products are cuSPARSE SpGEMM instead of the host's row-parallel ones
// (sptrsv::PoweredTriangle, the oracle). The host's limits: InvalidArgument naming K when a product
// would need more than 16x `max_entry_ratio` x t's entries in multiplications or yields more than
// that ratio's entries, or an absolute row sum of a power passes `max_growth`. Enqueues on `stream`
// and waits for it. Owns its device arrays.
class DevicePoweredTransform {
 public:
  DevicePoweredTransform(cudaStream_t stream, const DeviceCsrView& t, std::int64_t nnz, int power,
                         double max_entry_ratio, double max_growth);
  ~DevicePoweredTransform();
  DevicePoweredTransform(const DevicePoweredTransform&) = delete;
  DevicePoweredTransform& operator=(const DevicePoweredTransform&) = delete;

  const double* inverse_diagonal() const { return inverse_diagonal_; }
  const std::vector<PowerFactorView>& factors() const { return factors_; }
  DeviceCsrView powered() const { return powered_; }  // I - M^K, n rows, the unit diagonal stored
  std::int64_t powered_nnz() const { return powered_nnz_; }
  double growth() const { return growth_; }

 private:
  struct Arrays;
  std::unique_ptr<Arrays> arrays_;
  const double* inverse_diagonal_ = nullptr;
  std::vector<PowerFactorView> factors_;
  DeviceCsrView powered_;
  std::int64_t powered_nnz_ = 0;
  double growth_ = 0;
};

}  // namespace hetsparse::kernels
