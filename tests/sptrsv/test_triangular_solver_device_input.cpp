// TriangularSolver::analyze_device: a triangle already in GPU memory, analysed there, its handles
// registered on the GPU; solves on the CUDA worker and (transposed, several right-hand sides) on a
// CPU worker, to which StarPU copies the matrix; input that is not normalised or not valid goes to
// the host analysis. Label gpu: skipped without a CUDA worker.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sptrsv/triangular_solver.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_solver_checks.hpp"

namespace hetsparse::test {
namespace {

// A CSR in device memory, 32-bit row pointer as kernels::DeviceCsrView takes it.
struct DeviceCsr {
  DeviceArray<index_t> rowptr, colind;
  DeviceArray<double> values;
  index_t n;
  DeviceCsr(const std::vector<index_t>& ptr, const std::vector<index_t>& col, const std::vector<double>& val)
      : rowptr(ptr.size()), colind(col.size()), values(val.size()), n(static_cast<index_t>(ptr.size()) - 1) {
    rowptr.upload(nullptr, ptr);
    colind.upload(nullptr, col);
    values.upload(nullptr, val);
    kernels::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize in DeviceCsr");
  }
  kernels::DeviceCsrView view() const { return {n, false, rowptr.get(), colind.get(), values.get()}; }
};

DeviceCsr upload(const Csr& c) {
  return DeviceCsr(std::vector<index_t>(c.rowptr.begin(), c.rowptr.end()), c.colind, c.values);
}

void expect_solves(sptrsv::TriangularSolver& s, const Csr& T, Triangle tri, bool unit, const std::string& what) {
  const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 21);
  std::vector<double> X(B.size(), std::nan(""));
  s.solve(B.data(), X.data());
  expect_matches_reference(T, tri, unit, false, B, X, 1, what);
  const std::vector<double> B3 = random_values(3 * static_cast<std::size_t>(T.rows), 22);
  std::vector<double> X3(B3.size(), std::nan(""));
  s.solve(B3.data(), X3.data(), 3, true);  // a CPU worker: the matrix is copied from the GPU
  expect_matches_reference(T, tri, unit, true, B3, X3, 3, what + " transposed nrhs 3");
}

TEST(TriangularSolverGpu, AnalyzeDeviceInputAnalysesOnTheGpu) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  for (const SolverCase& c : solver_cases()) {
    for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      for (bool unit : {false, true}) {
        const Csr T = solver_input(c.lower, tri, unit, 31);
        const sptrsv::TriangularPattern host(T, tri, unit);
        Csr normalised;  // the host's normalised arrays as the GPU input
        normalised.rows = normalised.cols = host.rows();
        normalised.rowptr.assign(host.rowptr().begin(), host.rowptr().end());
        normalised.colind = host.colind();
        normalised.values = host.values();
        const DeviceCsr input = upload(normalised);
        for (const std::string v : {"yuenyeung", "syncfree_levelorder", "cusparse", "auto"}) {
          const std::string what =
              std::string(c.name) + (tri == Triangle::Upper ? " upper " : " lower ") + (unit ? "unit " : "") + v;
          sptrsv::TriangularSolver s(r);
          sptrsv::TriangularSolveOptions o;
          o.device = sptrsv::SolveDevice::Gpu;
          o.variant = v;
          s.analyze_device(input.view(), 0, tri, unit, o);
          EXPECT_TRUE(s.analysed_on_device()) << what;
          EXPECT_EQ(s.features().layer_num, host.features().layer_num) << what;
          EXPECT_EQ(s.features().nnz, host.features().nnz) << what;
          EXPECT_FALSE(s.chosen_variant().empty()) << what;
          if (v == "auto") {
            EXPECT_NE(s.selection().how, "search") << what;
          }
          expect_solves(s, T, tri, unit, what);
          EXPECT_THROW(s.update_values(T), InvalidArgument) << what;
        }
      }
    }
  }
}

TEST(TriangularSolverGpu, AnalyzeDeviceInputFallsBackToTheHost) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Csr T = solver_input(solver_cases()[0].lower, Triangle::Lower, false, 32);  // entries shuffled
  sptrsv::TriangularSolveOptions o;
  o.device = sptrsv::SolveDevice::Gpu;
  o.variant = "yuenyeung";
  {
    const DeviceCsr input = upload(T);
    sptrsv::TriangularSolver s(r);
    s.analyze_device(input.view(), 0, Triangle::Lower, false, o);
    EXPECT_FALSE(s.analysed_on_device());  // normalised on the host
    expect_solves(s, T, Triangle::Lower, false, "shuffled input");
  }
  const sptrsv::TriangularPattern host(T, Triangle::Lower, false);
  std::vector<double> values = host.values();
  const index_t row = host.rows() / 2;
  values[static_cast<std::size_t>(host.rowptr()[row + 1] - 1)] = 0.0;  // its diagonal
  const DeviceCsr bad(host.rowptr(), host.colind(), values);
  sptrsv::TriangularSolver s(r);
  try {
    s.analyze_device(bad.view(), 0, Triangle::Lower, false, o);
    ADD_FAILURE() << "a zero diagonal was accepted";
  } catch (const StructureError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(row)), std::string::npos) << e.what();
  }
  EXPECT_THROW(s.analyze_device(bad.view(), 7, Triangle::Lower, false, o), InvalidArgument);  // no such device
  std::vector<index_t> rowptr = host.rowptr();
  rowptr[static_cast<std::size_t>(row) + 1] = rowptr[static_cast<std::size_t>(row)] - 1;
  const DeviceCsr bad_pointer(rowptr, host.colind(), host.values());
  try {
    s.analyze_device(bad_pointer.view(), 0, Triangle::Lower, false, o);
    ADD_FAILURE() << "a decreasing row pointer was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("decreases after row " + std::to_string(row)), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hetsparse::test
