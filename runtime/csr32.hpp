// A CSR matrix in the 32-bit layout of StarPU's CSR interface (rows and nnz below 2^32, column
// indices below 2^31 for cuSPARSE), owning its arrays so they outlive the handle registered on them.
#pragma once
#include <cstdint>
#include <vector>

#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::rt {

struct Csr32 {
  std::uint32_t rows = 0, cols = 0;
  std::vector<std::uint32_t> rowptr, colind;
  std::vector<double> values;

  explicit Csr32(const Csr& A);  // throws InvalidArgument past the 32-bit limits
  CsrDesc desc() { return {rows, cols, static_cast<std::uint32_t>(colind.size()), values.data(), colind.data(), rowptr.data()}; }
};

inline DataHandle make_csr_handle(TaskRuntime& rt, Csr32& A) { return {rt, rt.register_csr(A.desc())}; }

}  // namespace hetsparse::rt
