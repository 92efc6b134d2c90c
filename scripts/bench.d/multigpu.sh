#!/usr/bin/env bash
# Issue 20's run on a host with several GPUs, inside a bundle: one call per part (a device call has
# at most 10 minutes). Every process's JSON line goes whole into OUTDIR; traces (paje + tasks.rec,
# xz-compressed) for ViTE screenshots (scripts/vite_screenshot.sh) and for
# `scripts/trace_split.py tasks.rec --by-task` (the merges' share of each GPU's time).
#   multigpu.sh OUTDIR spmv [MATRIX ...]     1, 2, 4, 8 GPUs (up to what the host has), pcsr with one
#                                            part a GPU; every format and auto on all GPUs
#   multigpu.sh OUTDIR cholesky [N ...]      lap3d:N (default 128 160) on one GPU (with cuDSS when
#                                            HETSPARSE_CUDSS_LIB finds it) and on all GPUs; one traced
#                                            run on all GPUs, lap3d:$TRACE_N (default: the first N)
set -u
OUTDIR=$1
WHAT=${2:?usage: multigpu.sh OUTDIR spmv|cholesky [...]}
shift 2
HERE=$(cd "$(dirname "$0")/.." && pwd)
H="$HERE/bin/hetsparse" B="$HERE/bin/bench_cholesky"
. "$HERE/openblas_env.sh"
mkdir -p "$OUTDIR/perfmodels"
export STARPU_PERF_MODEL_DIR=${STARPU_PERF_MODEL_DIR:-$OUTDIR/perfmodels} STARPU_SILENT=1
NG=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$NG" -ge 1 ] || { echo "multigpu.sh: no GPU"; exit 1; }
LOG="$OUTDIR/multigpu.log"
T0=$(date +%s)
run() {  # run SECONDS OUTFILE PROGRAM ARGS...: one JSON line appended to OUTFILE
  local limit=$1 out=$2 t=$(date +%s)
  shift 2
  timeout "$limit" "$@" 2>> "$LOG" | tail -1 >> "$out"
  echo "rc=${PIPESTATUS[0]} $(( $(date +%s) - t ))s (at $(( $(date +%s) - T0 ))s): $*" >> "$LOG"
}
trace_pack() {  # trace_pack DIR NAME: keep what ViTE and trace_split.py read, compressed
  [ -f "$1/paje.trace" ] || return
  tar -C "$1" -cf - paje.trace tasks.rec | xz -T0 -3 > "$OUTDIR/trace_$2.tar.xz"
  rm -rf "$1"
}
{ nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nvidia-smi topo -m; } > "$OUTDIR/topology.txt" 2>&1
"$H" info >> "$OUTDIR/topology.txt" 2>&1
counts=1
for g in 2 4 8; do [ "$g" -le "$NG" ] && counts="$counts $g"; done

if [ "$WHAT" = spmv ]; then
  S="$OUTDIR/spmv_multigpu.jsonl"
  [ $# -gt 0 ] || set -- lap3d:300 rmat:23:16
  for m in "$@"; do
    for g in $counts; do
      anchor=--no-anchor
      [ "$g" = 1 ] && anchor=
      run 120 "$S" "$H" spmv --generate "$m" --resident --iterations 200 --json --ncuda "$g" --partition pcsr \
        --parts "$g" $anchor
    done
    [ "$NG" -gt 1 ] || continue
    for f in pcsc pcoo auto; do
      parts="--parts $NG"
      [ "$f" = auto ] && parts=
      run 120 "$S" "$H" spmv --generate "$m" --resident --iterations 200 --json --ncuda "$NG" --partition "$f" \
        $parts --no-anchor
    done
  done
  # Traces on all GPUs, first matrix: the merges' share (pcsc, pcoo) and the GPUs' timelines.
  for f in pcsr pcsc pcoo; do
    run 120 "$OUTDIR/spmv_traced.jsonl" "$H" spmv --generate "$1" --resident --iterations 50 --json --ncuda "$NG" \
      --partition "$f" --parts "$NG" --no-anchor --trace "$OUTDIR/tr_$f"
    trace_pack "$OUTDIR/tr_$f" "spmv_${f}_${NG}gpu"
  done
elif [ "$WHAT" = cholesky ]; then
  C="$OUTDIR/cholesky_multigpu.jsonl"
  [ $# -gt 0 ] || set -- 128 160
  # Calibration: the flops regressions of every GPU's codelets, saved for the processes below.
  run 200 /dev/null "$B" --generate lap3d:80 --repeat 2 --no-cholmod --no-cudss --no-dgemm --ncuda "$NG"
  for n in "$@"; do
    run 400 "$C" "$B" --generate "lap3d:$n" --repeat 2 --json --no-cholmod --no-dgemm --solve-repeat 3 --ncuda 1
    [ "$NG" -gt 1 ] && run 300 "$C" "$B" --generate "lap3d:$n" --repeat 2 --json --no-cholmod --no-cudss --no-dgemm \
      --solve-repeat 3 --ncuda "$NG"
  done
  if [ "$NG" -gt 1 ]; then  # one traced factorization on all GPUs
    n=${TRACE_N:-$1}
    run 300 "$OUTDIR/cholesky_traced.jsonl" "$B" --generate "lap3d:$n" --repeat 2 --json --no-cholmod --no-cudss \
      --no-dgemm --ncuda "$NG" --trace "$OUTDIR/tr_chol"
    trace_pack "$OUTDIR/tr_chol" "cholesky_${n}_${NG}gpu"
  fi
else
  echo "multigpu.sh: spmv or cholesky, not '$WHAT'" >&2
  exit 2
fi
echo "done $(( $(date +%s) - T0 ))s" >> "$LOG"
cat "$LOG"
