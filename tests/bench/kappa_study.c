/* The edge-aware paper's study (its Fig. 6), reproduced on the double references: MSE of
 * the block-approximated filter against Algorithm A as κ goes from 0 to 3, for Algorithm D
 * (every 24-sample block a boundary block: the paper's worst case) and Algorithm C (16
 * blocks per stripe), at the paper's (σ, σr) pairs, on real photos. CPU only.
 *   cs-kappa-study out.csv photo.png...
 * CSV: photo,sigma,sigma_r,algorithm,kappa,mse_8bit,psnr_8bit,max_8bit,mse_float
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>

#include "cs_metrics.h"
#include "cs_png.h"
#include "cs_reference.h"

static const double pairs[][2] = { { 5, 20 }, { 50, 50 }, { 200, 150 } };
#define N_PAIRS 3
#define N_KAPPA 13   /* 0, 0.25, ..., 3 */

typedef struct {
  const char *path;
  int pair;
  char *lines;   /* CSV lines this job produced */
} Job;

static int run_job (void *arg)
{
  Job *j = arg;
  CsImage src = cs_png_load (j->path);
  if (!src.width)
    return 1;
  const size_t n = (size_t) src.width * src.height;
  double *a = malloc (n * 3 * sizeof (double)), *c = malloc (n * 3 * sizeof (double));
  CsImage qa = src, qc = src;
  qa.data = malloc ((size_t) src.stride * src.height);
  qc.data = malloc ((size_t) src.stride * src.height);
  CsEdgeAwareParams p = cs_edgeaware_params_default ();
  p.sigma = pairs[j->pair][0];
  p.sigma_r = pairs[j->pair][1];
  p.blocks_per_stripe = 1;
  cs_ref_edgeaware_rgb (&src, &p, 0, a);
  cs_image_copy (&src, &qa);
  cs_image_from_double (a, &qa);
  const char *name = strrchr (j->path, '/') ? strrchr (j->path, '/') + 1 : j->path;
  size_t cap = 1 << 16, len = 0;
  j->lines = malloc (cap);
  j->lines[0] = 0;
  for (int alg = 0; alg < 2; alg++)
    for (int k = 0; k < N_KAPPA; k++) {
      p.kappa = 0.25 * k;
      p.blocks_per_stripe = alg == 0 ? 16 : 1;
      cs_ref_edgeaware_rgb (&src, &p, alg == 0 ? 0 : 24, c);
      cs_image_copy (&src, &qc);
      cs_image_from_double (c, &qc);
      const CsErrorStats q = cs_compare_images (&qa, &qc);
      const CsErrorStats f = cs_compare_rgb (a, c, n);
      len += (size_t) snprintf (j->lines + len, cap - len, "%s,%g,%g,%s,%.2f,%.6g,%.3f,%.0f,%.6g\n", name,
          p.sigma, p.sigma_r, alg == 0 ? "C16" : "D24", p.kappa, q.mse, q.psnr, q.max_abs, f.mse);
    }
  free (a);
  free (c);
  free (qa.data);
  free (qc.data);
  free (src.data);
  return 0;
}

int main (int argc, char **argv)
{
  if (argc < 3) {
    fprintf (stderr, "usage: %s out.csv photo.png...\n", argv[0]);
    return 2;
  }
  const int n_jobs = (argc - 2) * N_PAIRS;
  Job *jobs = calloc (n_jobs, sizeof (Job));
  thrd_t *threads = calloc (n_jobs, sizeof (thrd_t));
  const long cores = sysconf (_SC_NPROCESSORS_ONLN);
  for (int i = 0; i < n_jobs; i++) {
    jobs[i].path = argv[2 + i / N_PAIRS];
    jobs[i].pair = i % N_PAIRS;
  }
  /* waves of `cores` threads */
  for (int base = 0; base < n_jobs; base += (int) cores) {
    const int end = base + (int) cores < n_jobs ? base + (int) cores : n_jobs;
    for (int i = base; i < end; i++)
      thrd_create (&threads[i], run_job, &jobs[i]);
    for (int i = base; i < end; i++)
      thrd_join (threads[i], NULL);
  }
  FILE *out = fopen (argv[1], "w");
  fprintf (out, "photo,sigma,sigma_r,algorithm,kappa,mse_8bit,psnr_8bit,max_8bit,mse_float\n");
  for (int i = 0; i < n_jobs; i++)
    if (jobs[i].lines)
      fputs (jobs[i].lines, out);
  fclose (out);
  return 0;
}
