/* Bilateral filter, fast CPU path (float, all cores): same definition as cs_ref_bilateral.c.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The frame is copied into border-padded float planes, a plane a channel, so that the
 * window loops need no clamping and a tap's eight samples along a row are one load. Every
 * pass (the exact window; the separable mode's row pass on the input and its column pass on
 * the row pass's float output, also padded) filters eight outputs of a row at once
 * (cs_simd.h), a tap's weight one exp2 of the spatial and range exponents' sum (Gaussian)
 * or the spatial weight over 1 + t (Lorentzian), t = D/2σr², D = ‖I(p) − I(q)‖². A pass of
 * one channel on the input's bytes (the exact window, the separable row pass) takes the
 * range weight from a table of the 511 differences instead, one gather where the CPU has
 * AVX2: the exponential, which three channels share, cost one channel twice as much a
 * sample (docs/performance.md, "CPU path").
 */
#include "cs_cpu.h"
#include "cs_cpu_util.h"
#include "cs_parallel.h"
#include "cs_simd.h"

#include <math.h>
#include <string.h>

/* Planes of floats with a border: `pitch` floats a row, `rows` rows, `plane` floats from one
 * channel's plane to the next (a vector's reach, 8 floats, past the last row: the lanes past
 * the width of the last row's chunks read them). */
typedef struct {
  float *data;
  int pitch, rows;
  size_t plane;
} Planes;

static Planes planes_of (float *data, int pitch, int rows)
{
  const Planes p = { data, pitch, rows, (size_t) pitch * rows + 8 };
  return p;
}

/* One pass: outputs (x, y) of the frame's size from the window of nx × ny taps whose
 * top-left sample is in[y + dy][x + dx] for dy < ny, dx < nx; the centre is tap
 * (cx, cy). */
typedef struct {
  Planes in;
  int nx, ny, cx, cy;
  const CsF8 *taps;        /* nx·ny, rows first: log2 of the spatial weight (Gaussian, from the
                            * exponent), or the weight (Lorentzian, or from the table) */
  Planes out;              /* float outputs at (x + ox, y + oy), or none (data NULL): the view's bytes */
  int ox, oy;
} Pass;

typedef struct {
  const CsChannels *src;
  CsChannels *dst;
  int nc;                  /* channels: 1, 2 or 3 */
  int lorentz;
  float range;             /* −log2(e)/2σr² (Gaussian) or 1/2σr² (Lorentzian), a factor of D */
  const float *range_table; /* the range weight of a difference d = I(q) − I(p), at d + 255 */
  int rx, ry;              /* the padded input's border: the window's half-widths (separable: ry 0) */
  Planes pad;
  Pass pass;               /* the pass cs_parallel_for runs */
  CsF8 *ring;              /* per worker, the separable passes' weights (row_pairs, column_rows) */
  size_t ring_stride;
} Job;

static int clampi (int v, int lo, int hi)
{
  return v < lo ? lo : (v > hi ? hi : v);
}

/* The 8 floats after each plane's last row set to 0: lanes past the width read them, and a
 * one-channel pass indexes its table with what they read (the workspace holds whatever the
 * last frame left there). */
static void clear_tails (const Planes *p, int nc)
{
  for (int c = 0; c < nc; c++)
    memset (p->data + c * p->plane + (size_t) p->pitch * p->rows, 0, 8 * sizeof (float));
}

/* the padded input's rows [begin, end): each sample the view's nearest */
static void pad_input (void *arg, int begin, int end, int worker)
{
  const Job *j = arg;
  const CsChannels *s = j->src;
  (void) worker;
  for (int py = begin; py < end; py++)
    for (int c = 0; c < j->nc; c++) {
      const int y = clampi (py - j->ry, 0, s->height - 1);
      float *o = j->pad.data + c * j->pad.plane + (size_t) py * j->pad.pitch;
      for (int px = 0; px < j->pad.pitch; px++)
        o[px] = *cs_channels_sample (s, c, clampi (px - j->rx, 0, s->width - 1), y);
    }
}

/* How a tap's range weight is found: from the exponent (or the Lorentzian's quotient), or,
 * for one channel of integers, in the table by lane (any CPU) or by a gather (AVX2). */
enum { BY_EXPONENT, BY_LOOKUP, BY_GATHER };

