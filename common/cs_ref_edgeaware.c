/* Edge-aware Gaussian, double-precision reference: Algorithms A, C and D.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Ferreira, Gastal, Schnorr, Navaux, "Performance and error analysis of recursive
 * edge-aware Gaussian filters on GPUs" (eq. 1-4, Algorithms A-C), with the corrections
 * listed in docs/algorithms.md: real γ, α1 = −0.6803 − 0.2598i, the anticausal recursion on g⁻,
 * spacings from the input frame for every pass, σ_i not halved per 1-D pass.
 */
#include "cs_reference.h"
#include "cs_coeffs.h"

#include "cs_cmplx.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  double complex a, b, inv_r0, r1, causal_init, anticausal_init;
  double log_abs_b, arg_b;
} Pole;

static void poles_for_sigma (double sigma, Pole poles[2])
{
  CsDericheCoeffs c;
  cs_deriche_coeffs (sigma, &c);
  for (int i = 0; i < 2; i++) {
    poles[i].a = CMPLX (c.a[i].re, c.a[i].im);
    poles[i].b = CMPLX (c.b[i].re, c.b[i].im);
    poles[i].inv_r0 = CMPLX (c.inv_r0[i].re, c.inv_r0[i].im);
    poles[i].r1 = CMPLX (c.r1[i].re, c.r1[i].im);
    poles[i].causal_init = CMPLX (c.causal_init[i].re, c.causal_init[i].im);
    poles[i].anticausal_init = CMPLX (c.anticausal_init[i].re, c.anticausal_init[i].im);
    poles[i].log_abs_b = c.b_log_abs[i];
    poles[i].arg_b = c.b_arg[i];
  }
}

/* b^δ by the polar form |b|^δ (cos δθ + i sin δθ), θ = atan2(Im b, Re b). */
static double complex pole_power (const Pole *p, double delta)
{
  const double m = exp (delta * p->log_abs_b);
  return CMPLX (m * cos (delta * p->arg_b), m * sin (delta * p->arg_b));
}

/* One step of eq. (4) for one pole, from sample `from` to sample `to` at spacing δ:
 *   causal (from = k−1, to = k):  g = a f[k] + b^δ g + Φ(k−1, k; δ)
 *   anticausal (from = k+1, to = k): g = a b^δ f[k+1] + b^δ g + Φ(k+1, k; δ)
 *   Φ(j, k; δ) = ((b^δ−1)/(r0 δ) − r1 b) f[k] − ((b^δ−1)/(r0 δ) − r1 b^δ) f[j]. */
static void pole_step (const Pole *p, double delta, int causal, int nc, const double *f_from,
    const double *f_to, double complex g[3])
{
  const double complex bd = pole_power (p, delta);
  const double complex x = (bd - 1.0) * p->inv_r0 / delta;
  const double complex phi_to = x - p->r1 * p->b;
  const double complex phi_from = x - p->r1 * bd;
  const double complex gain_in = causal ? p->a : p->a * bd;
  for (int c = 0; c < nc; c++) {
    const double f_in = causal ? f_to[c] : f_from[c];
    g[c] = gain_in * f_in + bd * g[c] + phi_to * f_to[c] - phi_from * f_from[c];
  }
}

/* Filters one line of n RGB samples f (dt[k] = spacing between k−1 and k, dt[0] unused)
 * into out, cut into `segments` segments, each warmed up over `warmup` transformed units. */
static void filter_line (const double *f, const double *dt, int n, int nc, const Pole poles[2],
    double warmup, int segments, double *out)
{
  for (int j = 0; j < segments; j++) {
    int st, en;
    cs_segment_bounds (n, segments, j, &st, &en);
    if (en <= st)
      continue;

    /* Causal: start at the largest s <= st with Σ_{k=s+1..st} Δt_k >= warm-up, else 0,
     * treating the samples before s as equal to f[s] (the border rule applied at s). */
    int s = st;
    double acc = 0.0;
    while (s > 0 && acc < warmup)
      acc += dt[s--];
    for (int k = st; k < en; k++)
      for (int c = 0; c < nc; c++)
        out[nc * k + c] = 0.0;
    {
      double complex g[2][3];
      for (int i = 0; i < 2; i++)
        for (int c = 0; c < nc; c++)
          g[i][c] = poles[i].causal_init * f[nc * s + c];
      for (int k = s; k < en; k++) {
        if (k > s)
          for (int i = 0; i < 2; i++)
            pole_step (&poles[i], dt[k], 1, nc, &f[nc * (k - 1)], &f[nc * k], g[i]);
        if (k >= st)
          for (int c = 0; c < nc; c++)
            out[nc * k + c] += creal (g[0][c] + g[1][c]);
      }
    }

    /* Anticausal: mirror image, from the smallest e >= en−1 with Σ_{k=en..e} Δt_k >=
     * warm-up, else n−1, treating the samples after e as equal to f[e]. */
    int e = en - 1;
    acc = 0.0;
    while (e < n - 1 && acc < warmup)
      acc += dt[++e];
    {
      double complex g[2][3];
      for (int i = 0; i < 2; i++)
        for (int c = 0; c < nc; c++)
          g[i][c] = poles[i].anticausal_init * f[nc * e + c];
      for (int k = e; k >= st; k--) {
        if (k < e)
          for (int i = 0; i < 2; i++)
            pole_step (&poles[i], dt[k + 1], 0, nc, &f[nc * (k + 1)], &f[nc * k], g[i]);
        if (k < en)
          for (int c = 0; c < nc; c++)
            out[nc * k + c] += creal (g[0][c] + g[1][c]);
      }
    }
  }
}

