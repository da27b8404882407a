#!/usr/bin/env bash
# Filters a video file and shows it: bash examples/file.sh movie.mp4 [filter properties]
set -eu
file=${1:?video file}
shift
filter=${*:-"recursivegauss sigma=4"}
gst-launch-1.0 filesrc location="$file" ! decodebin ! videoconvert ! video/x-raw,format=BGRx \
  ! $filter ! videoconvert ! autovideosink
