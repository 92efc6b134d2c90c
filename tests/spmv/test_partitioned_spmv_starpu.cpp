// The partitioned product through StarPU on two CPU workers: every format with 1 to 7 parts on
// matrices with hub rows, empty rows and a wide block, under two schedulers; the real matrices of the
// shared folder with each format; the model's choice equal to the reference too.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sparse/matrix_market.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/partitioned_spmv_checks.hpp"
#include "tests/support/spmv_partition_checks.hpp"

namespace hetsparse::test {
namespace {

using planners::PartitionFormat;

PartitionedSpmvOptions parts_of(PartitionFormat f, int parts) {
  PartitionedSpmvOptions o;
  o.format = f;
  o.placement.parts = parts;
  return o;
}

class PartitionedSpmvCpu : public ::testing::TestWithParam<const char*> {};

TEST_P(PartitionedSpmvCpu, EveryFormatAndPartCount) {
  rt::Runtime r(test_runtime_options(GetParam(), 2, 0));
  std::uint64_t seed = 1;
  for (const auto& [name, A] : partition_test_matrices()) {
    for (PartitionFormat f : {PartitionFormat::Pcsr, PartitionFormat::Pcsc, PartitionFormat::Pcoo}) {
      for (int parts : {1, 3, 7}) {
        SCOPED_TRACE(name + " " + planners::to_string(f) + " " + std::to_string(parts) + " parts");
        EXPECT_EQ(check_partitioned_spmv(r, A, parts_of(f, parts), ++seed), f);
      }
    }
    SCOPED_TRACE(name + " auto");
    check_partitioned_spmv(r, A, parts_of(PartitionFormat::Auto, 0), ++seed);
  }
}

INSTANTIATE_TEST_SUITE_P(Schedulers, PartitionedSpmvCpu, ::testing::Values("dmdas", "lws"));

TEST(PartitionedSpmvReal, SharedMatricesEveryFormat) {
  const char* dir = std::getenv("HETSPARSE_MATRICES");
  if (dir == nullptr || *dir == '\0') GTEST_SKIP() << "set HETSPARSE_MATRICES to the shared matrix folder";
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  // Power-law graphs, circuit and mesh matrices, unsymmetric ones: the largest of their kinds here.
  for (const char* name : {"wave", "cage11", "email-Enron", "bayer10", "rajat01", "wiki-Vote", "bcsstm25"}) {
    const Csr A = load_matrix(std::string(dir) + "/" + name + ".mtx");
    for (PartitionFormat f : {PartitionFormat::Pcsr, PartitionFormat::Pcsc, PartitionFormat::Pcoo}) {
      SCOPED_TRACE(std::string(name) + " " + planners::to_string(f));
      check_partitioned_spmv(r, A, parts_of(f, 5), 99);
    }
  }
}

}  // namespace
}  // namespace hetsparse::test
