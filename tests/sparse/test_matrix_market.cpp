// Matrix Market round trips (plain and gzip) and every malformed-input error with its line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/matrix_market.hpp"
#include "tests/support/sparse_checks.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse {
namespace {

// A path in the test temp dir, unique per test and process (ctest may run tests in parallel).
std::string temp_path(const std::string& suffix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return test::test_output_dir() + "hetsparse_" + info->test_suite_name() + "_" + info->name() + "_" +
         std::to_string(::getpid()) + suffix;
}

std::string write_text(const std::string& text, const std::string& suffix = ".mtx") {
  const std::string path = temp_path(suffix);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

bool same(const Csr& a, const Csr& b) {
  return a.rows == b.rows && a.cols == b.cols && a.rowptr == b.rowptr && a.colind == b.colind && a.values == b.values;
}

// Random matrix whose values span many magnitudes, so the text form must be exact.
Csr awkward_values_matrix(index_t rows, index_t cols, std::uint64_t seed) {
  Csr a = to_csr(test::random_coo(rows, cols, 20 * static_cast<offset_t>(rows), seed, false));
  for (std::size_t k = 0; k < a.values.size(); ++k) a.values[k] *= std::ldexp(1.0, static_cast<int>(k % 200) - 100) / 3.0;
  return a;
}

TEST(MatrixMarket, GeneralRoundTripPlainAndGzipIsBitExact) {
  const Csr a = awkward_values_matrix(250, 310, 31);
  for (const std::string suffix : {".mtx", ".mtx.gz"}) {
    const std::string path = temp_path(suffix);
    write_matrix_market(path, a);
    const MatrixMarket mm = read_matrix_market(path);
    EXPECT_EQ(mm.field, MmField::Real);
    EXPECT_EQ(mm.symmetry, MmSymmetry::General);
    EXPECT_EQ(mm.entries.nnz(), a.nnz());
    EXPECT_TRUE(same(load_matrix(path), a)) << suffix;
    std::remove(path.c_str());
  }
}

TEST(MatrixMarket, GzipOutputIsCompressed) {
  const std::string path = temp_path(".mtx.gz");
  write_matrix_market(path, awkward_values_matrix(200, 200, 32));
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[2] = {0, 0};
  in.read(reinterpret_cast<char*>(magic), 2);
  EXPECT_EQ(magic[0], 0x1f);
  EXPECT_EQ(magic[1], 0x8b);
  std::remove(path.c_str());
}

TEST(MatrixMarket, SymmetricRoundTripStoresLowerTriangle) {
  const Csr lower = triangle(awkward_values_matrix(300, 300, 33), Triangle::Lower);
  const Csr full = full_from_triangle(lower);
  const std::string path = temp_path(".mtx");
  write_matrix_market(path, full, MmSymmetry::Symmetric);
  const MatrixMarket mm = read_matrix_market(path);
  EXPECT_EQ(mm.symmetry, MmSymmetry::Symmetric);
  EXPECT_EQ(mm.entries.nnz(), lower.nnz());
  EXPECT_TRUE(same(to_csr(mm.entries), lower));
  EXPECT_TRUE(same(load_matrix(path), full));
  EXPECT_THROW(write_matrix_market(path, lower, MmSymmetry::Symmetric), InvalidArgument);
  std::remove(path.c_str());
}

TEST(MatrixMarket, PatternIntegerCommentsBlankLinesAndCrlf) {
  const std::string pattern = write_text(
      "%%MatrixMarket matrix coordinate pattern symmetric\r\n% a comment\r\n\r\n3 3 3\r\n1 1\r\n3 1\r\n\r\n  3   2  \r\n");
  const MatrixMarket p = read_matrix_market(pattern);
  EXPECT_EQ(p.field, MmField::Pattern);
  EXPECT_EQ(p.entries.row, (std::vector<index_t>{0, 2, 2}));
  EXPECT_EQ(p.entries.col, (std::vector<index_t>{0, 0, 1}));
  EXPECT_EQ(p.entries.val, (std::vector<double>{1.0, 1.0, 1.0}));
  EXPECT_EQ(load_matrix(pattern).nnz(), 5);
  const std::string integer = write_text("%%MatrixMarket MATRIX Coordinate INTEGER General\n2 4 2\n2 4 -7\n1 1 +12");
  const MatrixMarket i = read_matrix_market(integer);
  EXPECT_EQ(i.field, MmField::Integer);
  EXPECT_EQ(i.entries.val, (std::vector<double>{-7.0, 12.0}));
  EXPECT_EQ(i.entries.cols, 4);
}

struct BadFile {
  const char* name;
  const char* text;
  std::int64_t line;
  const char* message_part;
};

const BadFile kBadFiles[] = {
    {"empty", "", 1, "empty file"},
    {"no banner", "3 3 1\n1 1 1.0\n", 1, "missing %%MatrixMarket banner"},
    {"complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1, "unsupported field 'complex'"},
    {"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n", 1, "unsupported symmetry 'hermitian'"},
    {"skew", "%%MatrixMarket matrix coordinate real skew-symmetric\n", 1, "unsupported symmetry 'skew-symmetric'"},
    {"array", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1, "unsupported format 'array'"},
    {"vector", "%%MatrixMarket vector coordinate real general\n", 1, "unsupported object 'vector'"},
    {"short banner", "%%MatrixMarket matrix coordinate real\n", 1, "incomplete banner"},
    {"bad size", "%%MatrixMarket matrix coordinate real general\n% c\n3 three 2\n", 3, "column count 'three'"},
    {"short size", "%%MatrixMarket matrix coordinate real general\n%\n%\n3 3\n", 4, "missing entry count"},
    {"no size", "%%MatrixMarket matrix coordinate real general\n% only comments\n", 3, "missing size line"},
    {"nonsquare sym", "%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n", 2, "must be square"},
    {"too many declared", "%%MatrixMarket matrix coordinate real general\n2 2 5\n", 2, "at most 4"},
    {"row range", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n2 2 1.0\n4 3 1.0\n", 5,
     "row index 4 is outside [1, 3]"},
    {"col zero", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n2 0 1.0\n", 4,
     "column index 0 is outside [1, 3]"},
    {"above diagonal", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1.0\n% x\n1 2 0.5\n", 5,
     "above the diagonal"},
    {"word value", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n2 2 abc\n", 4, "value 'abc' is not a number"},
    {"nan value", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 nan\n2 2 1\n", 3, "not finite"},
    {"inf value", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2 -inf\n", 4, "not finite"},
    {"huge value", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1e999\n", 3, "overflows"},
    {"two fields", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 1\n", 4, "missing value"},
    {"one field", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 1\n2\n", 4, "missing column index"},
    {"pattern value", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 2.0\n", 3, "unexpected text '2.0'"},
    {"integer frac", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 3,
     "value '1.5' is not an integer"},
    {"real index", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1.0 1 1.5\n", 3, "row index '1.0'"},
    {"extra entry", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2 2\n\n3 3 3\n", 6,
     "more entries than the 2"},
    {"truncated", "%%MatrixMarket matrix coordinate real general\n% c\n3 3 4\n1 1 1\n2 2 2\n", 6,
     "expected 4 entries, read 2"},
    {"truncated no newline", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2", 5,
     "expected 3 entries, read 2"},
};

TEST(MatrixMarket, MalformedFilesReportFileLineAndCause) {
  for (const BadFile& bad : kBadFiles) {
    const std::string path = write_text(bad.text);
    try {
      read_matrix_market(path);
      ADD_FAILURE() << bad.name << ": no ParseError";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.file(), path) << bad.name;
      EXPECT_EQ(e.line(), bad.line) << bad.name << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(bad.message_part), std::string::npos) << bad.name << ": " << e.what();
    }
    std::remove(path.c_str());
  }
}

TEST(MatrixMarket, MissingAndCorruptGzipFilesAreParseErrors) {
  EXPECT_THROW(read_matrix_market(temp_path("_does_not_exist.mtx")), ParseError);
  // Cut a gzip stream in half: the reader must fail loudly, not return part of the matrix.
  const std::string whole = temp_path(".mtx.gz");
  write_matrix_market(whole, awkward_values_matrix(400, 400, 34));
  std::ifstream in(whole, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = write_text(bytes.substr(0, bytes.size() / 2), "_cut.mtx.gz");
  EXPECT_THROW(read_matrix_market(cut), ParseError);
  std::remove(whole.c_str());
  std::remove(cut.c_str());
}

TEST(MatrixMarket, WriterRejectsInvalidInput) {
  Csr a = awkward_values_matrix(120, 120, 35);
  a.values[17] = std::nan("");
  EXPECT_THROW(write_matrix_market(temp_path(".mtx"), a), InvalidArgument);
  Csr broken = awkward_values_matrix(120, 120, 36);
  broken.colind[3] = 500;
  EXPECT_THROW(write_matrix_market(temp_path(".mtx"), broken), StructureError);
  EXPECT_THROW(write_matrix_market("/nonexistent-dir/x.mtx", awkward_values_matrix(120, 120, 37)), RuntimeFailure);
}

}  // namespace
}  // namespace hetsparse
