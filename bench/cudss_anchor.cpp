// cuDSS run through the run-time-loaded library: analysis, factorization twice (the second as a
// user's refactorization with new values would be timed), solves with 1 and many_rhs right-hand
// sides, each between device synchronizations. All GPU memory is freed before returning.
#include "bench/cudss_anchor.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>

#include "bench/cudss_library.hpp"
#include "hetsparse/error.hpp"
#include "reference/sparse_reference.hpp"

namespace hetsparse::bench {
namespace {

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// The first failing call's name and code; later calls are skipped once one failed.
struct Calls {
  std::string error;
  bool cuda(cudaError_t e, const char* what) {
    if (error.empty() && e != cudaSuccess) error = std::string(what) + ": " + cudaGetErrorString(e);
    return error.empty();
  }
  bool dss(cudssStatus_t s, const char* what) {
    if (error.empty() && s != CUDSS_STATUS_SUCCESS) error = std::string(what) + ": cuDSS status " + std::to_string(s);
    return error.empty();
  }
};

// A device buffer freed on scope exit.
struct DeviceBuffer {
  void* p = nullptr;
  bool alloc(Calls& c, std::size_t bytes) { return c.cuda(cudaMalloc(&p, bytes), "cudaMalloc"); }
  bool upload(Calls& c, const void* src, std::size_t bytes) {
    return alloc(c, bytes) && c.cuda(cudaMemcpy(p, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the GPU");
  }
  ~DeviceBuffer() { if (p) cudaFree(p); }
};

// cuDSS objects destroyed on scope exit, in reverse order of creation.
struct Session {
  const CudssLibrary& lib;
  cudssHandle_t handle = nullptr;
  cudssConfig_t config = nullptr;
  cudssData_t data = nullptr;
  cudssMatrix_t A = nullptr, x1 = nullptr, b1 = nullptr, xm = nullptr, bm = nullptr;
  explicit Session(const CudssLibrary& l) : lib(l) {}
  ~Session() {
    for (cudssMatrix_t m : {bm, xm, b1, x1, A}) if (m) lib.matrix_destroy(m);
    if (data) lib.data_destroy(handle, data);
    if (config) lib.config_destroy(config);
    if (handle) lib.destroy(handle);
  }
};

}  // namespace

CudssResult run_cudss(const Csr& full, const Csr& lower, const std::vector<double>& b,
                      const std::vector<double>& bmany, int many_rhs) {
  CudssResult r;
  const CudssLibrary lib;
  if (!lib.ok()) {
    r.skip_reason = lib.skip_reason();
    return r;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    r.skip_reason = "no CUDA device";
    return r;
  }
  r.ran = true;
  r.version = lib.version();
  const std::vector<std::int32_t> rowptr = cudss_row_offsets(lower);
  const std::size_t n = static_cast<std::size_t>(lower.rows), nnz = static_cast<std::size_t>(lower.nnz());
  const int m = r.many_rhs = many_rhs;
  if (bmany.size() != n * static_cast<std::size_t>(m) || b.size() != n)
    throw InvalidArgument("cuDSS anchor: right-hand sides of the wrong size");

  Calls c;
  Session s(lib);
  DeviceBuffer rp, ci, v, db1, dx1, dbm, dxm;
  double t = now_s();
  const bool up = rp.upload(c, rowptr.data(), rowptr.size() * sizeof(std::int32_t)) &&
                  ci.upload(c, lower.colind.data(), nnz * sizeof(index_t)) &&
                  v.upload(c, lower.values.data(), nnz * sizeof(double)) &&
                  db1.upload(c, b.data(), n * sizeof(double)) &&
                  dbm.upload(c, bmany.data(), n * m * sizeof(double)) && dx1.alloc(c, n * sizeof(double)) &&
                  dxm.alloc(c, n * m * sizeof(double)) && c.cuda(cudaDeviceSynchronize(), "upload");
  r.upload_s = now_s() - t;
  const auto ni = static_cast<int64_t>(n);
  const bool made =
      up && c.dss(lib.create(&s.handle), "cudssCreate") && c.dss(lib.config_create(&s.config), "cudssConfigCreate") &&
      c.dss(lib.data_create(s.handle, &s.data), "cudssDataCreate") &&
      c.dss(lib.matrix_create_csr(&s.A, ni, ni, static_cast<int64_t>(nnz), rp.p, nullptr, ci.p, v.p, CUDA_R_32I,
                                  CUDA_R_32I, CUDA_R_64F, CUDSS_MTYPE_SPD, CUDSS_MVIEW_LOWER, CUDSS_BASE_ZERO),
            "cudssMatrixCreateCsr") &&
      c.dss(lib.matrix_create_dn(&s.b1, ni, 1, ni, db1.p, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR), "cudssMatrixCreateDn") &&
      c.dss(lib.matrix_create_dn(&s.x1, ni, 1, ni, dx1.p, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR), "cudssMatrixCreateDn") &&
      c.dss(lib.matrix_create_dn(&s.bm, ni, m, ni, dbm.p, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR), "cudssMatrixCreateDn") &&
      c.dss(lib.matrix_create_dn(&s.xm, ni, m, ni, dxm.p, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR), "cudssMatrixCreateDn");
  // One phase, timed between synchronizations; false once a call failed.
  auto phase = [&](int which, cudssMatrix_t x, cudssMatrix_t rhs, const char* what, double& seconds) {
    if (!made || !c.error.empty()) return false;
    const double t0 = now_s();
    const bool ok = c.dss(lib.execute(s.handle, which, s.config, s.data, s.A, x, rhs), what) &&
                    c.cuda(cudaDeviceSynchronize(), what);
    seconds = now_s() - t0;
    return ok;
  };
  phase(CUDSS_PHASE_ANALYSIS, s.x1, s.b1, "cudssExecute(ANALYSIS)", r.analysis_s);
  phase(CUDSS_PHASE_FACTORIZATION, s.x1, s.b1, "cudssExecute(FACTORIZATION)", r.factorize_first_s);
  phase(CUDSS_PHASE_FACTORIZATION, s.x1, s.b1, "cudssExecute(FACTORIZATION)", r.factorize_second_s);
  phase(CUDSS_PHASE_SOLVE, s.x1, s.b1, "cudssExecute(SOLVE, 1 rhs)", r.solve_s);
  if (phase(CUDSS_PHASE_SOLVE, s.xm, s.bm, "cudssExecute(SOLVE, many rhs)", r.solve_many_s)) {
    int info = 0;
    int64_t lu_nnz = 0;
    std::size_t written = 0;
    c.dss(lib.data_get(s.handle, s.data, CUDSS_DATA_INFO, &info, sizeof info, &written), "cudssDataGet(INFO)");
    c.dss(lib.data_get(s.handle, s.data, CUDSS_DATA_LU_NNZ, &lu_nnz, sizeof lu_nnz, &written), "cudssDataGet(LU_NNZ)");
    if (c.error.empty() && info != 0)
      c.error = "cuDSS reports info " + std::to_string(info) + " (not positive definite?)";
    r.nnz_L = static_cast<double>(lu_nnz);
    std::vector<double> x1(n), xm(n * m);
    if (c.cuda(cudaMemcpy(x1.data(), dx1.p, n * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy x") &&
        c.cuda(cudaMemcpy(xm.data(), dxm.p, n * m * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy X")) {
      r.backward_error = ref::backward_error(full, x1.data(), b.data());
      for (int j = 0; j < m; ++j)
        r.backward_error_many = std::max(r.backward_error_many,
                                         ref::backward_error(full, xm.data() + j * n, bmany.data() + j * n));
    }
  }
  r.error = c.error;
  return r;
}

}  // namespace hetsparse::bench
