// A triangle made ready for the GPU scheme tests: the solver input built from a lower triangle for a
// SolveCase, its analysis and device copy, a random b, the reference solution, device b and x, and a
// sync-free workspace. Skipping without a GPU is the test's business.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "reference/sparse_reference.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {

struct DeviceSolveProblem {
  DeviceSolveProblem(cudaStream_t stream, const Csr& lower, const SolveCase& c, std::uint64_t input_seed,
                     std::uint64_t b_seed)
      : input(solver_input(lower, c.tri, c.unit_diagonal, input_seed)),
        pattern(input, c.tri, c.unit_diagonal),
        matrix(stream, pattern.host_view()),
        b(random_values(static_cast<std::size_t>(input.rows), b_seed)),
        expected(b.size()),
        db(stream, b),
        dx(b.size()),
        workspace(kernels::solve_workspace_bytes(input.rows)),
        ws(kernels::make_solve_workspace(workspace.get(), input.rows)) {
    ref::sptrsv(input, c.tri, c.unit_diagonal, b.data(), expected.data());
  }

  Csr input;
  sptrsv::TriangularPattern pattern;
  kernels::DeviceTriangular matrix;
  std::vector<double> b, expected;
  DeviceArray<double> db, dx;
  DeviceArray<unsigned char> workspace;
  kernels::SolveWorkspace ws;
};

}  // namespace hetsparse::test
