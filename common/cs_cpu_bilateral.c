/* Bilateral filter, fast CPU path (float, all cores): same definition as cs_ref_bilateral.c.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The frame is copied into a border-padded buffer so the window loops need no clamping.
 * The exact mode filters eight outputs of a row at once (cs_simd.h) from float planes, a
 * tap's weight one exp2 of the spatial and range exponents' sum (Gaussian) or the spatial
 * weight over 1 + t (Lorentzian). The separable mode's row pass looks the range
 * weight up by D = ‖I(p) − I(q)‖², an integer in 0..3·255² for 8-bit input, tabulated once
 * a frame; its column pass measures distances on the float row-pass output and evaluates
 * the kernel directly.
 */
#include "cs_cpu.h"
#include "cs_cpu_util.h"
#include "cs_parallel.h"
#include "cs_simd.h"

#include <math.h>

#define MAX_D (3 * 255 * 255)

typedef struct {
  const CsChannels *src;
  CsChannels *dst;
  const CsBilateralParams *p;
  int rx, ry, pw;          /* the window's half-widths, the padded width */
  int nc;                  /* channels: 1, 2 or 3 */
  uint8_t *pad;            /* separable: (w+2rx) x (h+2ry) pixels of nc bytes */
  float *range_lut;        /* separable: MAX_D + 1 */
  float *spatial;          /* separable: 2rx+1 along x, then 2ry+1 along y */
  float *tmp;              /* separable: w x h x nc row-pass output */
  float *planes;           /* exact: (w+2rx) x (h+2ry) samples a channel, planes plane_floats apart */
  CsF8 *taps;              /* exact, (2ry+1)(2rx+1): log2 of the spatial weight (Gaussian), or the weight */
  float range;             /* exact: −log2(e)/2σr² (Gaussian) or 1/2σr² (Lorentzian), a factor of D */
} Job;

/* the floats from one channel plane of the exact mode's padded frame to the next: a
 * vector's reach (8 samples) past the last */
static size_t plane_floats (int pw, int ph)
{
  return (size_t) pw * ph + 8;
}

static int clampi (int v, int lo, int hi)
{
  return v < lo ? lo : (v > hi ? hi : v);
}

/* the padded frame's sample (px, py) of channel c: the view's nearest */
static inline const uint8_t *padded_sample (const Job *j, int c, int px, int py)
{
  const CsChannels *s = j->src;
  const int x = clampi (px - j->rx, 0, s->width - 1), y = clampi (py - j->ry, 0, s->height - 1);
  return cs_channels_sample (s, c, x, y);
}

static void pad_rows (void *arg, int begin, int end, int worker)
{
  const Job *j = arg;
  (void) worker;
  for (int py = begin; py < end; py++)
    for (int c = 0; c < j->nc; c++) {
      uint8_t *o = j->pad + (size_t) py * j->pw * j->nc + c;
      for (int px = 0; px < j->pw; px++)
        o[(size_t) j->nc * px] = *padded_sample (j, c, px, py);
    }
}

/* the exact mode's planes: floats, so that a tap's eight samples are one load */
static void pad_planes (void *arg, int begin, int end, int worker)
{
  const Job *j = arg;
  const size_t plane = plane_floats (j->pw, j->src->height + 2 * j->ry);
  (void) worker;
  for (int py = begin; py < end; py++)
    for (int c = 0; c < j->nc; c++) {
      float *o = j->planes + c * plane + (size_t) py * j->pw;
      for (int px = 0; px < j->pw; px++)
        o[px] = *padded_sample (j, c, px, py);
    }
}

static double range_weight (const CsBilateralParams *p, double d2)
{
  const double t = d2 / (2.0 * p->sigma_r * p->sigma_r);
  return p->range_kernel == CS_RANGE_KERNEL_LORENTZIAN ? 1.0 / (1.0 + t) : exp (-t);
}

static void fill_lut (void *arg, int begin, int end, int worker)
{
  const Job *j = arg;
  (void) worker;
  for (int d = begin; d < end; d++)
    j->range_lut[d] = (float) range_weight (j->p, d);
}

static inline __attribute__ ((always_inline)) void store (const Job *j, int x, int y, const float *num, float den,
    const int nc)
{
  for (int c = 0; c < nc; c++)
    cs_channels_sample (j->dst, c, x, y)[0] = cs_quantise_f (num[c] / den);
}

/* Exact mode, eight outputs of row y from x at once: the window's taps in the reference's
 * order, each output's sums in its own lane. */
