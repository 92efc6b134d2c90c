#!/usr/bin/env bash
# Runs inside a bundle (scripts/bundle.sh) on a GPU machine: GPU tests, compute-sanitizer memcheck and
# racecheck on the CUDA kernels, the SpMV benchmark against cuSPARSE, and a mixed CPU+GPU trace.
# Writes logs, JSON results and the trace under OUTDIR and packs them into OUTDIR/results.tar.gz.
#   run_gpu.sh OUTDIR [--quick | --tests | --bench]
# --tests: tests and compute-sanitizer only; --bench: benchmarks and traces only (each fits one
# 10-minute device call); no flag: both; --quick: both on small problems, no bench.d scripts.
# Every step runs under `timeout $STEP_TIMEOUT` (default 240 s) so one slow step cannot eat the call.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUTDIR=${1:?usage: run_gpu.sh OUTDIR [--quick | --tests | --bench]}
QUICK=${2:-}
TESTS=1 BENCH=1
[ "$QUICK" = --tests ] && BENCH=0
[ "$QUICK" = --bench ] && TESTS=0
mkdir -p "$OUTDIR/logs"
export LD_LIBRARY_PATH="$HERE/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="$HERE/bin:/usr/local/cuda/bin:$PATH"
export STARPU_PERF_MODEL_DIR="$OUTDIR/perfmodels" STARPU_SILENT=1
export HETSPARSE_TEST_OUTPUT_DIR="$OUTDIR/test-output"  # the tests write there, not into their build path
export HETSPARSE_FUZZ_CORPUS="$HERE/data/fuzz-corpus"  # the source tree is not here
. "$HERE/openblas_env.sh"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
declare -a SUMMARY
step() {  # step NAME command...: runs, logs, records PASS/FAIL
  local name=$1; shift
  local t0=$(date +%s)
  timeout "${STEP_TIMEOUT:-240}" "$@" > "$OUTDIR/logs/$name.log" 2>&1
  local rc=$?
  SUMMARY+=("$(printf '%-28s %s (%ss)' "$name" "$([ $rc = 0 ] && echo PASS || echo "FAIL rc=$rc")" $(( $(date +%s) - t0 )))")
  return $rc
}

step nvidia-smi nvidia-smi
step info hetsparse info
if [ "$TESTS" = 1 ]; then
# The CUDA test executables (tests/*/ kind cuda); every other test_* runs as a CPU suite below.
GPU_TESTS="test_kernels_cuda test_codelets_cuda test_sptrsv_cuda test_cholesky_cuda test_krylov_cuda test_spmv_cuda"
# One step per group of suites, so that no step outgrows STEP_TIMEOUT: name|executable|gtest filter
# of the step|racecheck's filter. Steps with a racecheck filter are the pure CUDA kernels (no StarPU):
# they also run under compute-sanitizer memcheck (the step's filter) and racecheck (its own filter:
# racecheck slows the spinning sync-free SpTRSV and AG kernels ~1000x, so for those a representative
# subset; the dense, SpMV and supernode kernels in full).
GPU_STEPS=(
  "dense_spmv|test_kernels_cuda|Dense*:Spmv*|Dense*:Spmv*"
  "supernode|test_kernels_cuda|Supernode*|Supernode*"
  "ic0|test_kernels_cuda|Ic0Cuda.*|Ic0Cuda.*"
  "sptrsv|test_kernels_cuda|-Dense*:Spmv*:Supernode*:Ic0Cuda.*|*EveryVariantMatchesReference/anchor_rmat_12_8:*EveryVariantMatchesReference/banded_narrow:*EveryVariantMatchesReference/power_law_hubs:*EveryVariantMatchesReference/dense_lower_300"
  "ag|test_sptrsv_cuda|*AgCuda*|AgCudaSmall.HandPicked*:AgCudaSmall.InPlaceSolve:AgCudaSmall.RejectsBadArguments"
  "powered|test_sptrsv_cuda|SptrsvPoweredCuda.*|SptrsvPoweredCuda.RhsPass*:SptrsvPoweredCuda.Refused*"
  "clusterlevels|test_sptrsv_cuda|SptrsvClusterLevelsCuda.*|SptrsvClusterLevelsCuda.ClustersOfSeveralBlocksRun:SptrsvClusterLevelsCuda.OneBlockWithTheRingRuns"
  "solver|test_sptrsv_cuda|-*AgCuda*:SptrsvPoweredCuda.*:SptrsvClusterLevelsCuda.*|"
  "all|test_codelets_cuda|*|"
  "all|test_cholesky_cuda|*|"
  "all|test_krylov_cuda|*|"
  "all|test_spmv_cuda|*|"
)
for row in "${GPU_STEPS[@]}"; do
  IFS='|' read -r part t filter race <<< "$row"
  [ -x "$HERE/bin/$t" ] && step "$t.$part" "$t" --gtest_filter="$filter" --gtest_output=xml:"$OUTDIR/logs/$t.$part.xml"
