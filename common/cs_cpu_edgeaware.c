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
#include "cs_simd.h"

#include "cs_cmplx.h"
#include <math.h>
#include <string.h>

/* Per D, the two poles side by side as (re, im) pairs, lane by lane the reference's terms
 * of eq. 4 with Φ expanded: causal g' = cc f[k] + cp f[k−1] + bd g, anticausal
 * g' = an f[k+1] + ac f[k] + bd g, the complex product bd g as bd_re·g + bd_im·swap(g) with
 * bd_im negated in the real lanes (x + (−b)y is x − by exactly). */
typedef struct {
  CsF4 cc, cp, an, ac, bd_re, bd_im;
  double dt;   /* in double, as the reference's warm-up search sums it: a threshold κσ_i can
                * equal a sum of Δt exactly, and float sums could decide such ties otherwise */
} SpacingTerms;

typedef struct {
  CsF4 causal;       /* steady state per unit input, (re, im) of each pole: a/(1−b) */
  CsF4 anticausal;   /* a b/(1−b) */
} Inits;

/* Lines filtered together: a line's recursion is a chain of dependent operations, and one
 * chain a channel (one for GRAY8 or a luma plane) left the core waiting on each step's
 * latency. Four rows of one channel, two of two or three: more rows measured no faster
 * (docs/performance.md). */
enum { MAX_ROWS = 4, MAX_CHAINS = 6 };   /* rows_together (nc), and that times nc, at most */

static inline __attribute__ ((always_inline)) int rows_together (int nc)
{
  return nc == 1 ? 4 : 2;
}

typedef struct {
  float *data;              /* width x height x nc, filtered in place row by row */
  const uint32_t *d;        /* D between a sample and its left neighbour (0 at x = 0) */
  int width, height;
  const SpacingTerms *lut;
  Inits inits;
  double warmup;
  int segments;
  float *lines;             /* per worker MAX_CHAINS lines of width floats */
  int lines_per_thread_stride;
  int nc;                   /* channels per sample: 1, 2 or 3 */
} PassJob;

/* One row of a group: its samples, spacings and output line */
typedef struct {
  const float *f;
  const uint32_t *d;
  float *out;
} Row;

static inline __attribute__ ((always_inline)) CsF4 splat4 (float v)
{
  return (CsF4) { v, v, v, v };
}

/* ((a·x + b·y) + bd_re·g) + bd_im·swap(g): the reference's expression, in its order */
static inline __attribute__ ((always_inline)) CsF4 pole_step (CsF4 a, float x, CsF4 b, float y, const SpacingTerms *t,
    CsF4 g)
{
  return ((a * splat4 (x) + b * splat4 (y)) + t->bd_re * g) + t->bd_im * __builtin_shufflevector (g, g, 1, 0, 3, 2);
}

/* the two poles' real parts summed: gr[0] + gr[1] */
static inline __attribute__ ((always_inline)) float pole_sum (CsF4 g)
{
  return g[0] + g[2];
}

/* Segment [st, en) of R rows of length n at once: each row's causal and anticausal sweeps in
 * the reference's operations and order. Each row's warm-up starts where its own spacings
 * reach κσ_i; a row runs alone from its start up to the group's latest, then all together. */