static inline __attribute__ ((always_inline)) void exact_chunk (const Job *j, int x, int y, const int nc,
    const int lorentz)
{
  const int nx = 2 * j->rx + 1, ny = 2 * j->ry + 1;
  const size_t plane = plane_floats (j->pw, j->src->height + 2 * j->ry);
  const CsF8 range = cs_f8 (j->range);
  CsF8 centre[3], num[3], den = cs_f8 (0.f);
  for (int c = 0; c < nc; c++) {
    centre[c] = cs_f8_load (j->planes + c * plane + (size_t) (y + j->ry) * j->pw + x + j->rx);
    num[c] = cs_f8 (0.f);
  }
  for (int dy = 0; dy < ny; dy++) {
    const float *row = j->planes + (size_t) (y + dy) * j->pw + x;
    for (int dx = 0; dx < nx; dx++) {
      CsF8 q[3], d2 = cs_f8 (0.f);
#pragma GCC unroll 3
      for (int c = 0; c < nc; c++) {
        q[c] = cs_f8_load (row + c * plane + dx);
        const CsF8 d = q[c] - centre[c];
        d2 += d * d;
      }
      const CsF8 tap = j->taps[dy * nx + dx];
      const CsF8 wt = lorentz ? tap / (1.f + d2 * range) : cs_f8_exp2_nonpositive (tap + d2 * range);
#pragma GCC unroll 3
      for (int c = 0; c < nc; c++)
        num[c] += wt * q[c];
      den += wt;
    }
  }
  const int lanes = j->src->width - x < 8 ? j->src->width - x : 8;
  for (int c = 0; c < nc; c++) {
    const CsF8 v = num[c] / den;
    for (int i = 0; i < lanes; i++)
      cs_channels_sample (j->dst, c, x + i, y)[0] = cs_quantise_f (v[i]);
  }
}

static inline __attribute__ ((always_inline)) void exact_rows_n (const Job *j, int begin, int end, const int nc,
    const int lorentz)
{
  for (int y = begin; y < end; y++)
    for (int x = 0; x < j->src->width; x += 8)
      exact_chunk (j, x, y, nc, lorentz);
}

CS_SIMD_CLONES static void exact_rows (void *arg, int begin, int end, int worker)
{
  const Job *j = arg;
  (void) worker;
  const int lorentz = j->p->range_kernel == CS_RANGE_KERNEL_LORENTZIAN;
  switch (j->nc * 2 + lorentz) {
    case 2: exact_rows_n (j, begin, end, 1, 0); break;
    case 3: exact_rows_n (j, begin, end, 1, 1); break;
    case 4: exact_rows_n (j, begin, end, 2, 0); break;
    case 5: exact_rows_n (j, begin, end, 2, 1); break;
    case 6: exact_rows_n (j, begin, end, 3, 0); break;
    default: exact_rows_n (j, begin, end, 3, 1); break;
  }
}

/* Separable, pass 1: along rows of the 8-bit input, into tmp. */
static inline __attribute__ ((always_inline)) void separable_rows_n (const Job *j, int begin, int end, int worker,
    const int nc)
{
  (void) worker;
  const int rx = j->rx, ry = j->ry, w = j->src->width;
  for (int y = begin; y < end; y++)
    for (int x = 0; x < w; x++) {
      const uint8_t *centre = j->pad + ((size_t) (y + ry) * j->pw + x + rx) * nc;
      const uint8_t *q = j->pad + ((size_t) (y + ry) * j->pw + x) * nc;
      float num[3] = { 0.f, 0.f, 0.f }, den = 0.f;
      for (int dx = 0; dx <= 2 * rx; dx++, q += nc) {
        int d2 = 0;
        for (int c = 0; c < nc; c++)
          d2 += (q[c] - centre[c]) * (q[c] - centre[c]);
        const float wt = j->spatial[dx] * j->range_lut[d2];
        for (int c = 0; c < nc; c++)
          num[c] += wt * q[c];
        den += wt;
      }
      float *o = j->tmp + nc * ((size_t) y * w + x);
      for (int c = 0; c < nc; c++)
        o[c] = num[c] / den;
    }
}

/* Separable, pass 2: along columns of tmp, distances measured on tmp. */
static inline __attribute__ ((always_inline)) void separable_columns_n (const Job *j, int begin, int end, int worker,
    const int nc)
{
  (void) worker;
  const int r = j->ry, w = j->src->width, h = j->src->height;
  const float *spatial_y = j->spatial + 2 * j->rx + 1;
  const float inv = (float) (1.0 / (2.0 * j->p->sigma_r * j->p->sigma_r));
  const int lorentz = j->p->range_kernel == CS_RANGE_KERNEL_LORENTZIAN;
  for (int y = begin; y < end; y++)
    for (int x = 0; x < w; x++) {
      const float *centre = j->tmp + nc * ((size_t) y * w + x);
      float num[3] = { 0.f, 0.f, 0.f }, den = 0.f;
      for (int dy = -r; dy <= r; dy++) {
        const float *q = j->tmp + nc * ((size_t) clampi (y + dy, 0, h - 1) * w + x);
        float d2 = 0.f;
        for (int c = 0; c < nc; c++)
          d2 += (q[c] - centre[c]) * (q[c] - centre[c]);
        const float t = d2 * inv;
        const float wt = spatial_y[dy + r] * (lorentz ? 1.0f / (1.0f + t) : expf (-t));
        for (int c = 0; c < nc; c++)
          num[c] += wt * q[c];
        den += wt;
      }
      store (j, x, y, num, den, nc);
    }
}

CS_CPU_BY_CHANNELS (separable_rows, Job)
CS_CPU_BY_CHANNELS (separable_columns, Job)

