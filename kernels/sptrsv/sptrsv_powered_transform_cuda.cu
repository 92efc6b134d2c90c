// The powered transform on the GPU (see sptrsv_powered.hpp and sptrsv/powered_triangle.hpp): the
// strict part M and D^-1 by a row pass, M's powers by repeated squaring with cuSPARSE SpGEMM, and
// I - M^K with its unit diagonal stored. The host transform's two sparse products and the analysis
// of I - M^K cost hundreds of solves on 2D meshes; here the products stay on the device and the
// result is ready for the GPU analysis.
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <climits>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_allocations_cuda.hpp"
#include "kernels/sptrsv/sptrsv_device_scratch.cuh"
#include "kernels/sptrsv/sptrsv_powered.hpp"

namespace hetsparse::kernels {
namespace {

constexpr int kThreads = 256;
unsigned blocks_for(index_t n) { return static_cast<unsigned>((static_cast<std::int64_t>(n) + kThreads - 1) / kThreads); }

// Row i of a normalised triangle has one diagonal, so its off-diagonals start at rowptr[i] - i in M.
__global__ void strict_part_kernel(DeviceCsrView t, index_t* rowptr, index_t* colind, double* values,
                                   double* inverse_diagonal) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= t.n) return;
  const index_t first = t.rowptr[i], last = t.rowptr[i + 1];
  const double inverse = 1.0 / t.values[t.upper ? first : last - 1];
  inverse_diagonal[i] = inverse;
  index_t out = first - static_cast<index_t>(i);
  rowptr[i] = out;
  if (i + 1 == t.n) rowptr[t.n] = last - t.n;
  for (index_t p = t.upper ? first + 1 : first; p < (t.upper ? last : last - 1); ++p, ++out) {
    colind[out] = t.colind[p];
    values[out] = -t.values[p] * inverse;
  }
}

__global__ void abs_row_sum_kernel(PowerFactorView m, double* sums) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= m.n) return;
  double sum = 0.0;
  for (index_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) sum += fabs(m.values[p]);
  sums[i] = sum;
}

// The multiplications of row i of a * b (the host transform's work measure).
__global__ void products_kernel(PowerFactorView a, PowerFactorView b, std::int64_t* products) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= a.n) return;
  std::int64_t count = 0;
  for (index_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
    const index_t j = a.colind[p];
    count += b.rowptr[j + 1] - b.rowptr[j];
  }
  products[i] = count;
}

// I - M^K: each row gains its unit diagonal, last in a lower row, first in an upper one.
__global__ void unit_triangle_kernel(PowerFactorView m, bool upper, index_t* rowptr, index_t* colind, double* values) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= m.n) return;
  const index_t first = m.rowptr[i], last = m.rowptr[i + 1];
  index_t out = first + static_cast<index_t>(i);
  rowptr[i] = out;
  if (i + 1 == m.n) rowptr[m.n] = last + m.n;
  if (upper) {
    colind[out] = static_cast<index_t>(i);
    values[out++] = 1.0;
  }
  for (index_t p = first; p < last; ++p, ++out) {
    colind[out] = m.colind[p];
    values[out] = -m.values[p];
  }
  if (!upper) {
    colind[out] = static_cast<index_t>(i);
    values[out] = 1.0;
  }
}

}  // namespace

struct DevicePoweredTransform::Arrays {
  DeviceAllocations memory{"DevicePoweredTransform"};
  cusparseHandle_t handle = nullptr;
  ~Arrays() {
    if (handle != nullptr) cusparseDestroy(handle);
  }
  template <class T>
  T* allocate(std::size_t count) {
    return memory.allocate<T>(count);
  }
};

namespace {

using device_analysis::run_cub;
using device_analysis::Scratch;

double largest_row_sum(cudaStream_t stream, const PowerFactorView& m) {
  if (m.n == 0) return 0.0;
  Scratch<double> sums(static_cast<std::size_t>(m.n), stream), most(1, stream);
  abs_row_sum_kernel<<<blocks_for(m.n), kThreads, 0, stream>>>(m, sums.get());
  check_cuda(cudaGetLastError(), "abs_row_sum_kernel launch");
  run_cub("cub::DeviceReduce::Max in DevicePoweredTransform", stream, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceReduce::Max(temp, bytes, sums.get(), most.get(), m.n, stream);
  });
  return most.download()[0];
}

