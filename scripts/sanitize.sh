#!/usr/bin/env bash
# The CPU library and its CPU test suite under AddressSanitizer (leaks included) and
# UndefinedBehaviorSanitizer, with gcc: a CPU-only build (no CUDA, no benchmarks) in build-asan/.
#   scripts/sanitize.sh [ctest arguments]   everything labelled cpu but the `package` test (that one
#                                           installs and builds examples/): ~5 min build + ~3.5 min
#                                           tests on the 2-core machine
#   scripts/sanitize.sh --quick             what CI runs (scripts/test.sh): the sparse, symbolic and
#                                           bad-input suites only (~2 min build, seconds to run)
# StarPU and the libraries it loads are not instrumented; LeakSanitizer found nothing of theirs to
# suppress. Needs the StarPU scripts/bootstrap.sh built or found (its prefix is in the cache).
# Timings and results: docs/sanitizers.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${HETSPARSE_SANITIZE_BUILD:-$ROOT/build-asan}
CACHE=${HETSPARSE_CACHE:-$HOME/.cache/hetsparse}
QUICK=0
[ "${1:-}" = --quick ] && { QUICK=1; shift; }
[ -f "$CACHE/starpu-prefix" ] || { echo "sanitize: run scripts/bootstrap.sh first (no $CACHE/starpu-prefix)" >&2; exit 1; }
STARPU_PREFIX=$(cat "$CACHE/starpu-prefix")
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
QUICK_TESTS="tests/sparse/test_sparse_cpu tests/symbolic/test_symbolic_cpu tests/bad_input/test_bad_input_starpu"
t0=$(date +%s)
PKG_CONFIG_PATH="$STARPU_PREFIX/lib/pkgconfig:${PKG_CONFIG_PATH:-}" cmake -S "$ROOT" -B "$BUILD" -G Ninja \
  -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS="-O1 -g $SAN" -DCMAKE_CXX_FLAGS="-O1 -g $SAN" \
  -DCMAKE_EXE_LINKER_FLAGS="$SAN" -DCMAKE_SHARED_LINKER_FLAGS="$SAN" -DCMAKE_PREFIX_PATH="$STARPU_PREFIX" \
  -DHETSPARSE_ENABLE_CUDA=OFF -DHETSPARSE_BUILD_BENCH=OFF >/dev/null
if [ "$QUICK" = 1 ]; then
  # shellcheck disable=SC2086
  cmake --build "$BUILD" -j "$(nproc)" --target $(for t in $QUICK_TESTS; do basename "$t"; done) >/dev/null
else
  cmake --build "$BUILD" -j "$(nproc)"
fi
t1=$(date +%s)
# protect_shadow_gap=0: the CUDA runtime StarPU loads maps memory where ASan's shadow gap would be.
export ASAN_OPTIONS="detect_leaks=1:protect_shadow_gap=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
cd "$BUILD"
rc=0
if [ "$QUICK" = 1 ]; then
  for t in $QUICK_TESTS; do
    "$BUILD/$t" --gtest_brief=1 >"$BUILD/$(basename "$t").log" 2>&1 || { rc=1; tail -40 "$BUILD/$(basename "$t").log"; }
    echo "sanitize: $(basename "$t"): $(grep -E '^\[  (PASSED|FAILED)  \]' "$BUILD/$(basename "$t").log" | tr '\n' ' ')"
  done
else
  ctest --output-on-failure -j "$(nproc)" --timeout 900 -L cpu -LE package "$@" || rc=$?
fi
echo "sanitize: build $((t1 - t0)) s, tests $(($(date +%s) - t1)) s, status $rc"
exit "$rc"
