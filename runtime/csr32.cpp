#include "runtime/csr32.hpp"

#include <limits>

#include "hetsparse/error.hpp"

namespace hetsparse::rt {

Csr32::Csr32(const Csr& A) {
  constexpr auto max32 = static_cast<std::int64_t>(std::numeric_limits<std::int32_t>::max());
  if (A.nnz() > max32)
    throw InvalidArgument("matrix has " + std::to_string(A.nnz()) +
                          " nonzeros: StarPU's CSR interface (and cuSPARSE with 32-bit indices) is limited to 2^31-1;"
                          " split it into row blocks");
  rows = static_cast<std::uint32_t>(A.rows);
  cols = static_cast<std::uint32_t>(A.cols);
  rowptr.assign(A.rowptr.begin(), A.rowptr.end());
  colind.assign(A.colind.begin(), A.colind.end());
  values = A.values;
}

}  // namespace hetsparse::rt
