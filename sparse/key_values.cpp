#include "sparse/key_values.hpp"

#include "hetsparse/error.hpp"

namespace hetsparse {

std::vector<KeyValue> split_key_values(const std::string& list, const std::string& who) {
  std::vector<KeyValue> items;
  if (list.empty()) return items;
  std::size_t at = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, comma - at);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) throw InvalidArgument(who + ": '" + item + "' is not key=value");
    items.push_back({item.substr(0, eq), item.substr(eq + 1)});
    if (comma == list.size()) return items;
    at = comma + 1;
  }
}

}  // namespace hetsparse