static inline __attribute__ ((always_inline)) void filter_segment (const PassJob *job, const Row *rows, int n, int st,
    int en, const int R, const int nc)
{
  const SpacingTerms *lut = job->lut;
  CsF4 g[MAX_ROWS][3];
  int from[MAX_ROWS], last = 0;
  for (int r = 0; r < R; r++) {
    int s = st;
    double acc = 0.0;
    while (s > 0 && acc < job->warmup)
      acc += lut[rows[r].d[s--]].dt;
    from[r] = s;
    last = s > last ? s : last;
  }
  for (int r = 0; r < R; r++) {
    const Row *w = &rows[r];
    for (int c = 0; c < nc; c++)
      g[r][c] = job->inits.causal * splat4 (w->f[nc * from[r] + c]);
    for (int k = from[r]; k <= last; k++) {
      if (k > from[r]) {
        const SpacingTerms *t = &lut[w->d[k]];
        for (int c = 0; c < nc; c++)
          g[r][c] = pole_step (t->cc, w->f[nc * k + c], t->cp, w->f[nc * (k - 1) + c], t, g[r][c]);
      }
      if (k >= st)
        for (int c = 0; c < nc; c++)
          w->out[nc * k + c] = pole_sum (g[r][c]);
    }
  }
  for (int k = last + 1; k < en; k++) {
#pragma GCC unroll 4
    for (int r = 0; r < R; r++) {
      const Row *w = &rows[r];
      const SpacingTerms *t = &lut[w->d[k]];
#pragma GCC unroll 3
      for (int c = 0; c < nc; c++) {
        g[r][c] = pole_step (t->cc, w->f[nc * k + c], t->cp, w->f[nc * (k - 1) + c], t, g[r][c]);
        if (k >= st)
          w->out[nc * k + c] = pole_sum (g[r][c]);
      }
    }
  }

  int first = n - 1;
  for (int r = 0; r < R; r++) {
    int e = en - 1;
    double acc = 0.0;
    while (e < n - 1 && acc < job->warmup)
      acc += lut[rows[r].d[++e]].dt;
    from[r] = e;
    first = e < first ? e : first;
  }
  for (int r = 0; r < R; r++) {
    const Row *w = &rows[r];
    for (int c = 0; c < nc; c++)
      g[r][c] = job->inits.anticausal * splat4 (w->f[nc * from[r] + c]);
    for (int k = from[r]; k >= first; k--) {
      if (k < from[r]) {
        const SpacingTerms *t = &lut[w->d[k + 1]];
        for (int c = 0; c < nc; c++)
          g[r][c] = pole_step (t->an, w->f[nc * (k + 1) + c], t->ac, w->f[nc * k + c], t, g[r][c]);
      }
      if (k < en)
        for (int c = 0; c < nc; c++)
          w->out[nc * k + c] += pole_sum (g[r][c]);
    }
  }
  for (int k = first - 1; k >= st; k--) {
#pragma GCC unroll 4
    for (int r = 0; r < R; r++) {
      const Row *w = &rows[r];
      const SpacingTerms *t = &lut[w->d[k + 1]];
#pragma GCC unroll 3
      for (int c = 0; c < nc; c++) {
        g[r][c] = pole_step (t->an, w->f[nc * (k + 1) + c], t->ac, w->f[nc * k + c], t, g[r][c]);
        w->out[nc * k + c] += pole_sum (g[r][c]);
      }
    }
  }
}

/* Groups [begin, end) of rows_together (nc) rows; the frame's last group repeats its last
 * row into a line no one copies back, so that every group runs the same code. */
static inline __attribute__ ((always_inline)) void pass_rows_n (const PassJob *job, int begin, int end, int worker,
    const int nc)
{
  const int w = job->width, R = rows_together (nc);
  float *lines = job->lines + (size_t) worker * job->lines_per_thread_stride;
  for (int group = begin; group < end; group++) {
    Row rows[MAX_ROWS];
    const int y0 = group * R, count = job->height - y0 < R ? job->height - y0 : R;
    for (int r = 0; r < R; r++) {
      const int y = y0 + (r < count ? r : count - 1);
      rows[r] = (Row) { job->data + (size_t) y * w * nc, job->d + (size_t) y * w, lines + (size_t) r * w * nc };
    }
    for (int j = 0; j < job->segments; j++) {
      int st, en;
      cs_segment_bounds (w, job->segments, j, &st, &en);
      if (en > st)
        filter_segment (job, rows, w, st, en, R, nc);
    }
    for (int r = 0; r < count; r++)
      memcpy (job->data + (size_t) (y0 + r) * w * nc, rows[r].out, (size_t) w * nc * sizeof (float));
  }
}

CS_CPU_BY_CHANNELS_WITH (pass_rows, PassJob, CS_SIMD_CLONES)

