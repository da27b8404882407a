/* recursivegauss with warm-ups in one kernel: a block per tile of one row segment by one
 * column segment, the frame read once and the output written once.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why: the two-pass path (cs_sweep.cuh) moves ~52 bytes per pixel through DRAM (T written
 * and read twice, the causal sums parked and re-read) against the 8 of the frame in and
 * out, and at small σ that traffic is most of its time (NOTES.md). A tile's segments and
 * their warm-ups fit in shared memory when both are short, so here the block loads the
 * tile with its warm-up margins once, sweeps the margin rows and the tile rows, then the
 * tile's columns, and writes the tile: the same segments and warm-ups, hence the same
 * result as the two-pass path with these segment counts (cs_ref_recursive.c), up to float
 * rounding. The rows of the margins above and below are swept by every tile that needs
 * them; that is the price, (1 + 2w/64) row sweeps per pixel.
 *
 * The recursion is that of cs_sweep.cuh (h = b·h + x·Δf, output f + Re Σ(h⁺ + h⁻)) on its
 * real part alone: from (1 − b̄z⁻¹)(1 − bz⁻¹)h = (1 − b̄z⁻¹)x·Δf,
 *     Re h[k] = 2Re b·Re h[k−1] − |b|²·Re h[k−2] + Re x·Δf[k] − Re(b̄x)·Δf[k−1],
 * and both poles' together as one fourth-order recursion (RealPoles): eight FMAs a step
 * against twelve for the two complex steps, one of them on the dependency chain. A sweep
 * starts from zero (its warm-up start or the border: h = 0, Δf = 0 there).
 *
 * Threads: one per row pair and channel for the rows (two independent recursions per
 * thread), one per column and channel for the columns: a 64×64 tile has only 64–94 lines,
 * too few to fill an SM otherwise (shared memory allows 3–4 blocks). The frame must not be
 * the output (tiles read their neighbours' margins).
 *
 * Shared memory, all of it interleaving row pairs (rows 2m and 2m + 1 of the tile with its
 * margins side by side), so that a row thread loads both its rows' frame words at once and
 * stores both T values as one half2, and a column thread reads, parks and writes two steps'
 * values with one 32-bit access: the frame's words (uint2 per row pair and column; an odd
 * row count is padded with the last row again); T of the tile's columns on all rows as
 * three planes of half2 (the row sweeps' causal sums parked in T's own slots until the
 * anticausal sweep replaces them by T; the column sweeps write the output bytes back into
 * them); and, over the frame words once the rows are done, the column sweeps' parked causal
 * sums. Strides are odd in words (in uint2 for the frame), so that lanes on consecutive
 * lines hit distinct banks.
 */
#include "cs_recursive_tile.cuh"

#include <math.h>

