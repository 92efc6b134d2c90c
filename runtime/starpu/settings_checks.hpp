// Checks of the runtime's settings, made before starpu_init: StarPU itself aborts with a core dump
// on a non-numeric STARPU_NCPU, falls back silently to another scheduler on an unknown name, and
// clamps worker counts without a word. Each check throws InvalidSetting naming the setting, the
// value and what would be accepted.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/starpu/runtime.hpp"

namespace hetsparse::rt {

// StarPU's scheduling policies as (name, description), from starpu_sched_get_predefined_policies().
std::vector<std::pair<std::string, std::string>> starpu_schedulers();

// Unless `name` is one of starpu_schedulers(); `source` says where it came from ("--sched", ...).
void check_scheduler(const std::string& name, const std::string& source);

// For every variable StarPU reads as a number (starpu_env_variables.cpp) that is set to something
// StarPU would abort on: not a whole number >= 0 (fitting an int), or not a real number.
void check_starpu_environment();

// Logical CPUs this process may run on (its affinity mask; else the online CPUs).
int available_cpus();

// More CUDA workers on one GPU than this gain nothing (each is a host thread polling its stream).
constexpr int kMaxCudaWorkersPerGpu = 8;

// Worker counts: ncpu and ncuda are -1 (automatic) or >= 0; the CPU workers asked for, by the
// options or STARPU_NCPU, must not exceed available_cpus() (more workers than CPUs share them and
// run many times slower: 64 workers on 2 cores took 52 s instead of under 1 s) nor StarPU's build
// limit; CUDA workers not StarPU's build limit. Fewer GPUs than ncuda is not checked here: the
// Runtime uses the GPUs there are (Runtime::cuda_workers() says how many). CUDA workers per GPU, from
// the options or STARPU_NWORKER_PER_CUDA: 1 to kMaxCudaWorkersPerGpu.
void check_worker_counts(const RuntimeOptions& o);

// A default of `most` CUDA workers a GPU, scaled down where cores are few: each worker is a host
// thread with a core of its own, and five eighths of the cores stay with the CPU workers (a
// 16-core node with one GPU keeps 6). At least 1; `most` itself without GPUs.
int scaled_cuda_workers_per_gpu(int most, int cpus, int gpus);

// The variable lists of starpu_env_variables.cpp.
const std::vector<std::string_view>& starpu_integer_variables();
const std::vector<std::string_view>& starpu_real_variables();

}  // namespace hetsparse::rt
