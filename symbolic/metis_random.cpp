// rand()/srand() with a per-thread state inside PrivateRandScope, libc's outside (see the header).
// glibc's rand() is random() on a 128-byte TYPE_3 state and srand() is srandom(): random_r and
// srandom_r on a thread's own 128-byte state give the same numbers from the same seed.
#include "symbolic/metis_random.hpp"

#include <dlfcn.h>
#include <metis.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct PrivateRand {
  int depth = 0;               // PrivateRandScope nesting on this thread
  std::int64_t srand_calls = 0;  // inside scopes: shows METIS reached this srand()
  random_data data{};
  char state[128]{};
};
thread_local PrivateRand t_rand;

using RandFn = int (*)();
using SrandFn = void (*)(unsigned);

// libc's own functions: the next definitions after ours. random()/srandom() are what glibc's
// rand()/srand() call, should the lookup fail.
RandFn libc_rand() {
  static const RandFn f = [] {
    void* sym = dlsym(RTLD_NEXT, "rand");
    return sym ? reinterpret_cast<RandFn>(sym) : +[] { return static_cast<int>(random()); };
  }();
  return f;
}
SrandFn libc_srand() {
  static const SrandFn f = [] {
    void* sym = dlsym(RTLD_NEXT, "srand");
    return sym ? reinterpret_cast<SrandFn>(sym) : +[](unsigned seed) { srandom(seed); };
  }();
  return f;
}

}  // namespace

extern "C" int rand() noexcept {
  if (t_rand.depth == 0) return libc_rand()();
  std::int32_t r = 0;
  random_r(&t_rand.data, &r);
  return r;
}

extern "C" void srand(unsigned seed) noexcept {
  if (t_rand.depth == 0) {
    libc_srand()(seed);
    return;
  }
  ++t_rand.srand_calls;
  srandom_r(seed, &t_rand.data);
}

namespace hetsparse::cholesky::detail {

PrivateRandScope::PrivateRandScope() {
  if (t_rand.depth++ > 0) return;
  // glibc's process state starts as if seeded with 1; METIS reseeds at every call anyway.
  std::memset(&t_rand.data, 0, sizeof t_rand.data);
  initstate_r(1, t_rand.state, sizeof t_rand.state, &t_rand.data);
}

PrivateRandScope::~PrivateRandScope() { --t_rand.depth; }

bool metis_uses_private_rand() {
  static const bool reached = [] {
    // A 4 x 4 grid: METIS_NodeND seeds its generator (srand) before ordering it.
    constexpr idx_t side = 4;
    std::vector<idx_t> xadj{0}, adj;
    for (idx_t v = 0; v < side * side; ++v) {
      const idx_t x = v % side, y = v / side;
      if (y > 0) adj.push_back(v - side);
      if (x > 0) adj.push_back(v - 1);
      if (x + 1 < side) adj.push_back(v + 1);
      if (y + 1 < side) adj.push_back(v + side);
      xadj.push_back(static_cast<idx_t>(adj.size()));
    }
    idx_t n = side * side, options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_NUMBERING] = 0;
    std::vector<idx_t> perm(static_cast<std::size_t>(n)), iperm(perm.size());
    const PrivateRandScope scope;
    const std::int64_t before = t_rand.srand_calls;
    const int status = METIS_NodeND(&n, xadj.data(), adj.data(), nullptr, options, perm.data(), iperm.data());
    return status == METIS_OK && t_rand.srand_calls > before;
  }();
  return reached;
}

}  // namespace hetsparse::cholesky::detail
