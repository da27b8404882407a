/* Edge-aware Gaussian, fast CPU path (float, all cores).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Same recursions as cs_ref_edgeaware.c. The costly part of eq. (4) is b^δ and Φ's
 * coefficients at every sample; but δ = sqrt(1 + (σs/σr)² D) where D, the squared colour
 * difference of two 8-bit pixels, is an integer in 0..3·255². So each iteration tabulates
 * the coefficients once per D that occurs (computed in double, stored in float) and the
 * sweeps only look them up. Vertical passes run as horizontal passes on the transpose.
 */
#include "cs_cpu.h"
#include "cs_cpu_util.h"
#include "cs_coeffs.h"
#include "cs_parallel.h"

#include "cs_cmplx.h"
#include <math.h>
#include <string.h>

/* Per D and pole: causal g = cc f[k] + cp f[k−1] + bd g;
 * anticausal g = an f[k+1] + ac f[k] + bd g (eq. 4 with Φ expanded). */
typedef struct {
  float bd_re, bd_im, cc_re, cc_im, cp_re, cp_im, an_re, an_im, ac_re, ac_im;
} PoleTerms;

typedef struct {
  PoleTerms pole[2];
  double dt;   /* in double, as the reference's warm-up search sums it: a threshold κσ_i can
                * equal a sum of Δt exactly, and float sums could decide such ties otherwise */
} SpacingTerms;

typedef struct {
  float ci_re[2], ci_im[2];   /* causal steady state per unit input: a/(1−b) */
  float ai_re[2], ai_im[2];   /* anticausal: a b/(1−b) */
} Inits;

typedef struct {
  float *data;              /* width x height x 3, filtered in place row by row */
  const uint32_t *d;        /* D between a pixel and its left neighbour (0 at x = 0) */
  int width, height;
  const SpacingTerms *lut;
  Inits inits;
  double warmup;
  int segments;
  float *lines;             /* n_threads scratch lines of width*3 */
  int lines_per_thread_stride;
  int nc;                   /* channels per sample: 1, 2 or 3 */
} PassJob;

static inline __attribute__ ((always_inline)) void filter_segment (const float *f, const uint32_t *d, int n, int st,
    int en, const PassJob *job, float *out, const int nc)
{
  const SpacingTerms *lut = job->lut;
  const Inits *in = &job->inits;
  int s = st;
  double acc = 0.0;
  while (s > 0 && acc < job->warmup)
    acc += lut[d[s--]].dt;

  float gr[2][3], gi[2][3];
  for (int i = 0; i < 2; i++)
    for (int c = 0; c < nc; c++) {
      gr[i][c] = in->ci_re[i] * f[nc * s + c];
      gi[i][c] = in->ci_im[i] * f[nc * s + c];
    }
  for (int k = s; k < en; k++) {
    if (k > s) {
      const SpacingTerms *t = &lut[d[k]];
      for (int i = 0; i < 2; i++) {
        const PoleTerms *q = &t->pole[i];
        for (int c = 0; c < nc; c++) {
          const float fk = f[nc * k + c], fp = f[nc * (k - 1) + c];
          const float r = q->cc_re * fk + q->cp_re * fp + q->bd_re * gr[i][c] - q->bd_im * gi[i][c];
          const float m = q->cc_im * fk + q->cp_im * fp + q->bd_re * gi[i][c] + q->bd_im * gr[i][c];
          gr[i][c] = r;
          gi[i][c] = m;
        }
      }
    }
    if (k >= st)
      for (int c = 0; c < nc; c++)
        out[nc * k + c] = gr[0][c] + gr[1][c];
  }

  int e = en - 1;
  acc = 0.0;
  while (e < n - 1 && acc < job->warmup)
    acc += lut[d[++e]].dt;
  for (int i = 0; i < 2; i++)
    for (int c = 0; c < nc; c++) {
      gr[i][c] = in->ai_re[i] * f[nc * e + c];
      gi[i][c] = in->ai_im[i] * f[nc * e + c];
    }
  for (int k = e; k >= st; k--) {
    if (k < e) {
      const SpacingTerms *t = &lut[d[k + 1]];
      for (int i = 0; i < 2; i++) {
        const PoleTerms *q = &t->pole[i];
        for (int c = 0; c < nc; c++) {
          const float fn = f[nc * (k + 1) + c], fk = f[nc * k + c];
          const float r = q->an_re * fn + q->ac_re * fk + q->bd_re * gr[i][c] - q->bd_im * gi[i][c];
          const float m = q->an_im * fn + q->ac_im * fk + q->bd_re * gi[i][c] + q->bd_im * gr[i][c];
          gr[i][c] = r;
          gi[i][c] = m;
        }
      }
    }
    if (k < en)
      for (int c = 0; c < nc; c++)
        out[nc * k + c] += gr[0][c] + gr[1][c];
  }
}

