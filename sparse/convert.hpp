// Conversions between sparse formats and the structural operations built on them.
// Unless a function says otherwise, a Csr argument must be valid (see validate()). Functions
// that rebuild rows return them sorted by column; triangle() and row_block() keep the input's
// order within each row.
#pragma once
#include <vector>

#include "sparse/csr.hpp"
#include "sparse/types.hpp"

namespace hetsparse {

// --- format conversion (convert.cpp) ---

// Checks the triplets (StructureError for an index out of range, InvalidArgument for
// arrays of different length); sorts columns within rows and sums duplicates in input order.
Csr to_csr(const Coo& coo);
// Row-major triplets, one per stored entry.
Coo to_coo(const Csr& a);
Csc to_csc(const Csr& a);
Csr to_csr(const Csc& a);
// Keeps duplicates (each lands in the transposed row, in order of its original row).
Csr transpose(const Csr& a);
// Sorts the column indices of each row, carrying the values; duplicates keep their order.
void sort_rows(Csr& a);

// --- structural operations (structure_ops.cpp) ---

// The lower or upper triangle of a square matrix; the diagonal only if keep_diagonal.
Csr triangle(const Csr& a, Triangle tri, bool keep_diagonal = true);
// The symmetric matrix T + T^T - diag(T) from one stored triangle T (lower or upper, found
// from the entries); InvalidArgument if T has entries on both sides of the diagonal.
Csr full_from_triangle(const Csr& tri);
// B = P A P^T, that is B(i, j) = A(perm[i], perm[j]). InvalidArgument unless A is square and
// perm is a permutation of 0 .. rows-1.
Csr symmetric_permute(const Csr& a, const std::vector<index_t>& perm);
// Rows [first_row, end_row) of A as a matrix of their own (all columns kept, rowptr from 0).
Csr row_block(const Csr& a, index_t first_row, index_t end_row);

// --- checks (validate.cpp) ---

// Throws InvalidArgument for inconsistent sizes or a rowptr that does not start at 0 or
// decreases (naming the row), StructureError for a column index out of range. Sortedness and
// duplicates are not errors. A default-constructed Csr (0 x 0, empty rowptr) is valid.
void validate(const Csr& a);
// True when A is square and (i, j) is stored exactly when (j, i) is (values ignored;
// explicit zeros count as stored).
bool is_structurally_symmetric(const Csr& a);

}  // namespace hetsparse