static inline __attribute__ ((always_inline)) CsF8 table_weight (const float *table, CsI8 index, const int by)
{
  CsF8 w;
#ifdef CS_SIMD_GATHER
  if (by == BY_GATHER) {
    cs_f8_gather (table, &index, &w);
    return w;
  }
#endif
  (void) by;
  w = cs_f8_lookup (table, index);
  return w;
}

/* Eight outputs of row y from x, num/den, stored as floats or as the view's bytes (lanes
 * past the width not). */
static inline __attribute__ ((always_inline)) void store_chunk (const Job *j, int x, int y, const int nc,
    const CsF8 *num, CsF8 den)
{
  const Pass *p = &j->pass;
  const int lanes = j->src->width - x < 8 ? j->src->width - x : 8;
  for (int c = 0; c < nc; c++) {
    const CsF8 v = num[c] / den;
    if (p->out.data) {
      float *o = p->out.data + c * p->out.plane + (size_t) (y + p->oy) * p->out.pitch + x + p->ox;
      for (int i = 0; i < lanes; i++)
        o[i] = v[i];
    } else {
      for (int i = 0; i < lanes; i++)
        cs_channels_sample (j->dst, c, x + i, y)[0] = cs_quantise_f (v[i]);
    }
  }
}

/* One tap of a one-channel chunk: sample q at q_at, its weight tap · table[q − low] */
static inline __attribute__ ((always_inline)) void table_tap (const float *table, const float *q_at, CsF8 tap,
    CsF8 low, const int by, CsF8 *num, CsF8 *den)
{
  const CsF8 q = cs_f8_load (q_at);
  const CsF8 wt = tap * table_weight (table, __builtin_convertvector (q - low, CsI8), by);
  *num += wt * q;
  *den += wt;
}

/* The same for one channel of integers, the range weights from the table: the taps in two
 * interleaved sums each, so that a tap's additions do not wait on the last tap's (the loop
 * is short enough for that latency to bind it). */
static inline __attribute__ ((always_inline)) void table_chunk (const Job *j, int x, int y, const int by)
{
  const Pass *p = &j->pass;
  const float *table = j->range_table;
  /* q − (centre − 255): the difference's index, exact for integers */
  const CsF8 low = cs_f8_load (p->in.data + (size_t) (y + p->cy) * p->in.pitch + x + p->cx) - 255.f;
  CsF8 num[2] = { cs_f8 (0.f), cs_f8 (0.f) }, den[2] = { cs_f8 (0.f), cs_f8 (0.f) };
  for (int dy = 0; dy < p->ny; dy++) {
    const float *row = p->in.data + (size_t) (y + dy) * p->in.pitch + x;
    const CsF8 *taps = p->taps + dy * p->nx;
    int dx = 0;
    for (; dx + 1 < p->nx; dx += 2) {
      table_tap (table, row + dx, taps[dx], low, by, &num[0], &den[0]);
      table_tap (table, row + dx + 1, taps[dx + 1], low, by, &num[1], &den[1]);
    }
    if (dx < p->nx)
      table_tap (table, row + dx, taps[dx], low, by, &num[0], &den[0]);
  }
  const CsF8 sum = num[0] + num[1];
  store_chunk (j, x, y, 1, &sum, den[0] + den[1]);
}

/* A tap's weight from its spatial term and d2 = ‖I(p) − I(q)‖²: exp2 of the exponents' sum
 * (Gaussian), or the spatial weight over 1 + t (Lorentzian). */
static inline __attribute__ ((always_inline)) CsF8 tap_weight (const Job *j, CsF8 tap, CsF8 d2, const int lorentz)
{
  const CsF8 range = cs_f8 (j->range);
  return lorentz ? tap / (1.f + d2 * range) : cs_f8_exp2_nonpositive (tap + d2 * range);
}

/* Eight outputs of row y from x: the window's taps in the reference's order, each output's
 * sums in its own lane. */
