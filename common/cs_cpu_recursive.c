/* Recursive Gaussian, fast CPU path (float, all cores): same recursions and partitions as
 * cs_ref_recursive.c; columns are filtered as rows of the transpose.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_cpu.h"
#include "cs_cpu_util.h"
#include "cs_coeffs.h"
#include "cs_parallel.h"

#include <math.h>
#include <string.h>

typedef struct {
  float a_re[2], a_im[2], b_re[2], b_im[2];     /* Deriche a_i, b_i */
  float ab_re[2], ab_im[2];                     /* a_i b_i */
  float ci_re[2], ci_im[2], ai_re[2], ai_im[2]; /* steady states per unit input */
  /* Young–van Vliet runs in double: at large σ, B ~ 1/q³ is far below float's resolution
   * of the state (σ = 250: B ≈ 2.5e−7), so a float cascade loses the input. */
  double B, a1, a2, a3, M[3][3];
} Coeffs;

typedef struct {
  float *data;
  int width, height;
  int segments, warmup;
  int nc;             /* channels per sample: 1, 2 or 3 */
  CsRecursiveAlgorithm algorithm;
  Coeffs k;
  void *lines;        /* per worker: a float line and a double line of n_max*3 */
  size_t line_stride; /* values per line */
} PassJob;

static inline __attribute__ ((always_inline)) void deriche_segment (const PassJob *job, const float *f, int n, int st,
    int en, float *out, const int nc)
{
  const Coeffs *k = &job->k;
  const int s = st - job->warmup > 0 ? st - job->warmup : 0;
  const int e = en - 1 + job->warmup < n - 1 ? en - 1 + job->warmup : n - 1;
  float gr[2][3], gi[2][3];

  for (int i = 0; i < 2; i++)
    for (int c = 0; c < nc; c++) {
      gr[i][c] = k->ci_re[i] * f[nc * s + c];
      gi[i][c] = k->ci_im[i] * f[nc * s + c];
    }
  for (int x = s; x < en; x++) {
    if (x > s)
      for (int i = 0; i < 2; i++)
        for (int c = 0; c < nc; c++) {
          const float v = f[nc * x + c];
          const float r = k->a_re[i] * v + k->b_re[i] * gr[i][c] - k->b_im[i] * gi[i][c];
          const float m = k->a_im[i] * v + k->b_re[i] * gi[i][c] + k->b_im[i] * gr[i][c];
          gr[i][c] = r;
          gi[i][c] = m;
        }
    if (x >= st)
      for (int c = 0; c < nc; c++)
        out[nc * x + c] = gr[0][c] + gr[1][c];
  }
  for (int i = 0; i < 2; i++)
    for (int c = 0; c < nc; c++) {
      gr[i][c] = k->ai_re[i] * f[nc * e + c];
      gi[i][c] = k->ai_im[i] * f[nc * e + c];
    }
  for (int x = e; x >= st; x--) {
    if (x < e)
      for (int i = 0; i < 2; i++)
        for (int c = 0; c < nc; c++) {
          const float v = f[nc * (x + 1) + c];
          const float r = k->ab_re[i] * v + k->b_re[i] * gr[i][c] - k->b_im[i] * gi[i][c];
          const float m = k->ab_im[i] * v + k->b_re[i] * gi[i][c] + k->b_im[i] * gr[i][c];
          gr[i][c] = r;
          gi[i][c] = m;
        }
    if (x < en)
      for (int c = 0; c < nc; c++)
        out[nc * x + c] += gr[0][c] + gr[1][c];
  }
}

/* Forward pass of one partition of a Young–van Vliet line, into w[st, en). */
static inline __attribute__ ((always_inline)) void yvv_forward (const PassJob *job, const float *f, int st, int en,
    double *w, const int nc)
{
  const Coeffs *k = &job->k;
  const int s = st - job->warmup > 0 ? st - job->warmup : 0;
  double w1[3], w2[3], w3[3];
  for (int c = 0; c < nc; c++)
    w1[c] = w2[c] = w3[c] = f[nc * s + c];
  for (int x = s; x < en; x++)
    for (int c = 0; c < nc; c++) {
      const double v = k->B * f[nc * x + c] + k->a1 * w1[c] + k->a2 * w2[c] + k->a3 * w3[c];
      w3[c] = w2[c];
      w2[c] = w1[c];
      w1[c] = v;
      if (x >= st)
        w[nc * x + c] = v;
    }
}

