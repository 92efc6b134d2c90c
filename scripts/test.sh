#!/usr/bin/env bash
# Build everything (dependencies included, cached) and run the test suite. GPU tests skip with a
# message when there is no GPU. Fails if no test ran. Then, unless --quick or ctest arguments are
# given, the checks CI adds: the Matrix Market reader fuzzed for 1e6 executions (scripts/fuzz.sh,
# ~1 min) and the sparse, symbolic and bad-input suites under ASan + UBSan (scripts/sanitize.sh
# --quick, ~2 min; the whole CPU suite under the sanitizers is scripts/sanitize.sh).
#   scripts/test.sh [--quick] [ctest arguments, e.g. -L cpu or -R Sparse]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
EXTRA=1
[ "${1:-}" = --quick ] && { EXTRA=0; shift; }
[ $# -gt 0 ] && EXTRA=0
"$ROOT/scripts/bootstrap.sh"
cd "$ROOT/build"
log="$ROOT/build/test.log"
set +e
ctest --output-on-failure -j "$(nproc)" --timeout 600 "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
total=$(sed -n 's/.*tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -n1)
if [ -z "$total" ] || [ "$total" = 0 ]; then
  echo "test.sh: no test ran" >&2
  exit 1
fi
[ "$rc" = 0 ] || exit "$rc"
if [ "$EXTRA" = 1 ]; then
  "$ROOT/scripts/fuzz.sh"
  "$ROOT/scripts/sanitize.sh" --quick
fi
