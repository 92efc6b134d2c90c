// Timing-table lines: writer and a small reader for exactly what the writer produces (objects,
// strings, numbers, true/false/null; arrays are rejected).
#include "sptrsv/timing_table.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "hetsparse/error.hpp"
#include "sptrsv/fingerprint.hpp"

namespace hetsparse::sptrsv {
namespace {

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      q += buf;
      continue;
    }
    q += c;
  }
  return q + "\"";
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Recursive-descent reader; values of nested objects land in `flat` as "outer.inner".
class Reader {
 public:
  Reader(const std::string& text, std::string file, long line) : s_(text), file_(std::move(file)), line_(line) {}

  std::map<std::string, std::string> read_object_flat() {
    std::map<std::string, std::string> flat;
    skip();
    object("", flat);
    skip();
    if (i_ != s_.size()) fail("trailing characters");
    return flat;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw ParseError(file_, line_, "timing table: " + why + " at column " + std::to_string(i_ + 1));
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void expect(char c) {
    skip();
    if (i_ >= s_.size() || s_[i_] != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\') {
        if (++i_ >= s_.size()) break;
        if (s_[i_] == 'u') {
          if (i_ + 4 >= s_.size()) fail("short \\u escape");
          out += static_cast<char>(std::stoi(s_.substr(i_ + 1, 4), nullptr, 16));
          i_ += 4;
        } else {
          const char c = s_[i_];
          out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
      } else {
        out += s_[i_];
      }
      ++i_;
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }
  void object(const std::string& prefix, std::map<std::string, std::string>& flat) {
    expect('{');
    skip();
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
      return;
    }
    for (;;) {
      const std::string key = prefix + string();
      expect(':');
      skip();
      if (i_ >= s_.size()) fail("missing value");
      if (s_[i_] == '{') {
        object(key + ".", flat);
      } else if (s_[i_] == '"') {
        flat[key] = string();
      } else if (s_[i_] == '[') {
        fail("arrays are not part of a timing table");
      } else {
        const std::size_t start = i_;
        while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && !std::isspace(static_cast<unsigned char>(s_[i_])))
          ++i_;
        flat[key] = s_.substr(start, i_ - start);
      }
      skip();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      expect('}');
      return;
    }
  }

  const std::string& s_;
  std::string file_;
  long line_;
  std::size_t i_ = 0;
};

}  // namespace

std::string timing_record_json(const std::string& matrix, std::uint64_t fingerprint, const std::string& gpu,
                               const TriangularFeatures& f, const std::vector<std::pair<std::string, double>>& times) {
  std::ostringstream o;
  o << "{\"matrix\":" << quoted(matrix) << ",\"fingerprint\":" << quoted(fingerprint_hex(fingerprint))
    << ",\"gpu\":" << quoted(gpu) << ",\"features\":{";
  bool first = true;
  for (const auto& [name, value] : f.as_list()) {
    o << (first ? "" : ",") << quoted(name) << ':' << number(value);
    first = false;
  }
  o << "},\"times_ms\":{";
  first = true;
  for (const auto& [scheme, ms] : times) {
    o << (first ? "" : ",") << quoted(scheme) << ':' << number(ms);
    first = false;
  }
  o << "}}";
  return o.str();
}

std::vector<TimingSample> read_timing_tables(const std::vector<std::string>& paths) {
  std::vector<TimingSample> out;
  for (const std::string& path : paths) {
    std::ifstream in(path);
    if (!in) throw InvalidArgument("read_timing_tables: cannot read '" + path + "'");
    std::string line;
    long line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      if (line.find("\"times_ms\"") == std::string::npos) continue;
      const std::map<std::string, std::string> flat = Reader(line, path, line_no).read_object_flat();
      TimingSample s;
      const auto name = flat.find("matrix");
      s.name = name != flat.end() ? name->second : path + ":" + std::to_string(line_no);
      for (const auto& [key, value] : flat) {
        const bool feature = key.rfind("features.", 0) == 0, time = key.rfind("times_ms.", 0) == 0;
        if (!feature && !time) continue;
        if (value == "null") continue;
        double v = 0;
        try {
          v = std::stod(value);
        } catch (const std::exception&) {
          throw ParseError(path, line_no, "timing table: '" + key + "' is not a number");
        }
        if (feature) s.features[key.substr(9)] = v;
        if (time && std::isfinite(v) && v > 0) s.times_ms[key.substr(9)] = v;
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace hetsparse::sptrsv
