// How many threads the parallel ordering runs on, and on which CPUs. A runtime may pin the
// application thread to one core (StarPU's STARPU_MAIN_THREAD_BIND, which hetsparse sets on large
// nodes), and threads started from it inherit that single core: the ordering's threads would all
// share it. The CPUs the process was given at startup (taskset, cgroups) are recorded before main()
// runs, so the ordering can count them and put its helper threads back on them.
#pragma once

namespace hetsparse::cholesky {

// The threads AnalyzeOptions::ordering_threads asks for: 0 means one per CPU the process started
// with (std::thread::hardware_concurrency() when that set is unknown).
int ordering_thread_count(int requested);

// Lets the calling thread run on every CPU the process started with (no-op when unknown).
void run_on_startup_cpus();

}  // namespace hetsparse::cholesky