static inline __attribute__ ((always_inline)) void pass_rows_n (const PassJob *job, int begin, int end, int worker,
    const int nc)
{
  const int w = job->width;
  float *out = job->lines + (size_t) worker * job->lines_per_thread_stride;
  for (int y = begin; y < end; y++) {
    float *row = job->data + (size_t) y * w * nc;
    const uint32_t *d = job->d + (size_t) y * w;
    for (int j = 0; j < job->segments; j++) {
      int st, en;
      cs_segment_bounds (w, job->segments, j, &st, &en);
      if (en > st)
        filter_segment (row, d, w, st, en, job, out, nc);
    }
    memcpy (row, out, (size_t) w * nc * sizeof (float));
  }
}

CS_CPU_BY_CHANNELS (pass_rows, PassJob)

typedef struct {
  const CsChannels *src;
  float *v;
  uint32_t *d_h, *d_v;      /* d_v stored transposed (height-major per column) */
  uint32_t max_d[64];
} PrepareJob;

/* D = ‖ΔI‖² to the left and upper neighbour of every sample, over the view's channels */
static void prepare_rows (void *arg, int begin, int end, int worker)
{
  PrepareJob *job = arg;
  const CsChannels *src = job->src;
  const int w = src->width, h = src->height, nc = src->channels;
  uint32_t max_d = 0;
  cs_cpu_unpack_channels (src, job->v, begin, end);
  for (int y = begin; y < end; y++) {
    const uint8_t *row[3], *above[3];
    for (int c = 0; c < nc; c++) {
      row[c] = cs_channels_sample (src, c, 0, y);
      above[c] = cs_channels_sample (src, c, 0, y > 0 ? y - 1 : 0);
    }
    for (int x = 0; x < w; x++) {
      const ptrdiff_t o = (ptrdiff_t) x * src->step;
      uint32_t dh = 0, dv = 0;
      for (int c = 0; c < nc; c++) {
        const int a = row[c][o] - (x > 0 ? row[c][o - src->step] : row[c][o]), b = row[c][o] - above[c][o];
        dh += (uint32_t) (a * a);
        dv += (uint32_t) (b * b);
      }
      job->d_h[(size_t) y * w + x] = dh;
      job->d_v[(size_t) x * h + y] = dv;
      max_d = dh > max_d ? dh : max_d;
      max_d = dv > max_d ? dv : max_d;
    }
  }
  job->max_d[worker] = max_d > job->max_d[worker] ? max_d : job->max_d[worker];   /* a thread runs several chunks */
}

typedef struct {
  SpacingTerms *lut;
  double ratio2;
  CsDericheCoeffs coeffs;
} LutJob;

static void fill_lut (void *arg, int begin, int end, int worker)
{
  const LutJob *job = arg;
  (void) worker;
  const CsDericheCoeffs *c = &job->coeffs;
  for (int d = begin; d < end; d++) {
    const double delta = sqrt (1.0 + job->ratio2 * d);
    SpacingTerms *t = &job->lut[d];
    t->dt = delta;
    for (int i = 0; i < 2; i++) {
      const double complex a = CMPLX (c->a[i].re, c->a[i].im);
      const double complex b = CMPLX (c->b[i].re, c->b[i].im);
      const double complex r1 = CMPLX (c->r1[i].re, c->r1[i].im);
      const double complex inv_r0 = CMPLX (c->inv_r0[i].re, c->inv_r0[i].im);
      const double m = exp (delta * c->b_log_abs[i]);
      const double complex bd = CMPLX (m * cos (delta * c->b_arg[i]), m * sin (delta * c->b_arg[i]));
      const double complex x = (bd - 1.0) * inv_r0 / delta;
      const double complex phi_to = x - r1 * b, phi_from = x - r1 * bd;
      const double complex cc = a + phi_to, cp = -phi_from, an = a * bd - phi_from, ac = phi_to;
      PoleTerms *q = &t->pole[i];
      q->bd_re = (float) creal (bd);
      q->bd_im = (float) cimag (bd);
      q->cc_re = (float) creal (cc);
      q->cc_im = (float) cimag (cc);
      q->cp_re = (float) creal (cp);
      q->cp_im = (float) cimag (cp);
      q->an_re = (float) creal (an);
      q->an_im = (float) cimag (an);
      q->ac_re = (float) creal (ac);
      q->ac_im = (float) cimag (ac);
    }
  }
}

typedef struct {
  const float *v;
  CsChannels *dst;
} PackJob;

static void pack_rows (void *arg, int begin, int end, int worker)
{
  const PackJob *job = arg;
  (void) worker;
  cs_cpu_pack_channels (job->v, job->dst, begin, end);
}

/* the frame as floats and its transpose, the spacings' D along rows and columns, the
 * per-D table, the workers' lines */
