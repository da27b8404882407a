/* Recursive Gaussian, double-precision reference: Deriche and Young–van Vliet, with lines
 * cut into partitions that warm up instead of waiting for their neighbour.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Partitioning generalises the paper's two-way split of a line ("two-way recursive
 * Gaussian", ../papers) to B partitions: partition [st, en) starts its causal state at
 * s = max(0, st − ceil(κσ)) as if the line began there (border rule at s), and its
 * anticausal state at e = min(n−1, en−1 + ceil(κσ)) as if the line ended there.
 * Partitions that carry their start states (cs_recursive_carries) are exact: the line is
 * filtered whole.
 */
#include "cs_reference.h"
#include "cs_coeffs.h"
#include "cs_separable.h"

#include "cs_cmplx.h"
#include <math.h>
#include <stdlib.h>

typedef struct {
  const CsRecursiveParams *p;
  CsDericheCoeffs deriche;
  CsYvvCoeffs yvv;
  int warmup;
  double *scratch;   /* n_max, for the YvV forward output of one channel */
} Ctx;

static int partitions (const CsRecursiveParams *p)
{
  return p->blocks_per_stripe > 0 && !cs_recursive_carries (p) ? p->blocks_per_stripe : 1;
}

/* Deriche parallel form on a uniform grid: g⁺[k] = a f[k] + b g⁺[k−1],
 * g⁻[k] = a b f[k+1] + b g⁻[k+1], out = Re Σ_i g⁺_i + g⁻_i (docs/algorithms.md with δ = 1). */
static void deriche_line (const double *f, int n, int nc, double *out, void *vctx)
{
  const Ctx *ctx = vctx;
  const CsDericheCoeffs *dc = &ctx->deriche;
  const int segments = partitions (ctx->p);
  double complex a[2], b[2], ci[2], ai[2];

  for (int i = 0; i < 2; i++) {
    a[i] = CMPLX (dc->a[i].re, dc->a[i].im);
    b[i] = CMPLX (dc->b[i].re, dc->b[i].im);
    ci[i] = CMPLX (dc->causal_init[i].re, dc->causal_init[i].im);
    ai[i] = CMPLX (dc->anticausal_init[i].re, dc->anticausal_init[i].im);
  }
  for (int j = 0; j < segments; j++) {
    int st, en;
    cs_segment_bounds (n, segments, j, &st, &en);
    if (en <= st)
      continue;
    const int s = st - ctx->warmup > 0 ? st - ctx->warmup : 0;
    const int e = en - 1 + ctx->warmup < n - 1 ? en - 1 + ctx->warmup : n - 1;
    for (int c = 0; c < nc; c++) {
      double complex g[2];
      for (int i = 0; i < 2; i++)
        g[i] = ci[i] * f[nc * s + c];
      for (int k = s; k < en; k++) {
        if (k > s)
          for (int i = 0; i < 2; i++)
            g[i] = a[i] * f[nc * k + c] + b[i] * g[i];
        if (k >= st)
          out[nc * k + c] = creal (g[0] + g[1]);
      }
      for (int i = 0; i < 2; i++)
        g[i] = ai[i] * f[nc * e + c];
      for (int k = e; k >= st; k--) {
        if (k < e)
          for (int i = 0; i < 2; i++)
            g[i] = a[i] * b[i] * f[nc * (k + 1) + c] + b[i] * g[i];
        if (k < en)
          out[nc * k + c] += creal (g[0] + g[1]);
      }
    }
  }
}

/* Young–van Vliet cascade. The forward and the backward pass are each partitioned: the
 * forward pass fills w over the whole line (every partition warming up from s), then the
 * backward pass runs on w, every partition starting at e from Triggs–Sdika with the input
 * taken as f[e] after e (exact at e = n−1). Where the three forward outputs it starts from
 * reach back before st (partitions shorter than 3 − warm-up), it takes the value its own
 * forward pass had there, the steady state f[s], not a neighbour's: a neighbour's forward
 * pass started elsewhere, and mixing the two shifted the mean of a frame by up to 20 levels
 * with 1-sample partitions at κ = 0 (docs/algorithms.md). */