typedef struct {
  const CsChannels *src;
  float *v;
  uint32_t *d_h, *d_v;      /* d_v stored transposed (height-major per column) */
  uint32_t max_d[64];
  uint64_t *seen;           /* per worker a bit per D ≥ SEEN_FROM (two or three channels): the D that occur */
} PrepareJob;

/* The table holds every D below SEEN_FROM, which most samples have, and the larger D the frame
 * has, which the workers mark as they find them: a test per eight samples, a mark for the few
 * at edges. */
enum { MAX_D = 3 * 255 * 255, SEEN_WORDS = MAX_D / 64 + 1, SEEN_FROM = 1024 };

static inline __attribute__ ((always_inline)) void mark_seen (uint64_t *seen, uint32_t d)
{
  seen[d / 64] |= (uint64_t) 1 << (d % 64);
}

/* D = ‖ΔI‖² to the left and upper neighbour of every sample, over the view's channels, for
 * blocks [begin, end) of PREPARE_ROWS rows, eight columns at a time in the vector lanes: a
 * block's D to the rows above go out as 8 × 8 transposed blocks, since d_v is stored a column
 * at a time (a sample at a time, each d_v store went to its own cache line). */
enum { PREPARE_ROWS = 8 };

/* samples x .. x + 7 of a row from p, `step` bytes apart */
static inline __attribute__ ((always_inline)) CsI8 samples8 (const uint8_t *p, ptrdiff_t step)
{
  CsI8 v;
  for (int i = 0; i < 8; i++)
    v[i] = p[i * step];
  return v;
}

static inline __attribute__ ((always_inline)) CsI8 max8 (CsI8 a, CsI8 b)
{
  const CsI8 below = a < b;
  return (a & ~below) | (b & below);
}

