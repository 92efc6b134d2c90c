// The split SpTRSV benchmark's inputs and its table (bench_sptrsv_split): a corpus file of named
// triangles, and the results table, one tab-separated row per triangle with a header line.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sparse/csr.hpp"
#include "sparse/number_text.hpp"

namespace hetsparse::bench {

struct CorpusEntry {
  std::string name;
  std::string source;  // a generator spec, or a Matrix Market file (relative paths: in the matrix folder)
};
// Lines "name<TAB>source"; blank lines and # comments skipped. InvalidArgument naming the line.
std::vector<CorpusEntry> read_corpus(const std::string& path);

// The lower triangle solved for an entry: the strict lower part of the matrix (of a generated
// triangle, of a symmetric matrix's full form, or of an unsymmetric one) with the diagonal set to
// 1 + the row's sum of off-diagonal magnitudes, so every triangle is nonsingular and well conditioned
// whatever its file stores (pattern files, missing or zero diagonals).
Csr corpus_triangle(const CorpusEntry& e, const std::string& matrix_dir);

// A table row: column name -> text.
using TableRow = std::map<std::string, std::string>;
// Appends rows to `path` in the order of `columns`, writing the header first when the file is new
// or empty; tabs and newlines in values become spaces.
void append_row(const std::string& path, const std::vector<std::string>& columns, const TableRow& row);
// Every row of every table (a header line each); InvalidArgument for a row with a wrong field count.
std::vector<TableRow> read_tables(const std::vector<std::string>& paths);
// A numeric field, NaN when missing or not a number.
double number(const TableRow& row, const std::string& column);
// A number as the table stores it (6 significant digits).
inline std::string number_field(double v) { return number_text(v, 6); }

}  // namespace hetsparse::bench
