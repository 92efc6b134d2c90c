#include "cholesky/numeric/uninitialized_allocator.hpp"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hetsparse::cholesky {
namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
}

void* allocate_host_block(std::size_t bytes) {
  if (bytes < kHugePage) {
    if (void* p = std::malloc(bytes ? bytes : 1)) return p;
    throw std::bad_alloc();
  }
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (!p) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
  madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without THP the pages stay 4 KiB
#endif
  return p;
}

void free_host_block(void* p, std::size_t) noexcept { std::free(p); }

}  // namespace hetsparse::cholesky
