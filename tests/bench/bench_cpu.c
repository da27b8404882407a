/* CPU path timing: one 1920x1080 photo through each filter on all cores, median of N runs, as
 * RGBA, as NV12 (luma, then U and V at 960x540: the element's two views) and as GRAY8.
 *   cs-bench-cpu photo.png [runs [threads]]   (threads: 0 or left out, one a core)
 * prints: bench filter=... path=cpu format=F size=1920x1080 params=... threads=N ms_median=...
 *         ms_min=... ns_per_sample=... (samples: 3 a pixel for RGBA, 1.5 for NV12, 1 for GRAY8)
 *         per_sample_vs_rgba=... (NV12 and GRAY8: their ns_per_sample over the RGBA line's
 *         just before, the same filter in the same run; each run times the three formats in
 *         turn, 1..63 runs)
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cs_cpu.h"
#include "cs_png.h"

static double now_ms (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

int main (int argc, char **argv)
{
  if (argc < 2) {
    fprintf (stderr, "usage: %s photo.png [runs [threads]]\n", argv[0]);
    return 2;
  }
  const int asked = argc > 2 ? atoi (argv[2]) : 7, runs = asked < 1 ? 1 : asked > 63 ? 63 : asked;
  CsImage photo = cs_png_load (argv[1]);
  if (!photo.width)
    return 1;
  CsImage src = cs_image_resize_by_mirroring (&photo, 1920, 1080), dst = src;
  dst.data = malloc ((size_t) src.stride * src.height);
  const int cores = (int) sysconf (_SC_NPROCESSORS_ONLN), asked_threads = argc > 3 ? atoi (argv[3]) : 0;
  const int threads = asked_threads > 0 ? asked_threads : cores;
  CsCpuWorkspace ws = { 0 };
  /* NV12 and GRAY8 planes from the photo: luma its green, chroma its red and blue at half size */
  const int w = src.width, h = src.height, cw = (w + 1) / 2, ch = (h + 1) / 2;
  uint8_t *luma = malloc ((size_t) w * h), *luma_out = malloc ((size_t) w * h);
  uint8_t *uv = malloc ((size_t) cw * ch * 2), *uv_out = malloc ((size_t) cw * ch * 2);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      luma[(size_t) y * w + x] = cs_image_pixel (&src, x, y)[1];
  for (int y = 0; y < ch; y++)
    for (int x = 0; x < cw; x++) {
      uv[2 * ((size_t) y * cw + x)] = cs_image_pixel (&src, 2 * x, 2 * y)[0];
      uv[2 * ((size_t) y * cw + x) + 1] = cs_image_pixel (&src, 2 * x, 2 * y)[2];
    }
  const CsChannels y_in = { w, h, 1, { luma }, { w }, 1 }, c_in = { cw, ch, 2, { uv, uv + 1 }, { 2 * cw, 2 * cw }, 2 };
  CsChannels y_out = { w, h, 1, { luma_out }, { w }, 1 }, c_out = { cw, ch, 2, { uv_out, uv_out + 1 }, { 2 * cw, 2 * cw }, 2 };
  const CsEdgeAwareParams e = cs_edgeaware_params_default (), e2 = cs_edgeaware_params_subsampled (&e, 2);
  const CsRecursiveParams rc = cs_recursive_params_default (), rc2 = cs_recursive_params_subsampled (&rc, 2);
  for (int f = 0; f < 4; f++) {   /* edgeawaregauss, bilateral exact, recursivegauss, bilateral separable */
    const int bl = f == 1 || f == 3;
    const char *name = f == 0 ? "edgeawaregauss" : bl ? "bilateral" : "recursivegauss";
    const char *params = f == 0 ? "sigma=20,sigma-r=40,iterations=2"
        : f == 1               ? "sigma=2,sigma-r=25,radius=4"
        : f == 3               ? "sigma=2,sigma-r=25,radius=4,mode=separable"
                               : "sigma=5";
    CsBilateralParams b = cs_bilateral_params_default ();
    b.radius = 4;
    b.mode = f == 3 ? CS_BILATERAL_SEPARABLE : CS_BILATERAL_EXACT;
    const CsBilateralParams b2 = cs_bilateral_params_subsampled (&b, 2);
    /* the formats in turn within each run, so that the machine's drift (other tenants, clocks)
     * falls on all three alike and their ratios compare like with like */
    double t[3][64];
    for (int r = 0; r <= runs && r < 64; r++)
      for (int format = 0; format < 3; format++) {
        const double t0 = now_ms ();
        int ret = 0;
        if (format == 0) {
          ret = f == 0 ? cs_cpu_edgeaware (&src, &dst, &e, threads, &ws)
              : bl ? cs_cpu_bilateral (&src, &dst, &b, threads, &ws) : cs_cpu_recursive (&src, &dst, &rc, threads, &ws);
        } else if (f != 1 && f != 3) {   /* a frame's views at once, as the elements run them */
          const CsChannels in[2] = { y_in, c_in };
          CsChannels out[2] = { y_out, c_out };
          const CsRecursiveParams rp[2] = { rc, rc2 };
          const CsEdgeAwareParams ep[2] = { e, e2 };
          ret = f == 0 ? cs_cpu_edgeaware_views (format == 1 ? 2 : 1, in, out, ep, ep, threads, &ws)
                       : cs_cpu_recursive_views (format == 1 ? 2 : 1, in, out, rp, rp, threads, &ws);
        } else {
          ret = cs_cpu_bilateral_channels (&y_in, &y_out, &b, &b, threads, &ws);
          if (format == 1 && ret == 0)
            ret = cs_cpu_bilateral_channels (&c_in, &c_out, &b2, &b2, threads, &ws);
        }
        if (ret != 0)
          return 1;
        t[format][r] = now_ms () - t0;   /* run 0 is the warm-up (page faults of the workspace) */
      }
    double rgba_ns = 0;
    for (int format = 0; format < 3; format++) {
      const char *format_name = format == 0 ? "RGBA" : format == 1 ? "NV12" : "GRAY8";
      qsort (t[format] + 1, runs, sizeof (double), cmp);
      const double median = t[format][1 + runs / 2];
      const double samples = (double) w * h * (format == 0 ? 3.0 : format == 1 ? 1.5 : 1.0);
      const double ns = median * 1e6 / samples;
      if (format == 0)
        rgba_ns = ns;
      printf ("bench filter=%s path=cpu format=%s size=1920x1080 params=%s threads=%d ms_median=%.2f ms_min=%.2f "
          "ns_per_sample=%.2f", name, format_name, params, threads, median, t[format][1], ns);
      if (format != 0)
        printf (" per_sample_vs_rgba=%.2f", ns / rgba_ns);
      printf ("\n");
    }
  }
  cs_cpu_workspace_clear (&ws);
  free (luma);
  free (luma_out);
  free (uv);
  free (uv_out);
  return 0;
}
