// libFuzzer target for the Matrix Market reader: arbitrary bytes (plain text or gzip) through
// load_matrix (read, symmetric expansion, CSR conversion) and validate(). Every input must end in
// a valid Csr or a hetsparse::Error; another exception, a crash, a leak, a hang or an allocation
// past the budget is a finding. Built by tests/fuzz/CMakeLists.txt, run by scripts/fuzz.sh.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/matrix_market.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The reader refuses what does not fit instead of allocating it. With a 64 KiB budget, which
  // require_memory applies to every request, no checked step may allocate more: scripts/fuzz.sh's
  // -malloc_limit_mb turns any allocation that escaped the checks into a finding. The budget also
  // keeps inputs that declare many rows (a row pointer and O(rows) passes per run) as fast as the
  // others: with 16 MiB, a corpus of such inputs once made the 10^6 runs ten times slower.
  ::setenv("HETSPARSE_MEMORY_LIMIT", "64K", 0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The reader takes a path: the input lives in an in-memory file, reopened through /proc.
  static const int fd = memfd_create("matrix.mtx", 0);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) std::abort();
  try {
    const hetsparse::Csr a = hetsparse::load_matrix(path);
    hetsparse::validate(a);
  } catch (const hetsparse::Error&) {
    // a typed error naming the problem is the expected end of a bad input
  }
  return 0;
}
