// Index types shared by every sparse structure in hetsparse.
#pragma once
#include <cstdint>

namespace hetsparse {

// Row and column indices: 32 bits keep index arrays small and match cuSPARSE's fast paths
// (so a matrix has at most 2^31 - 1 rows and columns).
using index_t = std::int32_t;

// Row/column pointers and nonzero counts: 64 bits, because Cholesky factors of large 3D
// problems exceed 2^31 entries even when their dimension fits in index_t.
using offset_t = std::int64_t;

// Which triangle of a square matrix an operation works on.
enum class Triangle { Lower, Upper };

}  // namespace hetsparse
