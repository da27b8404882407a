#!/usr/bin/env bash
# One build-check-measure cycle on a GPU machine (docs/gpu-testing.md):
#   source tests/gpu/env.sh BUILD && bash tests/gpu/gpu-host-check.sh BUILD [STEPS]
# STEPS (default: tests memcheck racecheck initcheck synccheck leaks bench-kernels bench-pipeline):
#   tests           every suite of BUILD
#   other-archs     the GPU suites of each build in $OTHER_BUILDS (PTX-only builds such as
#                   -Dcuda-architectures=-gencode=arch=compute_75,code=compute_75: the driver
#                   compiles that PTX for this GPU, so the older architectures' paths run here)
#   memcheck racecheck initcheck synccheck leaks   compute-sanitizer over the GPU suites (the
#                   formats suite's CUDA-memory case and the kernels' channel views: the
#                   whole formats suite takes ~100 s unwrapped)
#   bench-kernels   cs-bench-kernels (and, per build in $OTHER_BUILDS, its recursive cases:
#                   what the fallback paths cost here)
#   bench-ab        $BASE_BENCH (another build's cs-bench-kernels) and BUILD's, alternately,
#                   twice each, on the filters' cases, compared (tests/bench/compare_bench.py)
#   bench-pipeline  cs-bench-pipeline, and with two GPUs the aggregate of both
#   quality         cs-quality on the photos in .testdata
# A photo for the benchmarks: .testdata/photo.png when there is one (else a synthetic scene).
# Logs go to $OUT (or ./gpu-out); the last lines of each step are printed.
set -u
build=${1:?build dir}
steps=${2:-"tests memcheck racecheck initcheck synccheck leaks bench-kernels bench-pipeline"}
out=${OUT:-gpu-out}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
py=$(command -v python3)
run_tests="$py $here/run-tests.py"
image=""
[ -f .testdata/photo.png ] && image="--image .testdata/photo.png"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader | tee "$out/device.txt"
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
for step in $steps; do
  start=$(date +%s)
  case $step in
    tests)
      timeout 420 $run_tests "$build" > "$out/tests.log" 2>&1 ;;
    other-archs)
      for b in ${OTHER_BUILDS:-}; do
        echo "=== $b" && (source "$here/env.sh" "$b" && timeout 300 $run_tests "$b" --suite gpu --suite cuda)
      done > "$out/other-archs.log" 2>&1 ;;
    memcheck)
      # --report-api-errors no: gpu-elements asks, on purpose, for a frame no card holds and
      # checks the element error; the failing cudaMalloc would count as a sanitizer error.
      # Memory access errors are still reported; every CUDA call's result is checked in code.
      { CK_TIMEOUT_MULTIPLIER=4 timeout 300 $run_tests "$build" --name gpu-kernels --name elements-cuda \
          --name hostile-cuda --name gpu-elements --timeout-multiplier 4 \
          --wrap "compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 3"
        CK_RUN_CASE=cuda-memory CK_DEFAULT_TIMEOUT=600 timeout 200 compute-sanitizer --tool memcheck \
          --report-api-errors no --error-exitcode 3 "$build/tests/gst/test-formats-cuda"; } > "$out/sanitizer.log" 2>&1 ;;
    racecheck)
      { CK_TIMEOUT_MULTIPLIER=8 timeout 330 $run_tests "$build" --name gpu-kernels --timeout-multiplier 8 \
          --wrap "compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 3"; } >> "$out/sanitizer.log" 2>&1 ;;
    initcheck)
      # reads of device memory that nothing wrote: scratch planes, tables, margins
      { CK_TIMEOUT_MULTIPLIER=8 timeout 300 $run_tests "$build" --name gpu-kernels --name elements-cuda \
          --name hostile-cuda --name gpu-elements --timeout-multiplier 8 \
          --wrap "compute-sanitizer --tool initcheck --error-exitcode 3"
        CK_RUN_CASE=channels CK_DEFAULT_TIMEOUT=600 timeout 150 compute-sanitizer --tool initcheck --error-exitcode 3 \
          "$build/tests/test-gpu-kernels"; } >> "$out/sanitizer.log" 2>&1 ;;
    synccheck)
      { CK_TIMEOUT_MULTIPLIER=8 timeout 200 $run_tests "$build" --name gpu-kernels --timeout-multiplier 8 \
          --wrap "compute-sanitizer --tool synccheck --error-exitcode 3"; } >> "$out/sanitizer.log" 2>&1 ;;
    leaks)
      { CK_TIMEOUT_MULTIPLIER=4 timeout 200 $run_tests "$build" --name states --name gpu-elements --timeout-multiplier 4 \
          --wrap "compute-sanitizer --tool memcheck --leak-check full --report-api-errors no --error-exitcode 3"; } >> "$out/sanitizer.log" 2>&1 ;;
    bench-kernels)
      { timeout 240 "$build/tests/bench/cs-bench-kernels" $image
        for b in ${OTHER_BUILDS:-}; do
          echo "=== $b"
          timeout 120 "$b/tests/bench/cs-bench-kernels" $image --only recursive
        done; } > "$out/bench-kernels.log" 2>&1 ;;
    bench-ab)
      for round in 1 2; do
        for only in recursive bilateral edgeaware; do
          timeout 120 "${BASE_BENCH:?set BASE_BENCH to the cs-bench-kernels of the other build}" $image --only $only
        done > "$out/ab-base-$round.log" 2>&1
        for only in recursive bilateral edgeaware; do
          timeout 120 "$build/tests/bench/cs-bench-kernels" $image --only $only
        done > "$out/ab-new-$round.log" 2>&1
      done
      $py tests/bench/compare_bench.py "$out/ab-base-1.log" "$out/ab-new-1.log" "$out/ab-base-2.log" \
          "$out/ab-new-2.log" > "$out/ab.txt" 2>&1 ;;
    bench-pipeline)
      { timeout 200 "$build/tests/bench/cs-bench-pipeline"
        if [ "$gpus" -ge 2 ]; then timeout 200 "$build/tests/bench/cs-bench-pipeline" --devices 2 --frames 600; fi
      } > "$out/bench-pipeline.log" 2>&1 ;;
    quality)
      mkdir -p /tmp/noisy
      { timeout 280 "$build/tests/bench/cs-quality" .testdata /tmp/noisy;
        timeout 60 $py tests/bench/denoise_opencv.py .testdata /tmp/noisy; } > "$out/quality.log" 2>&1 ;;
  esac
  echo "== $step: exit $? in $(( $(date +%s) - start )) s"
done
for f in "$out"/*.log "$out"/*.txt; do
  [ -f "$f" ] || continue
  echo "--- $f"
  grep -E "passed|FAIL|ERROR SUMMARY|LEAK SUMMARY|Checks:|^bench|^floor|^sweep-summary|^summary|^===|identical=NO|kernels_arch" "$f" | tail -40
done
