#include "sparse/progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "hetsparse/error.hpp"

namespace hetsparse {
namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace

bool progress_wanted(bool asked) {
  const char* v = std::getenv("HETSPARSE_PROGRESS");
  const std::string env = v ? v : "";
  if (!env.empty() && env != "0" && env != "1")
    throw InvalidSetting("HETSPARSE_PROGRESS='" + env + "': use 1 (progress lines on stderr) or 0 (none)");
  if (asked || env == "1") return true;
  if (env == "0") return false;
  return stderr_is_terminal();
}

ProgressReporter::ProgressReporter(std::string who, bool enabled)
    : who_(std::move(who)), enabled_(enabled), terminal_(enabled && stderr_is_terminal()) {}

// A phase still open here was cut short by an exception: no time for it, but the error that
// follows starts on a line of its own.
ProgressReporter::~ProgressReporter() {
  if (dirty_) std::fputc('\n', stderr);
}

void ProgressReporter::begin(const std::string& phase) {
  end();
  phase_ = phase;
  open_ = true;
  start_ = last_ = now();
  if (!enabled_) return;
  std::fprintf(stderr, "[%s] %s ...%s", who_.c_str(), phase_.c_str(), terminal_ ? "" : "\n");
  dirty_ = terminal_;
  std::fflush(stderr);
}

void ProgressReporter::update(std::int64_t done, std::int64_t total, const char* unit) {
  const double t = now();
  if (!enabled_ || !open_ || t - last_ < 1.0) return;
  last_ = t;
  const double percent = total > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 0.0;
  std::fprintf(stderr, "%s[%s] %s: %lld/%lld %s (%.0f%%, %.1f s)%s", terminal_ ? "\r\033[K" : "", who_.c_str(),
               phase_.c_str(), static_cast<long long>(done), static_cast<long long>(total), unit, percent,
               t - start_, terminal_ ? "" : "\n");
  dirty_ = terminal_;
  std::fflush(stderr);
}

void ProgressReporter::end() {
  if (!open_) return;
  open_ = false;
  if (!enabled_) return;
  std::fprintf(stderr, "%s[%s] %s: %.2f s\n", dirty_ ? "\r\033[K" : "", who_.c_str(), phase_.c_str(), now() - start_);
  dirty_ = false;
  std::fflush(stderr);
}

}  // namespace hetsparse
