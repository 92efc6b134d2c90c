// The memory checks made before large allocations (sparse/memory_budget.hpp) and where the library
// applies them: a Matrix Market size line, the CSR conversion, the generators.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generator_spec.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/memory_budget.hpp"
#include "tests/bad_input/scoped_env.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::test {
namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = test_output_dir() + "bad_input_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(MemoryBudget, ByteCountSaturatesInsteadOfWrapping) {
  EXPECT_EQ(ByteCount().add(3, 8).add(2, 4).bytes(), 32u);
  EXPECT_EQ(ByteCount().add(UINT64_MAX / 2, 16).bytes(), UINT64_MAX);
  EXPECT_EQ(ByteCount().add(UINT64_MAX - 1, 1).add(5, 1).bytes(), UINT64_MAX);
  EXPECT_EQ(ByteCount().add(0, 16).add(7, 0).bytes(), 0u);
}

TEST(MemoryBudget, LimitFromTheEnvironmentInBytesOrWithASuffix) {
  ScopedEnv env;
  env.set("HETSPARSE_MEMORY_LIMIT", "123456");
  EXPECT_LE(available_memory(), 123456u);
  env.set("HETSPARSE_MEMORY_LIMIT", "64M");
  EXPECT_LE(available_memory(), std::uint64_t{64} << 20);
  EXPECT_GT(available_memory(), 0u);
  env.set("HETSPARSE_MEMORY_LIMIT", "2g");
  EXPECT_LE(available_memory(), std::uint64_t{2} << 30);
  for (const char* bad : {"lots", "12Q", "-5", "1.5G", "M"}) {
    env.set("HETSPARSE_MEMORY_LIMIT", bad);
    EXPECT_THROW(available_memory(), InvalidSetting) << bad;
  }
}

TEST(MemoryBudget, RefusalNamesWhatAndBothFigures) {
  ScopedEnv env;
  env.set("HETSPARSE_MEMORY_LIMIT", "100M");
  EXPECT_NO_THROW(require_memory(std::uint64_t{10} << 20, "small"));
  try {
    require_memory(std::uint64_t{5} << 30, "the thing");
    FAIL() << "5 GiB passed a 100 MiB limit";
  } catch (const InsufficientMemory& e) {
    EXPECT_EQ(e.needed(), std::uint64_t{5} << 30);
    EXPECT_LE(e.available(), std::uint64_t{100} << 20);
    const std::string what = e.what();
    EXPECT_NE(what.find("the thing needs 5.0 GiB (5368709120 bytes)"), std::string::npos) << what;
    EXPECT_NE(what.find(" of memory are available"), std::string::npos) << what;
  }
}

TEST(MemoryBudget, TheConfiguredCapHoldsForSmallRequestsToo) {
  // Below 16 MiB the machine's memory is not read, but HETSPARSE_MEMORY_LIMIT still caps a step.
  ScopedEnv env;
  env.set("HETSPARSE_MEMORY_LIMIT", "1M");
  EXPECT_NO_THROW(require_memory(std::uint64_t{512} << 10, "half"));
  try {
    require_memory(std::uint64_t{2} << 20, "two MiB");
    FAIL() << "2 MiB passed a 1 MiB limit";
  } catch (const InsufficientMemory& e) {
    EXPECT_EQ(e.needed(), std::uint64_t{2} << 20);
    EXPECT_EQ(e.available(), std::uint64_t{1} << 20);
  }
  env.set("HETSPARSE_MEMORY_LIMIT", "lots");
  EXPECT_THROW(require_memory(1024, "tiny"), InvalidSetting);
}

TEST(MemoryBudget, HugeDeclaredDimensionIsRefusedBeforeTheCsrIsBuilt) {
  // One entry in a 2e9 x 2e9 matrix: reading is cheap, the 16 GB row pointer is not.
  ScopedEnv env;
  env.set("HETSPARSE_MEMORY_LIMIT", "1G");
  const std::string path =
      write_file("huge.mtx", "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1\n1 1 1.0\n");
  const MatrixMarketHeader h = read_matrix_market_header(path);
  EXPECT_EQ(h.rows, 2000000000);
  EXPECT_EQ(h.entries, 1);
  const MatrixMarket mm = read_matrix_market(path);  // the entries themselves fit
  EXPECT_EQ(mm.entries.nnz(), 1);
  try {
    load_matrix(path);
    FAIL() << "a 2e9-row CSR passed a 1 GiB limit";
  } catch (const InsufficientMemory& e) {
    EXPECT_GT(e.needed(), std::uint64_t{2000000000} * sizeof(offset_t));  // the row pointer at least
    EXPECT_NE(std::string(e.what()).find("2000000000 x 2000000000"), std::string::npos) << e.what();
  }
}

TEST(MemoryBudget, ModestDeclaredDimensionWithFewEntriesStillLoads) {
  const std::string path =
      write_file("sparse_rows.mtx", "%%MatrixMarket matrix coordinate real general\n100000 100000 2\n1 1 1.0\n7 9 2\n");
  const Csr a = load_matrix(path);
  EXPECT_EQ(a.rows, 100000);
  EXPECT_EQ(a.nnz(), 2);
}

TEST(MemoryBudget, GeneratorSpecBeyondTheMachineIsRefused) {
  ScopedEnv env;
  env.set("HETSPARSE_MEMORY_LIMIT", "1G");
  for (const char* spec : {"lap3d:1200", "lap2d:40000", "banded:2000000000:50:0.3:1:spd", "rmat:28:8"})
    EXPECT_THROW(generate(spec), InsufficientMemory) << spec;
  EXPECT_EQ(generate("lap3d:10").rows, 1000);
}

}  // namespace
}  // namespace hetsparse::test
