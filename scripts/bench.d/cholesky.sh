#!/usr/bin/env bash
# Cholesky benchmark inside a bundle on the GPU machine: hetsparse (CPUs + GPU, then CPUs only) next
# to CHOLMOD with the same METIS ordering and to cuDSS (when HETSPARSE_CUDSS_LIB finds libcudss.so.1:
# scripts/bench.d/cudss_parts.sh, docs/cudss.md), plus the cuBLAS dgemm ceiling. JSON lines in OUTDIR.
# The first run calibrates StarPU's perf models: the flops regressions of the supernodal codelets are
# fitted when a process saves them, so every later process schedules with them.
#   cholesky.sh OUTDIR [--large]   (--large: add 128^3, 3-dof 60^3 and 2D 2000^2)
set -u
OUTDIR=$1
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/bench_cholesky"
. "$HERE/openblas_env.sh"  # both hetsparse and CHOLMOD get the right OpenBLAS kernels
[ -x "$B" ] || { echo "no bench_cholesky in the bundle"; exit 1; }
out="$OUTDIR/cholesky_bench.jsonl"
: > "$out"
run() { echo "== $*" >&2; timeout 300 "$B" "$@" >> "$out" || echo "== exit $? for $*" >&2; }
run --generate lap3d:40 --repeat 2 --no-cholmod --no-cudss --no-dgemm > /dev/null   # calibration
STARPU_NCUDA=0 run --generate lap3d:40 --repeat 2 --no-cholmod --no-cudss --no-dgemm > /dev/null
: > "$out"
run --generate lap3d:60 --repeat 2
STARPU_NCUDA=0 run --generate lap3d:60 --repeat 2 --no-cholmod --no-cudss --no-dgemm
run --generate lap3d:100 --repeat 2 --no-cholmod --no-dgemm
if [ "${2:-}" = --large ]; then
  run --generate lap3d:128 --repeat 1 --no-cholmod --no-dgemm
  run --generate elast3d:60 --repeat 1 --no-cholmod --no-dgemm
  run --generate lap2d:2000 --repeat 1 --no-cholmod --no-dgemm
fi
cat "$out"
