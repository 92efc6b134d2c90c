#include "cholesky/numeric/entry_handles.hpp"

#include <algorithm>
#include <exception>

namespace hetsparse::cholesky {

EntryHandles::EntryHandles(rt::TaskRuntime& runtime, GroupedAssembly& ga) : rt(runtime) {
  const std::size_t nd = static_cast<std::size_t>(ga.device_entries), total = ga.values.size();
  auto part = [&](void* p, void* dummy, std::size_t n, std::size_t elem, bool pin) {
    return rt.register_vector({n ? p : dummy, std::max<std::size_t>(n, 1), elem, -1, pin && n});
  };
  dv = part(ga.values.data(), &dummy_value, nd, sizeof(double), true);
  dp = part(ga.pos.data(), &dummy_position, nd, sizeof(std::int64_t), true);
  cv = part(ga.values.data() + nd, &dummy_value, total - nd, sizeof(double), false);
  cp = part(ga.pos.data() + nd, &dummy_position, total - nd, sizeof(std::int64_t), false);
}

EntryHandles::~EntryHandles() {
  try {
    for (rt::HandleId h : {cp, cv, dp, dv}) rt.discard(h);  // read-only: the host copy is current
  } catch (const std::exception&) {
    // The runtime was shut down first (its shutdown unregistered every handle).
  }
}

}  // namespace hetsparse::cholesky
