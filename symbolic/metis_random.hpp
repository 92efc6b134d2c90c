// Thread-private random numbers for concurrent METIS calls. Debian's libmetis 5.1 is built without
// GKlib's own generator (no USE_GKRAND): every METIS call draws from libc's rand(), one state for
// the whole process, after srand(seed). Concurrent calls would interleave their draws and their
// orderings would depend on thread timing. This file defines rand() and srand() for the process:
// on a thread inside a PrivateRandScope they use a state of that thread alone, with glibc's
// algorithm (so a call gives exactly what it gives run serially); everywhere else they forward to
// libc's, unchanged.
#pragma once

namespace hetsparse::cholesky::detail {

// While alive, rand() and srand() on this thread use this thread's own glibc-compatible state.
class PrivateRandScope {
 public:
  PrivateRandScope();
  ~PrivateRandScope();
  PrivateRandScope(const PrivateRandScope&) = delete;
  PrivateRandScope& operator=(const PrivateRandScope&) = delete;
};

// Whether METIS's rand()/srand() calls reach the definitions above (they do when this object is
// linked into the executable, whose symbols come first; not, e.g., when hetsparse is dlopen()ed
// locally). Probed once with a small METIS call; when false, concurrent METIS calls are not
// deterministic and the ordering stays serial.
bool metis_uses_private_rand();

}  // namespace hetsparse::cholesky::detail
