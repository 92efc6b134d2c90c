// Matrix Market reader. Lines come from a large buffer (GzLineReader) and numbers are parsed
// with std::from_chars: no iostreams, no locale, no allocation per entry.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/gz_file.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/memory_budget.hpp"

namespace hetsparse {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

constexpr std::uint64_t kCooEntryBytes = 2 * sizeof(index_t) + sizeof(double);

// Walks the whitespace-separated fields of one line and reports problems with the line's
// number.
class Fields {
 public:
  Fields(const GzLineReader& in, const char* line, std::size_t length)
      : in_(in), p_(line), end_(line + length) {}

  // Skips blanks; true when no field is left.
  bool at_end() {
    while (p_ < end_ && is_blank(*p_)) ++p_;
    return p_ == end_;
  }

  // The next field as text (lowercase when asked), or "" past the end.
  std::string word(bool lowercase) {
    at_end();
    const char* first = p_;
    while (p_ < end_ && !is_blank(*p_)) ++p_;
    std::string w(first, p_);
    if (lowercase) {
      std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    }
    return w;
  }

  std::int64_t integer(const char* what) {
    if (at_end()) fail(std::string("missing ") + what);
    const char* first = p_ + (*p_ == '+' ? 1 : 0);
    std::int64_t v = 0;
    const auto [stop, ec] = std::from_chars(first, end_, v);
    if (ec != std::errc() || (stop < end_ && !is_blank(*stop))) {
      fail(std::string(what) + " '" + token() + "' is not an integer" +
           (ec == std::errc::result_out_of_range ? " in range" : ""));
    }
    p_ = stop;
    return v;
  }

  double real(const char* what) {
    if (at_end()) fail(std::string("missing ") + what);
    const char* first = p_ + (*p_ == '+' ? 1 : 0);
    double v = 0.0;
    const auto [stop, ec] = std::from_chars(first, end_, v);
    if (ec == std::errc::result_out_of_range) fail(std::string(what) + " '" + token() + "' overflows a double");
    if (ec != std::errc() || (stop < end_ && !is_blank(*stop))) {
      fail(std::string(what) + " '" + token() + "' is not a number");
    }
    if (!std::isfinite(v)) fail(std::string(what) + " '" + token() + "' is not finite");
    p_ = stop;
    return v;
  }

  void expect_end(const char* after) {
    if (!at_end()) fail("unexpected text '" + token() + "' after the " + after);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError(in_.path(), in_.line_number(),
                     what + (in_.last_line_unterminated()
                                 ? " (this last line of the file has no end of line: is the file cut short?)"
                                 : ""));
  }

 private:
  // The current field, shortened for messages.
  std::string token() const {
    const char* last = p_;
    while (last < end_ && !is_blank(*last)) ++last;
    std::string t(p_, last);
    return t.size() > 40 ? t.substr(0, 37) + "..." : t;
  }

  const GzLineReader& in_;
  const char* p_;
  const char* end_;
};

MatrixMarket parse_banner(GzLineReader& in) {
  const char* line = nullptr;
  std::size_t length = 0;
  if (!in.next(line, length)) throw ParseError(in.path(), 1, "empty file: expected a %%MatrixMarket banner");
  Fields f(in, line, length);
  const std::string expected = "expected '%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric'";
  if (f.word(true) != "%%matrixmarket") f.fail("missing %%MatrixMarket banner: " + expected);
  const std::string object = f.word(true), format = f.word(true), field = f.word(true), symmetry = f.word(true);
  if (symmetry.empty()) f.fail("incomplete banner: " + expected);
  f.expect_end("banner");
  if (object != "matrix") f.fail("unsupported object '" + object + "': only 'matrix' is read");
  if (format == "array") f.fail("unsupported format 'array' (dense): only 'coordinate' files are read");
  if (format != "coordinate") f.fail("unknown format '" + format + "': " + expected);

  MatrixMarket mm;
  if (field == "real") {
    mm.field = MmField::Real;
  } else if (field == "integer") {
    mm.field = MmField::Integer;
  } else if (field == "pattern") {
    mm.field = MmField::Pattern;
  } else if (field == "complex") {
    f.fail("unsupported field 'complex': only real, integer and pattern are read");
  } else {
    f.fail("unknown field '" + field + "': " + expected);
  }
  if (symmetry == "general") {
    mm.symmetry = MmSymmetry::General;
  } else if (symmetry == "symmetric") {
    mm.symmetry = MmSymmetry::Symmetric;
  } else if (symmetry == "skew-symmetric" || symmetry == "hermitian") {
    f.fail("unsupported symmetry '" + symmetry + "': only general and symmetric are read");
  } else {
    f.fail("unknown symmetry '" + symmetry + "': " + expected);
  }
  return mm;
}

// Skips comment and blank lines; false at end of file.
bool next_data_line(GzLineReader& in, const char*& line, std::size_t& length) {
  while (in.next(line, length)) {
    const char* p = line;
    while (is_blank(*p)) ++p;  // the line is NUL-terminated
    if (*p != '\0' && *p != '%') return true;
  }
  return false;
}

// Reads the size line; returns the declared number of entries.
offset_t parse_size_line(GzLineReader& in, MatrixMarket& mm) {
  const char* line = nullptr;
  std::size_t length = 0;
  if (!next_data_line(in, line, length)) {
    throw ParseError(in.path(), in.line_number() + 1, "missing size line 'rows columns entries'");
  }
  Fields f(in, line, length);
  const std::int64_t rows = f.integer("row count"), cols = f.integer("column count"), nnz = f.integer("entry count");
  f.expect_end("size line 'rows columns entries'");
  constexpr std::int64_t kMaxDim = std::numeric_limits<index_t>::max();
  if (rows < 0 || cols < 0 || nnz < 0) f.fail("negative number in the size line");
  if (rows > kMaxDim || cols > kMaxDim) {
    f.fail("matrix of " + std::to_string(rows) + " x " + std::to_string(cols) + " exceeds the limit of " +
           std::to_string(kMaxDim) + " rows and columns");
  }
  if (mm.symmetry == MmSymmetry::Symmetric && rows != cols) {
    f.fail("symmetric matrix must be square, size line says " + std::to_string(rows) + " x " + std::to_string(cols));
  }
  const std::int64_t capacity = mm.symmetry == MmSymmetry::Symmetric ? rows * (rows + 1) / 2 : rows * cols;
  if (nnz > capacity) {
    f.fail(std::to_string(nnz) + " entries declared, but a " + std::to_string(rows) + " x " + std::to_string(cols) +
           (mm.symmetry == MmSymmetry::Symmetric ? " symmetric" : "") + " matrix holds at most " +
           std::to_string(capacity));
  }
  // Each entry takes a line of at least "1 1\n" (pattern) or "1 1 1\n"; the last one may lack
  // the "\n". A declared count the file cannot hold is a wrong size line or a truncated file.
  const std::uint64_t min_line = mm.field == MmField::Pattern ? 4 : 6;
  const std::uint64_t most = in.max_text_bytes() == UINT64_MAX ? UINT64_MAX : (in.max_text_bytes() + 1) / min_line;
  if (static_cast<std::uint64_t>(nnz) > most) {
    f.fail(std::to_string(nnz) + " entries declared, but the file can hold at most " + std::to_string(most) +
           ": is the size line wrong or the file truncated?");
  }
  mm.entries.rows = static_cast<index_t>(rows);
  mm.entries.cols = static_cast<index_t>(cols);
  return nnz;
}

}  // namespace

