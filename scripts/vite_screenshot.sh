#!/usr/bin/env bash
# Render a Paje trace in ViTE under a virtual X server and save a PNG screenshot.
#   scripts/vite_screenshot.sh TRACE.paje OUT.png [WIDTHxHEIGHT] [T0:T1 (ms interval to show)]
# Needs Debian's vite, xvfb, imagemagick and xdotool (scripts/bootstrap.sh installs them).
set -euo pipefail
TRACE=$(realpath "${1:?usage: vite_screenshot.sh TRACE OUT.png [WxH]}")
PNG=${2:?usage: vite_screenshot.sh TRACE OUT.png [WxH]}
SIZE=${3:-1600x900}
INTERVAL=${4:-}
for t in vite Xvfb import xdotool; do command -v $t >/dev/null || { echo "vite_screenshot: '$t' missing (apt-get install vite xvfb imagemagick xdotool)" >&2; exit 1; }; done
DISPLAY_NUM=$((90 + RANDOM % 100))
Xvfb ":$DISPLAY_NUM" -screen 0 "${SIZE}x24" >/dev/null 2>&1 &
XPID=$!
trap 'kill $VPID $XPID 2>/dev/null || true' EXIT
export DISPLAY=":$DISPLAY_NUM"
sleep 1
vite ${INTERVAL:+-t "$INTERVAL"} "$TRACE" >/dev/null 2>&1 &
VPID=$!
# ViTE parses the trace then draws; wait until its window has content (bounded).
for _ in $(seq 1 60); do
  sleep 1
  kill -0 $VPID 2>/dev/null || { echo "vite_screenshot: vite exited early" >&2; exit 1; }
  if wids=$(xdotool search --onlyvisible --name "ViTE" 2>/dev/null) && [ -n "$wids" ]; then
    for wid in $wids; do xdotool windowmove "$wid" 0 0 windowsize "$wid" "${SIZE%x*}" "${SIZE#*x}" 2>/dev/null || true; done
    sleep 4
    break
  fi
done
import -window root "$PNG"
echo "vite_screenshot: $PNG"
