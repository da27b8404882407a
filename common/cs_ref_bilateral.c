/* Bilateral filter, double-precision reference (exact and separable).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Tomasi & Manduchi 1998: out(p) = Σ_q w(p,q) I(q) / Σ_q w(p,q) over the (2r+1)² window,
 * w = exp(−|p−q|²/(2σs²)) · k_r(‖I(p)−I(q)‖²), k_r Gaussian exp(−d²/(2σr²)) or
 * Lorentzian 1/(1 + d²/(2σr²)) (docs/algorithms.md). Separable: the 1-D filter along rows, then
 * along columns of that result with range distances taken from it (Bilateral chapter of
 * the compute-shader text) — an approximation.
 */
#include "cs_reference.h"

#include <math.h>
#include <stdlib.h>

static double range_weight (const CsBilateralParams *p, double d2)
{
  const double t = d2 / (2.0 * p->sigma_r * p->sigma_r);
  return p->range_kernel == CS_RANGE_KERNEL_LORENTZIAN ? 1.0 / (1.0 + t) : exp (-t);
}

static int clampi (int v, int lo, int hi)
{
  return v < lo ? lo : (v > hi ? hi : v);
}

static double dist2 (const double *a, const double *b, int nc)
{
  double d2 = 0.0;
  for (int c = 0; c < nc; c++)
    d2 += (a[c] - b[c]) * (a[c] - b[c]);
  return d2;
}

/* The exact filter over the (2rx+1) x (2ry+1) window, spatial weight
 * exp(−dx²/2σx² − dy²/2σy²) (docs/algorithms.md, "Formats": px, py per axis). */
static void exact (const double *in, int w, int h, int nc, const CsBilateralParams *px,
    const CsBilateralParams *py, double *out)
{
  const int rx = cs_bilateral_effective_radius (px), ry = cs_bilateral_effective_radius (py);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const double *centre = &in[nc * ((size_t) y * w + x)];
      double num[3] = { 0.0, 0.0, 0.0 }, den = 0.0;
      for (int dy = -ry; dy <= ry; dy++)
        for (int dx = -rx; dx <= rx; dx++) {
          const double *q = &in[nc * ((size_t) clampi (y + dy, 0, h - 1) * w + clampi (x + dx, 0, w - 1))];
          const double ws = exp (-(double) (dx * dx) / (2.0 * px->sigma * px->sigma)
              - (double) (dy * dy) / (2.0 * py->sigma * py->sigma));
          const double wt = ws * range_weight (px, dist2 (centre, q, nc));
          for (int c = 0; c < nc; c++)
            num[c] += wt * q[c];
          den += wt;
        }
      for (int c = 0; c < nc; c++)
        out[nc * ((size_t) y * w + x) + c] = num[c] / den;
    }
}

/* One 1-D bilateral pass along x (dir 0) or y (dir 1) with that axis's parameters. */
static void pass_1d (const double *in, int w, int h, int nc, const CsBilateralParams *p, int dir, double *out)
{
  const int r = cs_bilateral_effective_radius (p);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const double *centre = &in[nc * ((size_t) y * w + x)];
      double num[3] = { 0.0, 0.0, 0.0 }, den = 0.0;
      for (int d = -r; d <= r; d++) {
        const int qx = dir == 0 ? clampi (x + d, 0, w - 1) : x;
        const int qy = dir == 1 ? clampi (y + d, 0, h - 1) : y;
        const double *q = &in[nc * ((size_t) qy * w + qx)];
        const double wt = exp (-(double) (d * d) / (2.0 * p->sigma * p->sigma)) *
            range_weight (p, dist2 (centre, q, nc));
        for (int c = 0; c < nc; c++)
          num[c] += wt * q[c];
        den += wt;
      }
      for (int c = 0; c < nc; c++)
        out[nc * ((size_t) y * w + x) + c] = num[c] / den;
    }
}

int cs_ref_bilateral_channels (const CsChannels *src, CsChannels *dst, const CsBilateralParams *p, int sx, int sy)
{
  const int w = src->width, h = src->height, nc = src->channels;
  const size_t n = (size_t) w * h * nc;
  const CsBilateralParams px = cs_bilateral_params_subsampled (p, sx);
  const CsBilateralParams py = cs_bilateral_params_subsampled (p, sy);
  double *in = malloc (n * sizeof (double));
  double *out = malloc (n * sizeof (double));
  double *tmp = p->mode == CS_BILATERAL_SEPARABLE ? malloc (n * sizeof (double)) : NULL;

  if (!in || !out || (p->mode == CS_BILATERAL_SEPARABLE && !tmp)) {
    free (in);
    free (out);
    free (tmp);
    return -1;
  }
  cs_channels_to_double (src, in);
  if (cs_bilateral_is_identity (&px) && cs_bilateral_is_identity (&py)) {
    for (size_t i = 0; i < n; i++)
      out[i] = in[i];
  } else if (p->mode == CS_BILATERAL_SEPARABLE) {
    pass_1d (in, w, h, nc, &px, 0, tmp);
    pass_1d (tmp, w, h, nc, &py, 1, out);
  } else {
    exact (in, w, h, nc, &px, &py, out);
  }
  cs_channels_from_double (out, dst);
  free (in);
  free (out);
  free (tmp);
  return 0;
}

int cs_ref_bilateral (const CsImage *src, CsImage *dst, const CsBilateralParams *p)
{
  CsChannels out = cs_channels_of_image (dst);
  const CsChannels in = cs_channels_of_image (src);
  if (dst != src)
    cs_image_copy_alpha (src, dst);
  return cs_ref_bilateral_channels (&in, &out, p, 1, 1);
}
