#include "runtime/starpu/settings_checks.hpp"

#include <sched.h>
#include <starpu.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include "hetsparse/error.hpp"

namespace hetsparse::rt {
namespace {

// The value of a set, non-empty variable, or nullptr.
const char* env(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  return v && *v ? v : nullptr;
}

// As StarPU's strtol check, plus the range of the int it stores the value in.
bool whole_number(const char* text, long& value) {
  errno = 0;
  char* end = nullptr;
  value = std::strtol(text, &end, 10);
  return end != text && *end == '\0' && errno == 0 && value >= 0 && value <= INT_MAX;
}

bool real_number(const char* text) {
  char* end = nullptr;
  std::strtof(text, &end);
  return end != text && *end == '\0';
}

std::string scheduler_names() {
  std::string names;
  for (const auto& [name, description] : starpu_schedulers()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

// The CPU workers asked for and where the number came from, or -1 when automatic.
std::pair<long, std::string> requested_cpus(const RuntimeOptions& o) {
  if (o.ncpu >= 0) return {o.ncpu, std::to_string(o.ncpu) + " CPU workers asked for (--ncpu / RuntimeOptions::ncpu)"};
  for (const char* name : {"STARPU_NCPU", "STARPU_NCPUS"}) {
    long v = 0;
    if (const char* text = env(name); text && whole_number(text, v))
      return {v, std::string(name) + "=" + text + " asks for " + text + " CPU workers"};
  }
  return {-1, ""};
}

}  // namespace

std::vector<std::pair<std::string, std::string>> starpu_schedulers() {
  std::vector<std::pair<std::string, std::string>> out;
  for (starpu_sched_policy** p = starpu_sched_get_predefined_policies(); p && *p; ++p)
    out.emplace_back((*p)->policy_name, (*p)->policy_description ? (*p)->policy_description : "");
  return out;
}

void check_scheduler(const std::string& name, const std::string& source) {
  for (const auto& known : starpu_schedulers())
    if (known.first == name) return;
  throw InvalidSetting("unknown StarPU scheduler '" + name + "' (" + source + "); StarPU " +
                       std::to_string(STARPU_MAJOR_VERSION) + "." + std::to_string(STARPU_MINOR_VERSION) +
                       " has: " + scheduler_names());
}

void check_starpu_environment() {
  for (std::string_view name : starpu_integer_variables()) {
    long v = 0;
    if (const char* text = env(name); text && !whole_number(text, v)) {
      throw InvalidSetting(std::string(name) + "='" + text +
                           "': StarPU reads this variable as a whole number >= 0 (and would abort on this "
                           "value); set a number or unset it");
    }
  }
  // StarPU asserts (a core dump) on this pair rather than choosing one.
  if (const char* per_worker = env("STARPU_CUDA_THREAD_PER_WORKER"); per_worker && std::atol(per_worker) == 1) {
    if (const char* per_dev = env("STARPU_CUDA_THREAD_PER_DEV"))
      throw InvalidSetting(std::string("STARPU_CUDA_THREAD_PER_WORKER=1 with STARPU_CUDA_THREAD_PER_DEV=") + per_dev +
                           ": a thread per CUDA worker leaves nothing to choose per device; unset one of them");
  }
  for (std::string_view name : starpu_real_variables()) {
    if (const char* text = env(name); text && !real_number(text)) {
      throw InvalidSetting(std::string(name) + "='" + text +
                           "': StarPU reads this variable as a number (and would abort on this value); set a "
                           "number or unset it");
    }
  }
}

int available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : 1;
}

int scaled_cuda_workers_per_gpu(int most, int cpus, int gpus) {
  if (gpus <= 0 || most <= 1) return most;
  return std::max(1, std::min(most, 3 * cpus / (8 * gpus)));
}

void check_worker_counts(const RuntimeOptions& o) {
  if (o.ncpu < -1 || o.ncuda < -1) {
    throw InvalidSetting("worker counts must be >= 0 (or -1: automatic), got ncpu " + std::to_string(o.ncpu) +
                         ", ncuda " + std::to_string(o.ncuda));
  }
  const auto [ncpu, source] = requested_cpus(o);
  const int cpus = available_cpus();
  if (ncpu > STARPU_MAXCPUS) {
    throw InvalidSetting(source + ", but StarPU was built for at most " + std::to_string(STARPU_MAXCPUS) +
                         " (and this process may use " + std::to_string(cpus) + " CPUs)");
  }
  if (ncpu > cpus) {
    throw InvalidSetting(source + ", but this process may use only " + std::to_string(cpus) +
                         " CPUs: more workers than CPUs share them and run many times slower (64 workers on 2 "
                         "cores: 52 s instead of under 1 s). Ask for at most " + std::to_string(cpus) +
                         ", or leave the count out for one worker per core");
  }
  long per_gpu = o.cuda_workers_per_gpu;
  std::string per_gpu_source = "RuntimeOptions::cuda_workers_per_gpu / --cuda-workers-per-gpu";
  if (const char* text = env("STARPU_NWORKER_PER_CUDA"); per_gpu < 0 && text && whole_number(text, per_gpu))
    per_gpu_source = std::string("STARPU_NWORKER_PER_CUDA=") + text;
  if (per_gpu == 0 || per_gpu < -1 || per_gpu > kMaxCudaWorkersPerGpu) {
    throw InvalidSetting(std::to_string(per_gpu) + " CUDA workers per GPU (" + per_gpu_source + "): use 1 to " +
                         std::to_string(kMaxCudaWorkersPerGpu) + " (-1 or unset: one)");
  }
  long ncuda = o.ncuda;
  if (const char* text = env("STARPU_NCUDA"); ncuda < 0 && text) whole_number(text, ncuda);
  if (ncuda > STARPU_MAXCUDADEVS) {
    throw InvalidSetting(std::to_string(ncuda) + " CUDA workers asked for, but StarPU was built for at most " +
                         std::to_string(STARPU_MAXCUDADEVS));
  }
}

}  // namespace hetsparse::rt
