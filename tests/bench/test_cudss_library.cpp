// The run-time loader of libcudss.so.1 without a GPU: where it looks, and the skip reasons
// bench_cholesky prints (not found: what to set; a library that is not cuDSS: the missing symbol).
#include <gtest/gtest.h>

#include <cstdlib>

#include "bench/cudss_library.hpp"
#include "tests/bad_input/scoped_env.hpp"

namespace hetsparse::test {
namespace {

TEST(CudssLibrary, RequestFollowsTheEnvironment) {
  ScopedEnv env;
  env.set("HETSPARSE_CUDSS_LIB", nullptr);
  EXPECT_EQ(bench::cudss_library_request(), "libcudss.so.1");
  env.set("HETSPARSE_CUDSS_LIB", "/");  // a folder: the library's name is added
  EXPECT_EQ(bench::cudss_library_request(), "//libcudss.so.1");
  env.set("HETSPARSE_CUDSS_LIB", "/opt/x/libcudss.so.1.0.0");  // a file: taken as it is
  EXPECT_EQ(bench::cudss_library_request(), "/opt/x/libcudss.so.1.0.0");
}

TEST(CudssLibrary, MissingLibrarySaysWhatToSet) {
  const bench::CudssLibrary lib("/nonexistent/libcudss.so.1");
  EXPECT_FALSE(lib.ok());
  EXPECT_EQ(lib.version(), "");
  const std::string why = lib.skip_reason();
  EXPECT_EQ(why.rfind("libcudss.so.1 not found (", 0), 0u) << why;
  EXPECT_NE(why.find("/nonexistent/libcudss.so.1"), std::string::npos) << why;
  EXPECT_NE(why.find("set HETSPARSE_CUDSS_LIB"), std::string::npos) << why;
}

TEST(CudssLibrary, ALibraryThatIsNotCudssNamesTheMissingSymbol) {
  const bench::CudssLibrary lib("libm.so.6");  // loads, but has none of cuDSS's calls
  EXPECT_FALSE(lib.ok());
  EXPECT_NE(lib.skip_reason().find("has no symbol cudssCreate"), std::string::npos) << lib.skip_reason();
}

TEST(CudssLibrary, TheRealLibraryBindsEveryCall) {
  if (!std::getenv("HETSPARSE_CUDSS_LIB")) GTEST_SKIP() << "HETSPARSE_CUDSS_LIB not set (libcudss.so.1 is optional)";
  const bench::CudssLibrary lib;
  ASSERT_TRUE(lib.ok()) << lib.skip_reason();
  EXPECT_EQ(lib.version().rfind("1.", 0), 0u) << lib.version();
}

}  // namespace
}  // namespace hetsparse::test
