#!/usr/bin/env bash
# Factors bigger than the GPU (issue 15, item 4), inside a bundle on the GPU machine: bench_cholesky
# on SPEC uncapped, then with STARPU_LIMIT_CUDA_MEM=CAP_MB (StarPU must evict panels), in one call;
# each run's peak GPU memory (nvidia-smi, every 250 ms) shows whether the cap bit. Prints PASS when
# the capped run finishes with the uncapped run's backward error (to 1e-14), FAIL otherwise.
# Re-run it after changes to panel homes, the solve graph or GPU assembly.
#   gpu_cap.sh OUTDIR [SPEC (lap3d:128)] [CAP_MB (12000)] [TIMEOUT_S per run (200)]
set -u
OUTDIR=$1 SPEC=${2:-lap3d:128} CAP=${3:-12000} T=${4:-200}
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/bench_cholesky"
. "$HERE/openblas_env.sh"
[ -x "$B" ] || { echo "no bench_cholesky in the bundle"; exit 1; }
mkdir -p "$OUTDIR"
out="$OUTDIR/gpu_cap.jsonl"
: > "$out"
args=(--generate "$SPEC" --repeat 1 --no-cholmod --no-cudss --no-dgemm)
timeout 60 "$B" --generate lap3d:40 --repeat 2 --no-cholmod --no-cudss --no-dgemm > /dev/null 2>&1  # calibration
run() {  # label, then the environment for the run
  local label=$1; shift
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 250 > "$OUTDIR/mem_$label.txt" 2>/dev/null &
  local smi=$!
  env "$@" timeout "$T" "$B" "${args[@]}" >> "$out" 2> "$OUTDIR/$label.err"
  local rc=$?
  kill "$smi"; wait "$smi" 2>/dev/null
  echo "$label: exit $rc, peak GPU memory $(sort -n "$OUTDIR/mem_$label.txt" | tail -1) MiB"
}
run uncapped -u STARPU_LIMIT_CUDA_MEM
run capped STARPU_LIMIT_CUDA_MEM="$CAP"
python3 - "$out" "$SPEC" "$CAP" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if len(rows) != 2:
    print("FAIL: %d of 2 runs finished" % len(rows)); sys.exit(1)
h = [r["hetsparse"] for r in rows]
for label, x in zip(("uncapped", "capped %s MB" % sys.argv[3]), h):
    print("%-16s factorize %.3f s (+%.2f s assembly), solve %.3f s, backward error %.3e" %
          (label, x["factorize_s"], x["assemble_s"], x["solve_s"], x["backward_error"]))
d = abs(h[0]["backward_error"] - h[1]["backward_error"])
ok = d <= 1e-14 and max(x["backward_error"] for x in h) <= 1e-14
print("%s: %s, nnz(L) %.3g, backward errors differ by %.1e" % ("PASS" if ok else "FAIL", sys.argv[2], rows[0]["nnz_L"], d))
sys.exit(0 if ok else 1)
PY
