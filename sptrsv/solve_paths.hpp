// What one solve costs a user, on the same analysed solver and right-hand side, three ways:
//   host:     TriangularSolver::solve on host vectors (registration, copies, task, wait);
//   resident: TriangularSolver::solve on handles the runtime already holds where the solve runs
//             (the latency an iterative solver sees), and submit + wait_all on the same handles;
//   kernel:   the chosen scheme alone on device data, between CUDA events (no StarPU);
// and the copies a user of the kernel alone pays for host vectors: b host to device and x back,
// from pageable memory (as the caller's std::vector is). Medians of `runs`.
#pragma once
#include <string>
#include <vector>

#include "runtime/task_runtime.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::sptrsv {

// The resident path: solve(b, x) on handles, and submit(b, x) + wait_all; the x of the last solve.
struct ResidentTimes {
  double solve_ms = 0, submit_ms = 0;
  std::vector<double> x;
};

struct SolvePathTimes {
  double host_ms = 0, resident_ms = 0, resident_submit_ms = 0;
  double kernel_ms = 0, copy_ms = 0;  // 0 when not measured (no GPU, or a CPU-only solve)
  double kernel_call_ms = 0;          // the kernel launched and synchronized by plain CUDA (host wall)
  std::string kernel_note;            // why the kernel was not timed, or its status
  int runs = 0;
};

// b: n entries. The solver must be analysed; its solves' x are checked against each other by the
// caller (this measures time only). The GPU parts run only when solves go to a CUDA worker.
SolvePathTimes time_solve_paths(TriangularSolver& solver, rt::TaskRuntime& rt, const std::vector<double>& b,
                                int runs);

// The parts of it: the resident paths' medians (after a warm-up of each); and the kernel alone with
// the copies, into t.kernel_ms / t.copy_ms / t.kernel_note (x: the solve's result, which the kernel's
// output is checked against).
ResidentTimes time_resident_solves(TriangularSolver& solver, rt::TaskRuntime& rt, const std::vector<double>& b,
                                   int runs);
void time_kernel_path(TriangularSolver& solver, const rt::TaskRuntime& rt, const std::vector<double>& b,
                      const std::vector<double>& x, int runs, SolvePathTimes& t);

// Median milliseconds of copying n doubles host to device plus device to host, from and to pageable
// host memory (cudaMemcpy), on CUDA device 0; 0 without CUDA.
double pageable_copy_ms(std::size_t n, int runs);

}  // namespace hetsparse::sptrsv
