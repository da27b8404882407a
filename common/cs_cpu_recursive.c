/* Recursive Gaussian, fast CPU path (float, all cores, sixteen lines at a time in the
 * vector lanes): the same recursions and partitions as cs_ref_recursive.c, each line's
 * operations in the same order whatever the channel count or the lanes it runs in.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_cpu.h"
#include "cs_cpu_util.h"
#include "cs_coeffs.h"
#include "cs_parallel.h"
#include "cs_simd.h"

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

/* Every line of a pass is a float column of a plane, each channel of each pixel row (the
 * row pass) or pixel column (the column pass) a line of its own, so that sixteen lines run
 * side by side in the vector lanes whatever the channel count: one line's recursion is a
 * chain of dependent multiplications and additions, and a line at a time kept one chain per
 * channel in flight (one for GRAY8 and a YUV plane, three for RGBA). A plane is stored in
 * strips of eight lanes, each strip its n rows one after another, so that a pass reads and
 * writes memory in order (docs/algorithms.md, section 10): lane l of row r is float
 * ((l / 8)·n + r)·8 + l % 8. The frame goes bytes → row-pass strips (lanes: pixel rows ×
 * channels, rows: x) → column-pass strips (lanes: pixel columns × channels, rows: y) →
 * bytes. */
#define STRIP 8

static inline int strips_of (int lanes)
{
  return (lanes + STRIP - 1) / STRIP;
}

/* The row of two strips a pass filters together, and the few operations the recursions
 * take, in the order of the reference's expressions. A struct of two eight-lane vectors
 * rather than one of sixteen, which GCC splits through the stack where the target's
 * registers are narrower. */
typedef struct {
  CsF8 v[2];
} Lanes;
typedef double CsD4 __attribute__ ((vector_size (4 * sizeof (double))));
typedef struct {   /* a strip's row in double, for Young–van Vliet */
  CsD4 v[2];
} LanesD;

/* mul (by a scalar), add and sub of a pair of vectors, lane by lane: for Lanes (float) and,
 * suffixed _d, LanesD (double) */
#define PAIR_OPS(T, Scalar, suffix) \
  static inline __attribute__ ((always_inline)) T mul##suffix (Scalar a, T x) \
  { \
    return (T) { { a * x.v[0], a * x.v[1] } }; \
  } \
  static inline __attribute__ ((always_inline)) T add##suffix (T x, T y) \
  { \
    return (T) { { x.v[0] + y.v[0], x.v[1] + y.v[1] } }; \
  } \
  static inline __attribute__ ((always_inline)) T sub##suffix (T x, T y) \
  { \
    return (T) { { x.v[0] - y.v[0], x.v[1] - y.v[1] } }; \
  }
PAIR_OPS (Lanes, float, )
PAIR_OPS (LanesD, double, _d)

typedef struct {
  const float *in;
  float *out;
  int n;              /* rows: the length of each line */
  int strips;
  int segments, warmup;
  CsRecursiveAlgorithm algorithm;
  Coeffs k;
  void *scratch;      /* per worker: n rows of eight doubles (Young–van Vliet's forward pass) */
  size_t scratch_stride;   /* bytes per worker */
} PassJob;

/* Two strips filtered together; the plane's odd last strip goes as both, stored once. */
typedef struct {
  const float *f[2];
  float *o[2];
  int both;
} Window;

/* row x of the two strips at a and b */
static inline __attribute__ ((always_inline)) Lanes load_pair (const float *a, const float *b, int x)
{
  Lanes v;
  memcpy (&v.v[0], a + STRIP * x, sizeof v.v[0]);
  memcpy (&v.v[1], b + STRIP * x, sizeof v.v[1]);
  return v;
}

static inline __attribute__ ((always_inline)) void store_row (const Window *w, int x, Lanes v)
{
  memcpy (w->o[0] + STRIP * x, &v.v[0], sizeof v.v[0]);
  if (w->both)
    memcpy (w->o[1] + STRIP * x, &v.v[1], sizeof v.v[1]);
}

static inline __attribute__ ((always_inline)) void bounds (const PassJob *job, int j, int *st, int *en, int *s, int *e)
{
  cs_segment_bounds (job->n, job->segments, j, st, en);
  *s = *st - job->warmup > 0 ? *st - job->warmup : 0;
  *e = *en - 1 + job->warmup < job->n - 1 ? *en - 1 + job->warmup : job->n - 1;
}

