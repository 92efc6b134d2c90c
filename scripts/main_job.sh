#!/usr/bin/env bash
# Build everything (dependencies included, cached) and run the main job on the default example:
# SpMV on a generated 3D Laplacian over every CPU core and GPU, checked against the reference.
#   scripts/main_job.sh [extra hetsparse spmv options]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/bootstrap.sh"
exec "$ROOT/build/apps/hetsparse" spmv --generate lap3d:100 --iterations 50 "$@"