namespace cs {

static constexpr int kTileBlocksPerSm = 3, kTileMaxThreads = 3 * kTileMaxSegment;
static constexpr int kTileMaxColumns = 96;   /* a tile row with its margins: three loads per lane */

/* The real-part recursions of both poles as one of fourth order: with D_i(z) = 1 − 2Re b_i z⁻¹
 * + |b_i|²z⁻² and N_i(z) = Re x_i − Re(b̄_i x_i)z⁻¹, Re Σ h = (N_0 D_1 + N_1 D_0)/(D_0 D_1) Δf,
 *     y[k] = Σ_{j=1..4} a_j y[k−j] + Σ_{j=0..3} n_j Δf[k−j]:
 * eight FMAs a step where the two second-order ones take eight and an add. */
struct RealPoles {
  float a[4], n[4];
};

/* The state of one sweep, or of two lines swept together (V = float2: rows 2m and 2m + 1). */
__device__ __forceinline__ float vfma (float a, float x, float y) { return fmaf (a, x, y); }
__device__ __forceinline__ float2 vfma (float a, float2 x, float2 y)
{
  return make_float2 (fmaf (a, x.x, y.x), fmaf (a, x.y, y.y));
}
__device__ __forceinline__ float vmul (float a, float x) { return a * x; }
__device__ __forceinline__ float2 vmul (float a, float2 x) { return make_float2 (a * x.x, a * x.y); }
__device__ __forceinline__ float2 operator- (float2 a, float2 b) { return make_float2 (a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 operator+ (float2 a, float2 b) { return make_float2 (a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 operator- (float2 a, float b) { return make_float2 (a.x - b, a.y - b); }
template <class V> __device__ __forceinline__ V vzero ();
template <> __device__ __forceinline__ float vzero<float> () { return 0.f; }
template <> __device__ __forceinline__ float2 vzero<float2> () { return make_float2 (0.f, 0.f); }

template <class V>
struct RealState {
  V y[4], df[3];   /* y[k−1..k−4], Δf[k−1..k−3] */

  __device__ __forceinline__ void zero ()
  {
#pragma unroll
    for (int j = 0; j < 4; j++)
      y[j] = vzero<V> ();
#pragma unroll
    for (int j = 0; j < 3; j++)
      df[j] = vzero<V> ();
  }
  /* One step with Δf[k] = d; returns y[k] = Re Σ h[k]. The term on y[k−1] comes last: it
   * is the only one on the dependency chain. */
  __device__ __forceinline__ V step (const RealPoles &k, V d)
  {
    V t = vmul (k.n[0], d);
#pragma unroll
    for (int j = 0; j < 3; j++)
      t = vfma (k.n[j + 1], df[j], t);
#pragma unroll
    for (int j = 3; j >= 0; j--)
      t = vfma (k.a[j], y[j], t);
    df[2] = df[1];
    df[1] = df[0];
    df[0] = d;
    y[3] = y[2];
    y[2] = y[1];
    y[1] = y[0];
    y[0] = t;
    return t;
  }
};

/* Lines swept along x (the tile's rows, two per thread): samples s .. e (the warm-ups
 * included), outputs st .. en − 1. src(k) gives the samples as offset + f (differences only
 * need that); park(k, v) keeps the causal sums of an output sample and parked(k) returns
 * them; emit(k, v) takes the outputs f + Re Σ(h⁺ + h⁻). Where a sweep starts at its
 * segment's end (a border, or no warm-up) its first step has Δf = 0 from the zero state
 * and gives 0, as h = 0 there should. */
template <class V, class Src, class Park, class Parked, class Emit>
__device__ __forceinline__ void sweep_line (int s, int st, int en, int e, float offset, const RealPoles &k,
    Src src, Park park, Parked parked, Emit emit)
{
  RealState<V> q;
  q.zero ();
  V prev = src (s);
#pragma unroll 4
  for (int i = s + 1; i < st; i++) {
    const V v = src (i);
    q.step (k, v - prev);
    prev = v;
  }
#pragma unroll 4
  for (int i = st; i < en; i++) {
    const V v = src (i);
    park (i, q.step (k, v - prev));
    prev = v;
  }

  q.zero ();
  prev = src (e);
#pragma unroll 4
  for (int i = e - 1; i >= en; i--) {
    const V v = src (i);
    q.step (k, v - prev);
    prev = v;
  }
#pragma unroll 4
  for (int i = en - 1; i >= st; i--) {
    const V v = src (i);
    const V h = q.step (k, v - prev);
    prev = v;
    emit (i, (v - offset) + parked (i) + h);
  }
}

__device__ __forceinline__ unsigned int pack_half2 (float2 v)
{
  const __half2 h = __floats2half2_rn (v.x, v.y);
  return *reinterpret_cast<const unsigned int *> (&h);
}

__device__ __forceinline__ float2 unpack_half2 (unsigned int w)
{
  return __half22float2 (*reinterpret_cast<const __half2 *> (&w));
}

/* One column's channel, two rows per word (T and the parked sums interleave row pairs):
 * rows j = 0 .. n − 1 of the tile with its margins, outputs st .. en − 1, the output bytes
 * written back into T. A row of the pair that is not an output (a margin row, or the
 * duplicate that pads an odd row count) is stepped and written all the same: its slot is
 * read by no one after, and stepping through a warm-up row past the first one the
 * reference counts only adds a step with Δf = 0 at the start (the pad duplicates the last
 * row) or one after the last output. */
__device__ __forceinline__ void sweep_column (unsigned int *t, unsigned int *park, int stride, int n, int st, int en,
    const RealPoles &k)
{
  RealState<float> q;
  q.zero ();
  float prev = unpack_half2 (t[0]).x;   /* row 0 steps with Δf = 0: h stays 0 */
  const int m0 = st / 2;   /* the first pair with an output row; park[] starts there */
  int m = 0;
#pragma unroll 2
  for (; m < m0; m++) {
    const float2 v = unpack_half2 (t[m * stride]);
    q.step (k, v.x - prev);
    q.step (k, v.y - v.x);
    prev = v.y;
  }
  park -= m0 * stride;
#pragma unroll 2
  for (; 2 * m < en; m++) {
    const float2 v = unpack_half2 (t[m * stride]);
    const float y0 = q.step (k, v.x - prev), y1 = q.step (k, v.y - v.x);
    park[m * stride] = pack_half2 (make_float2 (y0, y1));
    prev = v.y;
  }

  /* anticausal: from the pair holding row n − 1 (its pad, if any, equals it: Δf = 0) */
  q.zero ();
  m = (n - 1) / 2;
  prev = unpack_half2 (t[m * stride]).y;
#pragma unroll 2
  for (; 2 * m >= en; m--) {
    const float2 v = unpack_half2 (t[m * stride]);
    q.step (k, v.y - prev);
    q.step (k, v.x - v.y);
    prev = v.x;
  }
#pragma unroll 2
  for (; 2 * m + 1 >= st; m--) {
    const float2 v = unpack_half2 (t[m * stride]), p = unpack_half2 (park[m * stride]);
    const float h1 = q.step (k, v.y - prev), h0 = q.step (k, v.x - v.y);
    prev = v.x;
    t[m * stride] = round_to_byte (v.x + p.x + h0) | round_to_byte (v.y + p.y + h1) << 16;   /* T holds +0.5 */
  }
}

struct TileGeometry {
  int width, height, segments_x, segments_y, warmup;
  int t_stride;     /* words per row pair of a T plane (odd) */
  int in_stride;    /* uint2 per row pair of the frame words (one per column; odd) */
  int pairs_max;    /* the most row pairs a tile with margins has */
  int t_plane;      /* words per T plane: pairs_max · t_stride */
  int park_plane;   /* words per plane of column sums: the pairs that hold a column segment */
};

static __device__ __forceinline__ int cut (int j, int n, int segments)
{
  /* floor(j·n/segments) (cs_segment_bounds), in 32 bits where j·n fits: a 64-bit division
   * is a long subroutine */
  const unsigned long long p = (unsigned long long) j * (unsigned int) n;
  return p >> 32 ? (int) (p / (unsigned int) segments) : (int) ((unsigned int) p / (unsigned int) segments);
}

__global__ void __launch_bounds__ (kTileMaxThreads, kTileBlocksPerSm)
recursive_tile (Lines in, Lines out, TileGeometry g, RealPoles k)
{
  extern __shared__ unsigned int smem[];
  const int x_st = cut (blockIdx.x, g.width, g.segments_x), x_en = cut (blockIdx.x + 1, g.width, g.segments_x);
  const int y_st = cut (blockIdx.y, g.height, g.segments_y), y_en = cut (blockIdx.y + 1, g.height, g.segments_y);
  if (x_en <= x_st || y_en <= y_st)
    return;   /* the whole block */
  const int rx0 = max (x_st - g.warmup, 0), rx1 = min (x_en + g.warmup, g.width);
  const int ry0 = max (y_st - g.warmup, 0), ry1 = min (y_en + g.warmup, g.height);
  const int n_rows = ry1 - ry0, n_pairs = (n_rows + 1) / 2, n_cols = rx1 - rx0, tile_w = x_en - x_st;
  unsigned int *t_planes = smem;
  const int t_words = (3 * g.t_plane + 1) & ~1;   /* the frame's uint2 need 8-byte alignment */
  uint2 *frame = reinterpret_cast<uint2 *> (smem + t_words);   /* then the column sums, over it */
  unsigned int *col_park = smem + t_words;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, n_warps = blockDim.x / 32;

  /* the frame words, row by row (an odd row count padded with the last row again), each
   * row pair's two words of a column side by side: four rows' loads in flight per warp */
  const char *frame_row0 = in.at (ry0, rx0);
  unsigned int *frame_words = reinterpret_cast<unsigned int *> (frame);
  for (int r0 = warp; r0 < 2 * n_pairs; r0 += 4 * n_warps) {
    unsigned int v[4][kTileMaxColumns / 32];
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const int r = min (r0 + i * n_warps, n_rows - 1);
      const unsigned int *src = reinterpret_cast<const unsigned int *> (frame_row0 + r * in.line_step);
#pragma unroll
      for (int j = 0; j < kTileMaxColumns / 32; j++)
        if (r0 + i * n_warps < 2 * n_pairs && lane + 32 * j < n_cols)
          v[i][j] = __ldg (src + lane + 32 * j);
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const int r = r0 + i * n_warps;
#pragma unroll
      for (int j = 0; j < kTileMaxColumns / 32; j++)
        if (r < 2 * n_pairs && lane + 32 * j < n_cols)
          frame_words[2 * ((r / 2) * g.in_stride + lane + 32 * j) + r % 2] = v[i][j];
    }
  }
  __syncthreads ();

  const unsigned int first = in.alpha_first ? 1u : 0u;
  /* rows: thread (channel, row pair) sweeps that channel of both rows over the margins,
   * writes T (the causal sums parked in its slots first) */
  if (tid < 3 * n_pairs) {
    const int ch = tid / n_pairs, m = tid - ch * n_pairs;
    const uint2 *line = frame + m * g.in_stride - rx0;   /* indexed by x */
    unsigned int *t = t_planes + ch * g.t_plane + m * g.t_stride - x_st;
    const unsigned int select = 0x7440u | (first + ch);
    /* T is kept as f + Re Σ(h⁺ + h⁻) + 0.5, the rounding's half (DESIGN.md: floor(v + 0.5)),
     * so that the column sweeps, whose recursions see only differences, add it for free:
     * the byte is 2^23 + f exactly, and 2^23 − 0.5 is exact in float */
    sweep_line<float2> (rx0, x_st, x_en, rx1 - 1, 8388607.5f, k,
        [&] (int x) {
          const uint2 w = line[x];
          return make_float2 (__uint_as_float (__byte_perm (w.x, 0x4B000000u, select)),
              __uint_as_float (__byte_perm (w.y, 0x4B000000u, select)));
        },
        [&] (int x, float2 v) { t[x] = pack_half2 (v); },
        [&] (int x) { return unpack_half2 (t[x]); },
        [&] (int x, float2 v) { t[x] = pack_half2 (v); });
  }
  __syncthreads ();

  /* columns: thread (channel, column) sweeps T down the tile and its margins */
  if (tid < 3 * tile_w) {
    const int ch = tid / tile_w, c = tid - ch * tile_w;
    sweep_column (t_planes + ch * g.t_plane + c, col_park + ch * g.park_plane + c, g.t_stride, n_rows, y_st - ry0,
        y_en - ry0, k);
  }
  __syncthreads ();

  /* the tile out, alpha from the frame (its words in shared memory hold column sums now) */
  const unsigned short *bytes = reinterpret_cast<const unsigned short *> (t_planes);
  const unsigned int alpha = in.alpha_first ? 0u : 3u;
  const char *in_row = in.at (y_st, x_st);
  char *out_row = out.at (y_st, x_st);
  for (int r = warp; r < y_en - y_st; r += n_warps) {
    const unsigned int *src = reinterpret_cast<const unsigned int *> (in_row + r * in.line_step);
    unsigned int *dst = reinterpret_cast<unsigned int *> (out_row + r * out.line_step);
    const int j = r + y_st - ry0;
    const unsigned short *b = bytes + 2 * (j / 2) * g.t_stride + j % 2;
#pragma unroll
    for (int i = 0; i < kTileMaxSegment / 32; i++) {
      const int c = lane + 32 * i;
      if (c < tile_w)
        dst[c] = pack_pixel (b[2 * c], b[2 * (g.t_plane + c)], b[2 * (2 * g.t_plane + c)],
            __byte_perm (__ldg (src + c), 0, alpha), out.alpha_first);
    }
  }
}

static TileGeometry tile_geometry (int n_x, int n_y, int segments_x, int segments_y, int warmup)
{
  TileGeometry g;
  g.width = n_x;
  g.height = n_y;
  g.segments_x = segments_x;
  g.segments_y = segments_y;
  g.warmup = warmup;
  const int seg_x = div_up (n_x, segments_x), seg_y = div_up (n_y, segments_y);
  g.t_stride = seg_x | 1;
  g.in_stride = min (seg_x + 2 * warmup, n_x) | 1;
  g.pairs_max = (min (seg_y + 2 * warmup, n_y) + 1) / 2;
  g.t_plane = g.pairs_max * g.t_stride;
  g.park_plane = (seg_y / 2 + 1) * g.t_stride;
  return g;
}

static size_t tile_shared_bytes (const TileGeometry &g)
{
  const size_t frame = (size_t) g.pairs_max * g.in_stride * 8, park = (size_t) 3 * g.park_plane * 4;
  return (size_t) ((3 * g.t_plane + 1) & ~1) * 4 + (frame > park ? frame : park);
}

static int tile_threads (const TileGeometry &g)
{
  const int seg_x = div_up (g.width, g.segments_x);
  return div_up (3 * max (g.pairs_max, seg_x), 32) * 32;
}

static const size_t kTileMaxSharedBytes = 228 * 1024 / kTileBlocksPerSm - 1024;

bool recursive_tiles_cover (int n_x, int n_y, int segments_x, int segments_y, int warmup)
{
  if (segments_x < 1 || segments_y < 1 || div_up (n_x, segments_x) > kTileMaxSegment ||
      div_up (n_y, segments_y) > kTileMaxSegment)
    return false;
  const TileGeometry g = tile_geometry (n_x, n_y, segments_x, segments_y, warmup);
  return min (div_up (n_x, segments_x) + 2 * warmup, n_x) <= kTileMaxColumns &&
      tile_shared_bytes (g) <= kTileMaxSharedBytes && tile_threads (g) <= kTileMaxThreads;
}

cudaError_t recursive_tiles (Lines in, Lines out, int width, int height, int segments_x, int segments_y,
    int warmup, const CsDericheCoeffs &c, cudaStream_t stream)
{
  if (!recursive_tiles_cover (width, height, segments_x, segments_y, warmup))
    return cudaErrorInvalidValue;
  /* per pole: a1 = 2Re b, a2 = −|b|², n0 = Re x, n1 = −Re(b̄x), x = r1·b (cs_sweep.cuh's x(1));
   * then the products of RealPoles's comment, in double */
  double a1[2], a2[2], n0[2], n1[2];
  for (int i = 0; i < 2; i++) {
    const double br = c.b[i].re, bi = c.b[i].im;
    const double xr = c.r1[i].re * br - c.r1[i].im * bi, xi = c.r1[i].re * bi + c.r1[i].im * br;
    a1[i] = 2.0 * br;
    a2[i] = -(br * br + bi * bi);
    n0[i] = xr;
    n1[i] = -(br * xr + bi * xi);
  }
  const double a[4] = { a1[0] + a1[1], a2[0] + a2[1] - a1[0] * a1[1], -(a1[0] * a2[1] + a2[0] * a1[1]),
    -a2[0] * a2[1] };
  const double n[4] = { n0[0] + n0[1], n1[0] + n1[1] - n0[0] * a1[1] - n0[1] * a1[0],
    -(n0[0] * a2[1] + n1[0] * a1[1] + n0[1] * a2[0] + n1[1] * a1[0]), -(n1[0] * a2[1] + n1[1] * a2[0]) };
  RealPoles k;
  for (int j = 0; j < 4; j++) {
    k.a[j] = (float) a[j];
    k.n[j] = (float) n[j];
  }
  const TileGeometry g = tile_geometry (width, height, segments_x, segments_y, warmup);
  const size_t bytes = tile_shared_bytes (g);
  cudaError_t err = cudaFuncSetAttribute (recursive_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) bytes);
  /* all of the SM's L1 as shared memory whatever this launch's size: the kernel reads the
   * frame once, and a carveout that follows the size would be re-chosen between frames */
  if (err == cudaSuccess)
    err = cudaFuncSetAttribute (recursive_tile, cudaFuncAttributePreferredSharedMemoryCarveout,
        cudaSharedmemCarveoutMaxShared);
  if (err != cudaSuccess)
    return err;
  recursive_tile<<<dim3 (segments_x, segments_y), tile_threads (g), bytes, stream>>> (in, out, g, k);
  return cudaGetLastError ();
}

}  // namespace cs