static inline __attribute__ ((always_inline)) void window_chunk (const Job *j, int x, int y, const int nc,
    const int lorentz)
{
  const Pass *p = &j->pass;
  CsF8 centre[3], num[3], den = cs_f8 (0.f);
  const float *centre_at = p->in.data + (size_t) (y + p->cy) * p->in.pitch + x + p->cx;
  for (int c = 0; c < nc; c++) {
    centre[c] = cs_f8_load (centre_at + c * p->in.plane);
    num[c] = cs_f8 (0.f);
  }
  for (int dy = 0; dy < p->ny; dy++) {
    const float *row = p->in.data + (size_t) (y + dy) * p->in.pitch + x;
    for (int dx = 0; dx < p->nx; dx++) {
      CsF8 q[3], d2 = cs_f8 (0.f);
#pragma GCC unroll 3
      for (int c = 0; c < nc; c++) {
        q[c] = cs_f8_load (row + c * p->in.plane + dx);
        const CsF8 d = q[c] - centre[c];
        d2 += d * d;
      }
      const CsF8 wt = tap_weight (j, p->taps[dy * p->nx + dx], d2, lorentz);
#pragma GCC unroll 3
      for (int c = 0; c < nc; c++)
        num[c] += wt * q[c];
      den += wt;
    }
  }
  store_chunk (j, x, y, nc, num, den);
}

static inline __attribute__ ((always_inline)) void pass_rows_n (const Job *j, int begin, int end, const int nc,
    const int lorentz, const int by)
{
  for (int y = begin; y < end; y++)
    for (int x = 0; x < j->src->width; x += 8)
      if (by == BY_EXPONENT)
        window_chunk (j, x, y, nc, lorentz);
      else
        table_chunk (j, x, y, by);
}

/* The pass's output rows [begin, end), an instance per channel count and range kernel. */
CS_SIMD_CLONES static void pass_rows (void *arg, int begin, int end, int worker)
{
  const Job *j = arg;
  (void) worker;
  switch (j->nc * 2 + j->lorentz) {
    case 2: pass_rows_n (j, begin, end, 1, 0, BY_EXPONENT); break;
    case 3: pass_rows_n (j, begin, end, 1, 1, BY_EXPONENT); break;
    case 4: pass_rows_n (j, begin, end, 2, 0, BY_EXPONENT); break;
    case 5: pass_rows_n (j, begin, end, 2, 1, BY_EXPONENT); break;
    case 6: pass_rows_n (j, begin, end, 3, 0, BY_EXPONENT); break;
    default: pass_rows_n (j, begin, end, 3, 1, BY_EXPONENT); break;
  }
}

/* column_rows's ring for radius r: r + 1 rows of r weights for every chunk of 8 columns; it
 * takes the pass where it stays within a core's L2 (radius 4 at 4K: 300 KB), window_chunk
 * above that */
static size_t ring_length (int w, int r)
{
  return (size_t) (r + 1) * r * ((w + 7) / 8);
}

static int ring_fits (int w, int r)
{
  return ring_length (w, r) * sizeof (CsF8) <= ((size_t) 1 << 20);
}

/* row_pairs's weights for radius r: r rows of w + r, rounded up to whole vectors (CsF8),
 * and a vector more that the last chunk's lanes past the width read */
static size_t pair_stride (int w, int r)
{
  return (size_t) (w + r + 7) / 8 * 8 + 8;
}

static size_t pairs_length (int w, int r)
{
  return (size_t) r * pair_stride (w, r) / 8;
}

/* the worker's scratch of the separable passes, in CsF8 */
static size_t scratch_length (int w, int rx, int ry)
{
  const size_t rows = pairs_length (w, rx), columns = ring_fits (w, ry) ? ring_length (w, ry) : 0;
  return rows > columns ? rows : columns;
}

/* The weight between the samples at a and b (rows of the planes, lanes alike): the window's
 * expression with d = b − a, whose square is that of a − b, so w(p, q) = w(q, p) to the bit
 * (docs/algorithms.md, 6.3). */
static inline __attribute__ ((always_inline)) CsF8 pair_weight (const Job *j, const float *a, const float *b, CsF8 tap,
    const int nc, const int lorentz)
{
  const Pass *p = &j->pass;
  CsF8 d2 = cs_f8 (0.f);
#pragma GCC unroll 3
  for (int c = 0; c < nc; c++) {
    const CsF8 d = cs_f8_load (b + c * p->in.plane) - cs_f8_load (a + c * p->in.plane);
    d2 += d * d;
  }
  return tap_weight (j, tap, d2, lorentz);
}

/* A vertical pass (the separable column pass) over output rows [begin, end), each weight
 * computed once for the two outputs it joins: row c's weights to the r rows below it,
 * w(c, c + k), wait in a ring of r + 1 rows (every chunk of 8 columns across the width) for
 * the outputs of those rows, which take them as their taps above; rows in order, so that
 * memory is read along rows. The sums go in the window's order with the window's weights,
 * so the outputs are window_chunk's, at r + 1 weights an output instead of 2r + 1 (the
 * centre's is a constant). */
