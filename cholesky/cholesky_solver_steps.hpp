// Small steps the CholeskySolver's files share: phase timing and reports, and what a panel group
// of the layout holds.
#pragma once
#include <chrono>
#include <cstdint>
#include <vector>

#include "planners/supernodal_layout.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/progress.hpp"

namespace hetsparse::cholesky::detail {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Begins a phase of a report that may be absent.
inline void begin_phase(ProgressReporter* progress, const char* phase) {
  if (progress) progress->begin(phase);
}

// Whether group g's tasks may run off the CPUs (its entries go to the part a GPU may read).
inline bool device_group(const std::vector<rt::Where>& homes, index_t g) { return homes[g] != rt::Where::Cpu; }

// Doubles in group g's panels (its handle's length).
inline std::int64_t group_values(const planners::FactorLayout& layout, index_t g) {
  const auto& a = layout.loc[layout.group_begin[g]];
  const auto& b = layout.loc[layout.group_begin[g + 1] - 1];
  return b.value_offset + std::int64_t(b.nrows) * b.ncols - a.value_offset;
}

}  // namespace hetsparse::cholesky::detail
