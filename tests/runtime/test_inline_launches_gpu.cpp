// Kernels launched on the calling thread's stream with their data held on the GPU between launches
// (TaskRuntime::launch_inline, TaskSpec::launch_inline): chains of them mixed with CPU tasks keep
// program order both ways, a handle held for reading is given back before a launch writes it, and
// every way of looking at the data (wait_all, acquire_on_host, run_inline, unregister, read_inline)
// sees the launches.
#include <gtest/gtest.h>

#include <vector>

#include "codelets/vector/vector_codelet.hpp"
#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"
#include "sparse/random.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/cuda_test_support.hpp"

namespace hetsparse::test {
namespace {

constexpr int kN = 3000;  // several blocks of the axpy kernel

std::vector<double> random_values(std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> v(kN);
  for (double& e : v) e = uniform(rng, -1, 1);
  return v;
}

void axpy(std::vector<double>& y, double a, const std::vector<double>& x) {
  for (std::size_t i = 0; i < y.size(); ++i) y[i] += a * x[i];
}

rt::TaskOptions on(rt::Where where, bool launch_inline) {
  rt::TaskOptions o;
  o.where = where;
  o.launch_inline = launch_inline;
  return o;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-12) << what << ", entry " << i;
}

class InlineLaunches : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_device_available()) GTEST_SKIP() << "no CUDA device";
  }
};

// Launches, then a CPU task reading what they wrote, then launches reading what the task wrote: each
// sees the other's results, in the order submitted.
TEST_F(InlineLaunches, ChainsAndCpuTasksKeepProgramOrder) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  std::vector<double> x = random_values(1), y = random_values(2), z = random_values(3);
  std::vector<double> ex = x, ey = y, ez = z;
  {
    rt::DataHandle hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y),
                   hz = rt::make_vector_handle(r, z);
    for (int k = 1; k <= 20; ++k) {
      codelets::insert_axpy(r, on(rt::Where::Cuda, true), kN, 0.01 * k, hx.id(), hy.id());
      axpy(ey, 0.01 * k, ex);
    }
    codelets::insert_axpy(r, on(rt::Where::Cpu, false), kN, 1.0, hy.id(), hz.id());  // waits for the launches
    axpy(ez, 1.0, ey);
    {
      // z is not held, but the task that writes it waits for y, which is: the batch must go.
      rt::HostAccess read(r, hz.id(), rt::Access::Read);
      expect_near(z, ez, "z read between the launches");
    }
    codelets::insert_axpy(r, on(rt::Where::Cpu, false), kN, -0.5, hz.id(), hx.id());  // x, held for reading
    axpy(ex, -0.5, ez);
    for (int k = 1; k <= 5; ++k) {
      codelets::insert_axpy(r, on(rt::Where::Cuda, true), kN, 0.1, hx.id(), hy.id());  // the new x
      axpy(ey, 0.1, ex);
    }
    r.wait_all();
  }
  expect_near(x, ex, "x");
  expect_near(y, ey, "y");
  expect_near(z, ez, "z");
}

// A handle held for reading by earlier launches is written by the next one: given back, then taken
// for writing, after the launches that read it.
TEST_F(InlineLaunches, AHandleHeldForReadingIsWrittenLater) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  std::vector<double> x = random_values(4), y = random_values(5);
  std::vector<double> ex = x, ey = y;
  {
    rt::DataHandle hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y);
    for (int k = 0; k < 6; ++k) {
      codelets::insert_axpy(r, on(rt::Where::Cuda, true), kN, 0.25, hx.id(), hy.id());
      axpy(ey, 0.25, ex);
      codelets::insert_axpy(r, on(rt::Where::Cuda, true), kN, -0.125, hy.id(), hx.id());
      axpy(ex, -0.125, ey);
    }
  }
  expect_near(x, ex, "x");
  expect_near(y, ey, "y");
}

// Host access, a synchronous inline run and unregistering each see the launches before them without
// a wait_all.
TEST_F(InlineLaunches, HostAccessAndRunInlineSeeThem) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  std::vector<double> x = random_values(6), y = random_values(7);
  std::vector<double> ey = y;
  rt::DataHandle hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y);
  for (int k = 0; k < 3; ++k) {
    rt::TaskSpec t = rt::make_task(codelets::axpy_kernel(), on(rt::Where::Cuda, false), 0);
    t.data = {{hx.id(), rt::Access::Read}, {hy.id(), rt::Access::ReadWrite}};
    t.set_args(codelets::VectorArgs{kN, 1.5});
    EXPECT_TRUE(r.launch_inline(t));
    axpy(ey, 1.5, x);
  }
  {
    rt::HostAccess read(r, hy.id(), rt::Access::Read);
    expect_near(y, ey, "y after acquire_on_host");
  }
  rt::TaskSpec t = rt::make_task(codelets::axpy_kernel(), on(rt::Where::Cuda, false), 0);
  t.data = {{hx.id(), rt::Access::Read}, {hy.id(), rt::Access::ReadWrite}};
  t.set_args(codelets::VectorArgs{kN, -2.0});
  EXPECT_TRUE(r.launch_inline(t));
  axpy(ey, -2.0, x);
  t.set_args(codelets::VectorArgs{kN, 0.75});
  EXPECT_TRUE(r.run_inline(t));  // joins the launches, then waits for all of them
  axpy(ey, 0.75, x);
  EXPECT_TRUE(r.launch_inline(t));
  axpy(ey, 0.75, x);
  hy.reset();
  expect_near(y, ey, "y after unregister");
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d += a[i] * b[i];
  return d;
}