/* Deriche's causal sums into the output, then the anticausal ones added to them (the
 * reference's deriche_line) */
static inline __attribute__ ((always_inline)) void deriche_window (const PassJob *job, const Window *w)
{
  const Coeffs *k = &job->k;
  for (int j = 0; j < job->segments; j++) {
    int st, en, s, e;
    bounds (job, j, &st, &en, &s, &e);
    if (en <= st)
      continue;
    Lanes gr[2], gi[2];
    Lanes v = load_pair (w->f[0], w->f[1], s);
#pragma GCC unroll 2
    for (int i = 0; i < 2; i++) {
      gr[i] = mul (k->ci_re[i], v);
      gi[i] = mul (k->ci_im[i], v);
    }
    if (s >= st)
      store_row (w, s, add (gr[0], gr[1]));
    for (int x = s + 1; x < en; x++) {
      v = load_pair (w->f[0], w->f[1], x);
#pragma GCC unroll 2
      for (int i = 0; i < 2; i++) {
        const Lanes r = sub (add (mul (k->a_re[i], v), mul (k->b_re[i], gr[i])), mul (k->b_im[i], gi[i]));
        const Lanes m = add (add (mul (k->a_im[i], v), mul (k->b_re[i], gi[i])), mul (k->b_im[i], gr[i]));
        gr[i] = r;
        gi[i] = m;
      }
      if (x >= st)
        store_row (w, x, add (gr[0], gr[1]));
    }
    v = load_pair (w->f[0], w->f[1], e);
#pragma GCC unroll 2
    for (int i = 0; i < 2; i++) {
      gr[i] = mul (k->ai_re[i], v);
      gi[i] = mul (k->ai_im[i], v);
    }
    if (e < en)
      store_row (w, e, add (load_pair (w->o[0], w->o[1], e), add (gr[0], gr[1])));
    for (int x = e - 1; x >= st; x--) {
      /* v is f[x + 1] */
#pragma GCC unroll 2
      for (int i = 0; i < 2; i++) {
        const Lanes r = sub (add (mul (k->ab_re[i], v), mul (k->b_re[i], gr[i])), mul (k->b_im[i], gi[i]));
        const Lanes m = add (add (mul (k->ab_im[i], v), mul (k->b_re[i], gi[i])), mul (k->b_im[i], gr[i]));
        gr[i] = r;
        gi[i] = m;
      }
      v = load_pair (w->f[0], w->f[1], x);
      if (x < en)
        store_row (w, x, add (load_pair (w->o[0], w->o[1], x), add (gr[0], gr[1])));
    }
  }
}

static inline __attribute__ ((always_inline)) LanesD load_d (const float *strip, int x)
{
  CsF4 v[2];
  memcpy (v, strip + STRIP * x, sizeof v);
  return (LanesD) { { __builtin_convertvector (v[0], CsD4), __builtin_convertvector (v[1], CsD4) } };
}

static inline __attribute__ ((always_inline)) void store_d (float *strip, int x, LanesD v)
{
  const CsF4 f[2] = { __builtin_convertvector (v.v[0], CsF4), __builtin_convertvector (v.v[1], CsF4) };
  memcpy (strip + STRIP * x, f, sizeof f);
}

/* Young–van Vliet (the reference's yvv_line) on one strip, in double: the forward pass of
 * every partition into `fwd`, then the backward passes from Triggs–Sdika's start. */
static inline __attribute__ ((always_inline)) void yvv_strip (const PassJob *job, const float *f, float *o, LanesD *fwd)
{
  const Coeffs *k = &job->k;
  for (int j = 0; j < job->segments; j++) {
    int st, en, s, e;
    bounds (job, j, &st, &en, &s, &e);
    if (en <= st)
      continue;
    LanesD w1 = load_d (f, s), w2 = w1, w3 = w1;
    for (int x = s; x < en; x++) {
      const LanesD v = add_d (add_d (add_d (mul_d (k->B, load_d (f, x)), mul_d (k->a1, w1)), mul_d (k->a2, w2)),
          mul_d (k->a3, w3));
      w3 = w2;
      w2 = w1;
      w1 = v;
      if (x >= st)
        fwd[x] = v;
    }
  }
  for (int j = 0; j < job->segments; j++) {
    int st, en, s, e;
    bounds (job, j, &st, &en, &s, &e);
    if (en <= st)
      continue;
    const LanesD u = load_d (f, e);
    LanesD dev[3], y[3];
#pragma GCC unroll 3
    for (int i = 0; i < 3; i++)   /* before st: the partition's own forward state, f[s] */
      dev[i] = sub_d (e - i >= st ? fwd[e - i] : load_d (f, s), u);
#pragma GCC unroll 3
    for (int r = 0; r < 3; r++)
      y[r] = add_d (add_d (add_d (u, mul_d (k->M[r][0], dev[0])), mul_d (k->M[r][1], dev[1])), mul_d (k->M[r][2], dev[2]));
    LanesD y1 = y[0], y2 = y[1], y3 = y[2];
    if (e < en)
      store_d (o, e, y1);
    for (int x = e - 1; x >= st; x--) {
      const LanesD v = add_d (add_d (add_d (mul_d (k->B, fwd[x]), mul_d (k->a1, y1)), mul_d (k->a2, y2)), mul_d (k->a3, y3));
      y3 = y2;
      y2 = y1;
      y1 = v;
      if (x < en)
        store_d (o, x, v);
    }
  }
}