static void yvv_line (const double *f, int n, int nc, double *out, void *vctx)
{
  const Ctx *ctx = vctx;
  const CsYvvCoeffs *q = &ctx->yvv;
  const int segments = partitions (ctx->p);
  double *w = ctx->scratch;

  for (int c = 0; c < nc; c++) {
    for (int j = 0; j < segments; j++) {
      int st, en;
      cs_segment_bounds (n, segments, j, &st, &en);
      if (en <= st)
        continue;
      const int s = st - ctx->warmup > 0 ? st - ctx->warmup : 0;
      double w1 = f[nc * s + c], w2 = w1, w3 = w1;   /* steady state of f[s] before s */
      for (int k = s; k < en; k++) {
        const double v = q->B * f[nc * k + c] + q->a1 * w1 + q->a2 * w2 + q->a3 * w3;
        w3 = w2;
        w2 = w1;
        w1 = v;
        if (k >= st)
          w[k] = v;
      }
    }
    for (int j = 0; j < segments; j++) {
      int st, en;
      cs_segment_bounds (n, segments, j, &st, &en);
      if (en <= st)
        continue;
      const int s = st - ctx->warmup > 0 ? st - ctx->warmup : 0;
      const int e = en - 1 + ctx->warmup < n - 1 ? en - 1 + ctx->warmup : n - 1;
      const double u = f[nc * e + c];
      double dev[3], y[3];
      for (int k = 0; k < 3; k++)   /* before st: this partition's own forward state, f[s] */
        dev[k] = (e - k >= st ? w[e - k] : f[nc * s + c]) - u;
      for (int r = 0; r < 3; r++)   /* y at e, e+1, e+2 */
        y[r] = u + q->M[r][0] * dev[0] + q->M[r][1] * dev[1] + q->M[r][2] * dev[2];
      double y1 = y[0], y2 = y[1], y3 = y[2];
      if (e < en)
        out[nc * e + c] = y1;
      for (int k = e - 1; k >= st; k--) {
        const double v = q->B * w[k] + q->a1 * y1 + q->a2 * y2 + q->a3 * y3;
        y3 = y2;
        y2 = y1;
        y1 = v;
        if (k < en)
          out[nc * k + c] = v;
      }
    }
  }
}

/* Filters v (width*height*nc interleaved values) in place: rows with px, columns with py. */
static int recursive_values (double *v, int w, int h, int nc, const CsRecursiveParams *px,
    const CsRecursiveParams *py)
{
  const CsRecursiveParams *axis[2] = { px, py };
  Ctx ctx[2];
  const int n_max = w > h ? w : h;
  int ret;

  if (cs_recursive_is_identity (px) && cs_recursive_is_identity (py))
    return 0;
  double *scratch = malloc ((size_t) n_max * sizeof (double));
  if (!scratch)
    return -1;
  for (int a = 0; a < 2; a++) {
    ctx[a] = (Ctx) { .p = axis[a], .scratch = scratch };
    ctx[a].warmup = (int) ceil (axis[a]->kappa * axis[a]->sigma);
    cs_deriche_coeffs (axis[a]->sigma, &ctx[a].deriche);
    cs_yvv_coeffs (axis[a]->sigma, &ctx[a].yvv);
  }
  ret = cs_separable_apply (v, w, h, nc, px->algorithm == CS_RECURSIVE_YOUNG_VAN_VLIET ? yvv_line : deriche_line,
      &ctx[0], &ctx[1]);
  free (scratch);
  return ret;
}

int cs_ref_recursive_rgb (const CsImage *src, const CsRecursiveParams *p, double *rgb_out)
{
  cs_image_to_double (src, rgb_out);
  return recursive_values (rgb_out, src->width, src->height, 3, p, p);
}

int cs_ref_recursive (const CsImage *src, CsImage *dst, const CsRecursiveParams *p)
{
  CsChannels out = cs_channels_of_image (dst);
  const CsChannels in = cs_channels_of_image (src);
  if (dst != src)
    cs_image_copy_alpha (src, dst);
  return cs_ref_recursive_channels (&in, &out, p, 1, 1);
}

int cs_ref_recursive_channels (const CsChannels *src, CsChannels *dst, const CsRecursiveParams *p, int sx, int sy)
{
  const CsRecursiveParams px = cs_recursive_params_subsampled (p, sx);
  const CsRecursiveParams py = cs_recursive_params_subsampled (p, sy);
  double *v = malloc ((size_t) src->width * src->height * src->channels * sizeof (double));
  if (!v)
    return -1;
  cs_channels_to_double (src, v);
  if (recursive_values (v, src->width, src->height, src->channels, &px, &py) != 0) {
    free (v);
    return -1;
  }
  cs_channels_from_double (v, dst);
  free (v);
  return 0;
}
