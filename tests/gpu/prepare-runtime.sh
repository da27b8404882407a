#!/usr/bin/env bash
# An offline GStreamer 1.22 runtime (Debian 12's packages, unpacked, not installed) in
# ./.gpu/ of this checkout, for a GPU machine that has CUDA but neither GStreamer nor a
# network (docs/gpu-testing.md). Run it here, where Debian's packages can be downloaded;
# carry .gpu to the GPU machine with the build folder, and there:
#   source tests/gpu/env.sh BUILD_DIR     # GStreamer's paths and the build's plugin
#   python3 tests/gpu/run-tests.py BUILD_DIR
# Idempotent: delete .gpu to pick up a newer package list.
set -euo pipefail
top=$(git rev-parse --show-toplevel)
dest="$top/.gpu"
grep -qx '/.gpu/' "$top/.git/info/exclude" 2>/dev/null || echo '/.gpu/' >>"$top/.git/info/exclude"
if [ -f "$dest/.complete" ]; then echo "ok: $dest already prepared"; exit 0; fi
rm -rf "$dest"; mkdir -p "$dest/debs" "$dest/root"
# GStreamer core, base, good, bad (nvcodec: cudaupload, cudadownload, nvh264dec), ugly
# (x264enc), the tools and gstcheck, and the libraries they load
pkgs="libgstreamer1.0-0 libgstreamer-plugins-base1.0-0 gstreamer1.0-plugins-base gstreamer1.0-tools
libgstreamer-plugins-bad1.0-0 gstreamer1.0-plugins-bad libgstreamer-gl1.0-0
libglib2.0-0 liborc-0.4-0 libunwind8 libdw1 libelf1 libcap2 libpcre2-8-0 libffi8 libmount1 libblkid1
libselinux1 zlib1g libzstd1 liblzma5 libbz2-1.0 libdrm2 libegl1 libgbm1 libgl1 libgudev-1.0-0
libwayland-client0 libwayland-cursor0 libwayland-egl1 libwayland-server0 libx11-6 libx11-xcb1 libxcb1
libglvnd0 libglx0 libxau6 libxdmcp6 libbsd0 libmd0 libudev1 libexpat1 libxcb-randr0 libgraphene-1.0-0
libpng16-16 libjpeg62-turbo libxext6 libxcb-xfixes0 libxshmfence1 libxcb-dri3-0 libxcb-present0 libxcb-sync1
libsubunit0 gstreamer1.0-plugins-good gstreamer1.0-plugins-ugly libx264-164"
(cd "$dest/debs" && apt-get download $pkgs >/dev/null 2>&1) ||
  { apt-get update >/dev/null && (cd "$dest/debs" && apt-get download $pkgs >/dev/null); }
for f in "$dest"/debs/*.deb; do dpkg -x "$f" "$dest/root"; done
rm -rf "$dest/debs" "$dest"/root/usr/share/{doc,locale,man,lintian,bug,gstreamer-1.0} "$dest/root/etc"
# only the plugins a test or benchmark pipeline uses
keep=" coreelements coretracers app videotestsrc videoconvertscale videorate typefindfunctions pbtypes nvcodec "
keep+=" gaudieffects videofiltersbad debugutilsbad pnm rawparse legacyrawparse y4mdec videoparsersbad isomp4 png "
keep+=" matroska x264 "
for f in "$dest"/root/usr/lib/x86_64-linux-gnu/gstreamer-1.0/*.so; do
  n=$(basename "$f" .so); n=${n#libgst}
  case "$keep" in *" $n "*) ;; *) rm -f "$f";; esac
done
touch "$dest/.complete"
du -sh "$dest"