/* Windows [begin, end) of the plane: strips 2i and 2i + 1, the last strip alone as both
 * halves of its window, stored once. */
static CS_SIMD_CLONES void pass_strips (void *arg, int begin, int end, int worker)
{
  const PassJob *job = arg;
  const size_t strip = (size_t) job->n * STRIP;
  LanesD *fwd = (LanesD *) ((char *) job->scratch + (size_t) worker * job->scratch_stride);
  for (int i = begin; i < end; i++) {
    const int s = 2 * i, next = s + 1 < job->strips ? s + 1 : s;
    if (job->algorithm == CS_RECURSIVE_YOUNG_VAN_VLIET) {
      for (int t = s; t <= next; t++)
        yvv_strip (job, job->in + t * strip, job->out + t * strip, fwd);
      continue;
    }
    const Window w = { { job->in + s * strip, job->in + next * strip }, { job->out + s * strip, job->out + next * strip },
      next != s };
    deriche_window (job, &w);
  }
}

/* The job that filters the lines of `strips` strips of n rows, in into out, with p's filter */
static PassJob pass_job (const CsRecursiveParams *p, const float *in, float *out, int n, int strips, void *scratch,
    size_t scratch_stride)
{
  PassJob job = {
    .in = in,
    .out = out,
    .n = n,
    .strips = strips,
    .segments = p->blocks_per_stripe > 0 && !cs_recursive_carries (p) ? p->blocks_per_stripe : 1,
    .warmup = (int) ceil (p->kappa * p->sigma),
    .algorithm = p->algorithm,
    .scratch = scratch,
    .scratch_stride = scratch_stride,
  };
  set_coeffs (p->sigma, &job.k);
  return job;
}

typedef struct {
  const CsChannels *src;
  CsChannels *dst;
  const float *in;
  float *out;
  int nc;
  int first_block;   /* the block whose strips start at `out` (unpack, transpose) or `in` (pack) */
} LayoutJob;

/* The layout changes go by blocks of 8 pixel rows or columns: a block's lanes (8·nc, lane
 * q its pixel q / nc and channel q % nc) fill nc strips exactly, so that inside a whole block
 * every offset is a constant of the channel count. Blocks that the frame's edge cuts go
 * sample by sample. GROUP blocks of the other direction at a time keep a worker's reads
 * within a few pages. */
#define GROUP 8

/* Bytes → row-pass strips for pixel-row blocks [begin, end); lanes past the last row zero
 * (no denormals or NaN from a stale workspace in the lanes no one reads). */
static inline __attribute__ ((always_inline)) void unpack_n (const LayoutJob *j, int begin, int end, int worker,
    const int nc)
{
  const CsChannels *c = j->src;
  const int w = c->width, h = c->height, strips = strips_of (h * nc), step = c->step;
  (void) worker;
  for (int v = begin; v < end; v++) {
    float *o = j->out + (size_t) nc * (v - j->first_block) * w * STRIP;
    const size_t strip = (size_t) w * STRIP;
    if (STRIP * v + STRIP <= h) {
      const uint8_t *row[STRIP * 3];
      for (int q = 0; q < STRIP * nc; q++)
        row[q] = cs_channels_sample (c, q % nc, 0, STRIP * v + q / nc);
      for (int x = 0; x < w; x++)
#pragma GCC unroll 24
        for (int q = 0; q < STRIP * nc; q++)
          o[(q / STRIP) * strip + STRIP * x + q % STRIP] = row[q][(ptrdiff_t) x * step];
      continue;
    }
    for (int q = 0; q < STRIP * nc && nc * v + q / STRIP < strips; q++) {
      const int y = STRIP * v + q / nc;
      for (int x = 0; x < w; x++)
        o[(q / STRIP) * strip + STRIP * x + q % STRIP] = y < h ? *cs_channels_sample (c, q % nc, x, y) : 0.f;
    }
  }
}

