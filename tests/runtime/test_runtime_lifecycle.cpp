// Runtime lifecycle, options, worker inventory, tracing and the errors a user can cause.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "codelets/cuda_build.hpp"
#include "codelets/gemm/gemm_codelet.hpp"
#include "codelets/vector/vector_codelet.hpp"
#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::test {
namespace {

TEST(Runtime, WorkersAndOptions) {
  rt::Runtime r(test_runtime_options("lws", 2, 0));
  EXPECT_EQ(r.options().scheduler, "lws");
  EXPECT_EQ(r.cpu_workers(), 2);
  EXPECT_EQ(r.cuda_workers(), 0);
  EXPECT_EQ(r.cuda_devices(), 0);
  for (const auto& w : r.workers()) {
    EXPECT_EQ(w.kind, rt::WorkerInfo::Kind::Cpu);
    EXPECT_FALSE(w.name.empty());
    EXPECT_GE(w.bind_core, 0);
  }
  EXPECT_LE(r.min_priority(), r.max_priority());
}

TEST(Runtime, OnlyOneAtATime) {
  rt::Runtime r(test_runtime_options("eager", 1, 0));
  EXPECT_THROW(rt::Runtime second(test_runtime_options("eager", 1, 0)), InvalidArgument);
}

TEST(Runtime, SchedulerFromEnvironmentWhenNotGiven) {
  ::setenv("STARPU_SCHED", "prio", 1);
  {
    rt::RuntimeOptions o = test_runtime_options("", 1, 0);
    rt::Runtime r(o);
    EXPECT_EQ(r.options().scheduler, "prio");
  }
  ::unsetenv("STARPU_SCHED");
}

TEST(Runtime, CudaOnlyTaskWithoutGpuIsATypedError) {
  rt::Runtime r(test_runtime_options("eager", 1, 0));
  std::vector<double> x(100, 1.0), y(100, 2.0);
  rt::DataHandle hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y);
  rt::TaskOptions o;
  o.where = rt::Where::Cuda;
  // A CUDA build has the CUDA kernel but no worker (StarPU's ENODEV); a CPU-only build has no CUDA
  // implementation to restrict the task to.
  if (codelets::kCudaBuild) {
    EXPECT_THROW(codelets::insert_axpy(r, o, 100, 1.0, hx.id(), hy.id()), RuntimeFailure);
  } else {
    EXPECT_THROW(codelets::insert_axpy(r, o, 100, 1.0, hx.id(), hy.id()), InvalidArgument);
  }
}

TEST(Runtime, TasksPinnedToWorkers) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  std::vector<double> x(100, 1.0), y(100, 2.0);
  rt::DataHandle hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y);
  // Pinned to the CPU workers of worker 0's NUMA node: runs there (y = 3 x + y).
  const int numa = r.workers().front().numa_node;
  rt::TaskOptions cpu;
  cpu.where = rt::Where::Cpu;
  cpu.workers.numa_node = numa;
  if (numa >= 0) {
    codelets::insert_axpy(r, cpu, 100, 3.0, hx.id(), hy.id());
    r.wait_all();
    hy.reset();
    EXPECT_EQ(y[7], 5.0);
    hy = rt::make_vector_handle(r, y);
  }
  // A NUMA node without workers, a CUDA device no worker drives, a pin that contradicts Where.
  cpu.workers.numa_node = 99;
  EXPECT_THROW(codelets::insert_axpy(r, cpu, 100, 1.0, hx.id(), hy.id()), InvalidArgument);
  rt::TaskOptions gpu;
  gpu.workers.cuda_device = 0;
  EXPECT_THROW(codelets::insert_axpy(r, gpu, 100, 1.0, hx.id(), hy.id()), InvalidArgument);
  cpu.workers = {0, 0};
  EXPECT_THROW(codelets::insert_axpy(r, cpu, 100, 1.0, hx.id(), hy.id()), InvalidArgument);
  // One CPU worker (the second), past the scheduler too: runs there (y = 2 x + y); a third does not exist.
  cpu.workers = {};
  cpu.workers.cpu_worker = 1;
  for (const bool direct : {false, true}) {
    cpu.direct = direct;
    codelets::insert_axpy(r, cpu, 100, 2.0, hx.id(), hy.id());
  }
  r.wait_all();
  hy.reset();
  EXPECT_EQ(y[7], (numa >= 0 ? 5.0 : 2.0) + 4.0);
  hy = rt::make_vector_handle(r, y);
  cpu.workers.cpu_worker = 2;
  cpu.direct = false;
  EXPECT_THROW(codelets::insert_axpy(r, cpu, 100, 1.0, hx.id(), hy.id()), InvalidArgument);
  cpu.workers.numa_node = 0;  // two pins
  cpu.workers.cpu_worker = 0;
  EXPECT_THROW(codelets::insert_axpy(r, cpu, 100, 1.0, hx.id(), hy.id()), InvalidArgument);
}

TEST(Runtime, ExceptionInsideATaskReachesTheSubmitter) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  std::vector<double> a(64, 1.0), c(64, 0.0);
  rt::DataHandle ha = rt::make_matrix_handle(r, a.data(), 8, 8, 8), hc = rt::make_matrix_handle(r, c.data(), 8, 8, 8);
  rt::TaskOptions o;
  o.name = "bad_gemm";
  codelets::insert_gemm(r, o, 'X', 'N', 8, 8, 8, 1.0, ha.id(), ha.id(), 0.0, hc.id());  // 'X' is no transpose flag
  try {
    r.wait_all();
    FAIL() << "wait_all should rethrow the task's exception";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("bad_gemm"), std::string::npos) << e.what();
  }
  r.wait_all();  // reported once
}

TEST(Runtime, UnknownHandleIsATypedError) {
  rt::Runtime r(test_runtime_options("eager", 1, 0));
  EXPECT_THROW(r.unregister(12345), InvalidArgument);
}

TEST(Runtime, TraceConvertsToPaje) {
  const auto dir = std::filesystem::path(test::test_output_dir()) / "hetsparse-test-trace";
  std::filesystem::remove_all(dir);
  rt::RuntimeOptions o = test_runtime_options("dmdas", 2, 0);
  o.trace_dir = dir.string();
  rt::TraceFiles files;
  {
    rt::Runtime r(o);
    check_vector_ops(r, rt::Where::Cpu, 3);
    files = r.shutdown();
  }
  ::unsetenv("STARPU_FXT_TRACE");
  ASSERT_FALSE(files.paje.empty());
  std::ifstream in(files.paje);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(all.find("%EventDef"), std::string::npos);  // a Paje header
  EXPECT_NE(all.find("axpy"), std::string::npos);       // our task names are in it
  EXPECT_FALSE(files.dag.empty());
}

}  // namespace
}  // namespace hetsparse::test
