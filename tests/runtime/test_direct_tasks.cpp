// Tasks that go straight to their one worker (TaskSpec::direct): which worker sole_worker finds, and
// that such tasks, chained on one handle, run in order and are waited for as any other.
#include <gtest/gtest.h>

#include <vector>

#include "codelets/vector/vector_codelet.hpp"
#include "runtime/starpu/runtime.hpp"
#include "runtime/starpu/workers.hpp"
#include "tests/support/codelet_checks.hpp"

namespace hetsparse::test {
namespace {

rt::WorkerInfo worker(int id, rt::WorkerInfo::Kind kind, int device = -1) {
  rt::WorkerInfo w;
  w.id = id;
  w.kind = kind;
  w.device_id = device;
  return w;
}

// y += alpha x chained on two registered vectors of 1000 entries (x[i] = step i + start, y constant),
// with the serial result kept beside them.
struct AxpyChain {
  AxpyChain(rt::TaskRuntime& r, double step, double start, double y0)
      : x(ramp(step, start)), y(1000, y0), expected(y), hx(rt::make_vector_handle(r, x)),
        hy(rt::make_vector_handle(r, y)) {}
  static std::vector<double> ramp(double step, double start) {
    std::vector<double> v(1000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = step * double(i) + start;
    return v;
  }
  void insert(rt::TaskRuntime& r, const rt::TaskOptions& o, double alpha) {
    codelets::insert_axpy(r, o, 1000, alpha, hx.id(), hy.id());
    for (std::size_t i = 0; i < x.size(); ++i) expected[i] += alpha * x[i];
  }
  void expect_done() {  // y's handle unregistered: its values are home
    hy.reset();
    for (std::size_t i = 0; i < y.size(); ++i) ASSERT_NEAR(y[i], expected[i], 1e-12) << i;
  }
  std::vector<double> x, y, expected;
  rt::DataHandle hx, hy;
};

rt::TaskSpec task(const rt::Kernel& k, rt::Where where, int cuda_device = -1) {
  rt::TaskSpec t;
  t.kernel = &k;
  t.where = where;
  t.workers.cuda_device = cuda_device;
  return t;
}

TEST(DirectTasks, SoleWorkerIsTheOnlyOneThatMayRunTheTask) {
  using Kind = rt::WorkerInfo::Kind;
  const rt::Kernel both{"both", rt::DeviceMask(rt::Device::Cpu) | rt::Device::Cuda};
  const rt::Kernel cpu_only{"cpu_only", rt::Device::Cpu};
  const std::vector<rt::WorkerInfo> one_gpu = {worker(0, Kind::Cpu), worker(1, Kind::Cpu), worker(2, Kind::Cuda, 0)};
  EXPECT_EQ(rt::sole_worker(one_gpu, task(both, rt::Where::Cuda)), 2);
  EXPECT_EQ(rt::sole_worker(one_gpu, task(both, rt::Where::Any, 0)), 2);  // pinned to device 0
  EXPECT_EQ(rt::sole_worker(one_gpu, task(both, rt::Where::Any)), -1);
  EXPECT_EQ(rt::sole_worker(one_gpu, task(both, rt::Where::Cpu)), -1);
  EXPECT_EQ(rt::sole_worker(one_gpu, task(cpu_only, rt::Where::Cuda)), -1);
  EXPECT_EQ(rt::sole_worker(one_gpu, task(both, rt::Where::Cuda, 1)), -1);  // no worker drives device 1
  const std::vector<rt::WorkerInfo> two_gpus = {worker(0, Kind::Cpu), worker(1, Kind::Cuda, 0), worker(2, Kind::Cuda, 1)};
  EXPECT_EQ(rt::sole_worker(two_gpus, task(both, rt::Where::Cuda)), -1);
  EXPECT_EQ(rt::sole_worker(two_gpus, task(both, rt::Where::Cuda, 1)), 2);
  EXPECT_EQ(rt::sole_worker(two_gpus, task(cpu_only, rt::Where::Any)), 0);
  const std::vector<rt::WorkerInfo> two_per_gpu = {worker(0, Kind::Cuda, 0), worker(1, Kind::Cuda, 0)};
  EXPECT_EQ(rt::sole_worker(two_per_gpu, task(both, rt::Where::Cuda, 0)), -1);
  rt::TaskSpec numa = task(both, rt::Where::Cpu);
  numa.workers.numa_node = 0;
  EXPECT_EQ(rt::sole_worker(one_gpu, numa), -1);
  rt::TaskSpec second_cpu = task(both, rt::Where::Cpu);  // counted among the CPU workers
  second_cpu.workers.cpu_worker = 1;
  const std::vector<rt::WorkerInfo> cuda_first = {worker(0, Kind::Cuda, 0), worker(1, Kind::Cpu), worker(2, Kind::Cpu)};
  EXPECT_EQ(rt::sole_worker(cuda_first, second_cpu), 2);
  EXPECT_EQ(rt::sole_worker(one_gpu, second_cpu), 1);
  second_cpu.workers.cpu_worker = 2;
  EXPECT_EQ(rt::sole_worker(cuda_first, second_cpu), -1);
}

// One CPU worker: every direct task goes to it. A chain of updates of y, each reading the last, gives
// the serial result, and wait_all returns only after the last.
TEST(DirectTasks, AChainOnTheSoleWorkerRunsInOrder) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 0));
  AxpyChain c(r, 0.001, -0.3, 0.5);
  rt::TaskOptions o;
  o.where = rt::Where::Cpu;
  o.direct = true;
  for (int k = 1; k <= 50; ++k) c.insert(r, o, 0.01 * k);
  r.wait_all();
  EXPECT_EQ(r.pending_tasks(), 0u);
  c.expect_done();
}

// Without a CUDA worker there is no stream to launch on: launch_inline refuses, and a task that asks
// for it is a task like any other.
TEST(DirectTasks, InlineLaunchesWithoutAGpuAreTasks) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 0));
  AxpyChain c(r, 0.002, -0.7, 0.25);
  rt::TaskOptions o;
  o.launch_inline = true;
  rt::TaskSpec t = rt::make_task(codelets::axpy_kernel(), o, 0);
  EXPECT_TRUE(t.launch_inline);
  t.data = {{c.hx.id(), rt::Access::Read}, {c.hy.id(), rt::Access::ReadWrite}};
  t.set_args(codelets::VectorArgs{1000, 3.0});
  EXPECT_FALSE(r.launch_inline(t));
  for (int k = 0; k < 4; ++k) c.insert(r, o, 0.5);
  r.close_inline();  // nothing held: a no-op
  double first = 0;
  EXPECT_FALSE(r.read_inline(c.hy.id(), &first, sizeof first));
  c.expect_done();
}

}  // namespace
}  // namespace hetsparse::test
