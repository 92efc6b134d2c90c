// Assembly of A's entries into a group of panels on the CPU (the CPU half of supernode_assemble_cuda).
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode.hpp"

namespace hetsparse::kernels {

void supernode_assemble_cpu(double* values, std::int64_t count, const double* a, const std::int64_t* positions,
                            std::int64_t entries) {
  if (count < 0 || entries < 0 || (count > 0 && values == nullptr) ||
      (entries > 0 && (a == nullptr || positions == nullptr)))
    throw InvalidArgument("supernode_assemble_cpu: count = " + std::to_string(count) + ", entries = " +
                          std::to_string(entries) + " or a null pointer");
  std::fill(values, values + count, 0.0);
  for (std::int64_t e = 0; e < entries; ++e)
    if (positions[e] >= 0 && positions[e] < count) values[positions[e]] += a[e];
}

}  // namespace hetsparse::kernels
