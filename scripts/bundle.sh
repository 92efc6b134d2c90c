#!/usr/bin/env bash
# Make a self-contained folder for a GPU machine without a package manager (Ubuntu 24.04 + CUDA 13
# runtime): bin/ (hetsparse, GPU tests, StarPU tools), lib/ (every non-CUDA, non-libc shared library
# they need, stripped), data/ (matrices named on the command line), run_gpu.sh. RPATHs are relative,
# so the folder runs from anywhere. Keep it under 64 MiB.
#   scripts/bundle.sh [--build-dir build] [--out bundle] [--archive FILE.tar.xz] [matrix.mtx ...]
# --archive also packs the folder (xz, about 6x smaller: what the device tool carries).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD="$ROOT/build" OUT="$ROOT/bundle"
MATRICES=() ARCHIVE=
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) BUILD=$(realpath "$2"); shift ;;
    --out) OUT=$2; shift ;;
    --archive) ARCHIVE=$2; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) MATRICES+=("$1") ;;
  esac
  shift
done
command -v patchelf >/dev/null || { echo "bundle: needs patchelf (apt-get install patchelf)" >&2; exit 1; }
STARPU_PREFIX=$(cat "${HETSPARSE_CACHE:-$HOME/.cache/hetsparse}/starpu-prefix")
rm -rf "$OUT"; mkdir -p "$OUT/bin" "$OUT/lib" "$OUT/data"

programs=("$BUILD/apps/hetsparse")
for t in "$BUILD"/tests/*/test_* "$BUILD"/bench/bench_*; do
  [ -x "$t" ] && [ -f "$t" ] && programs+=("$t")
done
for tool in starpu_fxt_tool starpu_machine_display starpu_perfmodel_display starpu_calibrate_bus; do
  [ -x "$STARPU_PREFIX/bin/$tool" ] && programs+=("$STARPU_PREFIX/bin/$tool")
done
for p in "${programs[@]}"; do cp "$p" "$OUT/bin/"; done

# Shared libraries: everything ldd resolves except libc's family and the CUDA toolkit (the target has it).
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libgcc_s|libstdc\+\+|libcuda|libcudart|libcublas|libcusparse|libcusolver|libnvJitLink|libcurand|libcufft|libnvrtc)'
for f in "$OUT"/bin/*; do
  ldd "$f" 2>/dev/null | awk '/=> \//{print $1" "$3}'
done | sort -u | while read -r name path; do
  [[ "$name" =~ $skip ]] && continue
  [ -f "$OUT/lib/$name" ] || cp -L "$path" "$OUT/lib/$name"
done
for f in "$OUT"/bin/* "$OUT"/lib/*; do
  chmod u+w "$f"
  strip --strip-unneeded "$f" 2>/dev/null || true
done
for f in "$OUT"/bin/*; do patchelf --set-rpath '$ORIGIN/../lib' "$f" 2>/dev/null || true; done
for f in "$OUT"/lib/*; do patchelf --set-rpath '$ORIGIN' "$f" 2>/dev/null || true; done

for m in "${MATRICES[@]}"; do cp "$m" "$OUT/data/"; done
mkdir -p "$OUT/share/hetsparse"  # the trained models, found from bin/ as in an install
cp "$ROOT"/data/*.tsv "$OUT/share/hetsparse/" 2>/dev/null || true
cp "$ROOT/scripts/run_gpu.sh" "$OUT/run_gpu.sh"
cp "$ROOT/scripts/openblas_env.sh" "$OUT/openblas_env.sh"
cp -r "$ROOT/tests/fuzz/corpus" "$OUT/data/fuzz-corpus"  # test_bad_input_starpu replays it
mkdir -p "$OUT/bench.d"
cp "$ROOT"/scripts/bench.d/*.sh "$OUT/bench.d/"
chmod +x "$OUT/run_gpu.sh" "$OUT"/bench.d/*.sh
echo "bundle: $OUT ($(du -sh "$OUT" | cut -f1)): $(ls "$OUT/bin" | wc -l) programs, $(ls "$OUT/lib" | wc -l) libraries"
if [ -n "$ARCHIVE" ]; then
  mkdir -p "$(dirname "$ARCHIVE")"
  tar -C "$OUT" -cf - . | xz -T2 -6 > "$ARCHIVE"
  echo "bundle: packed into $ARCHIVE ($(du -sh "$ARCHIVE" | cut -f1))"
fi
