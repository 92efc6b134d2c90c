// insert_sptrsv_host on the RecordingRuntime: a solve whose CUDA task copies b and x itself is one
// direct CUDA task holding only T's values (so consecutive solves are not ordered by b or x, and a
// values update waits for them), with the host vectors in its arguments; on CPU workers the task
// reads T's three arrays; what it cannot run refused.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "hetsparse/error.hpp"
#include "runtime/recording_runtime.hpp"

namespace hetsparse::test {
namespace {

// Never called: the recording runtime runs nothing.
struct NoPlans final : codelets::SptrsvCudaPlans {
  void solve(int, cudaStream_t, const double*, double*, const kernels::SolveWorkspace&) override { ADD_FAILURE(); }
  void solve_host(int, cudaStream_t, index_t, const double*, double*, double*, const kernels::SolveWorkspace&) override {
    ADD_FAILURE();
  }
};

struct HostSolve {
  rt::RecordingRuntime rec;
  std::vector<double> store = std::vector<double>(40, 0.0), b = std::vector<double>(40, 1.0), x = std::vector<double>(40);
  codelets::SptrsvMatrixHandles T;
  NoPlans plans;
  codelets::SptrsvParams params;
  rt::TaskOptions opt;

  HostSolve() {
    const auto vec = [this] { return rec.register_vector({store.data(), store.size(), sizeof(double)}); };
    T.rowptr = vec(), T.colind = vec(), T.values = vec();
    params.n = 40;
    params.plans = &plans;
    opt.name = "sptrsv";
    opt.where = rt::Where::Cuda;
    opt.direct = true;
  }
  void insert() { codelets::insert_sptrsv_host(rec, opt, T, b.data(), x.data(), params, 120); }
};

TEST(SptrsvHostTask, OneDirectCudaTaskHoldingTheValuesWithTheHostVectorsInItsArguments) {
  HostSolve s;
  s.insert();
  s.insert();
  const auto& t = s.rec.tasks();
  ASSERT_EQ(t.size(), 2u);
  for (const auto& task : t) {
    EXPECT_EQ(task.spec.name, "sptrsv");
    EXPECT_EQ(task.spec.where, rt::Where::Cuda);
    EXPECT_TRUE(task.spec.direct);
    ASSERT_EQ(task.spec.data.size(), 1u);
    EXPECT_EQ(task.spec.data[0].handle, s.T.values);
    EXPECT_EQ(task.spec.data[0].mode, rt::Access::Read);
    EXPECT_DOUBLE_EQ(task.spec.flops, 240.0);
    ASSERT_EQ(task.spec.args.size(), sizeof(codelets::SptrsvArgs));
    codelets::SptrsvArgs a;
    std::memcpy(&a, task.spec.args.data(), sizeof a);
    EXPECT_EQ(a.host_b, s.b.data());
    EXPECT_EQ(a.host_x, s.x.data());
    EXPECT_EQ(a.p.plans, &s.plans);
    EXPECT_TRUE(a.prepared_only);
  }
  EXPECT_TRUE(t[1].deps.empty()) << "two readers of the values: the caller orders its solves itself";
  // A writer of the values (update_values) waits for both solves.
  rt::TaskSpec w = rt::make_task(codelets::sptrsv_kernel(), {}, 0);
  w.data = {{s.T.values, rt::Access::Write}};
  s.rec.submit(std::move(w));
  EXPECT_EQ(s.rec.tasks()[2].deps, (std::vector<std::size_t>{0, 1}));
}

TEST(SptrsvHostTask, OnCpuWorkersTheTaskReadsTheWholeMatrixWithTheHostVectorsInItsArguments) {
  HostSolve s;
  s.opt.where = rt::Where::Cpu;
  s.opt.direct = false;
  s.params.plans = nullptr;  // serial substitution needs no prepared scheme
  s.insert();
  const auto& t = s.rec.tasks();
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].spec.where, rt::Where::Cpu);
  ASSERT_EQ(t[0].spec.data.size(), 3u);  // the buffer order of the CPU function: rowptr, colind, values
  EXPECT_EQ(t[0].spec.data[0].handle, s.T.rowptr);
  EXPECT_EQ(t[0].spec.data[1].handle, s.T.colind);
  EXPECT_EQ(t[0].spec.data[2].handle, s.T.values);
  for (const auto& d : t[0].spec.data) EXPECT_EQ(d.mode, rt::Access::Read);
  codelets::SptrsvArgs a;
  ASSERT_EQ(t[0].spec.args.size(), sizeof a);
  std::memcpy(&a, t[0].spec.args.data(), sizeof a);
  EXPECT_EQ(a.host_b, s.b.data());
  EXPECT_EQ(a.host_x, s.x.data());
  EXPECT_FALSE(a.prepared_only);
}

TEST(SptrsvHostTask, RefusesWhatItsCudaTaskCannotRun) {
  const auto refused = [](auto change) {
    HostSolve s;
    change(s);
    EXPECT_THROW(s.insert(), InvalidArgument);
    EXPECT_TRUE(s.rec.tasks().empty());
  };
  refused([](HostSolve& s) { s.params.plans = nullptr; });
  refused([](HostSolve& s) { s.params.nrhs = 2; });
  refused([](HostSolve& s) { s.params.transpose = true; });
  refused([](HostSolve& s) { s.opt.where = rt::Where::Any; });
  refused([](HostSolve& s) {  // CPU workers: still one vector, not transposed
    s.opt.where = rt::Where::Cpu;
    s.params.transpose = true;
  });
  HostSolve s;
  EXPECT_THROW(codelets::insert_sptrsv_host(s.rec, s.opt, s.T, nullptr, s.x.data(), s.params, 120), InvalidArgument);
  EXPECT_THROW(codelets::insert_sptrsv_host(s.rec, s.opt, s.T, s.b.data(), nullptr, s.params, 120), InvalidArgument);
  EXPECT_TRUE(s.rec.tasks().empty());
}

}  // namespace
}  // namespace hetsparse::test
