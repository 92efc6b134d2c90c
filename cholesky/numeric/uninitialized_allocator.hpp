// An allocator for the factor's big host arrays (L's panels, A's entries sorted by group): elements
// are left uninitialised, and large blocks ask Linux for transparent huge pages.
#pragma once
#include <cstddef>
#include <new>
#include <utility>

namespace hetsparse::cholesky {

// Allocates n bytes; blocks of 2 MiB and more are 2 MiB-aligned and advised MADV_HUGEPAGE: L's host
// part is first touched by the assembly tasks, and 4 KiB page faults cost several microseconds each
// on a virtual machine (a 2.7 GB CPU part took seconds of the first factorization's CPU time).
void* allocate_host_block(std::size_t bytes);
void free_host_block(void* p, std::size_t bytes) noexcept;

// Leaves new elements uninitialised: L is gigabytes, and each group's assembly task zeroes its own
// panels where they live (a zero-filling vector wrote it once more on one core before the first
// factorization; a GPU-resident group's host copy is never touched at all).
template <class T>
struct UninitializedAllocator {
  using value_type = T;
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(allocate_host_block(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { free_host_block(p, n * sizeof(T)); }
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const UninitializedAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const UninitializedAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace hetsparse::cholesky
