// The fuzzer's corpus (tests/fuzz/corpus: the seeds and the inputs scripts/fuzz.sh found that reach
// new code) replayed through load_matrix as the fuzz target does: each file ends in a valid Csr or a
// hetsparse::Error, under the same memory budget. The named seeds also have their expected outcome.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/matrix_market.hpp"
#include "tests/bad_input/scoped_env.hpp"

namespace hetsparse::test {
namespace {

// $HETSPARSE_FUZZ_CORPUS where the tests run away from the source tree (a bundle on a GPU machine),
// else the source tree's folder.
std::string corpus_dir() {
  const char* env = std::getenv("HETSPARSE_FUZZ_CORPUS");
  return env && *env ? env : HETSPARSE_FUZZ_CORPUS;
}

// Empty when the folder is missing: CorpusIsThere then says where it was looked for.
std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(corpus_dir(), ec)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir()))
    if (entry.is_regular_file()) files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

// "ok", or the name of the typed error the file ends in (anything else escapes and fails the test).
std::string outcome(const std::string& file) {
  ScopedEnv env;
  env.set("HETSPARSE_MEMORY_LIMIT", "16M");  // as tests/fuzz/matrix_market_fuzzer.cpp
  try {
    validate(load_matrix(corpus_dir() + "/" + file));
    return "ok";
  } catch (const ParseError&) {
    return "ParseError";
  } catch (const InsufficientMemory&) {
    return "InsufficientMemory";
  } catch (const Error&) {
    return "Error";
  }
}

class FuzzCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzCorpus, EndsInAMatrixOrATypedError) { EXPECT_FALSE(outcome(GetParam()).empty()); }

// The file name as a test name: letters and digits, the rest '_'.
std::string test_name(const ::testing::TestParamInfo<std::string>& file) {
  std::string name = file.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Replay, FuzzCorpus, ::testing::ValuesIn(corpus_files()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FuzzCorpus);

TEST(FuzzCorpusSeeds, CorpusIsThere) {
  EXPECT_FALSE(corpus_files().empty()) << "no fuzz corpus in " << corpus_dir()
                                       << " (set HETSPARSE_FUZZ_CORPUS to the folder tests/fuzz/corpus)";
}

TEST(FuzzCorpusSeeds, NamedSeedsEndAsExpected) {
  for (const char* good : {"real_general.mtx", "real_symmetric.mtx", "integer.mtx", "pattern_symmetric.mtx",
                           "crlf_comments.mtx", "duplicates.mtx", "empty_matrix.mtx", "rectangular.mtx",
                           "no_final_newline.mtx", "tabs.mtx", "real_general.mtx.gz", "symmetric.mtx.gz"})
    EXPECT_EQ(outcome(good), "ok") << good;
  for (const char* bad : {"lying_size.mtx", "too_many.mtx", "above_diagonal.mtx", "out_of_range.mtx", "nan_value.mtx",
                          "overflow_value.mtx", "complex.mtx", "array.mtx", "no_banner.mtx", "negative_size.mtx",
                          "index_overflow.mtx", "skew.mtx", "trailing_text.mtx", "truncated.mtx.gz"})
    EXPECT_EQ(outcome(bad), "ParseError") << bad;
  EXPECT_EQ(outcome("huge_dims.mtx"), "InsufficientMemory");
}

}  // namespace
}  // namespace hetsparse::test
