#!/usr/bin/env bash
# Per-device SpTRSV training inside a bundle on the GPU machine, in one go:
#   1. fusion: YuenyeungSpTRSV's fusion threshold on R-MAT triangles (YY 6.2);
#   2. search: the full scheme search (plain variants, cusparse, the pruned AG space) on a corpus of
#      generated triangles, one process per matrix, appending the timing tables;
#   3. fit: the k-NN scheme model from those tables (leave-one-out quality printed).
# Everything lands in OUTDIR/perfmodels/hetsparse_sptrsv/ (fusion_<gpu>.tsv, search_<gpu>.jsonl,
# model_<gpu>.tsv); commit model_<gpu>.tsv as data/sptrsv_model_<gpu>.tsv and keep fusion_<gpu>.tsv
# with the perf models. Then bench_sptrsv compares auto (search) with the model on the anchors.
# About 10 minutes on an H100 in all; STEPS="fusion search" then STEPS="fit bench" (same OUTDIR)
# splits it across two device calls.
#   [STEPS="fusion search fit bench"] sptrsv_train.sh OUTDIR
set -u
OUTDIR=$1
STEPS=${STEPS:-fusion search fit bench}
want() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
T="$HERE/bin/bench_sptrsv_train"
B="$HERE/bin/bench_sptrsv"
[ -x "$T" ] || { echo "no bench_sptrsv_train in the bundle"; exit 1; }
PM="$OUTDIR/perfmodels"
mkdir -p "$PM"
log="$OUTDIR/sptrsv_train.log"
step() { echo "== $*" | tee -a "$log" >&2; timeout "$1" "${@:2}" 2>&1 | tee -a "$log" || echo "== exit $? for ${*:2}" | tee -a "$log" >&2; }

want fusion && step 240 "$T" fusion --perfmodel-dir "$PM" --scales 18,20,22 --edge-factors 4,8,16
# Mixed corpus: PDE stencils (few entries per row, many or few levels), banded, R-MAT (power-law rows),
# with a few 2M-row ones: without them the model sent 4M-row triangles to schemes that win at 1M.
want search && for spec in lap2d:300 lap2d:1000 lap3d:40 lap3d:100 aniso2d:500:0.01:0.5 varcoef3d:50:1e4:7 \
            elast3d:30 banded:200000:10:0.5:1:spd rmat-spd:16:8 rmat-spd:18:16 anchor-lap2d:500 anchor-lap3d:60 \
            anchor-rmat:16:4 anchor-rmat:18:2 anchor-rmat:18:8 anchor-rmat:20:4 \
            lap3d:130 anchor-rmat:21:4 anchor-rmat:21:8; do
  step 45 "$T" search --generate "$spec" --budget 10 --perfmodel-dir "$PM"
done
want fit && step 120 "$T" fit --perfmodel-dir "$PM" --output "$OUTDIR/sptrsv_model.tsv"
# The anchors with auto in both modes (the model just fitted is found in the store).
if want bench && [ -x "$B" ]; then
  for spec in anchor-lap3d:100 anchor-rmat:18:8; do
    echo "== bench $spec" >&2
    timeout 150 "$B" --generate "$spec" --runs 10 --perfmodel-dir "$PM" >> "$OUTDIR/sptrsv_auto_bench.jsonl" || echo "== exit $?" >&2
  done
fi
ls -l "$PM/hetsparse_sptrsv"
