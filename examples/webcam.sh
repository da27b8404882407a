#!/usr/bin/env bash
# Live webcam denoising. Recommended: the exact bilateral filter with a small window —
# radius 2..3 (sigma 1..1.5) and sigma-r about twice the camera noise (20..30 for a
# typical webcam in indoor light).
# overlap=auto holds no frame for a live source, so the filter adds no latency. The
# camera's YUY2 goes in as it comes (add chroma=copy to filter luma only); the converter
# after the filter is there for sinks that cannot show YUY2.
#   bash examples/webcam.sh [/dev/video0] [filter properties]
set -eu
dev=${1:-/dev/video0}
shift || true
filter=${*:-"bilateral sigma=1.5 sigma-r=25 radius=3"}
gst-launch-1.0 v4l2src device="$dev" ! video/x-raw,format=YUY2 \
  ! $filter ! videoconvert ! autovideosink sync=false
