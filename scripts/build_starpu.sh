#!/usr/bin/env bash
# Build StarPU 1.4 into PREFIX: from a tarball if one is given, else from Debian's source package
# (pinned version first, then any 1.4.x that apt offers). Applies the CUDA 13 fix (cudaDeviceProp lost
# computeMode). Usage: build_starpu.sh CACHE PREFIX PIN [TARBALL] [NVCC]
set -euo pipefail
CACHE=$1 PREFIX=$2 PIN=$3 TARBALL=${4:-} NVCC=${5:-}
SRC="$CACHE/src"; mkdir -p "$SRC"
log() { printf '\033[1m[starpu]\033[0m %s\n' "$*"; }
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo

if [ -z "$TARBALL" ]; then
  TARBALL=$(ls "$SRC"/starpu_1.4.*.orig.tar.* 2>/dev/null | head -n1 || true)
fi
if [ -z "$TARBALL" ]; then
  # Debian bookworm has only 1.3; the 1.4 source package lives in sid.
  if ! apt-cache showsrc starpu 2>/dev/null | grep -q '^Version: 1\.4'; then
    log "adding a deb-src entry for sid (source packages only)"
    # Ubuntu has no Debian archive key by default; the package is in its archive.
    [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || \
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq debian-archive-keyring >/dev/null
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: sid\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      | $SUDO tee /etc/apt/sources.list.d/hetsparse-starpu-src.sources >/dev/null
    $SUDO apt-get update -qq
  fi
  cd "$SRC"
  if ! apt-get source --download-only "starpu=$PIN" >/dev/null 2>&1; then
    for v in $(apt-cache showsrc starpu | awk '/^Version: 1\.4/{print $2}' | sort -rV); do
      log "pinned $PIN unavailable, trying $v"
      apt-get source --download-only "starpu=$v" >/dev/null 2>&1 && break
    done
  fi
  TARBALL=$(ls "$SRC"/starpu_1.4.*.orig.tar.* 2>/dev/null | head -n1 || true)
  [ -n "$TARBALL" ] || { echo "build_starpu: no StarPU 1.4 source found; pass --starpu-tarball" >&2; exit 1; }
fi
log "building $(basename "$TARBALL") into $PREFIX"
WORK="$CACHE/build-starpu"; rm -rf "$WORK"; mkdir -p "$WORK"
tar -xf "$TARBALL" -C "$WORK" --strip-components=1
cd "$WORK"
# CUDA 13 removed cudaDeviceProp::computeMode: read the attribute instead.
if grep -q 'computeMode == cudaComputeModeExclusive' src/drivers/cuda/driver_cuda.c; then
  python3 - <<'PY'
import re
p = "src/drivers/cuda/driver_cuda.c"
s = open(p).read()
s = re.sub(r"props\[([a-z_]+)\]\.computeMode == cudaComputeModeExclusive",
           r"hetsparse_compute_mode(\1) == cudaComputeModeExclusive", s)
helper = ("static int hetsparse_compute_mode(int dev)\n{\n\tint mode = 0;\n"
          "\tcudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev);\n\treturn mode;\n}\n\n")
first_fn = s.find("\nstatic ")
s = s[:first_fn + 1] + helper + s[first_fn + 1:]
open(p, "w").write(s)
PY
fi
# starpu_fxt_tool overflows a stack buffer (eaten > size makes the snprintf size wrap) on tasks with
# many data handles, e.g. supernodal updates batching dozens of descendants: stop at the buffer end.
python3 - <<'PY'
import re
p = "src/debug/traces/starpu_fxt.c"
s = open(p).read()
s = re.sub(r"(\s)eaten \+= snprintf\((\w+) \+ eaten, sizeof\(\2\) - eaten - 1,",
           r"\1if (eaten + 1 >= sizeof(\2)) break;\1eaten += snprintf(\2 + eaten, sizeof(\2) - eaten - 1,", s)
open(p, "w").write(s)
PY
cuda_flags=(--disable-cuda)
if [ -n "$NVCC" ]; then
  cuda_dir=$(dirname "$(dirname "$(readlink -f "$NVCC")")")
  cuda_flags=(--enable-cuda --with-cuda-dir="$cuda_dir")
fi
./configure --prefix="$PREFIX" "${cuda_flags[@]}" --with-fxt --enable-maxcpus=128 --enable-maxcudadev=8 \
  --disable-opencl --disable-hip --disable-mpi --disable-build-doc --disable-build-examples \
  --disable-build-tests --disable-socl --disable-starpufft --disable-fortran --disable-openmp \
  --disable-valgrind --disable-starpupy > "$CACHE/starpu-configure.log" 2>&1 || { tail -30 "$CACHE/starpu-configure.log"; exit 1; }
make -j"$(nproc)" > "$CACHE/starpu-make.log" 2>&1 || { tail -40 "$CACHE/starpu-make.log"; exit 1; }
make install > "$CACHE/starpu-install.log" 2>&1
touch "$PREFIX/.built"
log "StarPU installed in $PREFIX"
