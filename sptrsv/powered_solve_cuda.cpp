// GPU side of the powered schemes (see powered_solve.hpp).
#include <cuda_runtime_api.h>

#include <utility>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_powered.hpp"
#include "sptrsv/powered_solve.hpp"

namespace hetsparse::sptrsv {

using kernels::check_cuda;

struct PoweredSolve::DeviceArrays {
  std::vector<void*> allocations;
  std::vector<kernels::PowerFactorView> factors;
  const double* inverse_diagonal = nullptr;
  double* d = nullptr;  // the final right-hand side
  double* scratch = nullptr;

  ~DeviceArrays() {
    for (void* p : allocations) cudaFree(p);
  }
  template <class T>
  T* upload(cudaStream_t stream, const std::vector<T>& v) {
    T* p = allocate<T>(v.size());
    if (!v.empty()) {
      check_cuda(cudaMemcpyAsync(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream),
                 "cudaMemcpyAsync in PoweredSolve");
    }
    return p;
  }
  template <class T>
  T* allocate(std::size_t count) {
    void* p = nullptr;
    check_cuda(cudaMalloc(&p, std::max<std::size_t>(count, 1) * sizeof(T)), "cudaMalloc in PoweredSolve");
    allocations.push_back(p);
    return static_cast<T*>(p);
  }
};

PoweredSolve::PoweredSolve(cudaStream_t stream, std::shared_ptr<const PoweredTriangle> host, const std::string& base)
    : host_(std::move(host)), arrays_(std::make_unique<DeviceArrays>()) {
  DeviceArrays& a = *arrays_;
  const std::size_t n = host_->inverse_diagonal().size();
  a.inverse_diagonal = a.upload(stream, host_->inverse_diagonal());
  for (const StrictRows& f : host_->factors()) {
    kernels::PowerFactorView v = f.view();
    v.rowptr = a.upload(stream, f.rowptr);
    v.colind = a.upload(stream, f.colind);
    v.values = a.upload(stream, f.values);
    a.factors.push_back(v);
  }
  a.d = a.allocate<double>(n);
  a.scratch = a.allocate<double>(n);
  const kernels::TriangularView t = host_->pattern().host_view();
  matrix_ = std::make_unique<kernels::DeviceTriangular>(stream, t);  // waits for the stream
  base_ = std::make_unique<PreparedScheme>(stream, t, matrix_->view(), base);
}

PoweredSolve::~PoweredSolve() = default;

void PoweredSolve::solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const {
  const DeviceArrays& a = *arrays_;
  const double* in = b;
  const double* scale = a.inverse_diagonal;
  const std::size_t steps = a.factors.size();
  for (std::size_t k = 0; k < steps; ++k) {
    double* out = (steps - 1 - k) % 2 == 0 ? a.d : a.scratch;  // the last pass lands in d
    kernels::powered_rhs_step_cuda(stream, a.factors[k], scale, in, out);
    in = out;
    scale = nullptr;
  }
  base_->solve(stream, a.d, x, ws);
}

}  // namespace hetsparse::sptrsv
