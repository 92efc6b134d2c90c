// Progress lines (sparse/progress.hpp): when they are wanted, and what an enabled reporter prints
// when stderr is not a terminal (as under ctest).
#include <gtest/gtest.h>

#include <string>

#include "hetsparse/error.hpp"
#include "sparse/progress.hpp"
#include "tests/bad_input/scoped_env.hpp"

namespace hetsparse::test {
namespace {

TEST(Progress, WantedWhenAskedOrByTheEnvironment) {
  ScopedEnv env;
  env.set("HETSPARSE_PROGRESS", nullptr);
  EXPECT_TRUE(progress_wanted(true));
  EXPECT_FALSE(progress_wanted(false));  // ctest's stderr is no terminal
  env.set("HETSPARSE_PROGRESS", "1");
  EXPECT_TRUE(progress_wanted(false));
  env.set("HETSPARSE_PROGRESS", "0");
  EXPECT_FALSE(progress_wanted(false));
  EXPECT_TRUE(progress_wanted(true));  // the option wins
  env.set("HETSPARSE_PROGRESS", "yes");
  EXPECT_THROW(progress_wanted(false), InvalidSetting);
}

TEST(Progress, PhaseLinesWithTimesAndNothingWhenDisabled) {
  ::testing::internal::CaptureStderr();
  {
    ProgressReporter p("demo", true);
    p.begin("ordering");
    p.update(1, 10, "steps");  // within the first second: not printed
    p.begin("tree");           // ends "ordering"
    p.end();
    p.end();  // nothing open: nothing printed
  }
  const std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("[demo] ordering ...\n[demo] ordering: "), std::string::npos) << out;
  EXPECT_NE(out.find("[demo] tree ...\n[demo] tree: "), std::string::npos) << out;
  EXPECT_EQ(out.find("steps"), std::string::npos) << out;
  EXPECT_EQ(out.find('\r'), std::string::npos) << "no terminal control on a pipe: " << out;

  ::testing::internal::CaptureStderr();
  {
    ProgressReporter quiet("demo", false);
    quiet.begin("ordering");
    quiet.update(5, 10, "steps");
    quiet.end();
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace hetsparse::test