// A scalar written by a launch is read without giving it back; a handle not held, or a task
// submitted since, sends the reader to acquire_on_host.
TEST_F(InlineLaunches, ReadInlineLeavesTheHandleHeld) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  std::vector<double> x = random_values(8), y = random_values(9), s(1, -1.0), t(1, -1.0);
  std::vector<double> ey = y;
  rt::DataHandle hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y),
                 hs = rt::make_vector_handle(r, s), ht = rt::make_vector_handle(r, t);
  double got = 0;
  EXPECT_FALSE(r.read_inline(hs.id(), &got, sizeof got));  // nothing launched yet
  codelets::insert_dot(r, on(rt::Where::Cuda, true), kN, hx.id(), hy.id(), hs.id());
  ASSERT_TRUE(r.read_inline(hs.id(), &got, sizeof got));
  EXPECT_NEAR(got, dot(x, ey), 1e-12 * kN);
  codelets::insert_axpy(r, on(rt::Where::Cuda, true), kN, 0.5, hx.id(), hy.id());
  axpy(ey, 0.5, x);
  codelets::insert_dot(r, on(rt::Where::Cuda, true), kN, hx.id(), hy.id(), hs.id());
  ASSERT_TRUE(r.read_inline(hs.id(), &got, sizeof got));  // still held: the second dot's value
  EXPECT_NEAR(got, dot(x, ey), 1e-12 * kN);
  EXPECT_FALSE(r.read_inline(ht.id(), &got, sizeof got));  // not held
  EXPECT_THROW(r.read_inline(hs.id(), &got, 2 * sizeof got), InvalidArgument);  // past its one entry
  codelets::insert_dot(r, on(rt::Where::Cuda, true), kN, hx.id(), hx.id(), hs.id());
  codelets::insert_axpy(r, on(rt::Where::Cpu, false), kN, 1.0, hx.id(), hy.id());  // a task: the batch goes
  axpy(ey, 1.0, x);
  EXPECT_FALSE(r.read_inline(hs.id(), &got, sizeof got));
  {
    rt::HostAccess read(r, hs.id(), rt::Access::Read);
    EXPECT_NEAR(s[0], dot(x, x), 1e-12 * kN);
  }
  hy.reset();
  expect_near(y, ey, "y");
}

// A read begun and finished later sees the value at the point it was begun, not what launches queued
// after it wrote; reads of several handles may be outstanding, two of one handle may not.
TEST_F(InlineLaunches, BegunReadsSeeTheValueWhenTheyWereBegun) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  std::vector<double> x = random_values(8), y = random_values(9), s(1, -1.0), t(1, -1.0);
  rt::DataHandle hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y),
                 hs = rt::make_vector_handle(r, s), ht = rt::make_vector_handle(r, t);
  EXPECT_FALSE(r.begin_read_inline(hs.id(), sizeof(double)));  // nothing held
  codelets::insert_dot(r, on(rt::Where::Cuda, true), kN, hx.id(), hy.id(), hs.id());
  ASSERT_TRUE(r.begin_read_inline(hs.id(), sizeof(double)));
  EXPECT_THROW(r.begin_read_inline(hs.id(), sizeof(double)), InvalidArgument);  // one at a time per handle
  EXPECT_THROW(r.begin_read_inline(hx.id(), 1024 * sizeof(double)), InvalidArgument);  // more than a slot takes
  codelets::insert_dot(r, on(rt::Where::Cuda, true), kN, hx.id(), hx.id(), hs.id());  // overwrites s
  codelets::insert_dot(r, on(rt::Where::Cuda, true), kN, hy.id(), hy.id(), ht.id());
  ASSERT_TRUE(r.begin_read_inline(ht.id(), sizeof(double)));
  double first = 0, second = 0;
  EXPECT_THROW(r.finish_read_inline(hx.id(), &first), InvalidArgument);  // never begun
  r.finish_read_inline(hs.id(), &first);
  EXPECT_NEAR(first, dot(x, y), 1e-12 * kN);  // the first dot's value, not x.x
  r.finish_read_inline(ht.id(), &second);
  EXPECT_NEAR(second, dot(y, y), 1e-12 * kN);
  ASSERT_TRUE(r.begin_read_inline(hs.id(), sizeof(double)));
  r.finish_read_inline(hs.id(), &first);
  EXPECT_NEAR(first, dot(x, x), 1e-12 * kN);
}

}  // namespace
}  // namespace hetsparse::test
