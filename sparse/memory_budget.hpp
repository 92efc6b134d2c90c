// Memory checks made before large allocations, so that a size the machine cannot hold (a lying
// Matrix Market size line, a huge generator spec) is refused at once with the figures
// (InsufficientMemory) instead of ending minutes later in the kernel's OOM killer.
#pragma once
#include <cstdint>
#include <string>

namespace hetsparse {

// Bytes this process may still allocate: the smallest of /proc/meminfo's MemAvailable (elsewhere
// the free physical pages), the cgroup's memory.max minus memory.current, and
// $HETSPARSE_MEMORY_LIMIT when set (bytes, or a number with a K, M or G suffix: a cap on each
// checked step, which tests and the fuzzer use). InvalidSetting for a malformed
// HETSPARSE_MEMORY_LIMIT.
std::uint64_t available_memory();

// Throws InsufficientMemory(what, bytes, available) when bytes exceed available_memory(); requests
// of 16 MiB or less are checked against $HETSPARSE_MEMORY_LIMIT only (InvalidSetting when it is
// malformed), not against the machine's memory.
void require_memory(std::uint64_t bytes, const std::string& what);

// A sum of count x size terms that saturates instead of wrapping: declared sizes may be absurd.
class ByteCount {
 public:
  ByteCount& add(std::uint64_t count, std::uint64_t each);
  std::uint64_t bytes() const { return bytes_; }

 private:
  std::uint64_t bytes_ = 0;
};

}  // namespace hetsparse
