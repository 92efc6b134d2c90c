// Wide supernodes cut into column blocks (PaStiX's splitting of large column blocks). A supernode of
// many columns is one panel, so every update into it writes one handle: on a 3D mesh the root
// separator's many incoming updates ran one after another at the end of the factorization,
// and each computed its full square product where only the lower half is needed. Cut into pieces
// of at most max_cols columns, the pieces are separate targets (updates into different pieces run
// at once) and the factorization of the separator becomes a blocked right-looking one.
#pragma once
#include "symbolic/symbolic_factor.hpp"

namespace hetsparse::cholesky {

// Each supernode with more than max_cols columns becomes ceil(ncols / max_cols) consecutive pieces
// of near-equal width; piece i keeps the original's rows from its own first column down, and its
// parent is the supernode of its first row below the diagonal block (the next piece, or for the
// last piece the original's parent). nnz_L and the flop counts do not change (the pieces store the
// same lower trapezoid); rows, col_to_supernode and the supernodes are rebuilt. max_cols <= 0
// leaves f as it is.
void split_wide_supernodes(SymbolicFactor& f, index_t max_cols);

}  // namespace hetsparse::cholesky
