// A's entries sorted by panel group, the groups that may run on a GPU first: entries
// [begin[g], end[g]) of `values` (refilled from A at each factorization) scatter to `pos`, relative to
// the group's first panel. The device part [0, device_entries) is registered apart, so a GPU fetches
// only its own.
#pragma once
#include <cstdint>
#include <vector>

#include "cholesky/numeric/panel_storage.hpp"
#include "cholesky/numeric/uninitialized_allocator.hpp"
#include "planners/supernodal_layout.hpp"

namespace hetsparse::cholesky {

struct GroupedAssembly {
  std::vector<offset_t> begin;  // per group
  std::vector<offset_t> end;
  template <class T>
  using Uninitialized = std::vector<T, UninitializedAllocator<T>>;  // written in full before any read
  Uninitialized<offset_t> src;  // index into A.values
  Uninitialized<std::int64_t> pos;
  Uninitialized<double> values;
  offset_t device_entries = 0;
};

// A counting sort in parallel (one histogram per chunk of entries). device[g]: whether group g's
// tasks may run off the CPUs.
GroupedAssembly group_entries(const AssemblyMap& map, const planners::FactorLayout& layout,
                              const std::vector<bool>& device);

}  // namespace hetsparse::cholesky