static inline __attribute__ ((always_inline)) void prepare_rows_n (PrepareJob *job, int begin, int end, int worker,
    const int nc)
{
  const CsChannels *src = job->src;
  const int w = src->width, h = src->height;
  const ptrdiff_t step = src->step;
  CsI8 max8_d = { 0 };
  uint32_t max_d = 0;
  uint64_t *seen = job->seen + (size_t) worker * SEEN_WORDS;
  const int rows_end = PREPARE_ROWS * end < h ? PREPARE_ROWS * end : h;
  cs_cpu_unpack_channels (src, job->v, PREPARE_ROWS * begin, rows_end);
  for (int y0 = PREPARE_ROWS * begin; y0 < rows_end; y0 += PREPARE_ROWS) {
    const int y1 = y0 + PREPARE_ROWS < rows_end ? y0 + PREPARE_ROWS : rows_end;
    const uint8_t *row[PREPARE_ROWS + 1][3];   /* row y0 − 1 (or y0 at the top), then the block's */
    for (int y = y0 - 1; y < y1; y++)
      for (int c = 0; c < nc; c++)
        row[y - y0 + 1][c] = cs_channels_sample (src, c, 0, y > 0 ? y : 0);
    int x0 = 0;
    for (; x0 + 8 <= w; x0 += 8) {
      const ptrdiff_t o = (ptrdiff_t) x0 * step;
      CsI8 dv[PREPARE_ROWS];
      for (int y = y0; y < y1; y++) {
        CsI8 dh = { 0 };
        dv[y - y0] = (CsI8) { 0 };
        for (int c = 0; c < nc; c++) {
          const uint8_t *at = row[y - y0 + 1][c] + o;
          const CsI8 cur = samples8 (at, step);
          const CsI8 left = x0 > 0 ? samples8 (at - step, step) : __builtin_shufflevector (cur, cur, 0, 0, 1, 2, 3, 4, 5, 6);
          const CsI8 a = cur - left, b = cur - samples8 (row[y - y0][c] + o, step);
          dh += a * a;
          dv[y - y0] += b * b;
        }
        memcpy (job->d_h + (size_t) y * w + x0, &dh, sizeof dh);
        max8_d = max8 (max8_d, max8 (dh, dv[y - y0]));
        if (nc > 1) {
          const CsI8 large = (dh >= SEEN_FROM) | (dv[y - y0] >= SEEN_FROM);
          int any = 0;
          for (int i = 0; i < 8; i++)
            any |= large[i];
          if (any)
            for (int i = 0; i < 8; i++) {
              mark_seen (seen, (uint32_t) dh[i]);
              mark_seen (seen, (uint32_t) dv[y - y0][i]);
            }
        }
      }
      if (y1 - y0 == PREPARE_ROWS) {
        CsF8 t[8];
        memcpy (t, dv, sizeof t);
        cs_f8_transpose8 (t);
        for (int i = 0; i < 8; i++)
          memcpy (job->d_v + (size_t) (x0 + i) * h + y0, &t[i], sizeof t[i]);
      } else {
        for (int y = y0; y < y1; y++)
          for (int i = 0; i < 8; i++)
            job->d_v[(size_t) (x0 + i) * h + y] = (uint32_t) dv[y - y0][i];
      }
    }
    for (int x = x0; x < w; x++) {
      const ptrdiff_t o = (ptrdiff_t) x * step, left = x > 0 ? o - step : o;
      for (int y = y0; y < y1; y++) {
        uint32_t dh = 0, dv = 0;
        for (int c = 0; c < nc; c++) {
          const int a = row[y - y0 + 1][c][o] - row[y - y0 + 1][c][left], b = row[y - y0 + 1][c][o] - row[y - y0][c][o];
          dh += (uint32_t) (a * a);
          dv += (uint32_t) (b * b);
        }
        job->d_h[(size_t) y * w + x] = dh;
        job->d_v[(size_t) x * h + y] = dv;
        max_d = dh > max_d ? dh : max_d;
        max_d = dv > max_d ? dv : max_d;
        if (nc > 1) {
          mark_seen (seen, dh);
          mark_seen (seen, dv);
        }
      }
    }
  }
  for (int i = 0; i < 8; i++)   /* D ≤ 3·255²: the signed lanes hold it */
    max_d = (uint32_t) max8_d[i] > max_d ? (uint32_t) max8_d[i] : max_d;
  job->max_d[worker] = max_d > job->max_d[worker] ? max_d : job->max_d[worker];   /* a thread runs several chunks */
}

static CS_SIMD_CLONES void prepare_rows (void *arg, int begin, int end, int worker)
{
  PrepareJob *job = arg;
  switch (job->src->channels) {
    case 1: prepare_rows_n (job, begin, end, worker, 1); break;
    case 2: prepare_rows_n (job, begin, end, worker, 2); break;
    default: prepare_rows_n (job, begin, end, worker, 3); break;
  }
}

/* The D the table needs, listed in `entries` (their count returned): one channel's are the
 * 256 squares of differences up to max_d; for two and three channels, those below
 * SEEN_FROM and the larger ones the frame has (the workers' marks ORed), a few thousand
 * where 0..max_d would be up to 195 076 entries to compute. */
static int table_entries (int nc, uint32_t max_d, const uint64_t *seen, int n_workers, uint32_t *entries)
{
  int count = 0;
  if (nc == 1) {
    for (uint32_t a = 0; a <= 255 && a * a <= max_d; a++)
      entries[count++] = a * a;
    return count;
  }
  for (uint32_t d = 0; d < SEEN_FROM && d <= max_d; d++)
    entries[count++] = d;
  for (uint32_t word = SEEN_FROM / 64; word <= max_d / 64; word++) {
    uint64_t bits = 0;
    for (int t = 0; t < n_workers; t++)
      bits |= seen[(size_t) t * SEEN_WORDS + word];
    for (; bits; bits &= bits - 1)
      entries[count++] = 64 * word + (uint32_t) __builtin_ctzll (bits);
  }
  return count;
}

typedef struct {
  SpacingTerms *lut;
  const uint32_t *entries;   /* the D to fill */
  double ratio2;
  CsDericheCoeffs coeffs;
} LutJob;