/* Backward pass of one partition, from Triggs–Sdika at e, on the whole line's w. */
static inline __attribute__ ((always_inline)) void yvv_backward (const PassJob *job, const float *f, int n, int st,
    int en, const double *w, float *out, const int nc)
{
  const Coeffs *k = &job->k;
  const int s = st - job->warmup > 0 ? st - job->warmup : 0;
  const int e = en - 1 + job->warmup < n - 1 ? en - 1 + job->warmup : n - 1;
  double y1[3], y2[3], y3[3];
  for (int c = 0; c < nc; c++) {
    const double u = f[nc * e + c];
    double dev[3], y[3];
    for (int j = 0; j < 3; j++)   /* before st: the partition's own forward state, f[s] */
      dev[j] = (e - j >= st ? w[nc * (e - j) + c] : f[nc * s + c]) - u;
    for (int r = 0; r < 3; r++)
      y[r] = u + k->M[r][0] * dev[0] + k->M[r][1] * dev[1] + k->M[r][2] * dev[2];
    y1[c] = y[0];
    y2[c] = y[1];
    y3[c] = y[2];
    if (e < en)
      out[nc * e + c] = (float) y1[c];
  }
  for (int x = e - 1; x >= st; x--)
    for (int c = 0; c < nc; c++) {
      const double v = k->B * w[nc * x + c] + k->a1 * y1[c] + k->a2 * y2[c] + k->a3 * y3[c];
      y3[c] = y2[c];
      y2[c] = y1[c];
      y1[c] = v;
      if (x < en)
        out[nc * x + c] = (float) v;
    }
}

static inline __attribute__ ((always_inline)) void pass_rows_n (const PassJob *job, int begin, int end, int worker,
    const int nc)
{
  const int n = job->width;
  float *out = (float *) ((char *) job->lines + (size_t) worker * job->line_stride * 12);
  double *w = (double *) (out + job->line_stride);
  for (int y = begin; y < end; y++) {
    float *row = job->data + (size_t) y * n * nc;
    const int is_yvv = job->algorithm == CS_RECURSIVE_YOUNG_VAN_VLIET;
    for (int pass = is_yvv ? 0 : 1; pass < 2; pass++)
      for (int j = 0; j < job->segments; j++) {
        int st, en;
        cs_segment_bounds (n, job->segments, j, &st, &en);
        if (en <= st)
          continue;
        if (!is_yvv)
          deriche_segment (job, row, n, st, en, out, nc);
        else if (pass == 0)
          yvv_forward (job, row, st, en, w, nc);
        else
          yvv_backward (job, row, n, st, en, w, out, nc);
      }
    memcpy (row, out, (size_t) n * nc * sizeof (float));
  }
}

CS_CPU_BY_CHANNELS (pass_rows, PassJob)

static void set_coeffs (double sigma, Coeffs *k)
{
  CsDericheCoeffs d;
  CsYvvCoeffs y;
  cs_deriche_coeffs (sigma, &d);
  cs_yvv_coeffs (sigma, &y);
  for (int i = 0; i < 2; i++) {
    k->a_re[i] = (float) d.a[i].re;
    k->a_im[i] = (float) d.a[i].im;
    k->b_re[i] = (float) d.b[i].re;
    k->b_im[i] = (float) d.b[i].im;
    k->ab_re[i] = (float) (d.a[i].re * d.b[i].re - d.a[i].im * d.b[i].im);
    k->ab_im[i] = (float) (d.a[i].re * d.b[i].im + d.a[i].im * d.b[i].re);
    k->ci_re[i] = (float) d.causal_init[i].re;
    k->ci_im[i] = (float) d.causal_init[i].im;
    k->ai_re[i] = (float) d.anticausal_init[i].re;
    k->ai_im[i] = (float) d.anticausal_init[i].im;
  }
  k->B = y.B;
  k->a1 = y.a1;
  k->a2 = y.a2;
  k->a3 = y.a3;
  memcpy (k->M, y.M, sizeof k->M);
}

