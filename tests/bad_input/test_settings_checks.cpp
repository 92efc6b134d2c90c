// The runtime's settings checked before starpu_init (runtime/starpu/settings_checks.hpp): unknown
// schedulers, variables StarPU would abort on, worker counts the machine cannot honour; the
// scheduler reported is the one that runs; StarPU's notices stay quiet unless asked for.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"
#include "runtime/starpu/settings_checks.hpp"
#include "tests/bad_input/scoped_env.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::test {
namespace {

rt::RuntimeOptions options(const std::string& sched, int ncpu) {
  rt::RuntimeOptions o;
  o.scheduler = sched;
  o.ncpu = ncpu;
  o.ncuda = 0;
  o.perfmodel_dir = test_output_dir() + "bad_input_perfmodels";
  return o;
}

std::string message_of(const rt::RuntimeOptions& o) {
  try {
    rt::Runtime r(o);
  } catch (const InvalidSetting& e) {
    return e.what();
  }
  return "";
}

TEST(SettingsChecks, SchedulersAreStarpusOwnList) {
  bool dmdas = false;
  for (const auto& [name, description] : rt::starpu_schedulers()) dmdas |= name == "dmdas";
  EXPECT_TRUE(dmdas);
  EXPECT_NO_THROW(rt::check_scheduler("lws", "test"));
  try {
    rt::check_scheduler("nosuch", "from --sched");
    FAIL();
  } catch (const InvalidSetting& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown StarPU scheduler 'nosuch' (from --sched)"), std::string::npos) << what;
    EXPECT_NE(what.find("dmdas"), std::string::npos) << what;
  }
}

TEST(SettingsChecks, UnknownSchedulerRefusedBeforeStarpuStartsAndTheRuntimeIsFreeAfter) {
  EXPECT_NE(message_of(options("nosuch", 1)).find("'nosuch'"), std::string::npos);
  ScopedEnv env;
  env.set("STARPU_SCHED", "bogus");
  EXPECT_NE(message_of(options("", 1)).find("'bogus' (from STARPU_SCHED)"), std::string::npos);
  env.set("STARPU_SCHED", nullptr);
  rt::Runtime r(options("eager", 1));  // the refusals left no half-started runtime behind
  EXPECT_EQ(r.options().scheduler, "eager");
}

TEST(SettingsChecks, ReportedSchedulerIsTheOneStarpuRuns) {
  ScopedEnv env;
  env.set("STARPU_SCHED", "lws");
  rt::Runtime r(options("", 1));
  EXPECT_EQ(r.options().scheduler, "lws");
}

TEST(SettingsChecks, NumericStarpuVariablesStarpuWouldAbortOn) {
  ScopedEnv env;
  env.set("STARPU_NCPU", "abc");
  EXPECT_THROW(rt::check_starpu_environment(), InvalidSetting);
  env.set("STARPU_NCPU", "2");
  EXPECT_NO_THROW(rt::check_starpu_environment());
  for (const char* bad : {"x", "-1", "1.5", "99999999999"}) {
    env.set("STARPU_NCUDA", bad);
    try {
      rt::check_starpu_environment();
      FAIL() << bad;
    } catch (const InvalidSetting& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("STARPU_NCUDA='") + bad + "'"), std::string::npos) << e.what();
    }
  }
  env.set("STARPU_NCUDA", nullptr);
  env.set("STARPU_SCHED_ALPHA", "fast");  // a real-valued one
  EXPECT_THROW(rt::check_starpu_environment(), InvalidSetting);
  env.set("STARPU_SCHED_ALPHA", "0.5");
  EXPECT_NO_THROW(rt::check_starpu_environment());
  // Through the Runtime: a typed error, not StarPU's abort.
  env.set("STARPU_CALIBRATE", "yes");
  EXPECT_NE(message_of(options("eager", 1)).find("STARPU_CALIBRATE='yes'"), std::string::npos);
}

TEST(SettingsChecks, WorkerCountsTheMachineCannotHonour) {
  const int cpus = rt::available_cpus();
  ASSERT_GE(cpus, 1);
  EXPECT_NO_THROW(rt::check_worker_counts(options("eager", cpus)));
  const std::string more = message_of(options("eager", cpus + 1));
  EXPECT_NE(more.find("may use only " + std::to_string(cpus) + " CPUs"), std::string::npos) << more;
  EXPECT_NE(message_of(options("eager", 1000)).find("built for at most"), std::string::npos);
  EXPECT_NE(message_of(options("eager", -2)).find("must be >= 0"), std::string::npos);
  ScopedEnv env;
  env.set("STARPU_NCPU", std::to_string(cpus + 1).c_str());
  EXPECT_NE(message_of(options("eager", -1)).find("STARPU_NCPU=" + std::to_string(cpus + 1)), std::string::npos);
}

