#!/usr/bin/env bash
# GStreamer 1.26 on the GPU machine: the Debian 13 build of .ci/debian13.sh (CUDA kernels
# for one architecture, 90 unless CUDA_ARCH says otherwise) and the shared libraries it and
# the test pipelines load, Debian 13's C library and loader included, in ./.gpu-debian13/ of
# this checkout. The GPU machine's own C library is never mixed in: tests/gpu/run-debian13.sh
# starts each program through the packed loader. Needs root (chroot) and Debian's packages.
#   sudo tests/gpu/prepare-debian13.sh [ROOT_DIR]     # here
#   bash tests/gpu/run-debian13.sh [SUITE...]         # there, with .gpu-debian13 carried
set -euo pipefail
top=$(git rev-parse --show-toplevel)
root=${1:-/tmp/cudasmooth-trixie}
dest="$top/.gpu-debian13"
grep -qx '/.gpu-debian13/' "$top/.git/info/exclude" 2>/dev/null || echo '/.gpu-debian13/' >>"$top/.git/info/exclude"
[ -f "$root/.complete" ] || { echo "no Debian 13 root at $root: run .ci/debian13.sh first" >&2; exit 1; }
mounts=()
cleanup () { for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
bind () { mkdir -p "$root$2"; mountpoint -q "$root$2" || { mount --bind "$1" "$root$2"; mounts+=("$root$2"); }; }
mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc"; mounts+=("$root/proc"); }
bind /dev /dev
bind "$top" "$top"   # the same path inside: the tests find their data files by absolute path
bind "$(readlink -f /usr/local/cuda)" /usr/local/cuda
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" /bin/bash -euo pipefail -c "
export DEBIAN_FRONTEND=noninteractive PATH=/usr/local/cuda/bin:\$PATH
# x264enc makes the H.264 clip of the decode test
dpkg -s gstreamer1.0-plugins-ugly >/dev/null 2>&1 || apt-get install -y -qq --no-install-recommends gstreamer1.0-plugins-ugly >/dev/null
cd "$top"
grep -qs "$top/" /tmp/build-gpu-trixie/build.ninja || rm -rf /tmp/build-gpu-trixie   # made from another checkout
[ -d /tmp/build-gpu-trixie ] || meson setup /tmp/build-gpu-trixie --werror -Dbuildtype=release -Dcuda-architectures=${CUDA_ARCH:-90} >/dev/null
ninja -C /tmp/build-gpu-trixie >/dev/null
rm -rf /tmp/pack && mkdir -p /tmp/pack/lib /tmp/pack/plugins /tmp/pack/bin /tmp/pack/build/gst /tmp/pack/build/tests/gst
P=/usr/lib/x86_64-linux-gnu/gstreamer-1.0
objs=''
for p in coreelements app videotestsrc videoconvertscale nvcodec videoparsersbad isomp4 x264 png pnm; do
  cp -L \$P/libgst\$p.so /tmp/pack/plugins/ && objs=\"\$objs \$P/libgst\$p.so\"
done
cp /tmp/build-gpu-trixie/gst/libgstcudasmooth.so /tmp/pack/build/gst/
for t in test-gpu-elements test-elements-cuda test-formats-cuda test-hostile-cuda; do
  cp /tmp/build-gpu-trixie/tests/gst/\$t /tmp/pack/build/tests/gst/; objs=\"\$objs /tmp/build-gpu-trixie/tests/gst/\$t\"
done
cp /usr/bin/gst-launch-1.0 /usr/bin/gst-inspect-1.0 /tmp/pack/bin/
for o in \$objs /tmp/build-gpu-trixie/gst/libgstcudasmooth.so /usr/bin/gst-launch-1.0; do ldd \$o | awk '/=> \\//{print \$3}'; done |
  sort -u | while read l; do cp -L \$l /tmp/pack/lib/; done
cp -L /lib64/ld-linux-x86-64.so.2 /tmp/pack/ld.so
pkg-config --modversion gstreamer-1.0 > /tmp/pack/VERSION
"
rm -rf "$dest"
cp -a "$root/tmp/pack" "$dest"
echo "GStreamer $(cat "$dest/VERSION") for the GPU machine in $dest: $(du -sh "$dest" | cut -f1)"
