// Where TriangularSolver's solves run (TriangularSolveOptions::device), decided once at analysis.
#pragma once
#include <string>

#include "runtime/task_runtime.hpp"

namespace hetsparse::sptrsv {

// auto: a CUDA worker when the runtime has one and the build has CUDA schemes, else the CPU workers.
//   One-right-hand-side solves then go where their scheme was chosen for, even before StarPU's
//   performance models are calibrated (which would send the first solves to every kind of worker).
// any: the scheduler decides per task (its models decide, once calibrated).
// cpu / gpu: CPU workers only / CUDA workers only (gpu: InvalidArgument without CUDA).
enum class SolveDevice { Auto, Any, Cpu, Gpu };
SolveDevice parse_solve_device(const std::string& name);  // InvalidArgument naming the accepted ones
const char* to_string(SolveDevice);

// The task restriction of a one-right-hand-side solve: Cpu, Cuda or Any. cuda_available: the build
// has CUDA schemes and the runtime CUDA workers.
rt::Where solve_where(SolveDevice device, bool cuda_available);

}  // namespace hetsparse::sptrsv
