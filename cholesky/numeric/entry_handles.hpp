// A's grouped entries as four read-only handles (device part, CPU part; values, positions),
// registered once per layout, the device part pinned: its positions stay on the GPU between
// factorizations, and each factorization's new values invalidate only the values' GPU copy.
#pragma once
#include <cstdint>

#include "cholesky/numeric/grouped_assembly.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::cholesky {

struct EntryHandles {
  rt::TaskRuntime& rt;
  double dummy_value = 0;  // what an empty part registers
  std::int64_t dummy_position = 0;
  rt::HandleId dv, dp, cv, cp;
  EntryHandles(rt::TaskRuntime& runtime, GroupedAssembly& ga);
  // Tolerates a runtime shut down first (its shutdown unregistered every handle).
  ~EntryHandles();
  EntryHandles(const EntryHandles&) = delete;
  EntryHandles& operator=(const EntryHandles&) = delete;
};

}  // namespace hetsparse::cholesky
