// Available memory from the kernel's own estimate (MemAvailable counts reclaimable page cache),
// narrowed by a cgroup limit (containers, CI runners) and by HETSPARSE_MEMORY_LIMIT.
#include "sparse/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <limits>

#include "hetsparse/error.hpp"

namespace hetsparse {
namespace {

constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();

// MemAvailable of /proc/meminfo in bytes; the free physical pages where there is no such file.
std::uint64_t system_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : kUnlimited;
}

// One unsigned number from a file such as /sys/fs/cgroup/memory.max ("max" or absent: unlimited).
std::uint64_t read_number(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return kUnlimited;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  return errno == 0 && *end == '\0' ? v : kUnlimited;
}

// What the memory cgroup of this process still allows, or unlimited: cgroup v2 (memory.max) or v1
// (memory.limit_in_bytes), at the path /proc/self/cgroup names or, inside a container whose
// cgroup namespace hides that path, at the mount's root.
std::uint64_t cgroup_available() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, v2, v1;
  while (std::getline(self, line)) {
    if (line.rfind("0::", 0) == 0) v2 = line.substr(3);
    const std::size_t memory = line.find(":memory:");
    if (memory != std::string::npos) v1 = line.substr(memory + 8);
  }
  std::uint64_t available = kUnlimited;
  const auto consider = [&](const std::string& dir, const char* max_file, const char* current_file) {
    const std::uint64_t max = read_number(dir + max_file);
    if (max == kUnlimited) return;
    const std::uint64_t current = read_number(dir + current_file);
    available = std::min(available, current == kUnlimited || current >= max ? 0 : max - current);
  };
  for (const std::string& dir : {"/sys/fs/cgroup" + v2, std::string("/sys/fs/cgroup")})
    consider(dir, "/memory.max", "/memory.current");
  for (const std::string& dir : {"/sys/fs/cgroup/memory" + v1, std::string("/sys/fs/cgroup/memory")})
    consider(dir, "/memory.limit_in_bytes", "/memory.usage_in_bytes");
  return available;
}

// $HETSPARSE_MEMORY_LIMIT: "1000000", "512M", "2G" (powers of 1024), or unlimited when unset.
std::uint64_t configured_limit() {
  const char* v = std::getenv("HETSPARSE_MEMORY_LIMIT");
  if (v == nullptr || *v == '\0') return kUnlimited;
  const std::string text = v;
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  const std::string suffix = text.substr(digits);
  int shift = -1;
  if (suffix.empty()) shift = 0;
  if (suffix == "K" || suffix == "k") shift = 10;
  if (suffix == "M" || suffix == "m") shift = 20;
  if (suffix == "G" || suffix == "g") shift = 30;
  if (digits == 0 || digits > 12 || shift < 0) {
    throw InvalidSetting("HETSPARSE_MEMORY_LIMIT='" + text +
                         "' is not a size: give bytes or a number with a K, M or G suffix (e.g. 512M), or unset it");
  }
  return std::stoull(text.substr(0, digits)) << shift;
}

}  // namespace

std::uint64_t available_memory() {
  return std::min({system_available(), cgroup_available(), configured_limit()});
}

void require_memory(std::uint64_t bytes, const std::string& what) {
  // The configured cap holds for every request; the machine's memory is read only for large ones.
  const std::uint64_t cap = configured_limit();
  if (bytes > cap) throw InsufficientMemory(what, bytes, cap);
  // Small requests are not worth the /proc reads (tens of microseconds) on every conversion.
  constexpr std::uint64_t kUnchecked = std::uint64_t{16} << 20;
  if (bytes <= kUnchecked) return;
  const std::uint64_t available = std::min(system_available(), cgroup_available());  // bytes <= cap already
  if (bytes > available) throw InsufficientMemory(what, bytes, available);
}

ByteCount& ByteCount::add(std::uint64_t count, std::uint64_t each) {
  const std::uint64_t term = each != 0 && count > kUnlimited / each ? kUnlimited : count * each;
  bytes_ = term > kUnlimited - bytes_ ? kUnlimited : bytes_ + term;
  return *this;
}

}  // namespace hetsparse
