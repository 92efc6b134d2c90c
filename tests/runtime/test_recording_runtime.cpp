// The recording runtime alone: dependencies inferred from data accesses as StarPU does (read after
// write, write after read, commuting writers), and unregistered handles refused. The planners' DAGs
// on it are in tests/planners/.
#include <gtest/gtest.h>

#include "codelets/vector/vector_codelet.hpp"
#include "hetsparse/error.hpp"
#include "runtime/recording_runtime.hpp"

namespace hetsparse::test {
namespace {

TEST(RecordingRuntime, ReadAfterWriteWriteAfterReadAndScratch) {
  rt::RecordingRuntime r;
  std::vector<double> x(10), y(10), d(1), n(1);
  auto hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y), hd = rt::make_vector_handle(r, d),
       hn = rt::make_vector_handle(r, n);
  codelets::insert_axpy(r, {}, 10, 1.0, hx.id(), hy.id());           // t0 writes y
  codelets::insert_dot(r, {}, 10, hx.id(), hy.id(), hd.id());        // t1 reads y: after t0
  codelets::insert_nrm2(r, {}, 10, hx.id(), hn.id());                // t2 independent of t0/t1
  codelets::insert_axpy(r, {"again", 5, rt::Where::Cpu, -1}, 10, 2.0, hy.id(), hx.id());  // t3 writes x: after t1, t2, t0
  const auto& t = r.tasks();
  ASSERT_EQ(t.size(), 4u);
  EXPECT_TRUE(t[0].deps.empty());
  EXPECT_EQ(t[1].deps, (std::vector<std::size_t>{0}));
  EXPECT_TRUE(t[2].deps.empty());
  EXPECT_EQ(t[3].deps, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(t[3].spec.name, "again");
  EXPECT_EQ(t[3].spec.priority, 5);
  EXPECT_EQ(t[3].spec.where, rt::Where::Cpu);
  EXPECT_EQ(r.critical_path_length(), 3u);
  EXPECT_NE(r.to_dot().find("t1 -> t3"), std::string::npos);
  EXPECT_DOUBLE_EQ(t[1].spec.flops, 20.0);
}

TEST(RecordingRuntime, CommutingWritersWaitForWhatCameBeforeNotForEachOther) {
  rt::RecordingRuntime r;
  std::vector<double> v(8), w(8);
  rt::DataHandle hv = rt::make_vector_handle(r, v), hw = rt::make_vector_handle(r, w);
  rt::Kernel k{"k"};
  auto task = [&](rt::Access mode) {
    rt::TaskSpec t;
    t.kernel = &k;
    t.data = {{hv.id(), mode}, {hw.id(), rt::Access::Read}};
    r.submit(std::move(t));
  };
  task(rt::Access::Write);    // t0
  task(rt::Access::Commute);  // t1
  task(rt::Access::Commute);  // t2
  task(rt::Access::Commute);  // t3
  task(rt::Access::Read);     // t4: after the whole group
  task(rt::Access::Write);    // t5
  const auto& t = r.tasks();
  EXPECT_EQ(t[1].deps, (std::vector<std::size_t>{0}));
  EXPECT_EQ(t[2].deps, (std::vector<std::size_t>{0}));
  EXPECT_EQ(t[3].deps, (std::vector<std::size_t>{0}));
  EXPECT_EQ(t[4].deps, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(t[5].deps, (std::vector<std::size_t>{1, 2, 3, 4}));
  EXPECT_EQ(r.critical_path_length(), 4u);
}

TEST(RecordingRuntime, WorkerPinsCheckedAgainstTheRecordedMachine) {
  rt::RecordingRuntime r;
  r.set_cuda_workers(2);
  r.set_numa_nodes(2);
  static const rt::Kernel both{"both", rt::DeviceMask(rt::Device::Cpu) | rt::Device::Cuda};
  std::vector<double> v(4);
  auto h = rt::make_vector_handle(r, v);
  const auto task = [&](rt::Where where, int device, int numa) {
    rt::TaskOptions o;
    o.where = where;
    o.workers = {device, numa};
    rt::TaskSpec t = rt::make_task(both, o, 0.0);
    t.data = {{h.id(), rt::Access::ReadWrite}};
    r.submit(std::move(t));
  };
  task(rt::Where::Any, 1, -1);
  task(rt::Where::Cpu, -1, 1);
  EXPECT_EQ(r.tasks()[0].spec.workers.cuda_device, 1);
  EXPECT_EQ(r.tasks()[1].spec.workers.numa_node, 1);
  EXPECT_NE(r.to_dot().find("gpu1"), std::string::npos);
  EXPECT_NE(r.to_dot().find("numa1"), std::string::npos);
  EXPECT_THROW(task(rt::Where::Cuda, 2, -1), InvalidArgument);  // the machine has GPUs 0 and 1
  EXPECT_THROW(task(rt::Where::Cpu, -1, 2), InvalidArgument);    // and NUMA nodes 0 and 1
  EXPECT_THROW(task(rt::Where::Cpu, 0, -1), InvalidArgument);    // a GPU pin on a CPU task
  EXPECT_THROW(task(rt::Where::Any, -1, 0), InvalidArgument);    // a NUMA pin needs Where::Cpu
  EXPECT_THROW(task(rt::Where::Cpu, 0, 0), InvalidArgument);     // not both
  static const rt::Kernel cpu_only{"cpu_only", rt::Device::Cpu};
  rt::TaskOptions o;
  o.workers.cuda_device = 0;
  rt::TaskSpec t = rt::make_task(cpu_only, o, 0.0);
  EXPECT_THROW(r.submit(std::move(t)), InvalidArgument);  // no CUDA implementation to pin
  EXPECT_EQ(r.tasks().size(), 2u);
}

TEST(RecordingRuntime, RejectsUnregisteredHandles) {
  rt::RecordingRuntime r;
  std::vector<double> x(4), y(4);
  auto hx = rt::make_vector_handle(r, x);
  rt::HandleId dead;
  {
    auto hy = rt::make_vector_handle(r, y);
    dead = hy.id();
  }
  EXPECT_THROW(codelets::insert_axpy(r, {}, 4, 1.0, hx.id(), dead), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
