#include "cli/args.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace hetsparse::cli {

ArgParser::ArgParser(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {
  flag("help", "show this help and exit");
}

ArgParser& ArgParser::flag(const std::string& name, const std::string& help) {
  opts_.push_back({name, "", help, "", true, false});
  return *this;
}

ArgParser& ArgParser::option(const std::string& name, const std::string& metavar, const std::string& help,
                             const std::string& default_value) {
  opts_.push_back({name, metavar, help, default_value, false, false});
  return *this;
}

ArgParser& ArgParser::positional(const std::string& name, const std::string& help, bool required) {
  pos_.push_back({name, help, "", required, false});
  return *this;
}

ArgParser& ArgParser::epilog(const std::string& text) {
  epilog_ = text;
  return *this;
}

bool ArgParser::parse(int argc, char** argv) {
  std::size_t next_pos = 0;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(help().c_str(), stdout);
      return false;
    }
    if (a.rfind("--", 0) == 0 && a.size() > 2) {
      std::string name = a.substr(2), value;
      bool inline_value = false;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inline_value = true;
      }
      Opt* o = nullptr;
      for (auto& c : opts_)
        if (c.name == name) o = &c;
      if (!o) throw UsageError(program_ + ": unknown option --" + name + " (see --help)");
      o->given = true;
      if (o->is_flag) {
        if (inline_value) throw UsageError(program_ + ": --" + name + " takes no value");
        continue;
      }
      if (!inline_value) {
        if (i + 1 >= argc) throw UsageError(program_ + ": --" + name + " needs a value (" + o->metavar + ")");
        value = argv[++i];
      }
      o->value = value;
      continue;
    }
    if (next_pos >= pos_.size()) throw UsageError(program_ + ": unexpected argument '" + a + "' (see --help)");
    pos_[next_pos].value = a;
    pos_[next_pos++].given = true;
  }
  for (const auto& p : pos_)
    if (p.required && !p.given) throw UsageError(program_ + ": missing argument " + p.name + " (see --help)");
  return true;
}

const ArgParser::Opt& ArgParser::find(const std::string& name) const {
  for (const auto& o : opts_)
    if (o.name == name) return o;
  throw InvalidArgument("ArgParser: option --" + name + " was never declared");
}

bool ArgParser::has(const std::string& name) const {
  for (const auto& p : pos_)
    if (p.name == name) return p.given;
  return find(name).given;
}

std::string ArgParser::get(const std::string& name) const {
  for (const auto& p : pos_)
    if (p.name == name) return p.value;
  return find(name).value;
}

long ArgParser::get_int(const std::string& name) const {
  const std::string v = get(name);
  char* end = nullptr;
  errno = 0;
  long r = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || errno == ERANGE)
    throw UsageError(program_ + ": --" + name + " expects an integer, got '" + v + "'");
  return r;
}

double ArgParser::get_double(const std::string& name) const {
  const std::string v = get(name);
  char* end = nullptr;
  double r = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !std::isfinite(r))
    throw UsageError(program_ + ": --" + name + " expects a number, got '" + v + "'");
  return r;
}

namespace {
template <class T>
T in_range(const std::string& program, const std::string& name, T value, T lo, T hi) {
  if (value < lo || value > hi) {
    std::ostringstream os;
    os << program << ": --" << name << " must be ";
    if (hi == std::numeric_limits<T>::max())
      os << "at least " << lo;
    else
      os << "between " << lo << " and " << hi;
    os << ", got " << value;
    throw UsageError(os.str());
  }
  return value;
}
}  // namespace

long ArgParser::get_int_in(const std::string& name, long lo, long hi) const {
  return in_range(program_, name, get_int(name), lo, hi);
}

double ArgParser::get_double_in(const std::string& name, double lo, double hi) const {
  return in_range(program_, name, get_double(name), lo, hi);
}

std::string ArgParser::help() const {
  std::ostringstream os;
  os << "usage: " << program_ << " [options]";
  for (const auto& p : pos_) os << (p.required ? " " : " [") << p.name << (p.required ? "" : "]");
  os << "\n\n" << summary_ << "\n";
  if (!pos_.empty()) {
    os << "\narguments:\n";
    for (const auto& p : pos_) os << "  " << p.name << std::string(p.name.size() < 22 ? 22 - p.name.size() : 1, ' ') << p.help << "\n";
  }
  os << "\noptions:\n";
  for (const auto& o : opts_) {
    std::string head = "--" + o.name + (o.is_flag ? "" : " " + o.metavar);
    os << "  " << head << std::string(head.size() < 22 ? 22 - head.size() : 1, ' ') << o.help;
    if (!o.is_flag && !o.value.empty()) os << " (default: " << o.value << ")";
    os << "\n";
  }
  if (!epilog_.empty()) os << "\n" << epilog_ << "\n";
  return os.str();
}

std::vector<std::string> split_list(const std::string& value, char separator) {
  std::vector<std::string> items;
  std::stringstream in(value);
  for (std::string item; std::getline(in, item, separator);)
    if (!item.empty()) items.push_back(item);
  return items;
}

int report_failure(const std::string& program, const std::exception& e) {
  if (dynamic_cast<const UsageError*>(&e) != nullptr) {
    std::fprintf(stderr, "%s\n", e.what());
  } else {
    std::fprintf(stderr, "%s: error: %s\n", program.c_str(), e.what());
  }
  return 1;
}

}  // namespace hetsparse::cli