CS_CPU_BY_CHANNELS_WITH (unpack, LayoutJob, CS_SIMD_CLONES)

/* Row-pass strips → column-pass strips for pixel-column blocks [begin, end), the lanes past
 * the last column zero */
static inline __attribute__ ((always_inline)) void transpose_n (const LayoutJob *j, int begin, int end, int worker,
    const int nc)
{
  const int w = j->src->width, h = j->src->height, lanes = w * nc, strips = strips_of (lanes);
  const size_t a_strip = (size_t) w * STRIP, b_strip = (size_t) h * STRIP;
  (void) worker;
  for (int v0 = 0; STRIP * v0 < h; v0 += GROUP)
    for (int u = begin; u < end; u++)
      for (int v = v0; v < v0 + GROUP && STRIP * v < h; v++) {
        const float *a = j->in + (size_t) nc * v * a_strip + (size_t) STRIP * STRIP * u;
        float *b = j->out + (size_t) nc * (u - j->first_block) * b_strip + (size_t) STRIP * STRIP * v;
        if (STRIP * u + STRIP <= w && STRIP * v + STRIP <= h) {
#pragma GCC unroll 8
          for (int yl = 0; yl < STRIP; yl++)
#pragma GCC unroll 24
            for (int q = 0; q < STRIP * nc; q++) {
              const int qa = yl * nc + q % nc;   /* the sample's lane in the block's row-pass strips */
              b[(q / STRIP) * b_strip + STRIP * yl + q % STRIP] =
                  a[(qa / STRIP) * a_strip + STRIP * (q / nc) + qa % STRIP];
            }
          continue;
        }
        for (int q = 0; q < STRIP * nc && nc * u + q / STRIP < strips; q++)
          for (int yl = 0; yl < STRIP && STRIP * v + yl < h; yl++) {
            const int qa = yl * nc + q % nc;
            b[(q / STRIP) * b_strip + STRIP * yl + q % STRIP] =
                STRIP * u * nc + q < lanes ? a[(qa / STRIP) * a_strip + STRIP * (q / nc) + qa % STRIP] : 0.f;
          }
      }
}

CS_CPU_BY_CHANNELS_WITH (transpose, LayoutJob, CS_SIMD_CLONES)

/* eight samples as bytes: cs_quantise_f lane by lane (NaN and v <= 0 give 0, v >= 254.5 255) */
static inline __attribute__ ((always_inline)) CsI8 quantise (CsF8 v)
{
  const CsI8 positive = v > 0.f, large = v >= 254.5f;
  CsF8 t = (CsF8) ((CsI8) v & positive);
  t = (CsF8) (((CsI8) t & ~large) | ((CsI8) cs_f8 (254.5f) & large));
  return __builtin_convertvector (t + 0.5f, CsI8);
}

/* Column-pass strips → bytes for pixel-column blocks [begin, end) */
static inline __attribute__ ((always_inline)) void pack_n (const LayoutJob *j, int begin, int end, int worker,
    const int nc)
{
  CsChannels *c = j->dst;
  const int w = c->width, h = c->height, lanes = w * nc, strips = strips_of (lanes), step = c->step;
  const size_t b_strip = (size_t) h * STRIP;
  (void) worker;
  for (int y0 = 0; y0 < h; y0 += GROUP * STRIP)
    for (int u = begin; u < end; u++) {
      const float *b = j->in + (size_t) nc * (u - j->first_block) * b_strip;
      const int whole = STRIP * u + STRIP <= w;
      for (int y = y0; y < y0 + GROUP * STRIP && y < h; y++) {
        uint8_t *row[3];
        for (int ch = 0; ch < nc; ch++)
          row[ch] = cs_channels_sample (c, ch, STRIP * u, y);
        if (whole) {
#pragma GCC unroll 3
          for (int s = 0; s < nc; s++) {
            const CsI8 q8 = quantise (cs_f8_load (b + s * b_strip + STRIP * y));
#pragma GCC unroll 8
            for (int l = 0; l < STRIP; l++)
              row[(STRIP * s + l) % nc][(ptrdiff_t) ((STRIP * s + l) / nc) * step] = (uint8_t) q8[l];
          }
          continue;
        }
        for (int s = 0; s < nc && nc * u + s < strips; s++) {
          const CsI8 q8 = quantise (cs_f8_load (b + s * b_strip + STRIP * y));
          for (int l = 0; l < STRIP && STRIP * (nc * u + s) + l < lanes; l++)
            row[(STRIP * s + l) % nc][(ptrdiff_t) ((STRIP * s + l) / nc) * step] = (uint8_t) q8[l];
        }
      }
    }
}