static void workspace_sizes (int w, int h, int n_threads, size_t sizes[6])
{
  const size_t npix = (size_t) w * h, n_max = w > h ? w : h;
  const size_t max_entries = 3 * 255 * 255 + 1;
  sizes[0] = npix * 3 * sizeof (float);
  sizes[1] = npix * 3 * sizeof (float);
  sizes[2] = npix * sizeof (uint32_t);
  sizes[3] = npix * sizeof (uint32_t);
  sizes[4] = max_entries * sizeof (SpacingTerms);
  sizes[5] = (size_t) n_threads * n_max * 3 * sizeof (float);
}

size_t cs_cpu_edgeaware_workspace_bytes (const CsEdgeAwareParams *p, int width, int height, int n_threads)
{
  size_t sizes[6];
  (void) p;
  workspace_sizes (width, height, cs_cpu_threads (n_threads), sizes);
  return cs_workspace_total (6, sizes);
}

int cs_cpu_edgeaware (const CsImage *src, CsImage *dst, const CsEdgeAwareParams *p,
    int n_threads, CsCpuWorkspace *ws)
{
  const CsChannels in = cs_channels_of_image (src);
  CsChannels out = cs_channels_of_image (dst);
  if (dst != src)
    cs_cpu_copy_alpha (src, dst, n_threads);
  return cs_cpu_edgeaware_channels (&in, &out, p, p, n_threads, ws);
}

/* One pass of iteration `it` with p (that axis's parameters) over the rows of data, whose
 * spacings' D are d: fills the table for p's σ_i where fill_table says the table holds
 * another's, and sweeps. */
static void edgeaware_pass (const CsEdgeAwareParams *p, int it, float *data, int nc, const uint32_t *d, int n,
    int n_lines, SpacingTerms *lut, uint32_t max_d, int fill_table, float *lines, int n_max, int n_threads)
{
  const double sigma_i = cs_edgeaware_iteration_sigma (p, it);
  const double ratio = p->sigma / p->sigma_r;
  LutJob lj = { .lut = lut, .ratio2 = ratio * ratio };
  cs_deriche_coeffs (sigma_i, &lj.coeffs);
  if (fill_table)
    cs_parallel_for ((int) max_d + 1, n_threads, fill_lut, &lj);
  PassJob job = {
    .data = data, .d = d, .width = n, .height = n_lines,
    .lut = lut, .warmup = p->kappa * sigma_i, .lines = lines,
    .lines_per_thread_stride = n_max * 3,
    .segments = p->blocks_per_stripe > 0 ? p->blocks_per_stripe : 1,
    .nc = nc,
  };
  for (int i = 0; i < 2; i++) {
    job.inits.ci_re[i] = (float) lj.coeffs.causal_init[i].re;
    job.inits.ci_im[i] = (float) lj.coeffs.causal_init[i].im;
    job.inits.ai_re[i] = (float) lj.coeffs.anticausal_init[i].re;
    job.inits.ai_im[i] = (float) lj.coeffs.anticausal_init[i].im;
  }
  cs_parallel_for_flushed (n_lines, n_threads, pass_rows, &job);
}

int cs_cpu_edgeaware_channels (const CsChannels *src, CsChannels *dst, const CsEdgeAwareParams *px,
    const CsEdgeAwareParams *py, int n_threads, CsCpuWorkspace *ws)
{
  const int w = src->width, h = src->height, n_max = w > h ? w : h, nc = src->channels;
  n_threads = cs_cpu_threads (n_threads);
  size_t sizes[6];
  workspace_sizes (w, h, n_threads, sizes);
  void *a[6];
  if (cs_workspace_carve (ws, 6, sizes, a) != 0)
    return -1;
  float *v = a[0], *v_t = a[1];
  uint32_t *d_h = a[2], *d_v = a[3];
  SpacingTerms *lut = a[4];
  float *lines = a[5];

  PrepareJob prep = { src, v, d_h, d_v, { 0 } };
  cs_parallel_for (h, n_threads, prepare_rows, &prep);
  uint32_t max_d = 0;
  for (int t = 0; t < 64; t++)
    max_d = prep.max_d[t] > max_d ? prep.max_d[t] : max_d;

  /* alike axes: one table per iteration serves both passes (the 4:2:2 chroma's differ in σ) */
  const int same_axes = px->sigma == py->sigma;
  const int identity = cs_edgeaware_is_identity (px) && cs_edgeaware_is_identity (py);
  for (int it = 1; it <= px->iterations && !identity; it++) {
    edgeaware_pass (px, it, v, nc, d_h, w, h, lut, max_d, 1, lines, n_max, n_threads);
    cs_cpu_transpose (v, v_t, w, h, nc * sizeof (float), n_threads);
    edgeaware_pass (py, it, v_t, nc, d_v, h, w, lut, max_d, !same_axes, lines, n_max, n_threads);
    cs_cpu_transpose (v_t, v, h, w, nc * sizeof (float), n_threads);
  }

  PackJob pj = { v, dst };
  cs_parallel_for (h, n_threads, pack_rows, &pj);
  return 0;
}
