// Minimal JSON object writer for --json output: keys in insertion order, strings escaped, numbers
// printed with full precision, nested objects, arrays of objects and arrays of numbers.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace hetsparse::cli {

class Json {
 public:
  Json& set(const std::string& key, const std::string& v);
  Json& set(const std::string& key, const char* v) { return set(key, std::string(v)); }
  Json& set(const std::string& key, double v);
  Json& set(const std::string& key, long long v);
  Json& set(const std::string& key, int v) { return set(key, static_cast<long long>(v)); }
  Json& set(const std::string& key, bool v);
  Json& set(const std::string& key, const Json& object);
  Json& set(const std::string& key, const std::vector<Json>& array);
  Json& set(const std::string& key, const std::vector<double>& numbers);  // non-finite ones as null
  std::string str() const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;  // key, encoded value
};

std::string json_escape(const std::string& s);

}  // namespace hetsparse::cli