TEST(SettingsChecks, CudaWorkersPerGpuOutOfRange) {
  rt::RuntimeOptions o = options("eager", 1);
  for (int bad : {0, -2, rt::kMaxCudaWorkersPerGpu + 1}) {
    o.cuda_workers_per_gpu = bad;
    const std::string m = message_of(o);
    EXPECT_NE(m.find(std::to_string(bad) + " CUDA workers per GPU (RuntimeOptions"), std::string::npos) << m;
  }
  o.cuda_workers_per_gpu = 2;
  EXPECT_NO_THROW(rt::check_worker_counts(o));
  o.cuda_workers_per_gpu = -1;
  ScopedEnv env;
  env.set("STARPU_NWORKER_PER_CUDA", "0");  // StarPU would start no CUDA worker at all
  const std::string m = message_of(o);
  EXPECT_NE(m.find("STARPU_NWORKER_PER_CUDA=0"), std::string::npos) << m;
}

TEST(SettingsChecks, StarpuNoticesQuietUnlessVerbose) {
  ScopedEnv env;
  env.set("STARPU_SILENT", nullptr);
  rt::resolve_options(options("eager", 1));
  EXPECT_STREQ(std::getenv("STARPU_SILENT"), "1");
  rt::RuntimeOptions verbose = options("eager", 1);
  verbose.verbose = true;
  rt::resolve_options(verbose);
  EXPECT_STREQ(std::getenv("STARPU_SILENT"), "0");
}

// StarPU asserts on a thread per CUDA worker together with a choice per device: a typed error instead.
TEST(SettingsChecks, CudaDriverThreadsContradiction) {
  ScopedEnv env;
  env.set("STARPU_CUDA_THREAD_PER_WORKER", "1");
  env.set("STARPU_CUDA_THREAD_PER_DEV", "1");
  const std::string m = message_of(options("eager", 1));
  EXPECT_NE(m.find("STARPU_CUDA_THREAD_PER_WORKER=1 with STARPU_CUDA_THREAD_PER_DEV=1"), std::string::npos) << m;
}

// hetsparse's data defaults: a driver thread per CUDA worker when a GPU has several, no write-back of
// modified GPU buffers ahead of need unless a GPU's memory is capped; what the user set stays.
TEST(SettingsChecks, DataDefaultsYieldToTheUser) {
  ScopedEnv env;
  for (const char* v : {"STARPU_CUDA_THREAD_PER_WORKER", "STARPU_CUDA_THREAD_PER_DEV", "STARPU_MINIMUM_CLEAN_BUFFERS",
                        "STARPU_TARGET_CLEAN_BUFFERS", "STARPU_LIMIT_CUDA_MEM", "STARPU_NWORKER_PER_CUDA"})
    env.set(v, nullptr);
  rt::RuntimeOptions o = options("eager", 1);
  rt::resolve_options(o);
  EXPECT_EQ(std::getenv("STARPU_CUDA_THREAD_PER_WORKER"), nullptr);  // one worker per GPU
  EXPECT_STREQ(std::getenv("STARPU_MINIMUM_CLEAN_BUFFERS"), "0");
  EXPECT_STREQ(std::getenv("STARPU_TARGET_CLEAN_BUFFERS"), "0");
  o.cuda_workers_per_gpu = 2;
  rt::resolve_options(o);
  EXPECT_STREQ(std::getenv("STARPU_CUDA_THREAD_PER_WORKER"), "1");
  for (const char* v : {"STARPU_CUDA_THREAD_PER_WORKER", "STARPU_MINIMUM_CLEAN_BUFFERS", "STARPU_TARGET_CLEAN_BUFFERS"})
    env.set(v, nullptr);
  env.set("STARPU_CUDA_THREAD_PER_DEV", "1");
  env.set("STARPU_LIMIT_CUDA_MEM", "12000");
  rt::resolve_options(o);
  EXPECT_EQ(std::getenv("STARPU_CUDA_THREAD_PER_WORKER"), nullptr);
  EXPECT_EQ(std::getenv("STARPU_MINIMUM_CLEAN_BUFFERS"), nullptr);
  env.set("STARPU_LIMIT_CUDA_MEM", nullptr);
  env.set("STARPU_MINIMUM_CLEAN_BUFFERS", "7");
  rt::resolve_options(o);
  EXPECT_STREQ(std::getenv("STARPU_MINIMUM_CLEAN_BUFFERS"), "7");
}

TEST(SettingsChecks, DefaultCudaWorkersPerGpuLeaveMostCoresToTheCpuWorkers) {
  EXPECT_EQ(rt::scaled_cuda_workers_per_gpu(6, 16, 1), 6);  // the H100 node
  EXPECT_EQ(rt::scaled_cuda_workers_per_gpu(6, 8, 1), 3);
  EXPECT_EQ(rt::scaled_cuda_workers_per_gpu(6, 16, 2), 3);
  EXPECT_EQ(rt::scaled_cuda_workers_per_gpu(6, 128, 8), 6);
  EXPECT_EQ(rt::scaled_cuda_workers_per_gpu(4, 128, 8), 4);  // never above the default asked for
  EXPECT_EQ(rt::scaled_cuda_workers_per_gpu(6, 2, 1), 1);
  EXPECT_EQ(rt::scaled_cuda_workers_per_gpu(6, 2, 0), 6);  // no GPU: nothing to scale
  EXPECT_EQ(rt::scaled_cuda_workers_per_gpu(-1, 16, 1), -1);  // StarPU's own default stays
}

}  // namespace
}  // namespace hetsparse::test
