// Option lists written "key=value,key=value" (scheme names, option strings), split in one place; each
// parser keeps its own keys and typed values.
#pragma once
#include <string>
#include <vector>

namespace hetsparse {

struct KeyValue {
  std::string key, value;
};

// The items of `list` split at commas, each at its first '='; an empty list has none.
// InvalidArgument "<who>: '<item>' is not key=value" for an item without '=' or with an empty key.
std::vector<KeyValue> split_key_values(const std::string& list, const std::string& who);

}  // namespace hetsparse
