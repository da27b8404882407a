#!/usr/bin/env bash
# Filters a video file and shows it: bash examples/file.sh movie.mp4 [filter properties]
set -eu
file=${1:?video file}
shift
filter=${*:-"recursivegauss sigma=4"}
# decodebin's YUV (I420, NV12) goes in as it comes; the output converter is for the sink
gst-launch-1.0 filesrc location="$file" ! decodebin ! $filter ! videoconvert ! autovideosink
