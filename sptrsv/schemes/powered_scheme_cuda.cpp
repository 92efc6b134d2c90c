// "powK:BASE" (powered_triangle.hpp) on the GPU: device copies of D^-1, the factors M .. M^(K/2) and
// the triangle I - M^K, the BASE family prepared on that triangle, and two right-hand-side buffers.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_powered.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {
namespace {

using kernels::check_cuda;

struct DeviceArrays {
  std::vector<void*> allocations;
  std::vector<kernels::PowerFactorView> factors;
  const double* inverse_diagonal = nullptr;
  double* d = nullptr;  // the final right-hand side
  double* scratch = nullptr;

  DeviceArrays() = default;
  DeviceArrays(const DeviceArrays&) = delete;
  DeviceArrays& operator=(const DeviceArrays&) = delete;
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

class PoweredFamily final : public PreparedFamily {
 public:
  // Uploads on `stream` and prepares BASE there (waits for both).
  PoweredFamily(cudaStream_t stream, std::shared_ptr<const PoweredTriangle> host, const SchemeSpec& base)
      : host_(std::move(host)) {
    DeviceArrays& a = arrays_;
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
    base_ = prepare_family(stream, t, matrix_->view(), base, nullptr);
  }

  // The K/2.. passes into a buffer of ours, then BASE from it into x (so x may be b, and cusparse
  // gets distinct arrays).
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const override {
    const double* in = b;
    const double* scale = arrays_.inverse_diagonal;
    const std::size_t steps = arrays_.factors.size();
    for (std::size_t k = 0; k < steps; ++k) {
      double* out = (steps - 1 - k) % 2 == 0 ? arrays_.d : arrays_.scratch;  // the last pass lands in d
      kernels::powered_rhs_step_cuda(stream, arrays_.factors[k], scale, in, out);
      in = out;
      scale = nullptr;
    }
    base_->solve(stream, arrays_.d, x, ws);
  }

 private:
  // Declared in this order so the base (which reads matrix_) goes first, the arrays last.
  std::shared_ptr<const PoweredTriangle> host_;
  DeviceArrays arrays_;
  std::unique_ptr<kernels::DeviceTriangular> matrix_;
  std::unique_ptr<PreparedFamily> base_;
};

}  // namespace

std::unique_ptr<PreparedFamily> prepare_powered(cudaStream_t stream, const kernels::TriangularView& host,
                                                const SchemeSpec& spec, PoweredCache* powered) {
  std::shared_ptr<const PoweredTriangle> transform =
      powered != nullptr ? powered->get(spec.power) : std::make_shared<const PoweredTriangle>(host, spec.power);
  return std::make_unique<PoweredFamily>(stream, std::move(transform), *spec.base);
}

}  // namespace hetsparse::sptrsv
