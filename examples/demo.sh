#!/usr/bin/env bash
# Sets up gst-cudasmooth on a fresh Debian 12 / Ubuntu machine and runs all three filters
# on a bundled photo: before|after images side by side (compositor) in ./out/demo/.
#   bash examples/demo.sh [photo.ppm|photo.png] [build-dir]
# Installs the build dependencies with apt-get (via sudo when not root) only if missing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
photo=${1:-$top/tests/data/coffee_301x203.ppm}
build=${2:-$top/build}
out=$top/out/demo
[ -d /usr/local/cuda/bin ] && export PATH=/usr/local/cuda/bin:$PATH

pkgs="meson ninja-build pkg-config gcc libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev check libpng-dev gstreamer1.0-tools gstreamer1.0-plugins-base
  gstreamer1.0-plugins-good gstreamer1.0-plugins-bad"
missing=$(for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

[ -f "$build/build.ninja" ] || meson setup "$build" "$top"
ninja -C "$build"
export GST_PLUGIN_PATH="$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
mkdir -p "$out"

case "$photo" in
  *.png) decode="pngdec" ;;
  *) decode="pnmdec" ;;
esac
# the input's width, to place the filtered copy beside it
case "$photo" in
  *.png) width=$(od -An -tu1 -j16 -N4 "$photo" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}') ;;
  *) width=$(head -c 64 "$photo" | tr '\n' ' ' | awk '{print $2}') ;;
esac

for filter in "edgeawaregauss sigma=20 sigma-r=30" "bilateral sigma=2 sigma-r=25" "recursivegauss sigma=5"; do
  name=${filter%% *}
  pipeline="filesrc location=$photo ! $decode ! videoconvert ! video/x-raw,format=RGBA ! tee name=t \
 ! queue ! compositor name=c sink_1::xpos=$width ! videoconvert ! pngenc ! filesink location=$out/$name.png \
 t. ! queue ! $filter ! c."
  echo "gst-launch-1.0 $pipeline"
  gst-launch-1.0 -q $pipeline
  echo "  -> $out/$name.png (left: input, right: $name)"
done
