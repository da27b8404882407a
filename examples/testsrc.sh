#!/usr/bin/env bash
# Each filter on a test pattern, in system memory and (when the GPU and the nvcodec
# plugin are there) in CUDA memory. GST_PLUGIN_PATH must include the build's gst/ folder.
set -eu
sink=${SINK:-autovideosink}
for f in "edgeawaregauss sigma=20 sigma-r=40" "bilateral sigma=2 sigma-r=25" "recursivegauss sigma=8"; do
  gst-launch-1.0 videotestsrc pattern=ball num-buffers=150 ! video/x-raw,format=RGBA,width=1280,height=720 \
    ! $f ! videoconvert ! $sink
  # CUDA memory end to end: no host round trip inside the filter
  gst-launch-1.0 videotestsrc pattern=ball num-buffers=150 ! video/x-raw,format=RGBA,width=1280,height=720 \
    ! cudaupload ! $f backend=cuda ! cudadownload ! videoconvert ! $sink || true
done
