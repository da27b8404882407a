#!/usr/bin/env bash
# One build-check-measure cycle on the GPU host (see ../shared/gpu/README.md):
#   source .gpu/env.sh BUILD && bash tests/gpu/gpu-host-check.sh BUILD [STEPS]
# STEPS (default all but quality): tests memcheck racecheck initcheck synccheck leaks bench-kernels
#   bench-pipeline quality
# Logs go to $OUT (or ./gpu-out); the last lines of each step are printed.
set -u
build=${1:?build dir}
steps=${2:-"tests memcheck racecheck initcheck synccheck leaks bench-kernels bench-pipeline"}
out=${OUT:-gpu-out}
mkdir -p "$out"
py=$(command -v python3)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader | tee "$out/device.txt"
photo=.testdata/mate_twowings.png
for step in $steps; do
  start=$(date +%s)
  case $step in
    tests)
      timeout 300 $py .gpu/run-tests.py "$build" > "$out/tests.log" 2>&1 ;;
    memcheck)
      # --report-api-errors no: gpu-elements asks, on purpose, for a frame no card holds and
      # checks the element error; the failing cudaMalloc would count as a sanitizer error.
      # Memory access errors are still reported; every CUDA call's result is checked in code.
      { CK_TIMEOUT_MULTIPLIER=4 timeout 240 $py .gpu/run-tests.py "$build" --suite gpu --timeout-multiplier 4 \
          --wrap "compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 3"; } > "$out/sanitizer.log" 2>&1 ;;
    racecheck)
      { CK_TIMEOUT_MULTIPLIER=8 timeout 330 $py .gpu/run-tests.py "$build" --name gpu-kernels --timeout-multiplier 8 \
          --wrap "compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 3"; } >> "$out/sanitizer.log" 2>&1 ;;
    initcheck)
      # reads of device memory that nothing wrote: scratch planes, tables, margins (outputs
      # are poisoned by the tests, so a kernel reading its output before writing it shows
      # there as a mismatch, not here)
      { CK_TIMEOUT_MULTIPLIER=8 timeout 300 $py .gpu/run-tests.py "$build" --suite gpu --timeout-multiplier 8 \
          --wrap "compute-sanitizer --tool initcheck --error-exitcode 3"; } >> "$out/sanitizer.log" 2>&1 ;;
    synccheck)
      { CK_TIMEOUT_MULTIPLIER=8 timeout 200 $py .gpu/run-tests.py "$build" --name gpu-kernels --timeout-multiplier 8 \
          --wrap "compute-sanitizer --tool synccheck --error-exitcode 3"; } >> "$out/sanitizer.log" 2>&1 ;;
    leaks)
      { CK_TIMEOUT_MULTIPLIER=4 timeout 150 $py .gpu/run-tests.py "$build" --name states --name gpu-elements --timeout-multiplier 4 \
          --wrap "compute-sanitizer --tool memcheck --leak-check full --report-api-errors no --error-exitcode 3"; } >> "$out/sanitizer.log" 2>&1 ;;
    bench-kernels)
      timeout 200 "$build/tests/bench/cs-bench-kernels" --image "$photo" > "$out/bench-kernels.log" 2>&1 ;;
    bench-pipeline)
      timeout 150 "$build/tests/bench/cs-bench-pipeline" > "$out/bench-pipeline.log" 2>&1 ;;
    quality)
      mkdir -p /tmp/noisy
      { timeout 280 "$build/tests/bench/cs-quality" .testdata /tmp/noisy;
        timeout 60 $py tests/bench/denoise_opencv.py .testdata /tmp/noisy; } > "$out/quality.log" 2>&1 ;;
  esac
  echo "== $step: exit $? in $(( $(date +%s) - start )) s"
done
for f in "$out"/*.log; do echo "--- $f"; grep -E "passed|FAIL|ERROR SUMMARY|LEAK SUMMARY|Checks:|^bench|^floor|^sweep-summary|identical=NO" "$f" | tail -40; done
