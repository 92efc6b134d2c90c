#!/usr/bin/env bash
# Cholesky benchmark inside a bundle on the GPU machine: hetsparse (CPUs + GPU, then CPUs only) next
# to CHOLMOD with the same METIS ordering, plus the cuBLAS dgemm ceiling. JSON lines in OUTDIR.
#   cholesky.sh OUTDIR
set -u
OUTDIR=$1
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/bench_cholesky"
[ -x "$B" ] || { echo "no bench_cholesky in the bundle"; exit 1; }
out="$OUTDIR/cholesky_bench.jsonl"
: > "$out"
run() { echo "== $*" >&2; timeout 240 "$B" "$@" >> "$out"; }
run --generate lap3d:60 --repeat 2
STARPU_NCUDA=0 run --generate lap3d:60 --repeat 2 --no-cholmod --no-dgemm
run --generate lap3d:100 --repeat 2 --no-cholmod --no-dgemm
cat "$out"