CS_CPU_BY_CHANNELS_WITH (pack, LayoutJob, CS_SIMD_CLONES)

/* The two sides of a view's frame, by pairs of pixel blocks (16 pixel rows or columns): a
 * pair's 2·nc strips are exactly windows nc·i .. nc·i + nc − 1, so a worker lays out a pair's
 * strips in a buffer of its own, filters them from there into a second one or (rows) into
 * the plane the transposes read, and packs them, all in its cache; a frame of any channel
 * count is as many items a side (docs/algorithms.md, section 10). */
typedef struct {
  LayoutJob in, out;   /* the layout change into the pass's strips, and out of them */
  PassJob pass;
  int blocks, windows;   /* windows 0: the view's filter is the identity */
  float *buffers;        /* a worker's two: its pair laid out, and filtered */
  size_t buffer_floats;
} SideJob;

static inline int pairs_of (int blocks)
{
  return (blocks + 1) / 2;
}

static inline int min_int (int a, int b)
{
  return a < b ? a : b;
}

/* pair i's windows from its strips at `strips` into `out` (its first strip's place there) */
static inline void filter_pair (const SideJob *j, int i, const float *strips, float *out, int worker)
{
  const int nc = j->in.nc, first = 2 * nc * i;
  PassJob pass = j->pass;
  pass.in = strips;
  pass.out = out;
  pass.strips = min_int (pass.strips - first, 2 * nc);
  pass_strips (&pass, 0, min_int (nc * (i + 1), j->windows) - nc * i, worker);
}

/* bytes → row-pass strips → row pass, for pairs of pixel-row blocks [begin, end); an
 * identity's strips go to the plane the transposes read */
static CS_SIMD_CLONES void row_side (void *arg, int begin, int end, int worker)
{
  SideJob *j = arg;   /* not const: its jobs go on to range functions, which take void * */
  if (!j->windows) {
    unpack (&j->in, 2 * begin, min_int (2 * end, j->blocks), worker);
    return;
  }
  float *laid = j->buffers + (size_t) worker * 2 * j->buffer_floats;
  const size_t strip = (size_t) j->pass.n * STRIP;
  for (int i = begin; i < end; i++) {
    LayoutJob in = j->in;
    in.out = laid;
    in.first_block = 2 * i;
    unpack (&in, 2 * i, min_int (2 * i + 2, j->blocks), worker);
    filter_pair (j, i, laid, j->pass.out + 2 * j->in.nc * i * strip, worker);
  }
}

/* row-pass output → column-pass strips → column pass → bytes, for pairs of pixel-column
 * blocks [begin, end) */
static CS_SIMD_CLONES void column_side (void *arg, int begin, int end, int worker)
{
  SideJob *j = arg;
  float *laid = j->buffers + (size_t) worker * 2 * j->buffer_floats, *filtered = laid + j->buffer_floats;
  for (int i = begin; i < end; i++) {
    const int block_end = min_int (2 * i + 2, j->blocks);
    LayoutJob in = j->in, out = j->out;
    in.out = laid;
    in.first_block = out.first_block = 2 * i;
    transpose (&in, 2 * i, block_end, worker);
    out.in = laid;
    if (j->windows) {
      filter_pair (j, i, laid, filtered, worker);
      out.in = filtered;
    }
    pack (&out, 2 * i, block_end, worker);
  }
}

/* floats of a pair of blocks' strips of n rows, at most three channels */
static size_t pair_floats (int n)
{
  return (size_t) 2 * 3 * STRIP * n + 16;
}

/* the plane of row-pass strips (an RGBA frame's, and room for up to CS_CPU_MAX_VIEWS views'
 * own rounding up to whole strips and vectors), the workers' scratch, and their two buffers
 * of a pair's strips */
