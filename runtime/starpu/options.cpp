// Option resolution: explicit option > environment variable > hetsparse default. StarPU reads its
// environment at starpu_init and lets it override starpu_conf, so options are applied as variables.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <thread>

#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"
#include "runtime/starpu/settings_checks.hpp"

extern char** environ;

namespace hetsparse::rt {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return (v && *v) ? std::string(v) : fallback;
}

void set_env(const char* name, const std::string& value) { ::setenv(name, value.c_str(), 1); }
void set_env_unless_set(const char* name, const char* value) {
  if (!std::getenv(name)) set_env(name, value);
}

// Whether the user caps a GPU's memory (STARPU_LIMIT_CUDA_MEM, STARPU_LIMIT_CUDA_<n>_MEM).
bool cuda_memory_capped() {
  for (char** e = environ; e && *e; ++e)
    if (std::strncmp(*e, "STARPU_LIMIT_CUDA", 17) == 0) return true;
  return false;
}

// StarPU data tuning that hetsparse's task graphs need, each only where the user has not decided.
// After the options are applied: STARPU_NWORKER_PER_CUDA then holds the workers a GPU.
void set_data_defaults() {
  const char* text = std::getenv("STARPU_NWORKER_PER_CUDA");
  const long per_gpu = text ? std::atol(text) : 1;
  // Several CUDA workers on a GPU: a driver thread each. StarPU's default drives all of a GPU's
  // streams from one thread, which a synchronous copy from pageable memory stalls for every stream.
  if (per_gpu > 1 && !std::getenv("STARPU_CUDA_THREAD_PER_DEV")) set_env_unless_set("STARPU_CUDA_THREAD_PER_WORKER", "1");
  // StarPU writes modified GPU buffers back to host memory ahead of need whenever fewer than 5 % of
  // a GPU's buffers are unmodified, so that evicting them is quick. A factorization that assembles
  // its panels on the GPU has only modified buffers at first: its first call copied gigabytes of
  // fresh panels to pageable host memory while they were still being updated. Without a memory cap
  // the panels stay on the GPU anyway; with one, StarPU's defaults stay.
  if (!cuda_memory_capped()) {
    set_env_unless_set("STARPU_MINIMUM_CLEAN_BUFFERS", "0");
    set_env_unless_set("STARPU_TARGET_CLEAN_BUFFERS", "0");
  }
}

std::string default_perfmodel_dir() {
  std::string base = env_or("XDG_CACHE_HOME", "");
  if (base.empty()) base = env_or("HOME", "/tmp") + "/.cache";
  return base + "/hetsparse/perfmodels";
}

void make_dir(const std::string& dir, const char* what) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InvalidArgument(std::string("cannot create the ") + what + " directory '" + dir + "': " + ec.message());
}

}  // namespace

ResolvedOptions resolve_options(const RuntimeOptions& o) {
  ResolvedOptions r;
  r.scheduler = o.scheduler.empty() ? env_or("STARPU_SCHED", "dmdas") : o.scheduler;
  check_scheduler(r.scheduler, o.scheduler.empty() ? (std::getenv("STARPU_SCHED") ? "from STARPU_SCHED" : "the default")
                                                   : "from --sched / RuntimeOptions::scheduler");
  check_worker_counts(o);
  set_env("STARPU_SCHED", r.scheduler);
  // heteroprio: hetsparse's bucket configuration (runtime/starpu/heteroprio_config.cpp) unless the user
  // asks for StarPU's automatic one, which would overwrite it.
  if (r.scheduler == "heteroprio" && !std::getenv("STARPU_HETEROPRIO_USE_AUTO_CALIBRATION"))
    set_env("STARPU_HETEROPRIO_USE_AUTO_CALIBRATION", "0");
  if (o.ncpu >= 0) set_env("STARPU_NCPU", std::to_string(o.ncpu));
  if (o.ncuda >= 0) set_env("STARPU_NCUDA", std::to_string(o.ncuda));
  if (o.cuda_workers_per_gpu >= 1) set_env("STARPU_NWORKER_PER_CUDA", std::to_string(o.cuda_workers_per_gpu));
  set_data_defaults();
  // On a large node, give the submitting thread a core of its own: analysis (METIS) and task
  // submission otherwise share one with a busy worker and run ~3x slower (seen on the 16-core H100
  // node). Only when the worker count is automatic and the user did not decide.
  if (o.ncpu < 0 && !std::getenv("STARPU_NCPU") && !std::getenv("STARPU_MAIN_THREAD_BIND") &&
      std::thread::hardware_concurrency() >= 8)
    set_env("STARPU_MAIN_THREAD_BIND", "1");

  // StarPU's notices (models being calibrated, ...) are for tuning sessions, not every run.
  if (o.verbose) {
    set_env("STARPU_SILENT", "0");
  } else if (!std::getenv("STARPU_SILENT")) {
    set_env("STARPU_SILENT", "1");
  }

  // A stable per-user directory, so calibrated history models survive runs.
  r.perfmodel_dir = o.perfmodel_dir.empty() ? env_or("STARPU_PERF_MODEL_DIR", default_perfmodel_dir())
                                            : o.perfmodel_dir;
  make_dir(r.perfmodel_dir, "performance-model");
  set_env("STARPU_PERF_MODEL_DIR", r.perfmodel_dir);

  r.trace_dir = o.trace_dir;
  if (!r.trace_dir.empty()) {
    make_dir(r.trace_dir, "trace");
    r.trace_dir = std::filesystem::absolute(r.trace_dir).string();
    set_env("STARPU_FXT_PREFIX", r.trace_dir + "/");
    set_env("STARPU_FXT_TRACE", "1");
  } else if (!std::getenv("STARPU_FXT_TRACE")) {
    set_env("STARPU_FXT_TRACE", "0");
  }
  check_starpu_environment();  // last: what the user set and hetsparse did not override
  return r;
}

}  // namespace hetsparse::rt
