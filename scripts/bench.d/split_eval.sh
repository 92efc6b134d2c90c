#!/usr/bin/env bash
# The split SpTRSV's calibration and evaluation inside a bundle on the GPU machine (issue 17):
#   train: every split and unified policy on the training corpus (generated triangles only), then
#          bench_sptrsv_split fit -> OUTDIR/split_model.tsv (commit it as data/split_model_<gpu>.tsv);
#   eval:  the same on the evaluation corpus (the real matrices of MATRICES, the six SpTRSV anchors,
#          generated triangles with other sizes and seeds than training's), then the report
#          (OUTDIR/split_report.md) with the model's decision of the run (auto = SPLIT_MODEL if set),
#          and OUTDIR/split_report_live.md with the live auto solver's (its measured tie-break included;
#          SPLIT_MEASURE=off|on[:...] sets it, default on).
# Rows land in OUTDIR/split_{train,eval}.tsv as each triangle is measured; a run cut short resumes
# (--skip-done) when started again. Scheduler: peager (the CPUs' level-scheduled parallel task needs
# combined workers); if a smoke run fails under it, dmdas (the level-scheduled CPU part then runs on
# one worker). DEADLINE (epoch seconds) stops the corpus loops in time for the report.
#   [MATRICES=dir] [SPLIT_MODEL=file] [DEADLINE=s] split_eval.sh OUTDIR train|eval|all
set -u
OUTDIR=$1
WHAT=${2:-all}
HERE=$(cd "$(dirname "$0")/.." && pwd)
B="$HERE/bin/bench_sptrsv_split"
[ -x "$B" ] || { echo "no bench_sptrsv_split in the bundle"; exit 1; }
MATRICES=${MATRICES:-$HERE/data}
DEADLINE=${DEADLINE:-$(( $(date +%s) + 3600 ))}
mkdir -p "$OUTDIR/perfmodels"
export STARPU_PERF_MODEL_DIR="$OUTDIR/perfmodels" STARPU_SILENT=1
log="$OUTDIR/split_eval.log"
model_args=(--split-measure "${SPLIT_MEASURE:-on}")  # auto's measured tie-break (off: the model alone)
[ -n "${SPLIT_MODEL:-}" ] && model_args+=(--split-model "$SPLIT_MODEL")

cat > "$OUTDIR/corpus_train.tsv" <<'EOF'
t_cb_1	levels:c1000+b100000x5:4:11
t_cb_2	levels:c5000+b300000x10:4:12
t_cb_3	levels:c20000+b300000x8:4:13
t_cb_4	levels:c300+b200000x20:4:14
t_cb_5	levels:c2000+b50000x50:4:15
t_bc_1	levels:b100000x5+c1000:4:16
t_bc_2	levels:b300000x10+c5000:4:17
t_bc_3	levels:b300000x8+c20000:4:18
t_bc_4	levels:b50000x50+c2000:4:19
t_cbc_1	levels:c2000+b200000x10+c2000:4:20
t_cbc_2	levels:c10000+b300000x20+c500:4:21
t_bcb_1	levels:b100000x10+c3000+b100000x10:4:22
t_w_1	levels:b400000x10:4:23
t_w_2	levels:b200000x200:4:24
t_w_3	levels:b100000x1000:4:25
t_w_4	levels:b600000x40:3:26
t_w_5	levels:b50000x5000:4:27
t_c_1	levels:c3000:2:28
t_c_2	levels:c50000:2:29
t_small_1	levels:c200+b5000x5:4:30
t_small_2	levels:b8000x20+c300:4:31
t_small_3	levels:b3000x30:4:32
t_rmat_1	anchor-rmat:14:4:5
t_rmat_2	anchor-rmat:16:8:5
t_rmat_3	anchor-rmat:18:4:5
t_rmat_4	anchor-rmat:19:4:5
t_rmatspd_1	rmat-spd:15:8:3
t_rmatspd_2	rmat-spd:17:16:3
t_lap2d_1	anchor-lap2d:300:3
t_lap2d_2	anchor-lap2d:700:3
t_lap3d_1	anchor-lap3d:40:3
t_lap3d_2	anchor-lap3d:80:3
t_lap3d_3	lap3d:50
t_lap2d_3	lap2d:500
t_aniso	aniso2d:300:0.01:0.5
t_varcoef	varcoef3d:40:1e4:3
t_elast	elast3d:25
t_banded_1	banded:100000:10:0.5:3:spd
t_banded_2	banded:20000:40:0.3:3
t_lap2d_small	lap2d:60
t_lap3d_small	lap3d:15
t_banded_small	banded:3000:8:0.5:4
EOF

