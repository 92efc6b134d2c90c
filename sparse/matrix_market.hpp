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

// Reads path; a gzip file is recognised by its content, not its name. Throws ParseError for
// a missing or unsupported banner, a bad size line, a malformed or out-of-range entry, an
// entry above the diagonal of a symmetric file, a NaN or infinite value, and a file holding
// more or fewer entries than its size line declares. Lines are numbered from 1; a file that
// cannot be opened is reported as line 0.
MatrixMarket read_matrix_market(const std::string& path);

// read_matrix_market, a symmetric file expanded to both triangles, duplicates summed.
Csr load_matrix(const std::string& path);

// Writes A as `real` coordinate data, values in shortest round-trip form (read back
// bit-identical); gzip-compressed when path ends in ".gz". MmSymmetry::Symmetric stores the
// lower triangle and requires A to be exactly symmetric (InvalidArgument otherwise: expand a
// stored triangle with full_from_triangle first). Throws RuntimeFailure if the file cannot
// be written.
void write_matrix_market(const std::string& path, const Csr& a, MmSymmetry sym = MmSymmetry::General);

}  // namespace hetsparse
