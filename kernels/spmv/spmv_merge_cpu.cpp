// Merging partial results on the host, source by source.
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/spmv/spmv_merge.hpp"

namespace hetsparse::kernels {

void spmv_merge_cpu(double* y, std::uint32_t n, double beta, const MergeSource* sources, std::uint32_t count) {
  for (std::uint32_t j = 0; j < count; ++j)
    if (sources[j].dst > n || sources[j].count > n - sources[j].dst)
      throw InvalidArgument("spmv_merge_cpu: source " + std::to_string(j) + " runs past the " + std::to_string(n) +
                            " entries of y");
  for (std::uint32_t i = 0; i < n; ++i) y[i] = beta == 0.0 ? 0.0 : beta * y[i];  // beta == 0: y not read
  for (std::uint32_t j = 0; j < count; ++j) {
    const MergeSource& s = sources[j];
    for (std::uint32_t i = 0; i < s.count; ++i) y[s.dst + i] += s.data[s.src + i];
  }
}

}  // namespace hetsparse::kernels