std::int64_t product_count(cudaStream_t stream, const PowerFactorView& a, const PowerFactorView& b) {
  if (a.n == 0) return 0;
  Scratch<std::int64_t> rows(static_cast<std::size_t>(a.n), stream), total(1, stream);
  products_kernel<<<blocks_for(a.n), kThreads, 0, stream>>>(a, b, rows.get());
  check_cuda(cudaGetLastError(), "products_kernel launch");
  run_cub("cub::DeviceReduce::Sum in DevicePoweredTransform", stream, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceReduce::Sum(temp, bytes, rows.get(), total.get(), a.n, stream);
  });
  return total.download()[0];
}

cusparseSpMatDescr_t describe(const PowerFactorView& m) {
  cusparseSpMatDescr_t d = nullptr;
  check_cusparse(cusparseCreateCsr(&d, m.n, m.n, m.nnz, const_cast<index_t*>(m.rowptr), const_cast<index_t*>(m.colind),
                                   const_cast<double*>(m.values), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                 "cusparseCreateCsr in DevicePoweredTransform");
  return d;
}

}  // namespace

DevicePoweredTransform::DevicePoweredTransform(cudaStream_t stream, const DeviceCsrView& t, std::int64_t nnz, int power,
                                               double max_entry_ratio, double max_growth)
    : arrays_(std::make_unique<Arrays>()) {
  const std::string who = "pow" + std::to_string(power);
  if (power != 2 && power != 4 && power != 8 && power != 16) throw InvalidArgument(who + ": the power must be 2, 4, 8 or 16");
  Arrays& a = *arrays_;
  const index_t n = t.n;
  const auto max_entries = static_cast<std::int64_t>(
      std::min<double>(max_entry_ratio * static_cast<double>(std::max<std::int64_t>(nnz, 1)), INT_MAX - 1));
  double* inverse = a.allocate<double>(static_cast<std::size_t>(n));
  inverse_diagonal_ = inverse;
  PowerFactorView m{n, nnz - n, a.allocate<index_t>(static_cast<std::size_t>(n) + 1),
                    a.allocate<index_t>(static_cast<std::size_t>(nnz - n)), a.allocate<double>(static_cast<std::size_t>(nnz - n))};
  if (n > 0) {
    strict_part_kernel<<<blocks_for(n), kThreads, 0, stream>>>(t, const_cast<index_t*>(m.rowptr),
                                                               const_cast<index_t*>(m.colind),
                                                               const_cast<double*>(m.values), inverse);
    check_cuda(cudaGetLastError(), "strict_part_kernel launch");
  }
  check_cusparse(cusparseCreate(&a.handle), "cusparseCreate in DevicePoweredTransform");
  check_cusparse(cusparseSetStream(a.handle, stream), "cusparseSetStream in DevicePoweredTransform");
  for (int k = 1;; k *= 2) {
    growth_ = std::max(growth_, largest_row_sum(stream, m));
    if (k == power) break;
    const std::int64_t products = product_count(stream, m, m);
    if (products > 16 * max_entries) {
      throw InvalidArgument(who + ": M^" + std::to_string(power) + " too large for the powered form (the product needs " +
                            std::to_string(products) + " multiplications, over 16x its cap of " +
                            std::to_string(max_entries) + " entries)");
    }
    // C = M * M by cuSPARSE: work estimation, compute, then C's arrays at its size and the copy.
    const double alpha = 1.0, beta = 0.0;
    cusparseSpMatDescr_t A = describe(m), C = nullptr;
    check_cusparse(cusparseCreateCsr(&C, n, n, 0, nullptr, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                   "cusparseCreateCsr (C) in DevicePoweredTransform");
    cusparseSpGEMMDescr_t g = nullptr;
    check_cusparse(cusparseSpGEMM_createDescr(&g), "cusparseSpGEMM_createDescr");
    const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const auto alg = CUSPARSE_SPGEMM_DEFAULT;
    std::size_t bytes1 = 0, bytes2 = 0;
    check_cusparse(cusparseSpGEMM_workEstimation(a.handle, op, op, &alpha, A, A, &beta, C, CUDA_R_64F, alg, g, &bytes1,
                                                 nullptr),
                   "cusparseSpGEMM_workEstimation");
    Scratch<unsigned char> buffer1(bytes1, stream);
    check_cusparse(cusparseSpGEMM_workEstimation(a.handle, op, op, &alpha, A, A, &beta, C, CUDA_R_64F, alg, g, &bytes1,
                                                 buffer1.get()),
                   "cusparseSpGEMM_workEstimation");
    check_cusparse(cusparseSpGEMM_compute(a.handle, op, op, &alpha, A, A, &beta, C, CUDA_R_64F, alg, g, &bytes2, nullptr),
                   "cusparseSpGEMM_compute");
    Scratch<unsigned char> buffer2(bytes2, stream);
    check_cusparse(cusparseSpGEMM_compute(a.handle, op, op, &alpha, A, A, &beta, C, CUDA_R_64F, alg, g, &bytes2,
                                          buffer2.get()),
                   "cusparseSpGEMM_compute");
    std::int64_t rows = 0, cols = 0, entries = 0;
    check_cusparse(cusparseSpMatGetSize(C, &rows, &cols, &entries), "cusparseSpMatGetSize");
    if (entries > max_entries) {
      cusparseSpGEMM_destroyDescr(g);
      cusparseDestroySpMat(A);
      cusparseDestroySpMat(C);
      throw InvalidArgument(who + ": M^" + std::to_string(power) + " too large for the powered form (the product has " +
                            std::to_string(entries) + " entries, over its cap of " + std::to_string(max_entries) + ")");
    }
    PowerFactorView next{n, entries, a.allocate<index_t>(static_cast<std::size_t>(n) + 1),
                         a.allocate<index_t>(static_cast<std::size_t>(entries)),
                         a.allocate<double>(static_cast<std::size_t>(entries))};
    check_cusparse(cusparseCsrSetPointers(C, const_cast<index_t*>(next.rowptr), const_cast<index_t*>(next.colind),
                                          const_cast<double*>(next.values)),
                   "cusparseCsrSetPointers");
    check_cusparse(cusparseSpGEMM_copy(a.handle, op, op, &alpha, A, A, &beta, C, CUDA_R_64F, alg, g),
                   "cusparseSpGEMM_copy");
    check_cusparse(cusparseSpGEMM_destroyDescr(g), "cusparseSpGEMM_destroyDescr");
    check_cusparse(cusparseDestroySpMat(A), "cusparseDestroySpMat");
    check_cusparse(cusparseDestroySpMat(C), "cusparseDestroySpMat");
    factors_.push_back(m);
    m = next;
  }
  if (!(growth_ <= max_growth)) {
    throw InvalidArgument(who + ": a power of M has an absolute row sum of " + std::to_string(growth_) + ", over " +
                          std::to_string(max_growth) + ": the powered form would amplify rounding");
  }
  powered_nnz_ = m.nnz + n;
  powered_ = DeviceCsrView{n, t.upper, a.allocate<index_t>(static_cast<std::size_t>(n) + 1),
                           a.allocate<index_t>(static_cast<std::size_t>(powered_nnz_)),
                           a.allocate<double>(static_cast<std::size_t>(powered_nnz_))};
  if (n > 0) {
    unit_triangle_kernel<<<blocks_for(n), kThreads, 0, stream>>>(m, t.upper, const_cast<index_t*>(powered_.rowptr),
                                                                 const_cast<index_t*>(powered_.colind),
                                                                 const_cast<double*>(powered_.values));
    check_cuda(cudaGetLastError(), "unit_triangle_kernel launch");
  }
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in DevicePoweredTransform");
}

DevicePoweredTransform::~DevicePoweredTransform() = default;

}  // namespace hetsparse::kernels
