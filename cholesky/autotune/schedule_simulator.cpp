#include "cholesky/autotune/schedule_simulator.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "hetsparse/error.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

// Free times of identical workers of one kind: the earliest-free one is the best choice for any task.
using FreeTimes = std::priority_queue<double, std::vector<double>, std::greater<double>>;

FreeTimes idle_workers(int count) {
  FreeTimes f;
  for (int i = 0; i < count; ++i) f.push(0.0);
  return f;
}

}  // namespace

SimResult simulate_schedule(const TaskGraph& graph, const SimMachine& machine, const CostModels& models) {
  if (machine.ncpu < 0 || machine.ngpu < 0 || machine.ncpu + machine.ngpu == 0)
    throw InvalidArgument("simulate_schedule: need at least one worker (ncpu " + std::to_string(machine.ncpu) +
                          ", ngpu " + std::to_string(machine.ngpu) + ")");
  if (!(machine.task_overhead_s >= 0 && machine.submit_s >= 0 && machine.handle_s >= 0))
    throw InvalidArgument("simulate_schedule: overheads must be non-negative");
  const std::vector<SimTask>& tasks = graph.tasks;
  const std::size_t n = tasks.size();
  std::vector<std::vector<std::size_t>> succ(n);
  std::vector<std::size_t> waiting(n);
  for (std::size_t i = 0; i < n; ++i) {
    const SimTask& t = tasks[i];
    const bool cpu_ok = t.where != rt::Where::Cuda && machine.ncpu > 0;
    const bool gpu_ok = t.where != rt::Where::Cpu && t.has_cuda && machine.ngpu > 0;
    if (!cpu_ok && !gpu_ok)
      throw InvalidArgument("simulate_schedule: no worker can run task " + std::to_string(i) + " (" + t.kernel + ")");
    for (std::size_t d : t.deps) {
      if (d >= i) throw InvalidArgument("simulate_schedule: task " + std::to_string(i) + " depends on a later task");
      succ[d].push_back(i);
    }
    waiting[i] = t.deps.size();
  }
  // Ready tasks: highest priority first, then submission order.
  auto later = [&](std::size_t x, std::size_t y) {
    return tasks[x].priority != tasks[y].priority ? tasks[x].priority < tasks[y].priority : x > y;
  };
  std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> ready(later);
  for (std::size_t i = 0; i < n; ++i)
    if (waiting[i] == 0) ready.push(i);

  FreeTimes cpus = idle_workers(machine.ncpu), gpus = idle_workers(machine.ngpu);
  std::vector<double> finish(n, 0.0);
  SimResult r;
  while (!ready.empty()) {
    const std::size_t i = ready.top();
    ready.pop();
    const SimTask& t = tasks[i];
    double data_ready = double(i + 1) * machine.submit_s;
    for (std::size_t d : t.deps) data_ready = std::max(data_ready, finish[d]);
    const double inf = std::numeric_limits<double>::infinity();
    double cpu_end = inf, gpu_end = inf, cpu_cost = 0, gpu_cost = 0;
    if (t.where != rt::Where::Cuda && machine.ncpu > 0) {
      cpu_cost = machine.task_overhead_s + models.seconds(t.kernel, ArchKind::Cpu, t.flops);
      cpu_end = std::max(cpus.top(), data_ready) + cpu_cost;
    }
    if (t.where != rt::Where::Cpu && t.has_cuda && machine.ngpu > 0) {
      gpu_cost = machine.task_overhead_s + models.seconds(t.kernel, ArchKind::Cuda, t.flops);
      gpu_end = std::max(gpus.top(), data_ready) + gpu_cost;
    }
    const bool on_gpu = gpu_end < cpu_end;  // equal finish: the CPU, which keeps the GPU for big work
    FreeTimes& pool = on_gpu ? gpus : cpus;
    finish[i] = on_gpu ? gpu_end : cpu_end;
    pool.pop();
    pool.push(finish[i]);
    (on_gpu ? r.gpu_busy_s : r.cpu_busy_s) += on_gpu ? gpu_cost : cpu_cost;
    r.tasks_on_gpu += on_gpu;
    r.makespan_s = std::max(r.makespan_s, finish[i]);
    for (std::size_t s : succ[i])
      if (--waiting[s] == 0) ready.push(s);
  }
  r.registration_s = double(graph.handles) * machine.handle_s;
  r.total_s = r.registration_s + r.makespan_s;
  return r;
}

}  // namespace hetsparse::cholesky::autotune
