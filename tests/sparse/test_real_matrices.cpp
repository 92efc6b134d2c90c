// Reads real SuiteSparse files from $HETSPARSE_MATRICES (the shared matrix folder) and checks
// them against its MANIFEST.tsv. Skipped when the variable is not set.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/matrix_market.hpp"
#include "tests/support/sparse_checks.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse {
namespace {

// One MANIFEST.tsv row, by column name.
using ManifestRow = std::map<std::string, std::string>;

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, '\t');) cells.push_back(cell);
  return cells;
}

class RealMatrices : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* dir = std::getenv("HETSPARSE_MATRICES");
    if (dir == nullptr || *dir == '\0') GTEST_SKIP() << "set HETSPARSE_MATRICES to the shared matrix folder to run";
    dir_ = dir;
    std::ifstream manifest(dir_ + "/MANIFEST.tsv");
    ASSERT_TRUE(manifest) << "no MANIFEST.tsv in " << dir_;
    std::string line;
    std::getline(manifest, line);
    const std::vector<std::string> header = split_tabs(line);
    while (std::getline(manifest, line)) {
      const std::vector<std::string> cells = split_tabs(line);
      ASSERT_EQ(cells.size(), header.size()) << line;
      ManifestRow row;
      for (std::size_t k = 0; k < cells.size(); ++k) row[header[k]] = cells[k];
      rows_[row["name"]] = row;
    }
  }

  // Reads the named matrix and checks size, entry count, field and symmetry.
  MatrixMarket read_checked(const std::string& name) {
    const ManifestRow& m = rows_.at(name);
    const MatrixMarket mm = read_matrix_market(dir_ + "/" + m.at("file"));
    EXPECT_EQ(mm.entries.rows, std::stoll(m.at("rows"))) << name;
    EXPECT_EQ(mm.entries.cols, std::stoll(m.at("cols"))) << name;
    EXPECT_EQ(mm.entries.nnz(), std::stoll(m.at("nnz_in_file"))) << name;
    EXPECT_EQ(mm.symmetry == MmSymmetry::Symmetric ? "symmetric" : "general", m.at("symmetry")) << name;
    const char* field = mm.field == MmField::Real ? "real" : mm.field == MmField::Integer ? "integer" : "pattern";
    EXPECT_EQ(field, m.at("field")) << name;
    return mm;
  }

  std::string dir_;
  std::map<std::string, ManifestRow> rows_;
};

TEST_F(RealMatrices, SymmetricRealSpdMatrixIsPositiveDefinite) {
  read_checked("bcsstk08");
  const Csr a = load_matrix(dir_ + "/bcsstk08.mtx");
  EXPECT_TRUE(is_structurally_symmetric(a));
  EXPECT_TRUE(test::dense_cholesky_succeeds(test::to_dense(a), a.rows));
}

TEST_F(RealMatrices, GeneralPatternMatrix) {
  const MatrixMarket mm = read_checked("rajat01");
  for (double v : mm.entries.val) ASSERT_EQ(v, 1.0);
  EXPECT_EQ(load_matrix(dir_ + "/rajat01.mtx").nnz(), mm.entries.nnz());  // no duplicates in the file
}

TEST_F(RealMatrices, SymmetricPatternExpandsToBothTriangles) {
  const MatrixMarket mm = read_checked("delaunay_n15");
  offset_t diagonal = 0;
  for (std::size_t k = 0; k < mm.entries.row.size(); ++k) diagonal += mm.entries.row[k] == mm.entries.col[k];
  const Csr a = load_matrix(dir_ + "/delaunay_n15.mtx");
  EXPECT_EQ(a.nnz(), 2 * mm.entries.nnz() - diagonal);
  EXPECT_TRUE(is_structurally_symmetric(a));
}

TEST_F(RealMatrices, GzipRoundTripOfARealMatrix) {
  read_checked("Dubcova1");
  const Csr a = load_matrix(dir_ + "/Dubcova1.mtx");
  const std::string path = test::test_output_dir() + "hetsparse_dubcova1_" + std::to_string(::getpid()) + ".mtx.gz";
  write_matrix_market(path, a, MmSymmetry::Symmetric);
  const Csr b = load_matrix(path);
  EXPECT_EQ(b.colind, a.colind);
  EXPECT_EQ(b.values, a.values);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace hetsparse
