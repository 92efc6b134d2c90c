// Matrix Market writer: shortest round-trip decimal values (std::to_chars), so a written
// matrix reads back bit-identical.
#include <charconv>
#include <cmath>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/gz_file.hpp"
#include "sparse/matrix_market.hpp"

namespace hetsparse {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Exact symmetry of the canonical (sorted, duplicate-summed) form c.
bool exactly_symmetric(const Csr& c) {
  if (c.rows != c.cols) return false;
  const Csr t = transpose(c);
  return t.rowptr == c.rowptr && t.colind == c.colind && t.values == c.values;
}

// Appends "i j v\n" (1-based indices) to the writer.
void write_entry(GzTextWriter& out, index_t i, index_t j, double v) {
  char text[96];  // two indices and a shortest-form double need at most 11 + 11 + 24 + 3 chars
  char* p = text;
  // Each field leaves a byte for the separator after it, so nothing can overrun text.
  auto put = [&p, &text](auto number, char separator) {
    p = std::to_chars(p, text + sizeof text - 1, number).ptr;
    *p++ = separator;
  };
  put(i + 1, ' ');
  put(j + 1, ' ');
  put(v, '\n');  // shortest form that round-trips
  out.write(text, static_cast<std::size_t>(p - text));
}

}  // namespace

void write_matrix_market(const std::string& path, const Csr& a, MmSymmetry sym) {
  validate(a);
  // The reader rejects NaN and infinity, so refuse to write a file that could not be read.
  for (std::size_t p = 0; p < a.values.size(); ++p) {
    if (!std::isfinite(a.values[p])) {
      throw InvalidArgument("write_matrix_market(" + path + "): value " + std::to_string(p) +
                            " is not finite; Matrix Market readers reject NaN and infinity");
    }
  }
  const bool symmetric = sym == MmSymmetry::Symmetric;
  // The symmetric case keeps one triangle, which is only faithful for an exactly symmetric A.
  Csr canonical;
  if (symmetric) {
    canonical = to_csr(to_coo(a));
    if (!exactly_symmetric(canonical)) {
      throw InvalidArgument("write_matrix_market(" + path +
                            "): MmSymmetry::Symmetric needs an exactly symmetric matrix (use "
                            "full_from_triangle to expand a stored triangle)");
    }
    canonical = triangle(canonical, Triangle::Lower);
  }
  const Csr& out_matrix = symmetric ? canonical : a;

  GzTextWriter out(path, ends_with(path, ".gz"));
  out.write(std::string("%%MatrixMarket matrix coordinate real ") + (symmetric ? "symmetric" : "general") +
            "\n% written by hetsparse\n" + std::to_string(out_matrix.rows) + " " + std::to_string(out_matrix.cols) +
            " " + std::to_string(out_matrix.nnz()) + "\n");
  for (index_t i = 0; i < out_matrix.rows; ++i) {
    for (offset_t p = out_matrix.rowptr[i]; p < out_matrix.rowptr[i + 1]; ++p) {
      write_entry(out, i, out_matrix.colind[p], out_matrix.values[p]);
    }
  }
  out.close();
}

}  // namespace hetsparse