static void workspace_sizes (int w, int h, int n_threads, size_t sizes[3])
{
  const size_t n_max = (size_t) (w > h ? w : h);
  sizes[0] = ((size_t) strips_of (3 * h) * STRIP * w + CS_CPU_MAX_VIEWS * (STRIP * n_max + 16)) * sizeof (float);
  sizes[1] = (size_t) n_threads * n_max * sizeof (LanesD);
  sizes[2] = (size_t) n_threads * 2 * pair_floats ((int) n_max) * sizeof (float);
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

int cs_cpu_recursive_channels (const CsChannels *src, CsChannels *dst, const CsRecursiveParams *px,
    const CsRecursiveParams *py, int n_threads, CsCpuWorkspace *ws)
{
  return cs_cpu_recursive_views (1, src, dst, px, py, n_threads, ws);
}

int cs_cpu_recursive_views (int n, const CsChannels *src, CsChannels *dst, const CsRecursiveParams *px,
    const CsRecursiveParams *py, int n_threads, CsCpuWorkspace *ws)
{
  if (n < 1 || n > CS_CPU_MAX_VIEWS)
    return -1;
  n_threads = cs_cpu_threads (n_threads);
  int w = 0, h = 0;
  for (int v = 0; v < n; v++) {
    w = src[v].width > w ? src[v].width : w;
    h = src[v].height > h ? src[v].height : h;
  }
  size_t sizes[3], used = 0, offset[CS_CPU_MAX_VIEWS];
  workspace_sizes (w, h, n_threads, sizes);
  for (int v = 0; v < n; v++) {   /* each view's strips from a 64-byte boundary */
    offset[v] = used;
    used += ((size_t) strips_of (src[v].height * src[v].channels) * STRIP * src[v].width + 15) / 16 * 16;
  }
  if (used > sizes[0] / sizeof (float)) {   /* more samples than an RGBA frame of that size: one at a time */
    for (int v = 0; v < n; v++)
      if (cs_cpu_recursive_views (1, &src[v], &dst[v], &px[v], &py[v], n_threads, ws) != 0)
        return -1;
    return 0;
  }
  void *a[3];
  if (cs_workspace_carve (ws, 3, sizes, a) != 0)
    return -1;
  const size_t scratch_stride = (size_t) (w > h ? w : h) * sizeof (LanesD);
  SideJob rows[CS_CPU_MAX_VIEWS], columns[CS_CPU_MAX_VIEWS];
  int row_pairs[CS_CPU_MAX_VIEWS], column_pairs[CS_CPU_MAX_VIEWS];
  for (int v = 0; v < n; v++) {
    const int vw = src[v].width, vh = src[v].height, nc = src[v].channels;
    float *plane = (float *) a[0] + offset[v];
    const int row_strips = strips_of (vh * nc), column_strips = strips_of (vw * nc);
    const int filter = !(cs_recursive_is_identity (&px[v]) && cs_recursive_is_identity (&py[v]));
    /* bytes → row-pass strips → row pass → the plane → column-pass strips → column pass →
     * bytes; a view whose filters are identities goes bytes → the plane → bytes */
    rows[v] = (SideJob) {
      .in = { &src[v], &dst[v], NULL, plane, nc, 0 },
      .pass = pass_job (&px[v], NULL, plane, vw, row_strips, a[1], scratch_stride),
      .blocks = (vh + STRIP - 1) / STRIP,
      .windows = filter ? (row_strips + 1) / 2 : 0,
      .buffers = a[2],
      .buffer_floats = pair_floats (w > h ? w : h),
    };
    columns[v] = rows[v];
    columns[v].in = (LayoutJob) { &src[v], &dst[v], plane, NULL, nc, 0 };
    columns[v].out = (LayoutJob) { &src[v], &dst[v], NULL, NULL, nc, 0 };
    columns[v].pass = pass_job (&py[v], NULL, NULL, vh, column_strips, a[1], scratch_stride);
    columns[v].blocks = (vw + STRIP - 1) / STRIP;
    columns[v].windows = filter ? (column_strips + 1) / 2 : 0;
    row_pairs[v] = pairs_of (rows[v].blocks);
    column_pairs[v] = pairs_of (columns[v].blocks);
  }
  cs_cpu_for_views (n, rows, sizeof rows[0], row_pairs, row_side, 1, n_threads);
  cs_cpu_for_views (n, columns, sizeof columns[0], column_pairs, column_side, 1, n_threads);
  return 0;
}
