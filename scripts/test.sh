#!/usr/bin/env bash
# Build everything (dependencies included, cached) and run the test suite. GPU tests skip with a
# message when there is no GPU. Fails if no test ran.
#   scripts/test.sh [ctest arguments, e.g. -L cpu or -R Sparse]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/bootstrap.sh"
cd "$ROOT/build"
log=$(mktemp)
set +e
ctest --output-on-failure -j "$(nproc)" --timeout 600 "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
total=$(sed -n 's/.*tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -n1)
rm -f "$log"
if [ -z "$total" ] || [ "$total" = 0 ]; then
  echo "test.sh: no test ran" >&2
  exit 1
fi
exit "$rc"
