#!/usr/bin/env bash
# CPU SpTRSV benchmark inside a bundle on the GPU machine, CPU workers only: the serial and threaded
# level kernels called directly, then through StarPU the level-scheduled solve as one parallel task
# (SPMD and fork-join) and as per-level tasks, under peager, pheft, dmdas and lws, on lap2d 1000^2,
# lap3d 100^3, rmat18_ef8 and rmat20_ef8 (bench_sptrsv_cpu). Then 8 workers, then smaller shares.
# The first run only calibrates the perf models (pheft and dmdas place tasks by them), kept in
# OUTDIR/perfmodels. JSON lines in OUTDIR/sptrsv_cpu_bench.jsonl; the whole script takes < 3 min.
#   sptrsv_cpu.sh OUTDIR
set -u
OUTDIR=$1
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/bench_sptrsv_cpu"
[ -x "$B" ] || { echo "no bench_sptrsv_cpu in the bundle"; exit 1; }
mkdir -p "$OUTDIR/perfmodels"
export STARPU_PERF_MODEL_DIR="$OUTDIR/perfmodels"
out="$OUTDIR/sptrsv_cpu_bench.jsonl"
: > "$out"
run() {  # run SECONDS ARGS...: one bench process under a time limit
  local limit=$1
  shift
  echo "== $*" >&2
  timeout "$limit" "$B" "$@" >> "$out" || echo "== exit $? for $*" >&2
}
run 40 --sched pheft --runs 10 --warmups 0  # calibration: pheft models every combined worker size
: > "$out"
run 70 --runs 10
run 35 --ncpu 8 --sched peager,lws,dmdas --runs 10
run 30 --sched peager,lws --parallel-entries 1024 --level-entries 4096 --runs 10
cat "$out"