typedef struct {
  const CsChannels *src;
  CsChannels *dst;
  float *v;
} RowsJob;

static void unpack (void *arg, int begin, int end, int worker)
{
  const RowsJob *j = arg;
  (void) worker;
  cs_cpu_unpack_channels (j->src, j->v, begin, end);
}

static void pack (void *arg, int begin, int end, int worker)
{
  const RowsJob *j = arg;
  (void) worker;
  cs_cpu_pack_channels (j->v, j->dst, begin, end);
}

/* values per worker line: a float and a double line of n_max·3 */
static size_t line_stride_of (int w, int h)
{
  const int n_max = w > h ? w : h;
  return ((size_t) n_max * 3 + 1) & ~(size_t) 1;  /* keeps doubles aligned */
}

/* the frame as floats, its transpose, the workers' lines */
static void workspace_sizes (int w, int h, int n_threads, size_t sizes[3])
{
  const size_t npix = (size_t) w * h;
  sizes[0] = npix * 3 * sizeof (float);
  sizes[1] = npix * 3 * sizeof (float);
  sizes[2] = (size_t) n_threads * line_stride_of (w, h) * (sizeof (float) + sizeof (double));
}

size_t cs_cpu_recursive_workspace_bytes (const CsRecursiveParams *p, int width, int height, int n_threads)
{
  size_t sizes[3];
  (void) p;
  workspace_sizes (width, height, cs_cpu_threads (n_threads), sizes);
  return cs_workspace_total (3, sizes);
}

int cs_cpu_recursive (const CsImage *src, CsImage *dst, const CsRecursiveParams *p,
    int n_threads, CsCpuWorkspace *ws)
{
  const CsChannels in = cs_channels_of_image (src);
  CsChannels out = cs_channels_of_image (dst);
  if (dst != src)
    cs_cpu_copy_alpha (src, dst, n_threads);
  return cs_cpu_recursive_channels (&in, &out, p, p, n_threads, ws);
}

static PassJob pass_job (const CsRecursiveParams *p, float *data, int n, int n_lines, int nc, void *lines,
    size_t line_stride)
{
  PassJob job = {
    .data = data,
    .width = n,
    .height = n_lines,
    .segments = p->blocks_per_stripe > 0 && !cs_recursive_carries (p) ? p->blocks_per_stripe : 1,
    .warmup = (int) ceil (p->kappa * p->sigma),
    .nc = nc,
    .algorithm = p->algorithm,
    .lines = lines,
    .line_stride = line_stride,
  };
  set_coeffs (p->sigma, &job.k);
  return job;
}

int cs_cpu_recursive_channels (const CsChannels *src, CsChannels *dst, const CsRecursiveParams *px,
    const CsRecursiveParams *py, int n_threads, CsCpuWorkspace *ws)
{
  const int w = src->width, h = src->height, nc = src->channels;
  const size_t line_stride = line_stride_of (w, h);
  n_threads = cs_cpu_threads (n_threads);
  size_t sizes[3];
  workspace_sizes (w, h, n_threads, sizes);
  void *a[3];
  if (cs_workspace_carve (ws, 3, sizes, a) != 0)
    return -1;
  float *v = a[0], *v_t = a[1];
  RowsJob rj = { src, dst, v };
  cs_parallel_for (h, n_threads, unpack, &rj);

  if (!cs_recursive_is_identity (px) || !cs_recursive_is_identity (py)) {
    PassJob rows = pass_job (px, v, w, h, nc, a[2], line_stride);
    cs_parallel_for (h, n_threads, pass_rows, &rows);
    cs_cpu_transpose (v, v_t, w, h, nc * sizeof (float), n_threads);
    PassJob columns = pass_job (py, v_t, h, w, nc, a[2], line_stride);
    cs_parallel_for (w, n_threads, pass_rows, &columns);
    cs_cpu_transpose (v_t, v, h, w, nc * sizeof (float), n_threads);
  }
  cs_parallel_for (h, n_threads, pack, &rj);
  return 0;
}
