#!/usr/bin/env bash
# PCG benchmark inside a bundle on the GPU machine: bench_pcg on the 3D 100^3 Laplacian (IC(0), Jacobi,
# none; one CUDA worker, every task on the GPU), each iteration against one SpMV + two SpTRSV kernel
# times, then `hetsparse pcg --json` to convergence; each launched inline (the default) and as tasks
# (--iteration-tasks), and bench_inline_ops (an iteration's operations one by one). JSON lines in
# OUTDIR/pcg_bench.jsonl and OUTDIR/pcg_ops.jsonl.
#   pcg.sh OUTDIR [PERFMODEL_DIR]
set -u
OUTDIR=$1
PM=${2:-$OUTDIR/perfmodels}
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/bench_pcg"
[ -x "$B" ] || { echo "no bench_pcg in the bundle"; exit 1; }
out="$OUTDIR/pcg_bench.jsonl"
: > "$out"
run() { echo "== $*" >&2; timeout 200 "$@" >> "$out" || echo "== exit $? for $*" >&2; }
for M in ic0 jacobi none; do
  for how in "" --iteration-tasks; do
    run "$B" --generate lap3d:100 --preconditioner "$M" --iterations 100 --ncpu 1 --ncuda 1 --perfmodel-dir "$PM" $how
  done
done
for how in "" --iteration-tasks; do
  run "$HERE/bin/hetsparse" pcg --generate lap3d:100 --ncpu 1 --ncuda 1 --no-phase-times --json --perfmodel-dir "$PM" $how
done
# An iteration's operations one by one (launch, chain, read), inline: OUTDIR/pcg_ops.jsonl.
[ -x "$HERE/bin/bench_inline_ops" ] && timeout 200 "$HERE/bin/bench_inline_ops" --generate lap3d:100 --ncpu 1 --ncuda 1 \
  --perfmodel-dir "$PM" > "$OUTDIR/pcg_ops.jsonl" || echo "== bench_inline_ops failed" >&2
cat "$out"
