#!/usr/bin/env bash
# scripts/bootstrap.sh on a fresh machine: HOME an empty folder (no ~/.cache), HETSPARSE_CACHE unset,
# and one system package missing, so that bootstrap runs apt and writes its log. Shims for
# dpkg-query, apt-get and sudo record the calls instead of installing anything; StarPU comes from
# pkg-config (this build's own) and --no-build stops before hetsparse, so nothing is rebuilt.
#   bootstrap_fresh_home.sh REPO WORKDIR STARPU_PREFIX
set -euo pipefail
repo=$1 work=$2 starpu=$3
rm -rf "$work"
mkdir -p "$work/home" "$work/bin"
cat > "$work/bin/dpkg-query" <<'SH'
#!/bin/sh
# dpkg-query -W -f='${Status}' PACKAGE: every package installed but patchelf.
[ "$3" = patchelf ] && exit 1
printf 'install ok installed'
SH
printf '#!/bin/sh\necho "apt-get $*" >> "%s/apt-calls"\n' "$work" > "$work/bin/apt-get"
printf '#!/bin/sh\nexec "$@"\n' > "$work/bin/sudo"
chmod +x "$work/bin/"*
env -u HETSPARSE_CACHE HOME="$work/home" PATH="$work/bin:$PATH" PKG_CONFIG_PATH="$starpu/lib/pkgconfig" \
  bash "$repo/scripts/bootstrap.sh" --no-build
cache="$work/home/.cache/hetsparse"
grep -q "install .*patchelf" "$work/apt-calls" || { echo "FAIL: apt-get install patchelf was not run"; exit 1; }
[ -f "$cache/apt.log" ] || { echo "FAIL: no apt log in $cache"; exit 1; }
[ "$(cat "$cache/starpu-prefix")" = "$starpu" ] || { echo "FAIL: $cache/starpu-prefix does not name $starpu"; exit 1; }
echo "bootstrap in a fresh home: cache created, apt log in $cache/apt.log"
