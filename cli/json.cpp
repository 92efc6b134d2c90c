#include "cli/json.hpp"

#include <cmath>
#include <cstdio>

namespace hetsparse::cli {

std::string json_escape(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o + "\"";
}

Json& Json::set(const std::string& key, const std::string& v) {
  fields_.emplace_back(key, json_escape(v));
  return *this;
}

namespace {

std::string number(double v) {
  if (!std::isfinite(v)) return "null";  // JSON has no NaN/Inf
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

Json& Json::set(const std::string& key, double v) {
  fields_.emplace_back(key, number(v));
  return *this;
}

Json& Json::set(const std::string& key, const std::vector<double>& numbers) {
  std::string s = "[";
  for (std::size_t i = 0; i < numbers.size(); ++i) s += (i ? "," : "") + number(numbers[i]);
  fields_.emplace_back(key, s + "]");
  return *this;
}

Json& Json::set(const std::string& key, long long v) {
  fields_.emplace_back(key, std::to_string(v));
  return *this;
}

Json& Json::set(const std::string& key, bool v) {
  fields_.emplace_back(key, v ? "true" : "false");
  return *this;
}

Json& Json::set(const std::string& key, const Json& object) {
  fields_.emplace_back(key, object.str());
  return *this;
}

Json& Json::set(const std::string& key, const std::vector<Json>& array) {
  std::string s = "[";
  for (std::size_t i = 0; i < array.size(); ++i) s += (i ? "," : "") + array[i].str();
  fields_.emplace_back(key, s + "]");
  return *this;
}

std::string Json::str() const {
  std::string s = "{";
  for (std::size_t i = 0; i < fields_.size(); ++i)
    s += (i ? "," : "") + json_escape(fields_[i].first) + ":" + fields_[i].second;
  return s + "}";
}

}  // namespace hetsparse::cli
