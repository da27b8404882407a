/* cs-bench-kernels: the filters' kernel times on device-resident RGBA8 frames, against the
 * floors they are measured by. Not part of the test suite.
 *
 *   cs-bench-kernels [--image photo.png] [--runs N] [--only edgeaware|bilateral|recursive|
 *                    sweep|pass-sweep|pass-sweep-edgeaware|formats|architectures] [--profile]
 *
 * Prints one machine-readable line per measurement:
 *   bench filter=... path=device size=WxH params=... ms_median=... ms_min=... ms_batch=...
 *   ms_queued=... queued_uncovered=... host_us=... floor_ms=... floor=... ratio=...
 * (bench.cuh says how each figure is timed; ratio= is ms_queued over the floor), the
 * machine's ceilings, and measured floors: `floor two_pass_copy` (the data movement of a
 * rows-then-columns pass pair), `floor edgeaware_no_warmup` (the edge-aware passes at κ 0)
 * and floor_on_chip_ms on the exact packed-half bilateral lines (the tile kernel without
 * loads or stores). `kernels_arch=` is the architecture the kernels were compiled for: a
 * PTX-only build (e.g. compute_75) runs, and times, that architecture's paths on this GPU.
 * --profile: one launch per case, no warm-up (for ncu -k ... --launch-skip/--launch-count).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstring>

#include "cases.cuh"
#include "probes.cuh"

extern "C" {
#include "cs_png.h"
}

int main (int argc, char **argv)
{
  Bench b;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--image") && i + 1 < argc) {
      b.photo = cs_png_load (argv[++i]);
      if (!b.photo.width) {
        fprintf (stderr, "cannot read %s\n", argv[i]);
        return 1;
      }
    } else if (!strcmp (argv[i], "--runs") && i + 1 < argc) {
      b.runs = std::max (50, atoi (argv[++i]));
    } else if (!strcmp (argv[i], "--profile")) {
      b.runs = 1;
      b.warmups = 0;
      b.profile = true;
    } else if (!strcmp (argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else {
      fprintf (stderr, "usage: %s [--image photo.png] [--runs N>=50] [--only edgeaware|bilateral|recursive|sweep|"
          "pass-sweep|pass-sweep-edgeaware|formats|architectures] [--profile]\n", argv[0]);
      return 2;
    }
  }
  int n = 0;
  if (cudaGetDeviceCount (&n) != cudaSuccess || n == 0) {
    printf ("SKIP: no CUDA device\n");
    return 77;
  }
  CHECK (cs_cuda_device_query (&b.dev));
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  b.bw_gbs = measure_bandwidth_gbs ();
  b.fma_rate = measure_fma_rate (b);
  b.ex2_rate = measure_ex2_rate (b);
  printf ("device name=\"%s\" cc=%d.%d kernels_arch=%d sms=%d l2_mb=%.0f bandwidth_gbs=%.0f fp32_ginst=%.0f "
          "ex2_ginst=%.0f input=%s\n",
      prop.name, b.dev.cc_major, b.dev.cc_minor, kernels_arch (), b.dev.sm_count, b.dev.l2_bytes / 1048576.0, b.bw_gbs,
      b.fma_rate / 1e9, b.ex2_rate / 1e9, b.photo.width ? "photo" : "synthetic");
  const Result empty = time_one_launch (b, 0), copy_hd = time_one_launch (b, (size_t) 1920 * 1080 * 4),
               copy_4k = time_one_launch (b, (size_t) 3840 * 2160 * 4);
  printf ("launch empty_kernel_ms=%.4f copy_1080p_ms=%.4f copy_4k_ms=%.4f (one launch as the benchmark times it; "
          "copy = an RGBA frame read and written, 8 B/px, inputs rotated as for the filters) "
          "batch: empty_kernel_ms=%.4f copy_1080p_ms=%.4f copy_4k_ms=%.4f (per launch, queued back to back) "
          "queued: empty_kernel_ms=%.4f copy_1080p_ms=%.4f copy_4k_ms=%.4f (alone, queued behind a hold; uncovered %d/%d/%d)\n",
      empty.median, copy_hd.median, copy_4k.median, empty.batch, copy_hd.batch, copy_4k.batch, empty.queued,
      copy_hd.queued, copy_4k.queued, empty.queued_uncovered, copy_hd.queued_uncovered, copy_4k.queued_uncovered);
  const Result chain_hd = time_two_pass_copy (b, 1920, 1080), chain_4k = time_two_pass_copy (b, 3840, 2160);
  printf ("floor two_pass_copy_1080p_ms=%.4f two_pass_copy_4k_ms=%.4f (ms_queued; batch %.4f / %.4f: an RGBA frame to a "
          "half4 plane and back, two launches, 24 B/px: the data movement of any rows-then-columns pass pair with an fp16 "
          "plane between; 24 B/px at the device bandwidth %.4f / %.4f)\n",
      chain_hd.queued, chain_4k.queued, chain_hd.batch, chain_4k.batch, 24.0 * 1920 * 1080 / (b.bw_gbs * 1e6),
      24.0 * 3840 * 2160 / (b.bw_gbs * 1e6));
  if (!only || !strcmp (only, "recursive"))
    bench_recursive (b);
  if (!only || !strcmp (only, "bilateral"))
    bench_bilateral (b);
  if (!only || !strcmp (only, "edgeaware"))
    bench_edgeaware (b);
  if (!only || !strcmp (only, "sweep"))
    bench_sweep (b);
  if (!only || !strcmp (only, "formats"))
    bench_formats (b);
  if (!only || !strcmp (only, "architectures"))
    bench_architectures (b);
  if (only && (!strcmp (only, "pass-sweep") || !strcmp (only, "pass-sweep-edgeaware")))
    bench_pass_sweep (b, !strcmp (only, "pass-sweep-edgeaware"));
  return 0;
}