done
for t in "$HERE"/bin/test_*; do  # CPU suites on this machine too (16 cores)
  case " $GPU_TESTS " in *" $(basename "$t") "*) continue ;; esac
  step "$(basename "$t")" "$t"
done
# compute-sanitizer on every pure CUDA kernel suite. cuSPARSE's own csrmv kernel reports shared-memory
# hazards under racecheck: the check is on hetsparse's kernels.
for row in "${GPU_STEPS[@]}"; do
  IFS='|' read -r part t filter race <<< "$row"
  [ -n "$race" ] && [ -x "$HERE/bin/$t" ] || continue
  step "memcheck_$t.$part" "$SAN" --tool memcheck --error-exitcode 3 "$t" --gtest_filter="$filter"
  step "racecheck_$t.$part" "$SAN" --tool racecheck --error-exitcode 3 --kernel-name-exclude kns=cusparse "$t" \
    --gtest_filter="$race"
done
step memcheck_codelets "$SAN" --tool memcheck --error-exitcode 3 test_codelets_cuda --gtest_filter='*dmdas*'
# The GPU subtree factorization (cuSOLVER/cuBLAS beside hetsparse's batched kernels) and the solve
# through StarPU where the panels live.
step memcheck_subtree_gpu "$SAN" --tool memcheck --error-exitcode 3 test_cholesky_cuda --gtest_filter='SubtreeGpu.*'
step racecheck_subtree_gpu "$SAN" --tool racecheck --error-exitcode 3 test_cholesky_cuda \
  --gtest_filter='SubtreeGpu.LeafSubtreeGroupsMatchTheCpuReference'  # the whole forest did not finish in 150 s
step memcheck_cholesky_solve "$SAN" --tool memcheck --error-exitcode 3 test_cholesky_cuda \
  --gtest_filter='*SolveWhereThePanelsLive/eager'
fi

if [ "$BENCH" = 1 ]; then
# SpMV benchmark: 3D 7-point Laplacian 160^3 (4.1M rows), 1 CUDA worker, tasks on the GPU.
N=160; [ "$QUICK" = --quick ] && N=64
for impl in own cusparse; do
  step "spmv_lap3d_${N}_${impl}" hetsparse spmv --generate "lap3d:$N" --ncuda 1 --ncpu 1 --device gpu --blocks 1 \
    --iterations 200 --cuda-kernel "$impl" --json
  cp "$OUTDIR/logs/spmv_lap3d_${N}_${impl}.log" "$OUTDIR/spmv_lap3d_${N}_${impl}.json"
done
# Mixed CPU+GPU run with a trace for ViTE.
step spmv_mixed_trace hetsparse spmv --generate lap3d:100 --blocks 48 --iterations 20 --sched dmdas \
  --trace "$OUTDIR/trace"
step cholesky_mixed_trace hetsparse cholesky --generate lap3d:40 --sched dmdas --trace "$OUTDIR/trace_cholesky"
if [ "$QUICK" != --quick ]; then
  for extra in "$HERE"/bench.d/*.sh; do [ -x "$extra" ] && STEP_TIMEOUT=420 step "$(basename "$extra" .sh)" "$extra" "$OUTDIR"; done
fi
fi

printf '%s\n' "${SUMMARY[@]}" | tee "$OUTDIR/summary.txt"
rm -f "$OUTDIR"/trace*/prof_file_*  # the raw FxT file is large; paje.trace is what ViTE reads
tar -czf "$OUTDIR/results.tar.gz" -C "$OUTDIR" --ignore-failed-read logs summary.txt trace trace_cholesky perfmodels $(cd "$OUTDIR" && ls *.json *.jsonl 2>/dev/null)
ls -la "$OUTDIR/results.tar.gz"