/* Δt between pixel a and pixel b of the input frame, eq. (2) with the total σs. */
static double spacing (const double *a, const double *b, int nc, double ratio2)
{
  double d2 = 0.0;
  for (int c = 0; c < nc; c++)
    d2 += (a[c] - b[c]) * (a[c] - b[c]);
  return sqrt (1.0 + ratio2 * d2);
}

static int segments_for (int n, const CsEdgeAwareParams *p, int segment_length)
{
  if (segment_length > 0)
    return (n + segment_length - 1) / segment_length;
  return p->blocks_per_stripe > 0 ? p->blocks_per_stripe : 1;
}

/* Filters the width*height*nc interleaved values in cur in place: horizontal passes with px,
 * vertical ones with py (docs/algorithms.md, "Formats"). */
static int edgeaware_values (double *cur, int w, int h, int nc, const CsEdgeAwareParams *px,
    const CsEdgeAwareParams *py, int segment_length)
{
  const int n_max = w > h ? w : h;
  const size_t npix = (size_t) w * h;
  double *frame = malloc (npix * nc * sizeof (double));
  double *dt_h = malloc (npix * sizeof (double));
  double *dt_v = malloc (npix * sizeof (double));
  double *line_f = malloc ((size_t) n_max * nc * sizeof (double));
  double *line_dt = malloc ((size_t) n_max * sizeof (double));
  double *line_out = malloc ((size_t) n_max * nc * sizeof (double));
  const double ratio2_h = (px->sigma / px->sigma_r) * (px->sigma / px->sigma_r);
  const double ratio2_v = (py->sigma / py->sigma_r) * (py->sigma / py->sigma_r);
  int ok = frame && dt_h && dt_v && line_f && line_dt && line_out;

  if (!ok)
    goto out;
  memcpy (frame, cur, npix * nc * sizeof (double));
  /* The spacings come from the input frame and serve every iteration (docs/algorithms.md). */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const double *v = &frame[nc * ((size_t) y * w + x)];
      dt_h[(size_t) y * w + x] = x == 0 ? 1.0 : spacing (v, v - nc, nc, ratio2_h);
      dt_v[(size_t) y * w + x] = y == 0 ? 1.0 : spacing (v, v - (size_t) nc * w, nc, ratio2_v);
    }

  for (int it = 1; it <= px->iterations && !(cs_edgeaware_is_identity (px) && cs_edgeaware_is_identity (py)); it++) {
    const double sigma_h = cs_edgeaware_iteration_sigma (px, it), sigma_v = cs_edgeaware_iteration_sigma (py, it);
    Pole poles_h[2], poles_v[2];
    poles_for_sigma (sigma_h, poles_h);
    poles_for_sigma (sigma_v, poles_v);

    const int seg_h = segments_for (w, px, segment_length);
    for (int y = 0; y < h; y++) {
      double *row = &cur[(size_t) y * w * nc];
      filter_line (row, &dt_h[(size_t) y * w], w, nc, poles_h, px->kappa * sigma_h, seg_h, line_out);
      memcpy (row, line_out, (size_t) w * nc * sizeof (double));
    }
    const int seg_v = segments_for (h, py, segment_length);
    for (int x = 0; x < w; x++) {
      for (int y = 0; y < h; y++) {
        memcpy (&line_f[(size_t) nc * y], &cur[nc * ((size_t) y * w + x)], nc * sizeof (double));
        line_dt[y] = dt_v[(size_t) y * w + x];
      }
      filter_line (line_f, line_dt, h, nc, poles_v, py->kappa * sigma_v, seg_v, line_out);
      for (int y = 0; y < h; y++)
        memcpy (&cur[nc * ((size_t) y * w + x)], &line_out[(size_t) nc * y], nc * sizeof (double));
    }
  }
out:
  free (frame);
  free (dt_h);
  free (dt_v);
  free (line_f);
  free (line_dt);
  free (line_out);
  return ok ? 0 : -1;
}

int cs_ref_edgeaware_rgb (const CsImage *src, const CsEdgeAwareParams *p, int segment_length,
    double *rgb_out)
{
  cs_image_to_double (src, rgb_out);
  return edgeaware_values (rgb_out, src->width, src->height, 3, p, p, segment_length);
}

int cs_ref_edgeaware_channels (const CsChannels *src, CsChannels *dst, const CsEdgeAwareParams *p, int sx, int sy)
{
  const CsEdgeAwareParams px = cs_edgeaware_params_subsampled (p, sx);
  const CsEdgeAwareParams py = cs_edgeaware_params_subsampled (p, sy);
  double *v = malloc ((size_t) src->width * src->height * src->channels * sizeof (double));
  if (!v)
    return -1;
  cs_channels_to_double (src, v);
  if (edgeaware_values (v, src->width, src->height, src->channels, &px, &py, 0) != 0) {
    free (v);
    return -1;
  }
  cs_channels_from_double (v, dst);
  free (v);
  return 0;
}

int cs_ref_edgeaware (const CsImage *src, CsImage *dst, const CsEdgeAwareParams *p)
{
  CsChannels out = cs_channels_of_image (dst);
  const CsChannels in = cs_channels_of_image (src);
  if (dst != src)
    cs_image_copy_alpha (src, dst);
  return cs_ref_edgeaware_channels (&in, &out, p, 1, 1);
}
