# Source on the GPU machine from the checkout root:  source tests/gpu/env.sh [BUILD_DIR]
# Puts the GStreamer runtime of tests/gpu/prepare-runtime.sh (.gpu/) first on the library and
# plugin paths and, when BUILD_DIR is given, adds every folder of it holding a built plugin.
_g="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.gpu/root"
export LD_LIBRARY_PATH="$_g/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GST_PLUGIN_SYSTEM_PATH="$_g/usr/lib/x86_64-linux-gnu/gstreamer-1.0"
export GST_PLUGIN_SCANNER="$_g/usr/lib/x86_64-linux-gnu/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner"
export GST_REGISTRY="${TMPDIR:-/tmp}/gst-registry-gpu.bin"
export PATH="$_g/usr/bin:$PATH"
if [ -n "${1:-}" ]; then
  _p=$(find "$(cd "$1" && pwd)" -name 'libgst*.so' -printf '%h\n' 2>/dev/null | sort -u | paste -sd:)
  export GST_PLUGIN_PATH="$_p${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
fi
unset _g _p