static inline __attribute__ ((always_inline)) void column_rows (const Job *j, int begin, int end, CsF8 *ring,
    const int nc, const int lorentz)
{
  const Pass *p = &j->pass;
  const int r = p->cy, w = j->src->width, chunks = (w + 7) / 8;
  const size_t pitch = (size_t) p->in.pitch;
  const CsF8 centre = tap_weight (j, p->taps[r], cs_f8 (0.f), lorentz);   /* d² = 0 */
  /* w(row, row + k) of column chunk u */
#define RING(row, k, u) ring[(((size_t) ((row) % (r + 1)) * r + (k) - 1) * chunks + (u))]
#define AT(row, u) (p->in.data + (size_t) (row) * pitch + 8 * (u))
  for (int q = begin; q < begin + r; q++)   /* the rows above the first centre, for its taps above */
    for (int k = begin + r - q; k <= r; k++)
      for (int u = 0; u < chunks; u++)
        RING (q, k, u) = pair_weight (j, AT (q, u), AT (q + k, u), p->taps[r + k], nc, lorentz);
  for (int y = begin; y < end; y++) {
    const int c = y + r;   /* the centre's row in the padded planes */
    for (int k = 1; k <= r; k++)
      for (int u = 0; u < chunks; u++)
        RING (c, k, u) = pair_weight (j, AT (c, u), AT (c + k, u), p->taps[r + k], nc, lorentz);
    const CsF8 *taps[2 * CS_BILATERAL_RADIUS_MAX + 1];   /* tap dy's weights along the row, but the centre's */
    for (int dy = 0; dy <= 2 * r; dy++)
      taps[dy] = dy < r ? &RING (c - (r - dy), r - dy, 0) : dy > r ? &RING (c, dy - r, 0) : NULL;
    for (int u = 0; u < chunks; u++) {
      CsF8 num[3], den = cs_f8 (0.f);
      for (int ch = 0; ch < nc; ch++)
        num[ch] = cs_f8 (0.f);
      const float *row = AT (c - r, u);
      for (int dy = 0; dy <= 2 * r; dy++, row += pitch) {
        const CsF8 wt = dy == r ? centre : taps[dy][u];
#pragma GCC unroll 3
        for (int ch = 0; ch < nc; ch++)
          num[ch] += wt * cs_f8_load (row + ch * p->in.plane);
        den += wt;
      }
      store_chunk (j, 8 * u, y, nc, num, den);
    }
  }
#undef AT
#undef RING
}

/* Output rows [begin, end) of a vertical pass by column_rows, an instance per channel count
 * and range kernel; the worker's ring in the job's scratch. */
static CS_SIMD_CLONES void pass_columns (void *arg, int begin, int end, int worker)
{
  const Job *j = arg;
  CsF8 *ring = j->ring + (size_t) worker * j->ring_stride;
  switch (j->nc * 2 + j->lorentz) {
    case 2: column_rows (j, begin, end, ring, 1, 0); break;
    case 3: column_rows (j, begin, end, ring, 1, 1); break;
    case 4: column_rows (j, begin, end, ring, 2, 0); break;
    case 5: column_rows (j, begin, end, ring, 2, 1); break;
    case 6: column_rows (j, begin, end, ring, 3, 0); break;
    default: column_rows (j, begin, end, ring, 3, 1); break;
  }
}

/* The separable row pass of output row y, each weight computed once for the two outputs it
 * joins, as column_rows does down the columns: first w(x, x + k) for k = 1..r and every
 * output x from −r (the border's), at weights[(k − 1)·stride + x + r], then the sums in the
 * window's order, so the outputs are window_chunk's. (One channel of integers keeps
 * table_chunk: a gather a tap cost less than storing and reloading the weights.) */
