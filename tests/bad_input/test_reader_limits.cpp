// What the Matrix Market reader says about files that cannot be right: a size line declaring more
// than the file holds, a truncated .gz, a plain file cut mid-line, a file that does not exist.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::test {
namespace {

std::string output_path(const std::string& name) { return test_output_dir() + "bad_input_" + name; }

std::string write_file(const std::string& name, const std::string& bytes) {
  const std::string path = output_path(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The ParseError of reading path, with its line.
ParseError parse_error(const std::string& path) {
  try {
    read_matrix_market(path);
  } catch (const ParseError& e) {
    return e;
  }
  ADD_FAILURE() << path << " was read without a ParseError";
  return ParseError(path, -1, "none");
}

TEST(ReaderLimits, SizeLineDeclaringMoreThanThePlainFileHolds) {
  const ParseError e = parse_error(
      write_file("lie.mtx", "%%MatrixMarket matrix coordinate real general\n10 10 90\n1 1 1\n2 2 1\n"));
  EXPECT_EQ(e.line(), 2);  // refused at the size line, before reading or allocating for 90 entries
  EXPECT_NE(std::string(e.what()).find("90 entries declared, but the file can hold at most"), std::string::npos)
      << e.what();
  // A pattern entry is shorter ("1 1\n"): the bound follows the field.
  const std::string pattern = "%%MatrixMarket matrix coordinate pattern general\n4 4 4\n1 1\n2 2\n3 3\n4 4\n";
  EXPECT_EQ(read_matrix_market(write_file("pattern_fits.mtx", pattern)).entries.nnz(), 4);
}

TEST(ReaderLimits, TruncatedGzipIsNamedAsSuch) {
  const std::string whole = output_path("whole.mtx.gz");
  write_matrix_market(whole, laplacian_3d(12, 12, 12));
  const std::string bytes = read_bytes(whole);
  ASSERT_GT(bytes.size(), 2000u);
  for (std::size_t keep : {bytes.size() / 2, bytes.size() - 9}) {  // mid-stream, and only the trailer lost
    const std::string cut = write_file("cut.mtx.gz", bytes.substr(0, keep));
    const ParseError e = parse_error(cut);
    EXPECT_NE(std::string(e.what()).find("the .gz file is truncated"), std::string::npos) << keep << ": " << e.what();
  }
}

TEST(ReaderLimits, PlainFileCutMidLineSaysItsLastLineIsUnterminated) {
  const ParseError e = parse_error(
      write_file("cut.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.5\n2 2 2.5\n3 3"));
  EXPECT_EQ(e.line(), 5);
  EXPECT_NE(std::string(e.what()).find("missing value"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("no end of line: is the file cut short?"), std::string::npos) << e.what();
  // A complete last line without its newline is fine.
  EXPECT_EQ(read_matrix_market(write_file("no_newline.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                                            "1 1 1\n1 1 4"))
                .entries.val[0],
            4.0);
}

TEST(ReaderLimits, MissingFileNamesThePathWithoutALineZero) {
  const std::string path = output_path("does_not_exist.mtx");
  const ParseError e = parse_error(path);
  EXPECT_EQ(e.line(), 0);
  EXPECT_EQ(std::string(e.what()), path + ": cannot open file: No such file or directory");
}

TEST(ReaderLimits, HeaderAloneReadsBannerAndSizeLine) {
  const std::string path =
      write_file("header.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n% note\n5 5 3\n1 1\n2 1\n5 5\n");
  const MatrixMarketHeader h = read_matrix_market_header(path);
  EXPECT_EQ(h.rows, 5);
  EXPECT_EQ(h.cols, 5);
  EXPECT_EQ(h.entries, 3);
  EXPECT_EQ(h.field, MmField::Pattern);
  EXPECT_EQ(h.symmetry, MmSymmetry::Symmetric);
}

}  // namespace
}  // namespace hetsparse::test
