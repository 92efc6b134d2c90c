// The floor under a GPU task's round trip: an empty kernel launched and awaited by plain CUDA, and the
// same kernel as a StarPU task (one vector handle, pinned to the CUDA worker, awaited by a callback's
// flag or by starpu_task_wait_for_all), alone and in chains of dependent tasks. What StarPU adds here
// it adds to every hetsparse task; the solve and product paths are compared against it in
// docs/benchmarks.md. One JSON line per measure (microseconds: median, 10th and 90th percentile).
//   bench_round_trip [--runs N] [--chain N]
// Plain StarPU on purpose: hetsparse's Runtime is what is being bounded, not what bounds.
#include <cuda_runtime_api.h>
#include <starpu.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench/round_trip_kernel.hpp"
#include "cli/args.hpp"
#include "cli/json.hpp"
#include "kernels/common/cuda_check.hpp"

using namespace hetsparse;

namespace {

using clock_type = std::chrono::steady_clock;

double since_us(clock_type::time_point t0) {
  return std::chrono::duration<double, std::micro>(clock_type::now() - t0).count();
}

void report(const std::string& measure, std::vector<double> us, const std::string& note) {
  std::sort(us.begin(), us.end());
  const auto at = [&](double q) { return us[static_cast<std::size_t>(q * double(us.size() - 1))]; };
  cli::Json j;
  j.set("measure", measure).set("runs", static_cast<long long>(us.size())).set("median_us", at(0.5))
      .set("p10_us", at(0.1)).set("p90_us", at(0.9)).set("note", note);
  std::printf("%s\n", j.str().c_str());
  std::fflush(stdout);
}

// Times f() runs times after a few warm-ups, in microseconds of wall time each.
std::vector<double> time_each(int runs, const std::function<void()>& f) {
  for (int i = 0; i < 20; ++i) f();
  std::vector<double> us;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = clock_type::now();
    f();
    us.push_back(since_us(t0));
  }
  return us;
}

// Times f and g alternately, runs times each: drift of the machine falls on both alike.
std::pair<std::vector<double>, std::vector<double>> time_alternately(int runs, const std::function<void()>& f,
                                                                     const std::function<void()>& g) {
  for (int i = 0; i < 20; ++i) f(), g();
  std::vector<double> a, b;
  for (int i = 0; i < runs; ++i) {
    auto t0 = clock_type::now();
    f();
    a.push_back(since_us(t0));
    t0 = clock_type::now();
    g();
    b.push_back(since_us(t0));
  }
  return {a, b};
}

void cuda_empty(void*[], void*) { kernels::check_cuda(bench::launch_empty_kernel(starpu_cuda_get_local_stream()), "empty kernel"); }
// Without STARPU_CUDA_ASYNC the codelet itself must leave its stream idle (StarPU asserts it).
void cuda_empty_sync(void*[], void*) {
  cudaStream_t s = starpu_cuda_get_local_stream();
  kernels::check_cuda(bench::launch_empty_kernel(s), "empty kernel");
  kernels::check_cuda(cudaStreamSynchronize(s), "sync");
}
void cuda_nothing(void*[], void*) { starpu_cuda_get_local_stream(); }  // named: StarPU warns otherwise

starpu_codelet make_codelet(starpu_cuda_func_t f, starpu_data_access_mode mode, const char* name, bool async = true) {
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.where = STARPU_CUDA;
  cl.cuda_funcs[0] = f;
  cl.cuda_flags[0] = async ? STARPU_CUDA_ASYNC : 0;  // 0: the driver synchronizes the stream after f
  cl.nbuffers = 1;
  cl.modes[0] = mode;
  cl.name = name;
  return cl;
}

// hetsparse's resident solve task has three data (b R, x W, the values R) and a history model.
starpu_codelet three_data_codelet() {
  starpu_codelet cl = make_codelet(cuda_empty, STARPU_R, "empty_three");
  cl.nbuffers = 3;
  cl.modes[1] = STARPU_W;
  cl.modes[2] = STARPU_R;
  return cl;
}

starpu_perfmodel g_history{};

std::atomic<long> g_in_flight{0};
void task_done(void*) { g_in_flight.fetch_sub(1, std::memory_order_release); }

void submit(starpu_codelet* cl, starpu_data_handle_t h, int worker, starpu_data_handle_t h1 = nullptr,
            starpu_data_handle_t h2 = nullptr) {
  starpu_task* t = starpu_task_create();
  t->cl = cl;
  t->handles[0] = h;
  if (h1) t->handles[1] = h1, t->handles[2] = h2;
  t->execute_on_a_specific_worker = 1;
  t->workerid = static_cast<unsigned>(worker);
  t->callback_func = task_done;
  g_in_flight.fetch_add(1, std::memory_order_relaxed);
  if (starpu_task_submit(t) != 0) throw std::runtime_error("starpu_task_submit failed");
}

