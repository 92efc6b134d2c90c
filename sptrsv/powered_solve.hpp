// The GPU side of a "powK:BASE" scheme (prepared_scheme.hpp, powered_triangle.hpp): device copies of
// D^-1, the factors M .. M^(K/2) and the triangle I - M^K, the BASE scheme prepared on that
// triangle, and two right-hand-side buffers. Internal to the CUDA build of sptrsv/.
#pragma once
#include <memory>
#include <vector>

#include "sptrsv/prepared_scheme.hpp"

namespace hetsparse::sptrsv {

class PoweredSolve {
 public:
  // Uploads on `stream` and prepares BASE there (waits for both).
  PoweredSolve(cudaStream_t stream, std::shared_ptr<const PoweredTriangle> host, const std::string& base);
  ~PoweredSolve();
  PoweredSolve(const PoweredSolve&) = delete;
  PoweredSolve& operator=(const PoweredSolve&) = delete;

  // The K/2.. passes into a buffer of ours, then BASE from it into x (so x may be b, and cusparse
  // gets distinct arrays). ws as for any scheme of this n.
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const;

 private:
  struct DeviceArrays;
  std::shared_ptr<const PoweredTriangle> host_;
  std::unique_ptr<DeviceArrays> arrays_;
  std::unique_ptr<kernels::DeviceTriangular> matrix_;
  std::unique_ptr<PreparedScheme> base_;
};

}  // namespace hetsparse::sptrsv
