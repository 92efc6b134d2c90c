#!/usr/bin/env bash
# SpMV benchmark inside a bundle on a GPU machine (issue 18):
#  1. single-GPU kernels, no runtime (bench_spmv_kernels): cuSPARSE, the own sub-warp kernel, the tiled
#     kernel in several tile shapes and the row profile's choice, on the SpTRSV anchors' triangles,
#     power-law R-MAT graphs and 3D meshes of >= 50M nonzeros;
#  2. through StarPU on GPU-resident x and y (hetsparse spmv --partition pcsr --parts 1 --resident):
#     a chain of products, launched inline (the default) and as tasks (--product-tasks), against the
#     kernel in the same process, alone and back to back; the tasks under three schedulers;
#  3. the partitions with 4 parts on the GPU (each format), for their correctness and cost.
# JSON lines in OUTDIR/spmv_kernels.jsonl and OUTDIR/spmv_starpu.jsonl. About 4 minutes on an H100.
#   spmv.sh OUTDIR [--quick]
set -u
OUTDIR=$1
QUICK=${2:-}
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/bench_spmv_kernels"
H="$HERE/bin/hetsparse"
[ -x "$B" ] && [ -x "$H" ] || { echo "no bench_spmv_kernels / hetsparse in the bundle"; exit 1; }
mkdir -p "$OUTDIR/perfmodels"
export STARPU_PERF_MODEL_DIR="$OUTDIR/perfmodels" STARPU_SILENT=1
K="$OUTDIR/spmv_kernels.jsonl" S="$OUTDIR/spmv_starpu.jsonl"
: > "$K"; : > "$S"
run() {  # run SECONDS OUTFILE PROGRAM ARGS...
  local limit=$1 out=$2
  shift 2
  echo "== $*" >&2
  timeout "$limit" "$@" >> "$out" || echo "== exit $? for $*" >&2
}
ANCHORS=anchor-lap2d:1000,anchor-lap3d:100,anchor-lap3d:160,anchor-rmat:18:8,anchor-rmat:20:8,anchor-rmat:22:4
POWER=rmat:20:8,rmat:21:16
MESHES=lap3d:200,lap3d:128x128x128:27,elast3d:96,lap3d:160
TILES=${SPMV_TILES:-1024:256,2048:512,4096:1024}
if [ "$QUICK" = --quick ]; then
  ANCHORS=anchor-lap3d:40,anchor-rmat:14:8 POWER=rmat:14:8 MESHES=lap3d:40
fi
for set in "$ANCHORS" "$POWER" "$MESHES"; do run 150 "$K" "$B" --tiles "$TILES" --runs 50 "$set"; done

# StarPU on device-resident vectors: 1 CUDA worker, 1 CPU worker, pinned to the GPU; inline, then tasks.
CHAINS="anchor-lap2d:1000 anchor-lap3d:100 anchor-lap3d:160 anchor-rmat:18:8 anchor-rmat:20:8 anchor-rmat:22:4"
CHAINS="$CHAINS rmat:20:8 rmat:21:16"
[ "$QUICK" = --quick ] && CHAINS=lap3d:40
for m in $CHAINS; do
  for how in "" --product-tasks; do
    run 60 "$S" "$H" spmv --generate "$m" --partition pcsr --parts 1 --resident --device gpu --ncpu 1 --ncuda 1 \
      --iterations 2000 --sched dmdas --json $how
  done
done
for sched in eager lws; do
  run 60 "$S" "$H" spmv --generate lap3d:160 --partition pcsr --parts 1 --resident --device gpu --ncpu 1 --ncuda 1 \
    --iterations 500 --sched "$sched" --json --product-tasks
done
# Four parts on the one GPU, each format, and the model's own choice with CPU parts allowed.
for f in pcsr pcsc pcoo; do
  run 60 "$S" "$H" spmv --generate rmat:20:8 --partition "$f" --parts 4 --resident --device gpu --ncpu 1 --ncuda 1 \
    --iterations 100 --json
done
run 90 "$S" "$H" spmv --generate rmat:20:8 --partition auto --iterations 100 --json
cat "$K" "$S"
