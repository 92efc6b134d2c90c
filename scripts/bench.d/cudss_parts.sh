#!/usr/bin/env bash
# Prepares cuDSS for bench_cholesky on the GPU machine (docs/cudss.md): downloads the
# nvidia-cudss-cu13 wheel into $HETSPARSE_CACHE/cudss (default ~/.cache/hetsparse/cudss) and unpacks
# it there (bench/CMakeLists.txt finds cudss.h in it at the next configure), keeps only one GPU
# architecture's machine code (scripts/cudss_prune.py: 167 MB -> 17 MB under xz for sm_90, so one
# upload carries it beside the ~17 MB bundle), and writes OUTDIR/libcudss.so.1.xz (split into
# <= 36 MiB parts PART.NN with --all-archs, for chained uploads) and OUTDIR/README.
#   cudss_parts.sh [OUTDIR (default .device/cudss)] [--arch 90 | --all-archs]
# Never commit the wheel or the library (NVIDIA's license); OUTDIR belongs in an ignored folder.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUTDIR=$ROOT/.device/cudss ARCH=90
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) ARCH=$2; shift ;;
    --all-archs) ARCH= ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) OUTDIR=$1 ;;
  esac
  shift
done
VERSION=1.0.0.35
CACHE=${HETSPARSE_CACHE:-$HOME/.cache/hetsparse}/cudss
mkdir -p "$CACHE" "$OUTDIR"
wheel=$(ls "$CACHE"/nvidia_cudss_cu13-$VERSION-*.whl 2>/dev/null | head -1 || true)
if [ -z "$wheel" ]; then
  python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_17_x86_64 -d "$CACHE" "nvidia-cudss-cu13==$VERSION"
  wheel=$(ls "$CACHE"/nvidia_cudss_cu13-$VERSION-*.whl | head -1)
fi
[ -f "$CACHE/wheel/nvidia/cu13/include/cudss.h" ] || (mkdir -p "$CACHE/wheel" && cd "$CACHE/wheel" && unzip -qo "$wheel")
lib=$CACHE/wheel/nvidia/cu13/lib/libcudss.so.1
rm -f "$OUTDIR"/libcudss.so.1.xz "$OUTDIR"/PART.*
if [ -n "$ARCH" ]; then
  python3 "$ROOT/scripts/cudss_prune.py" "$lib" "$CACHE/libcudss.so.1.sm$ARCH" --arch "$ARCH"
  lib=$CACHE/libcudss.so.1.sm$ARCH
fi
xz -T0 -6 -c "$lib" > "$OUTDIR/libcudss.so.1.xz"
size=$(stat -c %s "$OUTDIR/libcudss.so.1.xz")
if [ "$size" -gt $((45 << 20)) ]; then  # too big for one upload beside the bundle: parts
  (cd "$OUTDIR" && split -b 36M -d libcudss.so.1.xz PART. && rm libcudss.so.1.xz)
fi
sha=$(sha256sum "$lib" | cut -d' ' -f1)
what="all GPU architectures"; [ -n "$ARCH" ] && what="sm_$ARCH only (scripts/cudss_prune.py)"
cat > "$OUTDIR/README" <<TXT
cuDSS $VERSION (nvidia-cudss-cu13 wheel), $what; sha256 of libcudss.so.1: $sha
Made by scripts/bench.d/cudss_parts.sh. On the GPU machine (carry this folder), docs/cudss.md:
  mkdir -p /tmp/cudss && cat $(cd "$OUTDIR" && ls libcudss.so.1.xz PART.* 2>/dev/null | sed "s|^|\$DIR/|" | tr '\n' ' ')| xz -d > /tmp/cudss/libcudss.so.1
  export HETSPARSE_CUDSS_LIB=/tmp/cudss LD_LIBRARY_PATH=\$LD_LIBRARY_PATH:/usr/local/cuda/lib64   # then bench_cholesky reports cuDSS
TXT
ls -la "$OUTDIR"
