// Turns StarPU's negative errno returns into hetsparse exceptions naming the call.
#pragma once
#include <cerrno>
#include <cstring>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::rt {

inline void check_starpu(int rc, const std::string& what) {
  if (rc >= 0) return;
  std::string msg = "StarPU: " + what + " failed: " + std::strerror(-rc);
  if (rc == -ENODEV) msg += " (no worker can run it: check STARPU_NCPU/STARPU_NCUDA and the task's device)";
  throw RuntimeFailure(msg);
}

}  // namespace hetsparse::rt