MatrixMarketHeader read_matrix_market_header(const std::string& path) {
  GzLineReader in(path);
  MatrixMarket mm = parse_banner(in);
  MatrixMarketHeader h;
  h.entries = parse_size_line(in, mm);
  h.rows = mm.entries.rows;
  h.cols = mm.entries.cols;
  h.field = mm.field;
  h.symmetry = mm.symmetry;
  return h;
}

MatrixMarket read_matrix_market(const std::string& path) {
  GzLineReader in(path);
  MatrixMarket mm = parse_banner(in);
  const offset_t declared = parse_size_line(in, mm);
  Coo& coo = mm.entries;
  require_memory(ByteCount().add(static_cast<std::uint64_t>(declared), kCooEntryBytes).bytes(),
                 path + ": the " + std::to_string(declared) + " entries its size line declares");
  // Past the bound above, vectors grow as entries arrive instead of trusting the size line.
  const auto reserve = static_cast<std::size_t>(std::min<offset_t>(declared, offset_t{1} << 26));
  coo.row.reserve(reserve);
  coo.col.reserve(reserve);
  coo.val.reserve(reserve);

  const bool symmetric = mm.symmetry == MmSymmetry::Symmetric;
  const char* line = nullptr;
  std::size_t length = 0;
  for (offset_t k = 0; k < declared; ++k) {
    if (!next_data_line(in, line, length)) {
      throw ParseError(path, in.line_number() + 1,
                       "file ends early: expected " + std::to_string(declared) + " entries, read " + std::to_string(k));
    }
    Fields f(in, line, length);
    const std::int64_t i = f.integer("row index");
    const std::int64_t j = f.integer("column index");
    if (i < 1 || i > coo.rows) {
      f.fail("row index " + std::to_string(i) + " is outside [1, " + std::to_string(coo.rows) + "]");
    }
    if (j < 1 || j > coo.cols) {
      f.fail("column index " + std::to_string(j) + " is outside [1, " + std::to_string(coo.cols) + "]");
    }
    if (symmetric && j > i) {
      f.fail("entry (" + std::to_string(i) + ", " + std::to_string(j) +
             ") lies above the diagonal; a symmetric file stores only the lower triangle");
    }
    double v = 1.0;
    if (mm.field == MmField::Real) {
      v = f.real("value");
    } else if (mm.field == MmField::Integer) {
      v = static_cast<double>(f.integer("value"));
    }
    f.expect_end(mm.field == MmField::Pattern ? "row and column indices of a pattern entry" : "value");
    coo.row.push_back(static_cast<index_t>(i - 1));
    coo.col.push_back(static_cast<index_t>(j - 1));
    coo.val.push_back(v);
  }
  if (next_data_line(in, line, length)) {
    throw ParseError(path, in.line_number(),
                     "more entries than the " + std::to_string(declared) + " the size line declares");
  }
  return mm;
}

Csr load_matrix(const std::string& path) { return to_csr(read_matrix_market(path)); }

Csr to_csr(MatrixMarket&& mm) {
  if (mm.symmetry == MmSymmetry::Symmetric) {
    Coo& coo = mm.entries;
    const offset_t stored = coo.nnz();
    require_memory(ByteCount().add(static_cast<std::uint64_t>(stored), kCooEntryBytes).bytes(),
                   "expanding the " + std::to_string(stored) + " entries of a symmetric file to both triangles");
    const auto full = static_cast<std::size_t>(2 * stored);
    coo.row.reserve(full);
    coo.col.reserve(full);
    coo.val.reserve(full);
    for (offset_t p = 0; p < stored; ++p) {
      if (coo.row[p] == coo.col[p]) continue;
      coo.row.push_back(coo.col[p]);
      coo.col.push_back(coo.row[p]);
      coo.val.push_back(coo.val[p]);
    }
  }
  return to_csr(mm.entries);
}

}  // namespace hetsparse
