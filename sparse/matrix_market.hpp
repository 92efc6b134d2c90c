// Matrix Market coordinate files (plain or gzip-compressed), the exchange format of the
// SuiteSparse collection. Only real, integer and pattern fields with general or symmetric
// storage are accepted; anything else is rejected with a ParseError naming file and line.
#pragma once
#include <string>

#include "sparse/csr.hpp"

namespace hetsparse {

enum class MmField { Real, Integer, Pattern };
enum class MmSymmetry { General, Symmetric };

// A file's entries exactly as stored: 0-based, in file order, one triangle (the lower one, as
// the format requires) for a symmetric file. Pattern entries get the value 1.0.
struct MatrixMarket {
  Coo entries;
  MmField field = MmField::Real;
  MmSymmetry symmetry = MmSymmetry::General;
};

// A file's banner and size line, read without its entries: for checks before loading. Throws as
// read_matrix_market does for those two lines.
struct MatrixMarketHeader {
  index_t rows = 0, cols = 0;
  offset_t entries = 0;  // as declared (one triangle of a symmetric file)
  MmField field = MmField::Real;
  MmSymmetry symmetry = MmSymmetry::General;
};
MatrixMarketHeader read_matrix_market_header(const std::string& path);

// Reads path; a gzip file is recognised by its content, not its name. Throws ParseError for
// a missing or unsupported banner, a bad size line (also one declaring more entries than the
// file's size can hold), a malformed or out-of-range entry, an entry above the diagonal of a
// symmetric file, a NaN or infinite value, a file holding more or fewer entries than its size
// line declares, and a truncated .gz. Lines are numbered from 1; a file that cannot be opened
// is reported as line 0 ("path: cannot open file: ..."). InsufficientMemory (before allocating)
// when the declared entries do not fit in the available memory (sparse/memory_budget.hpp).
MatrixMarket read_matrix_market(const std::string& path);

// read_matrix_market, then to_csr below.
Csr load_matrix(const std::string& path);

// The file's matrix: a symmetric file expanded to both triangles, duplicates summed.
// InsufficientMemory when the expansion or the CSR does not fit in the available memory.
Csr to_csr(MatrixMarket&& mm);

// Writes A as `real` coordinate data, values in shortest round-trip form (read back
// bit-identical); gzip-compressed when path ends in ".gz". MmSymmetry::Symmetric stores the
// lower triangle and requires A to be exactly symmetric (InvalidArgument otherwise: expand a
// stored triangle with full_from_triangle first). Throws RuntimeFailure if the file cannot
// be written.
void write_matrix_market(const std::string& path, const Csr& a, MmSymmetry sym = MmSymmetry::General);

}  // namespace hetsparse
