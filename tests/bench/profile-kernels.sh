#!/usr/bin/env bash
# Nsight Compute profiles of the timed kernels (GPU host): where each one's time goes.
#   bash tests/bench/profile-kernels.sh BUILD OUTDIR
# One launch per case (cs-bench-kernels --profile); sections: throughput against the
# machine's peaks, occupancy, warp stall reasons, memory traffic.
set -u
b=${1:?build dir}/tests/bench/cs-bench-kernels
o=${2:?out dir}
mkdir -p "$o"
sec="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section LaunchStats --section SchedulerStats"
photo=.testdata/mate_twowings.png
prof () {   # name, kernel regex, skip, count, bench args...
  local name=$1 k=$2 skip=$3 count=$4; shift 4
  timeout 120 ncu $sec -k "regex:$k" --launch-skip "$skip" --launch-count "$count" "$b" --profile --image $photo "$@" > "$o/ncu-$name.txt" 2>&1
  echo "== ncu $name: exit $?"
}
# recursivegauss 4K σ=5 (deriche): launches per σ: rows+cols; σ 0.5, 2 come first at 1080p.
prof recursive 'sweep' 0 24 --only recursive
prof bilateral 'bilateral_' 0 40 --only bilateral
prof edgeaware 'sweep' 0 28 --only edgeaware
