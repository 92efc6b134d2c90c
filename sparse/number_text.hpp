// A number in text to `significant` digits ("%.*g"), for reasons, option strings and the files the
// planners write.
#pragma once
#include <cstdio>
#include <string>

namespace hetsparse {

inline std::string number_text(double v, int significant) {
  char b[40];
  std::snprintf(b, sizeof b, "%.*g", significant, v);
  return b;
}

}  // namespace hetsparse
