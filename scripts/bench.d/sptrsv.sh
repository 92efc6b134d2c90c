#!/usr/bin/env bash
# SpTRSV benchmark inside a bundle on the GPU machine: every hetsparse GPU variant next to cuSPARSE
# SpSV on the six anchor triangles (one process per matrix, so a hung solve costs one matrix), CUDA
# events, median of 20. JSON lines in OUTDIR/sptrsv_bench.jsonl (for scripts/sptrsv_report.py).
#   sptrsv.sh OUTDIR
set -u
OUTDIR=$1
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/bench_sptrsv"
[ -x "$B" ] || { echo "no bench_sptrsv in the bundle"; exit 1; }
out="$OUTDIR/sptrsv_bench.jsonl"
: > "$out"
run() { echo "== $*" >&2; timeout 200 "$B" "$@" >> "$out" || echo "== exit $? for $*" >&2; }
for spec in anchor-lap2d:1000 anchor-lap3d:100 anchor-lap3d:160 anchor-rmat:18:8 anchor-rmat:20:8 anchor-rmat:22:4; do
  run --generate "$spec"
done
cat "$out"
