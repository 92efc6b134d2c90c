#!/usr/bin/env bash
# Fuzzes the Matrix Market reader (tests/fuzz: libFuzzer + AddressSanitizer + UBSan, clang) for at
# least RUNS executions (default 1000000) from the committed corpus, and fails on any crash, leak,
# timeout (10 s), allocation above 64 MB (the target's budget is 64 KiB) or RSS above 1 GB. Inputs that reach new code stay in build-fuzz/corpus;
# --merge adds them to tests/fuzz/corpus (commit them: the normal suite replays that folder, see
# tests/bad_input/test_fuzz_corpus.cpp). A finding is written to build-fuzz/ (crash-*, leak-*, ...).
#   scripts/fuzz.sh [--runs N] [--merge]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${HETSPARSE_FUZZ_BUILD:-$ROOT/build-fuzz}
RUNS=1000000 MERGE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift ;;
    --merge) MERGE=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "fuzz: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$RUNS" in ''|*[!0-9]*) echo "fuzz: --runs needs a whole number, got '$RUNS'" >&2; exit 2 ;; esac
command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (apt-get install clang libclang-rt-dev)" >&2; exit 1; }
t0=$(date +%s)
cmake -S "$ROOT/tests/fuzz" -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$BUILD" >/dev/null
mkdir -p "$BUILD/corpus"
cd "$BUILD"  # findings land here
log="$BUILD/fuzz.log"
set +e
./matrix_market_fuzzer -runs="$RUNS" -max_len=4096 -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=64 -print_final_stats=1 \
  -dict="$ROOT/tests/fuzz/matrix_market.dict" "$BUILD/corpus" "$ROOT/tests/fuzz/corpus" >"$log" 2>&1
rc=$?
set -e
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
if [ "$rc" != 0 ]; then
  tail -40 "$log"
  echo "fuzz: FAILED after ${runs:-?} executions (status $rc): the input is in $BUILD (crash-*, leak-*, timeout-*, oom-*)" >&2
  exit 1
fi
[ "${runs:-0}" -ge "$RUNS" ] || { tail -20 "$log"; echo "fuzz: only ${runs:-0} of $RUNS executions ran" >&2; exit 1; }
if [ "$MERGE" = 1 ]; then
  ./matrix_market_fuzzer -merge=1 -use_counters=0 "$ROOT/tests/fuzz/corpus" "$BUILD/corpus" >>"$log" 2>&1
  echo "fuzz: tests/fuzz/corpus now holds $(ls "$ROOT/tests/fuzz/corpus" | wc -l) inputs"
fi
echo "fuzz: $runs executions, no crash, leak, timeout or out-of-memory ($(($(date +%s) - t0)) s)"
