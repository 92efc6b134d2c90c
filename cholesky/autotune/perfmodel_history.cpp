// Reading StarPU history files directly (rather than through starpu_perfmodel_load_symbol) keeps
// the tuner usable before starpu_init, in tests, and on files copied from another machine.
#include "cholesky/autotune/perfmodel_history.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "hetsparse/error.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

constexpr int kFormatVersion = 45;
constexpr int kStarpuCpu = 0, kStarpuCuda = 1;  // StarPU's device type codes in the file

// The file's numbers in order, each with its line (comments and blank lines dropped).
class TokenStream {
 public:
  explicit TokenStream(const std::string& path) : path_(path) {
    std::ifstream in(path);
    if (!in) throw ParseError(path, 0, "cannot open the performance model file");
    std::string line;
    for (std::int64_t no = 1; std::getline(in, line); ++no) {
      const auto first = line.find_first_not_of(" \t\r");
      if (first == std::string::npos || line[first] == '#') continue;
      std::istringstream words(line);
      for (std::string w; words >> w;) tokens_.push_back({w, no});
    }
  }
  std::string word(const char* what) {
    if (next_ >= tokens_.size()) throw ParseError(path_, last_line(), std::string("file ends before ") + what);
    return tokens_[next_++].text;
  }
  double number(const char* what) {
    const std::string w = word(what);
    char* end = nullptr;
    const double v = std::strtod(w.c_str(), &end);  // "nan" is valid: StarPU writes it for unset fits
    if (end == w.c_str() || *end) fail(std::string("expected a number for ") + what + ", got '" + w + "'");
    return v;
  }
  long integer(const char* what, long lo, long hi) {
    const std::string w = word(what);
    char* end = nullptr;
    const long v = std::strtol(w.c_str(), &end, 10);
    if (end == w.c_str() || *end || v < lo || v > hi)
      fail(std::string("expected ") + what + " in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" +
           w + "'");
    return v;
  }
  unsigned hex(const char* what) {
    const std::string w = word(what);
    char* end = nullptr;
    const unsigned long v = std::strtoul(w.c_str(), &end, 16);
    if (end == w.c_str() || *end) fail(std::string("expected a hexadecimal ") + what + ", got '" + w + "'");
    return static_cast<unsigned>(v);
  }
  void skip(std::size_t count, const char* what) {
    for (std::size_t i = 0; i < count; ++i) word(what);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError(path_, next_ ? tokens_[next_ - 1].line : 0, what);
  }

 private:
  std::int64_t last_line() const { return tokens_.empty() ? 0 : tokens_.back().line; }
  struct Token {
    std::string text;
    std::int64_t line;
  };
  std::string path_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
};

// One implementation's block: entry count, linear and non-linear regression lines, the multiple
// regression coefficients, then the history entries.
std::vector<HistorySample> read_impl(TokenStream& ts) {
  const long nentries = ts.integer("the number of entries", 0, 1L << 30);
  ts.skip(9, "the linear regression line");  // sumlnx sumlnx2 sumlny sumlnxlny alpha beta n minx maxx
  ts.skip(3, "the non-linear regression line");
  const long ncoeff = ts.integer("the number of multiple-regression coefficients", 0, 1L << 20);
  ts.skip(static_cast<std::size_t>(ncoeff), "the multiple-regression coefficients");
  std::vector<HistorySample> out;
  for (long e = 0; e < nentries; ++e) {
    HistorySample s;
    s.footprint = ts.hex("footprint");
    s.size_bytes = ts.number("size");
    s.flops = ts.number("flops");
    s.mean_us = ts.number("mean");
    ts.skip(3, "deviation, sum and sum2");
    s.n = static_cast<unsigned>(ts.integer("the sample count", 0, 1L << 31));
    out.push_back(s);
  }
  return out;
}

}  // namespace

const char* to_string(ArchKind k) { return k == ArchKind::Cpu ? "cpu" : "cuda"; }

std::vector<ArchHistory> read_perfmodel_history(const std::string& path) {
  TokenStream ts(path);
  const long version = ts.integer("the format version", 0, 1000);
  if (version != kFormatVersion)
    ts.fail("performance model format version " + std::to_string(version) + " (only " +
            std::to_string(kFormatVersion) + ", StarPU 1.4's, is read)");
  const long ncombs = ts.integer("the number of combinations", 0, 4096);
  std::vector<ArchHistory> out;
  for (long c = 0; c < ncombs; ++c) {
    const long ndevices = ts.integer("the number of devices", 1, 4096);
    int type = -1, device = 0;
    for (long d = 0; d < ndevices; ++d) {
      type = static_cast<int>(ts.integer("the device type", 0, 100));
      device = static_cast<int>(ts.integer("the device id", 0, 1L << 20));
      const long ncores = ts.integer("the number of cores", 0, 1L << 20);
      if (type == kStarpuCpu && ncores != 1) type = -1;  // a parallel CPU worker: not a core's model
    }
    const bool usable = ndevices == 1 && (type == kStarpuCpu || type == kStarpuCuda);
    const long nimpls = ts.integer("the number of implementations", 0, 64);
    for (long i = 0; i < nimpls; ++i) {
      std::vector<HistorySample> samples = read_impl(ts);
      // hetsparse codelets have one implementation per architecture; any further one is ignored.
      if (usable && i == 0)
        out.push_back({type == kStarpuCpu ? ArchKind::Cpu : ArchKind::Cuda, device, std::move(samples)});
    }
  }
  return out;
}

std::string find_perfmodel_file(const std::string& perfmodel_dir, const std::string& symbol) {
  std::string host;
  if (const char* h = std::getenv("STARPU_HOSTNAME"); h && *h) {
    host = h;
  } else {
    char buf[256] = {};
    if (gethostname(buf, sizeof(buf) - 1) == 0) host = buf;
  }
  if (host.empty()) return {};
  // StarPU writes its current format into codelets/<version>/; other versions would not parse.
  const std::filesystem::path file = std::filesystem::path(perfmodel_dir) / "codelets" /
                                     std::to_string(kFormatVersion) / (symbol + "." + host);
  std::error_code ec;
  if (std::filesystem::is_regular_file(file, ec)) return file.string();
  return {};
}

}  // namespace hetsparse::cholesky::autotune
