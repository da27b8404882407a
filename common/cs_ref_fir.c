/* Exact FIR Gaussian, the accuracy yardstick of the recursive filters.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Sampled weights exp(−k²/2σ²), k = −R..R with R = ceil(8σ), normalised to sum 1;
 * clamp-to-edge borders; rows then columns, in double.
 */
#include "cs_reference.h"
#include "cs_separable.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
  int radius;
  double *weights;   /* 2R+1 */
} Ctx;

static void fir_line (const double *f, int n, int nc, double *out, void *vctx)
{
  const Ctx *ctx = vctx;
  const int r = ctx->radius;
  for (int k = 0; k < n; k++) {
    double acc[3] = { 0.0, 0.0, 0.0 };
    for (int j = -r; j <= r; j++) {
      int m = k + j;
      m = m < 0 ? 0 : (m >= n ? n - 1 : m);
      for (int c = 0; c < nc; c++)
        acc[c] += ctx->weights[j + r] * f[nc * m + c];
    }
    for (int c = 0; c < nc; c++)
      out[nc * k + c] = acc[c];
  }
}

int cs_ref_fir_gaussian_rgb (const CsImage *src, double sigma, double *rgb_out)
{
  Ctx ctx;
  double sum = 0.0;
  int ret;

  cs_image_to_double (src, rgb_out);
  if (sigma <= 0.0)
    return 0;
  ctx.radius = (int) ceil (8.0 * sigma);
  ctx.weights = malloc ((size_t) (2 * ctx.radius + 1) * sizeof (double));
  if (!ctx.weights)
    return -1;
  for (int j = -ctx.radius; j <= ctx.radius; j++)
    sum += ctx.weights[j + ctx.radius] = exp (-(double) j * j / (2.0 * sigma * sigma));
  for (int j = 0; j <= 2 * ctx.radius; j++)
    ctx.weights[j] /= sum;
  ret = cs_separable_apply (rgb_out, src->width, src->height, 3, fir_line, &ctx, &ctx);
  free (ctx.weights);
  return ret;
}

int cs_ref_fir_gaussian (const CsImage *src, CsImage *dst, double sigma)
{
  double *rgb = malloc ((size_t) src->width * src->height * 3 * sizeof (double));
  if (!rgb || cs_ref_fir_gaussian_rgb (src, sigma, rgb) != 0) {
    free (rgb);
    return -1;
  }
  if (dst != src)
    cs_image_copy_alpha (src, dst);
  cs_image_from_double (rgb, dst);
  free (rgb);
  return 0;
}
