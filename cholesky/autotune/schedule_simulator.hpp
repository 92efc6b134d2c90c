// A list-scheduling simulation of a task graph on ncpu CPU workers and ngpu GPU workers, with
// per-kernel cost models: a prediction of the factorization's makespan, cheap enough to evaluate
// for every candidate setting of the auto-tuner.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "cholesky/autotune/cost_model.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::cholesky::autotune {

struct SimTask {
  std::string kernel;  // codelet name: selects the cost model
  double flops = 0;
  rt::Where where = rt::Where::Any;
  bool has_cuda = false;  // the codelet has a CUDA implementation
  int priority = 0;
  std::vector<std::size_t> deps;  // indices of earlier tasks
};

// A task graph as the planner submits it: tasks in submission order and the data handles registered
// for them.
struct TaskGraph {
  std::vector<SimTask> tasks;
  std::size_t handles = 0;
};

// Overheads are guesses of a lightly loaded node; on the 2-core development VM under load StarPU
// took about 25 us per submitted task and 26 us per handle registered and unregistered.
struct SimMachine {
  int ncpu = 1, ngpu = 0;
  double task_overhead_s = 5e-6;  // added to every task's run time: scheduling, data management
  double submit_s = 10e-6;        // per task, on the one submitting thread: task i is released at (i+1) * submit_s
  double handle_s = 10e-6;        // per handle, registration + unregistration, before and after the graph
};

struct SimResult {
  double total_s = 0;         // registration_s + makespan_s: the predicted factorization time
  double registration_s = 0;  // handles * handle_s
  double makespan_s = 0;      // first submission to last task's end
  double cpu_busy_s = 0, gpu_busy_s = 0;  // sums of task times (overhead included) per kind
  std::size_t tasks_on_gpu = 0;
};

// HEFT-style list scheduling without insertion: repeatedly takes the highest-priority task whose
// predecessors are all placed (ties: lowest index, i.e. submission order) and puts it on the worker
// where it finishes first: start = max(worker free, last predecessor's finish, its submission),
// finish = start + task_overhead_s + cost(kernel, arch, flops). A task may use a GPU when
// where != Cpu and has_cuda, a CPU when where != Cuda. Data transfers are not modelled (the cost
// models' measurements include what StarPU overlapped). InvalidArgument for a dependency on a later task, a task no worker can run, or
// a machine without workers.
SimResult simulate_schedule(const TaskGraph& graph, const SimMachine& machine, const CostModels& models);

}  // namespace hetsparse::cholesky::autotune
