#!/usr/bin/env bash
# SpTRSV benchmark inside a bundle on the GPU machine: every hetsparse GPU variant, four AG-SpTRSV
# schemes and cuSPARSE SpSV on the six anchor triangles (one process per matrix, so a hung solve costs
# one matrix), CUDA events, median of 20; then auto by search and by the trained model (found in
# PERFMODEL_DIR, e.g. OUTDIR/perfmodels after sptrsv_train.sh; without one the model column says so).
# JSON lines in OUTDIR/sptrsv_bench.jsonl (for scripts/sptrsv_report.py).
#   sptrsv.sh OUTDIR [PERFMODEL_DIR]
set -u
OUTDIR=$1
PM=${2:-$OUTDIR/perfmodels}
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/bench_sptrsv"
[ -x "$B" ] || { echo "no bench_sptrsv in the bundle"; exit 1; }
out="$OUTDIR/sptrsv_bench.jsonl"
: > "$out"
run() { echo "== $*" >&2; timeout 300 "$B" "$@" >> "$out" || echo "== exit $? for $*" >&2; }
for spec in anchor-lap2d:1000 anchor-lap3d:100 anchor-lap3d:160 anchor-rmat:18:8 anchor-rmat:20:8 anchor-rmat:22:4; do
  run --generate "$spec" --perfmodel-dir "$PM"
done
cat "$out"