static void fill_lut (void *arg, int begin, int end, int worker)
{
  const LutJob *job = arg;
  (void) worker;
  const CsDericheCoeffs *c = &job->coeffs;
  for (int i = begin; i < end; i++) {
    const uint32_t d = job->entries[i];
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
      const int re = 2 * i, im = 2 * i + 1;
      t->bd_re[re] = t->bd_re[im] = (float) creal (bd);
      t->bd_im[re] = (float) -cimag (bd);
      t->bd_im[im] = (float) cimag (bd);
      t->cc[re] = (float) creal (cc);
      t->cc[im] = (float) cimag (cc);
      t->cp[re] = (float) creal (cp);
      t->cp[im] = (float) cimag (cp);
      t->an[re] = (float) creal (an);
      t->an[im] = (float) cimag (an);
      t->ac[re] = (float) creal (ac);
      t->ac[im] = (float) cimag (ac);
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

/* A view's arrays: the view as floats and its transpose, the spacings' D along rows and
 * columns, the per-D table (up to nc·255², the largest D of nc channels), the list of D the
 * table holds, and its marks; then, once for all views, the workers' lines */
enum { VIEW_ARRAYS = 7 };

static void view_sizes (const CsChannels *src, int n_threads, size_t sizes[VIEW_ARRAYS])
{
  const size_t npix = (size_t) src->width * src->height, nc = (size_t) src->channels, max_d = nc * 255 * 255;
  sizes[0] = npix * nc * sizeof (float);
  sizes[1] = npix * nc * sizeof (float);
  sizes[2] = npix * sizeof (uint32_t);
  sizes[3] = npix * sizeof (uint32_t);
  sizes[4] = (max_d + 1) * sizeof (SpacingTerms);
  sizes[5] = (max_d + 1) * sizeof (uint32_t);
  sizes[6] = nc > 1 ? (size_t) n_threads * SEEN_WORDS * sizeof (uint64_t) : 0;
}

static size_t lines_bytes (int n_max, int n_threads)
{
  return (size_t) n_threads * n_max * MAX_CHAINS * sizeof (float);
}

size_t cs_cpu_edgeaware_workspace_bytes (const CsEdgeAwareParams *p, int width, int height, int n_threads)
{
  (void) p;
  n_threads = cs_cpu_threads (n_threads);
  const CsChannels rgb = { .width = width, .height = height, .channels = 3 };
  size_t sizes[VIEW_ARRAYS + 1];
  view_sizes (&rgb, n_threads, sizes);
  sizes[VIEW_ARRAYS] = lines_bytes (width > height ? width : height, n_threads);
  return cs_workspace_total (VIEW_ARRAYS + 1, sizes);
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

int cs_cpu_edgeaware_channels (const CsChannels *src, CsChannels *dst, const CsEdgeAwareParams *px,
    const CsEdgeAwareParams *py, int n_threads, CsCpuWorkspace *ws)
{
  return cs_cpu_edgeaware_views (1, src, dst, px, py, n_threads, ws);
}

typedef struct {
  SpacingTerms *lut;
  const uint32_t *entries;   /* the D the table holds */
  int count;
} Table;

/* A pass of iteration `it` with p (that axis's parameters) over n_lines rows of n samples
 * of data, whose spacings' D are d: the table's fill for p's σ_i and the sweeps' job. */
static void pass_jobs (const CsEdgeAwareParams *p, int it, float *data, int nc, const uint32_t *d, int n,
    int n_lines, const Table *table, float *lines, int n_max, LutJob *lj, PassJob *job)
{
  const double sigma_i = cs_edgeaware_iteration_sigma (p, it);
  const double ratio = p->sigma / p->sigma_r;
  *lj = (LutJob) { .lut = table->lut, .entries = table->entries, .ratio2 = ratio * ratio };
  cs_deriche_coeffs (sigma_i, &lj->coeffs);
  *job = (PassJob) {
    .data = data, .d = d, .width = n, .height = n_lines,
    .lut = table->lut, .warmup = p->kappa * sigma_i, .lines = lines,
    .lines_per_thread_stride = n_max * MAX_CHAINS,
    .segments = p->blocks_per_stripe > 0 ? p->blocks_per_stripe : 1,
    .nc = nc,
  };
  for (int i = 0; i < 2; i++) {
    job->inits.causal[2 * i] = (float) lj->coeffs.causal_init[i].re;
    job->inits.causal[2 * i + 1] = (float) lj->coeffs.causal_init[i].im;
    job->inits.anticausal[2 * i] = (float) lj->coeffs.anticausal_init[i].re;
    job->inits.anticausal[2 * i + 1] = (float) lj->coeffs.anticausal_init[i].im;
  }
}

/* The jobs of every loop, by view */
typedef struct {
  PrepareJob prep[CS_CPU_MAX_VIEWS];
  LutJob lut[CS_CPU_MAX_VIEWS];
  PassJob pass[CS_CPU_MAX_VIEWS];
  CsCpuTransposeJob transpose[CS_CPU_MAX_VIEWS];
  PackJob pack[CS_CPU_MAX_VIEWS];
  int items[CS_CPU_MAX_VIEWS];
} Loops;

/* One pass (axis 0: rows of v; 1: rows of v_t) of iteration `it` of every view that filters
 * in it: the tables where they need filling (fill[v]; NULL: every view's), then the sweeps,
 * each in one loop for all views. */
static void views_pass (int n, const CsChannels *src, const CsEdgeAwareParams *p, const int *active, int axis, int it,
    float *const *data, uint32_t *const *d, const Table *tables, const int *fill, float *lines, int n_max, Loops *l,
    int n_threads)
{
  for (int v = 0; v < n; v++) {
    const int w = src[v].width, h = src[v].height;
    if (active[v])
      pass_jobs (&p[v], it, data[v], src[v].channels, d[v], axis ? h : w, axis ? w : h, &tables[v], lines, n_max,
          &l->lut[v], &l->pass[v]);
    l->items[v] = active[v] && (!fill || fill[v]) ? tables[v].count : 0;
  }
  cs_cpu_for_views (n, l->lut, sizeof l->lut[0], l->items, fill_lut, 0, n_threads);
  for (int v = 0; v < n; v++) {
    const int together = rows_together (src[v].channels);
    l->items[v] = active[v] ? (l->pass[v].height + together - 1) / together : 0;
  }
  cs_cpu_for_views (n, l->pass, sizeof l->pass[0], l->items, pass_rows, 1, n_threads);
}

/* Transposes every active view's v into v_t (back: v_t into v), in one loop. */
static void views_transpose (int n, const CsChannels *src, const int *active, float *const *v, float *const *v_t,
    int back, Loops *l, int n_threads)
{
  for (int i = 0; i < n; i++) {
    const int w = src[i].width, h = src[i].height;
    const size_t elem = (size_t) src[i].channels * sizeof (float);
    l->transpose[i] = back ? (CsCpuTransposeJob) { v_t[i], v[i], h, w, elem } : (CsCpuTransposeJob) { v[i], v_t[i], w, h, elem };
    l->items[i] = active[i] ? cs_cpu_transpose_blocks (&l->transpose[i]) : 0;
  }
  cs_cpu_for_views (n, l->transpose, sizeof l->transpose[0], l->items, cs_cpu_transpose_rows, 0, n_threads);
}

int cs_cpu_edgeaware_views (int n, const CsChannels *src, CsChannels *dst, const CsEdgeAwareParams *px,
    const CsEdgeAwareParams *py, int n_threads, CsCpuWorkspace *ws)
{
  if (n < 1 || n > CS_CPU_MAX_VIEWS)
    return -1;
  n_threads = cs_cpu_threads (n_threads);
  int w = 0, h = 0, n_max = 0;
  for (int v = 0; v < n; v++) {
    w = src[v].width > w ? src[v].width : w;
    h = src[v].height > h ? src[v].height : h;
    n_max = src[v].width > n_max ? src[v].width : n_max;
    n_max = src[v].height > n_max ? src[v].height : n_max;
  }
  size_t sizes[CS_CPU_MAX_VIEWS * VIEW_ARRAYS + 1];
  for (int v = 0; v < n; v++)
    view_sizes (&src[v], n_threads, sizes + v * VIEW_ARRAYS);
  sizes[n * VIEW_ARRAYS] = lines_bytes (n_max, n_threads);
  if (n > 1 && cs_workspace_total (n * VIEW_ARRAYS + 1, sizes) > cs_cpu_edgeaware_workspace_bytes (px, w, h, n_threads)) {
    /* more than the RGBA frame of that size takes: one view at a time */
    for (int v = 0; v < n; v++)
      if (cs_cpu_edgeaware_views (1, &src[v], &dst[v], &px[v], &py[v], n_threads, ws) != 0)
        return -1;
    return 0;
  }
  void *a[CS_CPU_MAX_VIEWS * VIEW_ARRAYS + 1];
  if (cs_workspace_carve (ws, n * VIEW_ARRAYS + 1, sizes, a) != 0)
    return -1;
  float *lines = a[n * VIEW_ARRAYS];
  float *fv[CS_CPU_MAX_VIEWS], *fv_t[CS_CPU_MAX_VIEWS];
  uint32_t *d_h[CS_CPU_MAX_VIEWS], *d_v[CS_CPU_MAX_VIEWS];
  Table tables[CS_CPU_MAX_VIEWS];
  int active[CS_CPU_MAX_VIEWS], fill_columns[CS_CPU_MAX_VIEWS], iterations = 0;
  Loops l;
  for (int v = 0; v < n; v++) {
    void **va = a + v * VIEW_ARRAYS;
    fv[v] = va[0];
    fv_t[v] = va[1];
    d_h[v] = va[2];
    d_v[v] = va[3];
    l.prep[v] = (PrepareJob) { &src[v], fv[v], d_h[v], d_v[v], { 0 }, va[6] };
    if (src[v].channels > 1)
      memset (va[6], 0, sizes[v * VIEW_ARRAYS + 6]);
    l.items[v] = (src[v].height + PREPARE_ROWS - 1) / PREPARE_ROWS;
    iterations = px[v].iterations > iterations ? px[v].iterations : iterations;
  }
  cs_cpu_for_views (n, l.prep, sizeof l.prep[0], l.items, prepare_rows, 0, n_threads);
  for (int v = 0; v < n; v++) {
    uint32_t max_d = 0;
    for (int t = 0; t < 64; t++)
      max_d = l.prep[v].max_d[t] > max_d ? l.prep[v].max_d[t] : max_d;
    void **va = a + v * VIEW_ARRAYS;
    tables[v] = (Table) { va[4], va[5], table_entries (src[v].channels, max_d, l.prep[v].seen, n_threads, va[5]) };
    /* alike axes: one table per iteration serves both passes (the 4:2:2 chroma's differ in σ) */
    fill_columns[v] = px[v].sigma != py[v].sigma;
  }

  for (int it = 1; it <= iterations; it++) {
    for (int v = 0; v < n; v++)
      active[v] = it <= px[v].iterations && !(cs_edgeaware_is_identity (&px[v]) && cs_edgeaware_is_identity (&py[v]));
    views_pass (n, src, px, active, 0, it, fv, d_h, tables, NULL, lines, n_max, &l, n_threads);
    views_transpose (n, src, active, fv, fv_t, 0, &l, n_threads);
    views_pass (n, src, py, active, 1, it, fv_t, d_v, tables, fill_columns, lines, n_max, &l, n_threads);
    views_transpose (n, src, active, fv, fv_t, 1, &l, n_threads);
  }

  for (int v = 0; v < n; v++) {
    l.pack[v] = (PackJob) { fv[v], &dst[v] };
    l.items[v] = src[v].height;
  }
  cs_cpu_for_views (n, l.pack, sizeof l.pack[0], l.items, pack_rows, 0, n_threads);
  return 0;
}
