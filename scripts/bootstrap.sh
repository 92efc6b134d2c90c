#!/usr/bin/env bash
# Build hetsparse from nothing on Debian 12 / Ubuntu 24.04: system packages, StarPU 1.4 (CUDA when nvcc
# is found, FxT, 128 CPUs / 8 GPUs), then hetsparse itself. Idempotent; StarPU is cached in
# $HETSPARSE_CACHE (default ~/.cache/hetsparse) so a second run only rebuilds hetsparse.
#
#   scripts/bootstrap.sh [--no-apt] [--with-vite] [--starpu-tarball F] [--starpu-prefix DIR]
#                        [--build-dir DIR] [--build-type T] [--no-build]
# --with-vite also installs ViTE, Xvfb, ImageMagick and xdotool (scripts/vite_screenshot.sh).
# A user's own StarPU: --starpu-prefix DIR (an install with lib/pkgconfig/starpu-1.4.pc) or
# PKG_CONFIG_PATH already finding starpu-1.4; --starpu-tarball builds that tarball instead of Debian's.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${HETSPARSE_CACHE:-$HOME/.cache/hetsparse}
mkdir -p "$CACHE" || { echo "bootstrap: cannot create the cache folder $CACHE (set HETSPARSE_CACHE)" >&2; exit 1; }
STARPU_PIN=1.4.10+dfsg-2
APT=1 VITE=0 TARBALL="" USER_PREFIX="" BUILD_DIR="$ROOT/build" BUILD_TYPE=Release DO_BUILD=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-apt) APT=0 ;;
    --with-vite) VITE=1 ;;
    --starpu-tarball) TARBALL=$(realpath "$2"); shift ;;
    --starpu-prefix) USER_PREFIX=$(realpath "$2"); shift ;;
    --build-dir) BUILD_DIR=$2; shift ;;
    --build-type) BUILD_TYPE=$2; shift ;;
    --no-build) DO_BUILD=0 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "bootstrap: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
log() { printf '\033[1m[bootstrap]\033[0m %s\n' "$*"; }
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
NVCC=$(command -v nvcc || true); [ -n "$NVCC" ] || { [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc; } || true

# 1. System packages (skipped when all are present).
PKGS="build-essential cmake ninja-build pkg-config dpkg-dev libhwloc-dev libfxt-dev libopenblas-dev
liblapacke-dev libmetis-dev libgtest-dev zlib1g-dev libsuitesparse-dev python3-matplotlib patchelf xz-utils
clang libclang-rt-dev pybind11-dev python3-dev python3-numpy python3-scipy python3-pytest"  # clang + libFuzzer: scripts/fuzz.sh; pybind11 + Debian's Python: python/
[ "$VITE" = 1 ] && PKGS="$PKGS vite xvfb imagemagick xdotool"
if [ "$APT" = 1 ]; then
  missing=""
  for p in $PKGS; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"; done
  if [ -n "$missing" ]; then
    log "installing:$missing"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >"$CACHE/apt.log" 2>&1 || { tail -20 "$CACHE/apt.log"; exit 1; }
  fi
fi

# 2. StarPU 1.4 with CUDA + FxT.
starpu_found() { PKG_CONFIG_PATH="$1/lib/pkgconfig:${PKG_CONFIG_PATH:-}" pkg-config --exists starpu-1.4; }
if [ -n "$USER_PREFIX" ]; then
  STARPU_PREFIX=$USER_PREFIX
  starpu_found "$STARPU_PREFIX" || { echo "bootstrap: no starpu-1.4.pc under $USER_PREFIX/lib/pkgconfig" >&2; exit 1; }
elif [ -z "$TARBALL" ] && pkg-config --exists starpu-1.4 2>/dev/null; then
  STARPU_PREFIX=$(pkg-config --variable=prefix starpu-1.4)
  log "using the StarPU found by pkg-config in $STARPU_PREFIX"
else
  flavour=cpu; [ -n "$NVCC" ] && flavour=cuda
  # The suffix names the set of hetsparse patches (build_starpu.sh): a new set rebuilds once.
  STARPU_PREFIX="$CACHE/starpu-$flavour-p2"
  if [ -f "$STARPU_PREFIX/.built" ]; then
    log "StarPU cached in $STARPU_PREFIX"
  else
    "$ROOT/scripts/build_starpu.sh" "$CACHE" "$STARPU_PREFIX" "$STARPU_PIN" "$TARBALL" "$NVCC"
  fi
fi
echo "$STARPU_PREFIX" > "$CACHE/starpu-prefix"

# 3. hetsparse.
[ "$DO_BUILD" = 1 ] || exit 0
log "configuring hetsparse in $BUILD_DIR (StarPU: $STARPU_PREFIX)"
cmake_args=(-S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DCMAKE_PREFIX_PATH="$STARPU_PREFIX")
[ -n "$NVCC" ] && cmake_args+=(-DCMAKE_CUDA_COMPILER="$NVCC")
# The Python module and its tests use the distribution's interpreter (numpy, scipy, pytest from apt),
# not whatever python3 comes first on PATH (a pyenv one may lack them).
[ -x /usr/bin/python3 ] && cmake_args+=(-DPython3_EXECUTABLE=/usr/bin/python3)
PKG_CONFIG_PATH="$STARPU_PREFIX/lib/pkgconfig:${PKG_CONFIG_PATH:-}" cmake "${cmake_args[@]}" >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
log "built: $BUILD_DIR/apps/hetsparse"
