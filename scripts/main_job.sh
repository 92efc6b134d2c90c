#!/usr/bin/env bash
# Build everything (dependencies included, cached) and run the main job on the default example:
# a sparse Cholesky solve of a generated 3D Laplacian (50^3) over every CPU core and GPU, with the
# analysis summary, the time of each phase, GFLOP/s and the backward error.
#   scripts/main_job.sh [extra hetsparse cholesky options]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/bootstrap.sh"
exec "$ROOT/build/apps/hetsparse" cholesky --generate lap3d:50 "$@"