{
  # The real matrices first (any .mtx or .mtx.gz in MATRICES), then the generated ones, the anchors last.
  for f in "$MATRICES"/*.mtx "$MATRICES"/*.mtx.gz; do
    [ -f "$f" ] || continue
    n=$(basename "$f"); n=${n%.gz}; n=${n%.mtx}
    printf '%s\t%s\n' "$n" "$f"
  done
  cat <<'EOF'
e_cb_1	levels:c3000+b200000x6:4:101
e_cb_2	levels:c10000+b600000x12:4:102
e_cb_3	levels:c500+b100000x30:4:103
e_bc_1	levels:b200000x6+c3000:4:104
e_bc_2	levels:b600000x12+c10000:4:105
e_cbc	levels:c5000+b300000x15+c1000:4:106
e_bcb	levels:b150000x8+c5000+b150000x8:4:107
e_w_1	levels:b300000x30:4:108
e_w_2	levels:b80000x2000:4:109
e_c	levels:c20000:2:110
e_small_1	levels:c500+b20000x4:4:111
e_small_2	levels:b20000x10+c800:4:112
e_rmat_1	anchor-rmat:15:8:9
e_rmat_2	anchor-rmat:17:4:9
e_rmatspd	rmat-spd:16:8:9
e_lap2d	anchor-lap2d:400:9
e_lap3d_1	anchor-lap3d:50:9
e_lap3d_2	lap3d:60
e_aniso	aniso2d:500:0.001:1.0
e_elast	elast3d:30
anchor-lap2d:1000	anchor-lap2d:1000
anchor-lap3d:100	anchor-lap3d:100
anchor-rmat:18:8	anchor-rmat:18:8
anchor-rmat:20:8	anchor-rmat:20:8
anchor-lap3d:160	anchor-lap3d:160
anchor-rmat:22:4	anchor-rmat:22:4
EOF
} > "$OUTDIR/corpus_eval.tsv"

SCHED=${SCHED:-}
if [ -z "$SCHED" ]; then  # peager with a CUDA worker: check it once on a small triangle
  printf 'smoke\tlevels:c300+b20000x4:4:1\n' > "$OUTDIR/corpus_smoke.tsv"
  rm -f "$OUTDIR/split_smoke.tsv"
  if timeout 60 "$B" run --corpus "$OUTDIR/corpus_smoke.tsv" --output "$OUTDIR/split_smoke.tsv" --sched peager \
       --budget 0.05 >> "$log" 2>&1 && grep -q "cpu-gpu at level" "$OUTDIR/split_smoke.tsv"; then
    SCHED=peager
  else
    SCHED=dmdas
  fi
  echo "== scheduler $SCHED" | tee -a "$log" >&2
fi

corpus() {  # corpus NAME: run the corpus (resuming) until done or the deadline
  local name=$1 tries=0
  while [ $tries -lt 4 ]; do
    local left=$(( DEADLINE - $(date +%s) ))
    [ $left -gt 20 ] || { echo "== deadline: $name stopped" | tee -a "$log" >&2; return; }
    echo "== $name ($left s left)" | tee -a "$log" >&2
    timeout "$left" "$B" run --corpus "$OUTDIR/corpus_$name.tsv" --matrix-dir "$MATRICES" --sched "$SCHED" \
      --output "$OUTDIR/split_$name.tsv" --skip-done --budget "${BUDGET:-0.3}" --max-runs "${MAX_RUNS:-100}" \
      "${model_args[@]}" >> "$log" 2>&1 && return
    echo "== exit $? in $name, resuming" | tee -a "$log" >&2
    tries=$((tries + 1))
  done
}

case "$WHAT" in train|all) corpus train ;; esac
case "$WHAT" in eval|all) corpus eval ;; esac
if [ -s "$OUTDIR/split_train.tsv" ]; then
  test_args=()
  [ -s "$OUTDIR/split_eval.tsv" ] && test_args=(--test "$OUTDIR/split_eval.tsv")
  "$B" fit --input "$OUTDIR/split_train.tsv" "${test_args[@]}" --output "$OUTDIR/split_model.tsv" \
    > "$OUTDIR/split_fit.txt" 2>&1
  cat "$OUTDIR/split_fit.txt"
fi
if [ -s "$OUTDIR/split_eval.tsv" ]; then
  "$B" report --input "$OUTDIR/split_eval.tsv" > "$OUTDIR/split_report.md" 2>&1
  "$B" report --input "$OUTDIR/split_eval.tsv" --decision live > "$OUTDIR/split_report_live.md" 2>&1
  [ -s "$OUTDIR/split_model.tsv" ] &&
    "$B" report --input "$OUTDIR/split_eval.tsv" --split-model "$OUTDIR/split_model.tsv" > "$OUTDIR/split_report_replayed.md" 2>&1
  head -12 "$OUTDIR/split_report.md"
  head -12 "$OUTDIR/split_report_live.md"
fi
