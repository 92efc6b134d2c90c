// Gather and scatter of the split SpTRSV's two parts on the host.
#include "kernels/split/split.hpp"

#include <cstddef>

namespace hetsparse::kernels {

void split_gather_cpu(const index_t* order, index_t n1, index_t n2, const double* src, index_t lds, double* dst1,
                      index_t ld1, double* dst2, index_t ld2, index_t nrhs) {
  for (index_t r = 0; r < nrhs; ++r) {
    const double* s = src + static_cast<std::ptrdiff_t>(r) * lds;
    double* d1 = dst1 + static_cast<std::ptrdiff_t>(r) * ld1;
    double* d2 = dst2 + static_cast<std::ptrdiff_t>(r) * ld2;
    for (index_t i = 0; i < n1; ++i) d1[i] = s[order[i]];
    for (index_t i = 0; i < n2; ++i) d2[i] = s[order[n1 + i]];
  }
}

void split_scatter_cpu(const index_t* order, index_t n1, index_t n2, const double* src1, index_t ld1,
                       const double* src2, index_t ld2, double* dst, index_t ldd, index_t nrhs) {
  for (index_t r = 0; r < nrhs; ++r) {
    const double* s1 = src1 + static_cast<std::ptrdiff_t>(r) * ld1;
    const double* s2 = src2 + static_cast<std::ptrdiff_t>(r) * ld2;
    double* d = dst + static_cast<std::ptrdiff_t>(r) * ldd;
    for (index_t i = 0; i < n1; ++i) d[order[i]] = s1[i];
    for (index_t i = 0; i < n2; ++i) d[order[n1 + i]] = s2[i];
  }
}

}  // namespace hetsparse::kernels
