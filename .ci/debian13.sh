#!/usr/bin/env bash
# The second CI job: the whole project, CUDA kernels included (one architecture), built
# without warnings against Debian 13's GStreamer 1.26 in a debootstrap root, and its CPU
# test suites run there. Needs root. Usage: .ci/debian13.sh [ROOT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
root=${1:-/tmp/cudasmooth-trixie}
if [ ! -f "$root/.complete" ]; then
  rm -rf "$root"
  debootstrap --variant=minbase trixie "$root" http://deb.debian.org/debian >/dev/null
  touch "$root/.complete"
fi
mounts=()
cleanup () {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind () {   # bind SRC DEST (inside the root)
  mkdir -p "$root$2"
  mount --bind "$1" "$root$2"
  mounts+=("$root$2")
}
mount -t proc proc "$root/proc" && mounts+=("$root/proc")
bind /dev /dev
bind "$src" /src
[ -d /usr/local/cuda ] && bind "$(readlink -f /usr/local/cuda)" /usr/local/cuda
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" /bin/bash -euo pipefail -c '
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends meson ninja-build pkg-config gcc g++ libgstreamer1.0-dev \
  libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev check libpng-dev gstreamer1.0-tools \
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad >/dev/null
echo "GStreamer $(pkg-config --modversion gstreamer-1.0), $(gcc --version | head -1)"
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH && nvcc --version | tail -1
cd /src
rm -rf /tmp/build-trixie
meson setup /tmp/build-trixie --werror -Dcuda-architectures=90 >/dev/null
ninja -C /tmp/build-trixie
meson test -C /tmp/build-trixie --print-errorlogs --suite common --suite gst --suite cuda
'