/* separable: the padded frame, the range table, the spatial weights, the row-pass output;
 * exact: the padded planes, the taps */
enum { N_ARRAYS = 6 };

static void workspace_sizes (const CsBilateralParams *px, const CsBilateralParams *py, int w, int h,
    size_t sizes[N_ARRAYS])
{
  const int rx = cs_bilateral_effective_radius (px), ry = cs_bilateral_effective_radius (py);
  const size_t pw = (size_t) w + 2 * rx, ph = (size_t) h + 2 * ry, taps = (size_t) (2 * rx + 1) * (2 * ry + 1);
  const int separable = px->mode == CS_BILATERAL_SEPARABLE;
  sizes[0] = separable ? pw * ph * 3 : 0;
  sizes[1] = separable ? (MAX_D + 1) * sizeof (float) : 0;
  sizes[2] = separable ? (size_t) (2 * rx + 1 + 2 * ry + 1) * sizeof (float) : 0;
  sizes[3] = separable ? (size_t) w * h * 3 * sizeof (float) : 0;
  sizes[4] = separable ? 0 : 3 * plane_floats ((int) pw, (int) ph) * sizeof (float);
  sizes[5] = separable ? 0 : taps * sizeof (CsF8);
}

size_t cs_cpu_bilateral_workspace_bytes (const CsBilateralParams *p, int width, int height, int n_threads)
{
  size_t sizes[N_ARRAYS];
  (void) n_threads;
  if (cs_bilateral_is_identity (p))
    return 0;
  workspace_sizes (p, p, width, height, sizes);
  return cs_workspace_total (N_ARRAYS, sizes);
}

int cs_cpu_bilateral (const CsImage *src, CsImage *dst, const CsBilateralParams *p,
    int n_threads, CsCpuWorkspace *ws)
{
  const CsChannels in = cs_channels_of_image (src);
  CsChannels out = cs_channels_of_image (dst);
  if (dst != src)
    cs_cpu_copy_alpha (src, dst, n_threads);
  return cs_cpu_bilateral_channels (&in, &out, p, p, n_threads, ws);
}

int cs_cpu_bilateral_channels (const CsChannels *src, CsChannels *dst, const CsBilateralParams *px,
    const CsBilateralParams *py, int n_threads, CsCpuWorkspace *ws)
{
  const int w = src->width, h = src->height;
  n_threads = cs_cpu_threads (n_threads);
  if (cs_bilateral_is_identity (px) && cs_bilateral_is_identity (py)) {
    if (src != dst)
      cs_channels_copy (src, dst);
    return 0;
  }
  const int rx = cs_bilateral_effective_radius (px), ry = cs_bilateral_effective_radius (py);
  const int nx = 2 * rx + 1;
  const int separable = px->mode == CS_BILATERAL_SEPARABLE;
  const int pw = w + 2 * rx, ph = h + 2 * ry;
  size_t sizes[N_ARRAYS];
  workspace_sizes (px, py, w, h, sizes);
  void *a[N_ARRAYS];
  if (cs_workspace_carve (ws, N_ARRAYS, sizes, a) != 0)
    return -1;
  const double log2e = 1.4426950408889634, t_scale = 1.0 / (2.0 * px->sigma_r * px->sigma_r);
  const int lorentz = px->range_kernel == CS_RANGE_KERNEL_LORENTZIAN;
  Job j = { src, dst, px, rx, ry, pw, src->channels, a[0], a[1], a[2], a[3], a[4], a[5],
    (float) (lorentz ? t_scale : -log2e * t_scale) };

  /* exp(−dx²/2σx²) exp(−dy²/2σy²), as the reference's exp(−dx²/2σx² − dy²/2σy²) */
  const double cx = 1.0 / (2.0 * px->sigma * px->sigma), cy = 1.0 / (2.0 * py->sigma * py->sigma);
  if (separable) {
    for (int dx = -rx; dx <= rx; dx++)
      j.spatial[dx + rx] = (float) exp (-(double) (dx * dx) * cx);
    for (int dy = -ry; dy <= ry; dy++)
      j.spatial[nx + dy + ry] = (float) exp (-(double) (dy * dy) * cy);
  } else {
    for (int dy = -ry; dy <= ry; dy++)
      for (int dx = -rx; dx <= rx; dx++) {
        const double e = -(double) (dx * dx) * cx - (double) (dy * dy) * cy;
        j.taps[(dy + ry) * nx + dx + rx] = cs_f8 ((float) (lorentz ? exp (e) : log2e * e));
      }
  }
  cs_parallel_for (ph, n_threads, separable ? pad_rows : pad_planes, &j);
  if (separable) {
    cs_parallel_for (j.nc * 255 * 255 + 1, n_threads, fill_lut, &j);   /* the largest D of nc channels */
    cs_parallel_for (h, n_threads, separable_rows, &j);
    cs_parallel_for (h, n_threads, separable_columns, &j);
  } else {
    cs_parallel_for (h, n_threads, exact_rows, &j);
  }
  return 0;
}
