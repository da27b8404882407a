/* CPU path timing: one 1920x1080 photo through each filter on all cores, median of N runs.
 *   cs-bench-cpu photo.png [runs]
 * prints: bench filter=... path=cpu size=1920x1080 params=... threads=N ms_median=... ms_min=...
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
    fprintf (stderr, "usage: %s photo.png [runs]\n", argv[0]);
    return 2;
  }
  const int runs = argc > 2 ? atoi (argv[2]) : 7;
  CsImage photo = cs_png_load (argv[1]);
  if (!photo.width)
    return 1;
  CsImage src = cs_image_resize_by_mirroring (&photo, 1920, 1080), dst = src;
  dst.data = malloc ((size_t) src.stride * src.height);
  const int threads = (int) sysconf (_SC_NPROCESSORS_ONLN);
  CsCpuWorkspace ws = { 0 };
  for (int f = 0; f < 3; f++) {
    double t[64];
    const char *name = f == 0 ? "edgeawaregauss" : f == 1 ? "bilateral" : "recursivegauss";
    const char *params = f == 0 ? "sigma=20,sigma-r=40,iterations=2" : f == 1 ? "sigma=2,sigma-r=25,radius=4" : "sigma=5";
    for (int r = 0; r <= runs && r < 64; r++) {
      const double t0 = now_ms ();
      if (f == 0) {
        CsEdgeAwareParams p = cs_edgeaware_params_default ();
        cs_cpu_edgeaware (&src, &dst, &p, threads, &ws);
      } else if (f == 1) {
        CsBilateralParams p = cs_bilateral_params_default ();
        cs_cpu_bilateral (&src, &dst, &p, threads, &ws);
      } else {
        CsRecursiveParams p = cs_recursive_params_default ();
        cs_cpu_recursive (&src, &dst, &p, threads, &ws);
      }
      t[r] = now_ms () - t0;   /* run 0 is the warm-up (page faults of the workspace) */
    }
    qsort (t + 1, runs, sizeof (double), cmp);
    printf ("bench filter=%s path=cpu size=1920x1080 params=%s threads=%d ms_median=%.1f ms_min=%.1f\n",
        name, params, threads, t[1 + runs / 2], t[1]);
  }
  cs_cpu_workspace_clear (&ws);
  return 0;
}
