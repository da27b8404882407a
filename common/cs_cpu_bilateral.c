/* Bilateral filter, fast CPU path (float, all cores): same definition as cs_ref_bilateral.c.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The exact filter's range weight depends only on D = ‖I(p) − I(q)‖², an integer in
 * 0..3·255² for 8-bit input, so it is tabulated once per frame; the frame is copied into a
 * border-padded buffer so the window loop needs no clamping. The separable mode's column
 * pass measures distances on the float row-pass output and evaluates the kernel directly.
 */
#include "cs_cpu.h"
#include "cs_cpu_util.h"
#include "cs_parallel.h"

#include <math.h>

#define MAX_D (3 * 255 * 255)

typedef struct {
  const CsChannels *src;
  CsChannels *dst;
  const CsBilateralParams *p;
  int rx, ry, pw;          /* the window's half-widths, the padded width */
  int nc;                  /* channels: 1, 2 or 3 */
  uint8_t *pad;            /* (w+2rx) x (h+2ry) samples of nc bytes */
  float *range_lut;        /* MAX_D + 1 */
  float *spatial;          /* (2ry+1)(2rx+1) for exact; separable: 2rx+1 along x, then 2ry+1 along y */
  float *tmp;              /* separable: w x h x nc row-pass output */
} Job;

static int clampi (int v, int lo, int hi)
{
  return v < lo ? lo : (v > hi ? hi : v);
}

static void pad_rows (void *arg, int begin, int end, int worker)
{
  const Job *j = arg;
  const CsChannels *s = j->src;
  const int nc = j->nc;
  (void) worker;
  for (int py = begin; py < end; py++) {
    const int y = clampi (py - j->ry, 0, s->height - 1);
    uint8_t *o = j->pad + (size_t) py * j->pw * nc;
    for (int c = 0; c < nc; c++) {
      const uint8_t *row = cs_channels_sample (s, c, 0, y);
      for (size_t px = 0; px < (size_t) j->pw; px++)
        o[nc * px + c] = row[(ptrdiff_t) clampi ((int) px - j->rx, 0, s->width - 1) * s->step];
    }
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

static inline __attribute__ ((always_inline)) void exact_rows_n (const Job *j, int begin, int end, int worker,
    const int nc)
{
  (void) worker;
  const int nx = 2 * j->rx + 1, ny = 2 * j->ry + 1, w = j->src->width;
  for (int y = begin; y < end; y++)
    for (int x = 0; x < w; x++) {
      const uint8_t *centre = j->pad + ((size_t) (y + j->ry) * j->pw + x + j->rx) * nc;
      float num[3] = { 0.f, 0.f, 0.f }, den = 0.f;
      for (int dy = 0; dy < ny; dy++) {
        const uint8_t *q = j->pad + ((size_t) (y + dy) * j->pw + x) * nc;
        const float *ws = j->spatial + dy * nx;
        for (int dx = 0; dx < nx; dx++, q += nc) {
          int d2 = 0;
          for (int c = 0; c < nc; c++)
            d2 += (q[c] - centre[c]) * (q[c] - centre[c]);
          const float wt = ws[dx] * j->range_lut[d2];
          for (int c = 0; c < nc; c++)
            num[c] += wt * q[c];
          den += wt;
        }
      }
      store (j, x, y, num, den, nc);
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

CS_CPU_BY_CHANNELS (exact_rows, Job)
CS_CPU_BY_CHANNELS (separable_rows, Job)
CS_CPU_BY_CHANNELS (separable_columns, Job)

/* padded frame, range table, spatial table, separable row-pass output */
static void workspace_sizes (const CsBilateralParams *px, const CsBilateralParams *py, int w, int h, size_t sizes[4])
{
  const int rx = cs_bilateral_effective_radius (px), ry = cs_bilateral_effective_radius (py);
  const size_t pw = (size_t) w + 2 * rx, ph = (size_t) h + 2 * ry;
  sizes[0] = pw * ph * 4;
  sizes[1] = (MAX_D + 1) * sizeof (float);
  sizes[2] = (size_t) (2 * rx + 1) * (2 * ry + 1) * sizeof (float);
  sizes[3] = px->mode == CS_BILATERAL_SEPARABLE ? (size_t) w * h * 3 * sizeof (float) : 0;
}

size_t cs_cpu_bilateral_workspace_bytes (const CsBilateralParams *p, int width, int height, int n_threads)
{
  size_t sizes[4];
  (void) n_threads;
  if (cs_bilateral_is_identity (p))
    return 0;
  workspace_sizes (p, p, width, height, sizes);
  return cs_workspace_total (4, sizes);
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
  size_t sizes[4];
  workspace_sizes (px, py, w, h, sizes);
  void *a[4];
  if (cs_workspace_carve (ws, 4, sizes, a) != 0)
    return -1;
  Job j = { src, dst, px, rx, ry, pw, src->channels, a[0], a[1], a[2], a[3] };

  /* exp(−dx²/2σx²) exp(−dy²/2σy²), as the reference's exp(−dx²/2σx² − dy²/2σy²) */
  const double cx = 1.0 / (2.0 * px->sigma * px->sigma), cy = 1.0 / (2.0 * py->sigma * py->sigma);
  if (separable) {
    for (int dx = -rx; dx <= rx; dx++)
      j.spatial[dx + rx] = (float) exp (-(double) (dx * dx) * cx);
    for (int dy = -ry; dy <= ry; dy++)
      j.spatial[nx + dy + ry] = (float) exp (-(double) (dy * dy) * cy);
  } else {
    for (int dy = -ry; dy <= ry; dy++)
      for (int dx = -rx; dx <= rx; dx++)
        j.spatial[(dy + ry) * nx + dx + rx] = (float) exp (-(double) (dx * dx) * cx - (double) (dy * dy) * cy);
  }
  cs_parallel_for (ph, n_threads, pad_rows, &j);
  cs_parallel_for (j.nc * 255 * 255 + 1, n_threads, fill_lut, &j);   /* the largest D of nc channels */
  if (separable) {
    cs_parallel_for (h, n_threads, separable_rows, &j);
    cs_parallel_for (h, n_threads, separable_columns, &j);
  } else {
    cs_parallel_for (h, n_threads, exact_rows, &j);
  }
  return 0;
}
