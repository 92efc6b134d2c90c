// Checks that a matrix handed to the symbolic analysis is what the caller says it is.
#pragma once
#include "symbolic/analyze_options.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::cholesky {

// A must be square and valid (InvalidArgument otherwise) and hold only the part `input` names:
// StructureError naming the first entry on the wrong side of the diagonal, or for Full the first
// position where A differs from A^T in pattern or value (duplicates summed), in row-major order.
// Missing diagonal entries are accepted.
void check_input(const Csr& a, InputTriangle input);

}  // namespace hetsparse::cholesky
