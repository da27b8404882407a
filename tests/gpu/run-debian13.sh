#!/usr/bin/env bash
# On the GPU machine, from the checkout root, with .gpu-debian13 (tests/gpu/prepare-debian13.sh)
# carried: the element suites of the Debian 13 build against GStreamer 1.26, each program
# started through Debian 13's loader so that only Debian 13's libraries are used (the host's
# driver library, libcuda, still comes from the host). Suites: gpu-elements elements-cuda
# formats-cuda hostile-cuda (default: all). Exit status: the number of suites that failed.
set -u
rt="$(pwd)/.gpu-debian13"
[ -x "$rt/ld.so" ] || { echo "no $rt: run tests/gpu/prepare-debian13.sh where Debian's packages are" >&2; exit 2; }
suites=${*:-gpu-elements elements-cuda formats-cuda hostile-cuda}
export GST_PLUGIN_PATH="$rt/build/gst" GST_PLUGIN_SYSTEM_PATH_1_0="$rt/plugins" GST_PLUGIN_SYSTEM_PATH="$rt/plugins"
export GST_REGISTRY="${TMPDIR:-/tmp}/gst-registry-debian13.bin" GST_REGISTRY_FORK=no CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60}
run () { "$rt/ld.so" --library-path "$rt/lib" "$@"; }
echo "GStreamer $(cat "$rt/VERSION"): $(run "$rt/bin/gst-inspect-1.0" 2>&1 | grep -c '^cudasmooth:') elements of cudasmooth"
failed=0
for s in $suites; do
  start=$(date +%s)
  run "$rt/build/tests/gst/test-$s" > "${OUT:-.}/debian13-$s.log" 2>&1
  rc=$?
  case $rc in 0) r=OK ;; 77) r=SKIP ;; *) r=FAIL; failed=$((failed + 1)) ;; esac
  printf '%-5s %-16s %4d s  %s\n' $r "$s" $(( $(date +%s) - start )) "$(grep -E '[0-9]+%: Checks' "${OUT:-.}/debian13-$s.log" | tail -1)"
done
exit $failed