static inline __attribute__ ((always_inline)) void row_pairs (const Job *j, int y, float *weights, const int nc,
    const int lorentz)
{
  const Pass *p = &j->pass;
  const int r = p->cx, w = j->src->width;
  const size_t stride = pair_stride (w, r);
  const float *in = p->in.data + (size_t) y * p->in.pitch;   /* output x's taps at in + x .. in + x + 2r */
  for (int k = 1; k <= r; k++)
    for (int i = 0; i < w + r; i += 8) {   /* output i − r: centre at i, partner at i + k */
      const CsF8 wt = pair_weight (j, in + i, in + i + k, p->taps[r + k], nc, lorentz);
      memcpy (weights + (k - 1) * stride + i, &wt, sizeof wt);
    }
  for (int k = 1; k <= r; k++)   /* no stale NaN or denormals in the lanes no one stores */
    memset (weights + (k - 1) * stride + stride - 8, 0, 8 * sizeof (float));
  const CsF8 centre = tap_weight (j, p->taps[r], cs_f8 (0.f), lorentz);   /* d² = 0 */
  for (int x = 0; x < w; x += 8) {
    CsF8 num[3], den = cs_f8 (0.f);
    for (int c = 0; c < nc; c++)
      num[c] = cs_f8 (0.f);
    for (int dx = 0; dx <= 2 * r; dx++) {
      const CsF8 wt = dx < r ? cs_f8_load (weights + (r - dx - 1) * stride + x + dx)
          : dx == r          ? centre
                             : cs_f8_load (weights + (dx - r - 1) * stride + x + r);
#pragma GCC unroll 3
      for (int c = 0; c < nc; c++)
        num[c] += wt * cs_f8_load (in + c * p->in.plane + x + dx);
      den += wt;
    }
    store_chunk (j, x, y, nc, num, den);
  }
}

/* The separable row pass by row_pairs, an instance per channel count and range kernel. */
static CS_SIMD_CLONES void pass_row_pairs (void *arg, int begin, int end, int worker)
{
  const Job *j = arg;
  float *weights = (float *) (j->ring + (size_t) worker * j->ring_stride);
  for (int y = begin; y < end; y++)
    switch (j->nc * 2 + j->lorentz) {
      case 2: row_pairs (j, y, weights, 1, 0); break;
      case 3: row_pairs (j, y, weights, 1, 1); break;
      case 4: row_pairs (j, y, weights, 2, 0); break;
      case 5: row_pairs (j, y, weights, 2, 1); break;
      case 6: row_pairs (j, y, weights, 3, 0); break;
      default: row_pairs (j, y, weights, 3, 1); break;
    }
}

/* A one-channel pass on the input's bytes, range weights from the table. */
static void pass_rows_table (void *arg, int begin, int end, int worker)
{
  (void) worker;
  pass_rows_n (arg, begin, end, 1, 0, BY_LOOKUP);
}

#ifdef CS_SIMD_GATHER
CS_SIMD_AVX2 static void pass_rows_gather (void *arg, int begin, int end, int worker)
{
  (void) worker;
  pass_rows_n (arg, begin, end, 1, 0, BY_GATHER);
}
#endif

/* the pass function of a one-channel pass on the input's bytes */
static CsRangeFn table_pass (void)
{
#ifdef CS_SIMD_GATHER
  if (__builtin_cpu_supports ("avx2"))
    return pass_rows_gather;
#endif
  return pass_rows_table;
}

/* The separable row pass's output, rows ry .. ry + h − 1 of its planes: the rows above and
 * below repeat the first and last, as the column pass's clamped window reads them. */
static void pad_columns (const Planes *t, int nc, int h, int ry)
{
  for (int c = 0; c < nc; c++) {
    float *plane = t->data + c * t->plane;
    for (int r = 0; r < ry; r++) {
      memcpy (plane + (size_t) r * t->pitch, plane + (size_t) ry * t->pitch, t->pitch * sizeof (float));
      memcpy (plane + (size_t) (ry + h + r) * t->pitch, plane + (size_t) (ry + h - 1) * t->pitch,
          t->pitch * sizeof (float));
    }
  }
}

/* the padded input, the separable row pass's output (padded in y), the taps, the column
 * passes' rings */
enum { N_ARRAYS = 4 };

static void workspace_sizes (const CsBilateralParams *px, const CsBilateralParams *py, int w, int h, int n_threads,
    size_t sizes[N_ARRAYS])
{
  const int rx = cs_bilateral_effective_radius (px), ry = cs_bilateral_effective_radius (py);
  const int separable = px->mode == CS_BILATERAL_SEPARABLE;
  sizes[0] = 3 * planes_of (NULL, w + 2 * rx, separable ? h : h + 2 * ry).plane * sizeof (float);
  sizes[1] = separable ? 3 * planes_of (NULL, w, h + 2 * ry).plane * sizeof (float) : 0;
  sizes[2] = (size_t) (separable ? 2 * rx + 1 + 2 * ry + 1 : (2 * rx + 1) * (2 * ry + 1)) * sizeof (CsF8);
  sizes[3] = separable ? (size_t) n_threads * scratch_length (w, rx, ry) * sizeof (CsF8) : 0;
}