void spin_done() {
  while (g_in_flight.load(std::memory_order_acquire) > 0) __builtin_ia32_pause();
}

// hetsparse's Runtime::wait_all: the flag, then StarPU's own count, then its wait (returning at once).
void spin_then_starpu_wait() {
  spin_done();
  while (starpu_task_nsubmitted() > 0) __builtin_ia32_pause();
  starpu_task_wait_for_all();
}

}  // namespace

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_round_trip", "What launching and awaiting an empty GPU kernel costs: CUDA, and StarPU tasks.");
  p.option("runs", "N", "timed round trips per measure", "2000").option("chain", "N", "tasks per dependent chain", "1000");
  if (!p.parse(argc - 1, argv + 1)) return 0;
  const int runs = static_cast<int>(p.get_int_in("runs", 10, 1000000));
  const int chain = static_cast<int>(p.get_int_in("chain", 10, 1000000));
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("{\"skipped\": \"no CUDA device\"}\n");
    return 0;
  }

  cudaStream_t s;
  kernels::check_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  const auto launch = [&] { kernels::check_cuda(bench::launch_empty_kernel(s), "empty kernel"); };
  report("cuda_launch_sync", time_each(runs, [&] { launch(); kernels::check_cuda(cudaStreamSynchronize(s), "sync"); }),
         "empty kernel, cudaStreamSynchronize");
  cudaEvent_t ev;
  kernels::check_cuda(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "event");
  report("cuda_launch_event_spin", time_each(runs, [&] {
           launch();
           kernels::check_cuda(cudaEventRecord(ev, s), "record");
           while (cudaEventQuery(ev) == cudaErrorNotReady) __builtin_ia32_pause();
         }), "empty kernel, spin on cudaEventQuery");
  report("cuda_chain_per_kernel", time_each(10, [&] {
           for (int i = 0; i < chain; ++i) launch();
           kernels::check_cuda(cudaStreamSynchronize(s), "sync");
         }), "per chain of --chain empty kernels on one stream (divide by --chain)");

  cudaEventDestroy(ev);
  cudaStreamDestroy(s);

  if (starpu_init(nullptr) != 0) throw std::runtime_error("starpu_init failed");
  int worker = -1;
  if (starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, &worker, 1) < 1) throw std::runtime_error("no CUDA worker");
  std::vector<double> v(1024, 1.0);
  starpu_data_handle_t h;
  starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(v.data()), v.size(), sizeof(double));
  starpu_codelet empty_rw = make_codelet(cuda_empty, STARPU_RW, "empty_rw");
  starpu_codelet empty_r = make_codelet(cuda_empty, STARPU_R, "empty_r");
  starpu_codelet nothing_r = make_codelet(cuda_nothing, STARPU_R, "nothing_r");
  starpu_codelet empty_r_sync = make_codelet(cuda_empty_sync, STARPU_R, "empty_r_sync", false);
  starpu_codelet three = three_data_codelet();
  starpu_codelet modelled = make_codelet(cuda_empty, STARPU_R, "empty_r_history");
  g_history.type = STARPU_HISTORY_BASED;
  g_history.symbol = "hetsparse_bench_round_trip_empty";
  modelled.model = &g_history;
  std::vector<double> x(1024, 0.0), vals(1024, 1.0);
  starpu_data_handle_t hx, hv;
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(x.data()), x.size(), sizeof(double));
  starpu_vector_data_register(&hv, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(vals.data()), vals.size(), sizeof(double));
  submit(&empty_rw, h, worker);  // the vector moves to the GPU and stays valid there
  starpu_task_wait_for_all();

  // One task submitted and awaited by its callback's flag; a chain of --chain of them, awaited once.
  const auto once = [&](starpu_codelet* cl) { return [&, cl] { submit(cl, h, worker); spin_done(); }; };
  const auto chain_of = [&](starpu_codelet* cl) {
    return [&, cl] {
      for (int i = 0; i < chain; ++i) submit(cl, h, worker);
      spin_done();
    };
  };
  report("starpu_task_no_launch", time_each(runs, once(&nothing_r)), "CUDA codelet that launches nothing, R handle, callback flag");
  report("starpu_task_empty_kernel_r", time_each(runs, once(&empty_r)), "empty kernel, R handle, callback flag");
  report("starpu_task_empty_kernel_r_sync", time_each(runs, once(&empty_r_sync)),
         "empty kernel synchronized in the codelet (no STARPU_CUDA_ASYNC), R handle, callback flag");
  {
    auto [async_us, sync_us] = time_alternately(runs, once(&empty_r), once(&empty_r_sync));
    report("alternate_async", async_us, "starpu_task_empty_kernel_r, alternating with the next");
    report("alternate_sync", sync_us, "starpu_task_empty_kernel_r_sync, alternating with the last");
  }
  report("starpu_task_three_data", time_each(runs, [&] { submit(&three, h, worker, hx, hv); spin_done(); }),
         "empty kernel, three data (R, W, R) as a resident solve's, callback flag");
  report("starpu_task_history_model", time_each(runs, once(&modelled)),
         "empty kernel, R handle, a history-based perf model, callback flag");
  report("starpu_task_hetsparse_wait", time_each(runs, [&] { submit(&empty_r, h, worker); spin_then_starpu_wait(); }),
         "empty kernel, R handle, the flag then starpu_task_nsubmitted() == 0 then starpu_task_wait_for_all");
  report("starpu_task_empty_kernel_rw", time_each(runs, once(&empty_rw)), "empty kernel, RW handle, callback flag");
  report("starpu_task_empty_kernel_wait_for_all",
         time_each(runs, [&] { submit(&empty_rw, h, worker); starpu_task_wait_for_all(); g_in_flight = 0; }),
         "empty kernel, RW handle, starpu_task_wait_for_all");
  report("starpu_chain_rw_per_chain", time_each(10, chain_of(&empty_rw)),
         "per chain of --chain dependent tasks (RW on one handle; divide by --chain)");
  report("starpu_chain_r_sync_per_chain", time_each(10, chain_of(&empty_r_sync)),
         "per chain of --chain independent tasks without STARPU_CUDA_ASYNC (divide by --chain)");
  report("starpu_chain_r_per_chain", time_each(10, chain_of(&empty_r)),
         "per chain of --chain independent tasks (R on one handle; divide by --chain)");
  starpu_task_wait_for_all();
  // No task: the calling thread acquires the handles on the CUDA worker's memory node (StarPU orders
  // the acquisition after earlier tasks on them), launches on its own stream, waits, releases.
  {
    const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(worker));
    kernels::check_cuda(cudaSetDevice(starpu_worker_get_devid(worker)), "device");
    cudaStream_t own;
    kernels::check_cuda(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking), "stream");
    const auto acquired = [&](int handles) {
      return [&, handles] {
        starpu_data_acquire_on_node(h, static_cast<int>(node), STARPU_R);
        if (handles > 1) starpu_data_acquire_on_node(hx, static_cast<int>(node), STARPU_W);
        if (starpu_data_handle_to_pointer(h, node) == nullptr) throw std::runtime_error("not on the GPU");
        kernels::check_cuda(bench::launch_empty_kernel(own), "empty kernel");
        kernels::check_cuda(cudaStreamSynchronize(own), "sync");
        if (handles > 1) starpu_data_release_on_node(hx, static_cast<int>(node));
        starpu_data_release_on_node(h, static_cast<int>(node));
      };
    };
    report("acquire_launch_sync_one", time_each(runs, acquired(1)),
           "no task: acquire 1 handle (R) on the CUDA node, empty kernel on an own stream, sync, release");
    report("acquire_launch_sync_two", time_each(runs, acquired(2)),
           "no task: acquire b (R) and x (W) on the CUDA node, empty kernel, sync, release both");
    {
      auto [task_us, inline_us] = time_alternately(runs, [&] { submit(&three, h, worker, hx, hv); spin_done(); },
                                                   acquired(2));
      report("alternate_task_three_data", task_us, "starpu_task_three_data, alternating with the next");
      report("alternate_acquire_two", inline_us, "acquire_launch_sync_two, alternating with the last");
    }
    report("acquire_chain_per_chain", time_each(10, [&] { for (int i = 0; i < chain; ++i) acquired(2)(); }),
           "per chain of --chain acquire-launch-sync-release of b and x (divide by --chain)");
    cudaStreamDestroy(own);
  }
  std::fprintf(stderr, "bench_round_trip: measures done, shutting StarPU down\n");
  starpu_data_unregister(h);
  starpu_data_unregister(hx);
  starpu_data_unregister(hv);
  starpu_shutdown();
  std::fprintf(stderr, "bench_round_trip: StarPU shut down\n");
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_round_trip", e);
}
