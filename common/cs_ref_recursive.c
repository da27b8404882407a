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
static void deriche_line (const double *f, int n, double *out, void *vctx)
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
    for (int c = 0; c < 3; c++) {
      double complex g[2];
      for (int i = 0; i < 2; i++)
        g[i] = ci[i] * f[3 * s + c];
      for (int k = s; k < en; k++) {
        if (k > s)
          for (int i = 0; i < 2; i++)
            g[i] = a[i] * f[3 * k + c] + b[i] * g[i];
        if (k >= st)
          out[3 * k + c] = creal (g[0] + g[1]);
      }
      for (int i = 0; i < 2; i++)
        g[i] = ai[i] * f[3 * e + c];
      for (int k = e; k >= st; k--) {
        if (k < e)
          for (int i = 0; i < 2; i++)
            g[i] = a[i] * b[i] * f[3 * (k + 1) + c] + b[i] * g[i];
        if (k < en)
          out[3 * k + c] += creal (g[0] + g[1]);
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
static void yvv_line (const double *f, int n, double *out, void *vctx)
{
  const Ctx *ctx = vctx;
  const CsYvvCoeffs *q = &ctx->yvv;
  const int segments = partitions (ctx->p);
  double *w = ctx->scratch;

  for (int c = 0; c < 3; c++) {
    for (int j = 0; j < segments; j++) {
      int st, en;
      cs_segment_bounds (n, segments, j, &st, &en);
      if (en <= st)
        continue;
      const int s = st - ctx->warmup > 0 ? st - ctx->warmup : 0;
      double w1 = f[3 * s + c], w2 = w1, w3 = w1;   /* steady state of f[s] before s */
      for (int k = s; k < en; k++) {
        const double v = q->B * f[3 * k + c] + q->a1 * w1 + q->a2 * w2 + q->a3 * w3;
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
      const double u = f[3 * e + c];
      double dev[3], y[3];
      for (int k = 0; k < 3; k++)   /* before st: this partition's own forward state, f[s] */
        dev[k] = (e - k >= st ? w[e - k] : f[3 * s + c]) - u;
      for (int r = 0; r < 3; r++)   /* y at e, e+1, e+2 */
        y[r] = u + q->M[r][0] * dev[0] + q->M[r][1] * dev[1] + q->M[r][2] * dev[2];
      double y1 = y[0], y2 = y[1], y3 = y[2];
      if (e < en)
        out[3 * e + c] = y1;
      for (int k = e - 1; k >= st; k--) {
        const double v = q->B * w[k] + q->a1 * y1 + q->a2 * y2 + q->a3 * y3;
        y3 = y2;
        y2 = y1;
        y1 = v;
        if (k < en)
          out[3 * k + c] = v;
      }
    }
  }
}

int cs_ref_recursive_rgb (const CsImage *src, const CsRecursiveParams *p, double *rgb_out)
{
  Ctx ctx = { .p = p };
  const int n_max = src->width > src->height ? src->width : src->height;
  int ret;

  cs_image_to_double (src, rgb_out);
  if (cs_recursive_is_identity (p))
    return 0;
  ctx.warmup = (int) ceil (p->kappa * p->sigma);
  cs_deriche_coeffs (p->sigma, &ctx.deriche);
  cs_yvv_coeffs (p->sigma, &ctx.yvv);
  ctx.scratch = malloc ((size_t) n_max * sizeof (double));
  if (!ctx.scratch)
    return -1;
  ret = cs_separable_apply (rgb_out, src->width, src->height,
      p->algorithm == CS_RECURSIVE_YOUNG_VAN_VLIET ? yvv_line : deriche_line, &ctx);
  free (ctx.scratch);
  return ret;
}

int cs_ref_recursive (const CsImage *src, CsImage *dst, const CsRecursiveParams *p)
{
  double *rgb = malloc ((size_t) src->width * src->height * 3 * sizeof (double));
  if (!rgb || cs_ref_recursive_rgb (src, p, rgb) != 0) {
    free (rgb);
    return -1;
  }
  if (dst != src)
    cs_image_copy_alpha (src, dst);
  cs_image_from_double (rgb, dst);
  free (rgb);
  return 0;
}