size_t cs_cpu_bilateral_workspace_bytes (const CsBilateralParams *p, int width, int height, int n_threads)
{
  size_t sizes[N_ARRAYS];
  if (cs_bilateral_is_identity (p))
    return 0;
  workspace_sizes (p, p, width, height, cs_cpu_threads (n_threads), sizes);
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
  const int nx = 2 * rx + 1, ny = 2 * ry + 1;
  const int separable = px->mode == CS_BILATERAL_SEPARABLE;
  size_t sizes[N_ARRAYS];
  workspace_sizes (px, py, w, h, n_threads, sizes);
  void *a[N_ARRAYS];
  if (cs_workspace_carve (ws, N_ARRAYS, sizes, a) != 0)
    return -1;
  const double log2e = 1.4426950408889634, t_scale = 1.0 / (2.0 * px->sigma_r * px->sigma_r);
  const int lorentz = px->range_kernel == CS_RANGE_KERNEL_LORENTZIAN;
  Job j = { .src = src, .dst = dst, .nc = src->channels, .lorentz = lorentz,
    .range = (float) (lorentz ? t_scale : -log2e * t_scale), .rx = rx, .ry = separable ? 0 : ry,
    .pad = planes_of (a[0], w + 2 * rx, separable ? h : h + 2 * ry) };
  CsF8 *taps = a[2];

  /* one channel: the passes on the input's bytes take the range weight of each difference
   * from a table (the separable column pass reads floats: the exponent) */
  const int by_table = j.nc == 1;
  float range_table[511];
  if (by_table) {
    for (int d = -255; d <= 255; d++) {
      const double t = (double) (d * d) * t_scale;
      range_table[d + 255] = (float) (lorentz ? 1.0 / (1.0 + t) : exp (-t));
    }
    j.range_table = range_table;
  }
  const CsRangeFn input_pass = by_table ? table_pass () : separable ? pass_row_pairs : pass_rows;

  /* exp(−dx²/2σx²) exp(−dy²/2σy²), as the reference's exp(−dx²/2σx² − dy²/2σy²); its log2
   * for the Gaussian range weight's exp2 */
  const double cx = 1.0 / (2.0 * px->sigma * px->sigma), cy = 1.0 / (2.0 * py->sigma * py->sigma);
#define TAP(e, linear) cs_f8 ((float) (lorentz || (linear) ? exp (e) : log2e * (e)))
  cs_parallel_for (j.pad.rows, n_threads, pad_input, &j);
  clear_tails (&j.pad, j.nc);
  if (separable) {
    for (int dx = -rx; dx <= rx; dx++)
      taps[dx + rx] = TAP (-(double) (dx * dx) * cx, by_table);
    for (int dy = -ry; dy <= ry; dy++)
      taps[nx + dy + ry] = TAP (-(double) (dy * dy) * cy, 0);
    const Planes t = planes_of (a[1], w, h + 2 * ry);
    j.ring = a[3];
    j.ring_stride = scratch_length (w, rx, ry);
    j.pass = (Pass) { j.pad, nx, 1, rx, 0, taps, t, 0, ry };
    cs_parallel_for (h, n_threads, input_pass, &j);
    pad_columns (&t, j.nc, h, ry);
    j.pass = (Pass) { t, 1, ny, 0, ry, taps + nx, { NULL, 0, 0, 0 }, 0, 0 };
    cs_parallel_for (h, n_threads, ring_fits (w, ry) ? pass_columns : pass_rows, &j);
  } else {
    for (int dy = -ry; dy <= ry; dy++)
      for (int dx = -rx; dx <= rx; dx++)
        taps[(dy + ry) * nx + dx + rx] = TAP (-(double) (dx * dx) * cx - (double) (dy * dy) * cy, by_table);
    j.pass = (Pass) { j.pad, nx, ny, rx, ry, taps, { NULL, 0, 0, 0 }, 0, 0 };
    cs_parallel_for (h, n_threads, input_pass, &j);
  }
#undef TAP
  return 0;
}
