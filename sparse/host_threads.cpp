// The CPU set of the process at load time, for the analysis phases' threads (see the header).
#include "sparse/host_threads.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <thread>

namespace hetsparse {
namespace {

struct StartupCpus {
  cpu_set_t set;
  bool known = false;
};

StartupCpus capture_startup_cpus() {
  StartupCpus cpus;
  CPU_ZERO(&cpus.set);
  cpus.known = sched_getaffinity(0, sizeof cpus.set, &cpus.set) == 0 && CPU_COUNT(&cpus.set) > 0;
  return cpus;
}

// Dynamic initialisation: runs when the program loads, before main() can start a runtime that
// pins the main thread.
const StartupCpus g_startup_cpus = capture_startup_cpus();

}  // namespace

int host_thread_count(int requested) {
  if (requested > 0) return requested;
  if (g_startup_cpus.known) return CPU_COUNT(&g_startup_cpus.set);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void run_on_startup_cpus() {
  if (g_startup_cpus.known) pthread_setaffinity_np(pthread_self(), sizeof g_startup_cpus.set, &g_startup_cpus.set);
}

}  // namespace hetsparse
