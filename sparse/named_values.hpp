// Enumerations spelled by name (command-line options, Python keywords): one table per enumeration gives
// the name of a value and the value of a name, and an unknown name is refused with the known ones
// listed, so the parse and the printed form cannot drift apart.
#pragma once
#include <cstddef>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse {

template <class E>
struct Named {
  E value;
  const char* name;
};

// The value named `text`, else InvalidArgument "unknown <what> '<text>' (a, b or c)". A value may have
// several names (aliases); its first is the one name_of prints.
template <class E, std::size_t N>
E parse_named(const std::string& text, const Named<E> (&names)[N], const std::string& what) {
  for (const Named<E>& n : names)
    if (text == n.name) return n.value;
  std::string known;
  for (std::size_t i = 0; i < N; ++i) known += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i].name;
  throw InvalidArgument("unknown " + what + " '" + text + "' (" + known + ")");
}

// The first name of `value` in the table, "?" for a value it lacks.
template <class E, std::size_t N>
const char* name_of(E value, const Named<E> (&names)[N]) {
  for (const Named<E>& n : names)
    if (n.value == value) return n.name;
  return "?";
}

}  // namespace hetsparse
