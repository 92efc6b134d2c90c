// Where TriangularSolver::solve runs a one-vector, untransposed solve on host vectors when the caller
// left the device to the solver (SolveDevice::Auto) and its solves would go to a GPU: on the GPU, or
// as serial substitution on one CPU worker, whichever a linear cost model of the two host paths
// predicts faster. A small or deep triangle often solves on one core before the GPU path (a task,
// two copies, a kernel whose dependent steps cost about a microsecond each) has finished. Solves on
// vectors the runtime holds (TriangularSolver::submit) stay where the device option puts them.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "sparse/types.hpp"

namespace hetsparse::sptrsv {

// Microseconds of one host-vector solve through TriangularSolver::solve, fitted on the H200 node
// (docs/benchmarks.md, issue 16, twenty-seventh session: the GPU path inline, no task).
struct HostSolveCosts {
  // One CPU worker, b and x read and written in place by the task: c0 + c1 rows + c2 stored entries.
  std::array<double, 3> cpu{6.54, 5.15e-3, 7.65e-4};
  // The GPU: pinned staging, the scheme's kernel, the copies: c0 + c1 levels + c2 entries + c3 rows.
  std::array<double, 4> gpu{21.2, 0.628, 1.53e-4, 1.13e-3};
  // The CPU is taken only when predicted at most this fraction of the GPU's time: the CPU model
  // misses one core by up to 3.8x on the real triangles (its time depends on where x's reads fall,
  // which these sizes do not see), and near a tie the GPU leaves the CPU cores free. Between the
  // last triangle one core won in every run (0.63) and one it lost in a run (astro-ph, 0.79).
  double margin = 0.7;
};

struct HostSolvePlacement {
  bool cpu = false;
  double cpu_us = 0, gpu_us = 0;  // the predictions
  // "one CPU core: 41 us predicted against 96 us on the GPU"; "" for no placement made (all zero).
  std::string why() const;
};

HostSolvePlacement place_host_solves(index_t rows, std::int64_t nnz, index_t levels, const HostSolveCosts& costs = {});

}  // namespace hetsparse::sptrsv
