#!/usr/bin/env bash
# The solve paths of `hetsparse sptrsv` inside a bundle on the GPU machine: for every triangle, device
# auto (where sptrsv/host_solve_place sends solve(); synchronous GPU solves inline), auto with
# --solve-tasks (the same solves as StarPU tasks), --device gpu (the GPU path) and --device cpu (one
# core's in-task serial substitution), one process each, the last of two analyses. JSON lines in
# OUTDIR/host_paths_{auto,tasks,gpu,cpu}.jsonl, for scripts/sptrsv_host_paths.py (report: the table and
# the issue-16 targets; fit: the placement's two cost models). MODES="auto tasks" runs only those.
#   sptrsv_host_paths.sh OUTDIR FILE.mtx|SPEC ...   (SPEC: a --generate spec such as anchor-lap2d:1000)
set -u
OUTDIR=$1
shift
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/hetsparse"
[ -x "$B" ] || { echo "no hetsparse in the bundle"; exit 1; }
MODES=${MODES:-auto tasks gpu cpu}
for mode in $MODES; do : > "$OUTDIR/host_paths_$mode.jsonl"; done
run() {
  local mode=$1 input=$2
  local src=(--generate "$input")
  [ -f "$input" ] && src=("$input")
  local dev=()
  case $mode in
    tasks) dev=(--solve-tasks) ;;
    gpu | cpu) dev=(--device "$mode") ;;
  esac
  echo "== $mode $input" >&2
  timeout 120 "$B" sptrsv "${src[@]}" "${dev[@]}" --json --iterations 100 --analyses 2 \
    >> "$OUTDIR/host_paths_$mode.jsonl" || echo "== exit $? for $mode $input" >&2
}
for input in "$@"; do
  for mode in $MODES; do run "$mode" "$input"; done
done
wc -l "$OUTDIR"/host_paths_*.jsonl >&2
