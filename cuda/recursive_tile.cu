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
 * starts from zero (its warm-up start or the border: h = 0, Δf = 0 there). Each thread
 * sweeps one channel of one line, so a block has three threads per line: the tile's lines
 * are too few to fill an SM otherwise (shared memory allows 3–4 blocks).
 * The frame must not be the output (tiles read their neighbours' margins).
 *
 * Shared memory: the frame's words of the tile and its margins (rows x columns), the
 * row-filtered T of the tile's columns on all those rows as three fp16 planes (the causal
 * sums are parked in T's own slots until the anticausal sweep replaces them by T), and,
 * over the frame words once the rows are done, the column sweeps' parked causal sums.
 * Strides are odd in 32-bit words, so that lanes on consecutive lines hit distinct banks.
 */
#include "cs_recursive_tile.cuh"

#include <math.h>

namespace cs {

static constexpr int kTileBlocksPerSm = 3, kTileMaxThreads = 3 * 96;
static constexpr int kTileMaxColumns = 96;   /* a tile row with its margins: three loads per lane */

/* The real-part recursions of both poles as one of fourth order: with D_i(z) = 1 − 2Re b_i z⁻¹
 * + |b_i|²z⁻² and N_i(z) = Re x_i − Re(b̄_i x_i)z⁻¹, Re Σ h = (N_0 D_1 + N_1 D_0)/(D_0 D_1) Δf,
 *     y[k] = Σ_{j=1..4} a_j y[k−j] + Σ_{j=0..3} n_j Δf[k−j]:
 * eight FMAs a step where the two second-order ones take eight and an add. */
struct RealPoles {
  float a[4], n[4];
};

struct RealState {
  float y[4], df[3];   /* y[k−1..k−4], Δf[k−1..k−3] */

  __device__ __forceinline__ void zero ()
  {
#pragma unroll
    for (int j = 0; j < 4; j++)
      y[j] = 0.f;
#pragma unroll
    for (int j = 0; j < 3; j++)
      df[j] = 0.f;
  }
  /* One step with Δf[k] = d; returns y[k] = Re Σ h[k]. The term on y[k−1] comes last: it
   * is the only one on the dependency chain. */
  __device__ __forceinline__ float step (const RealPoles &k, float d)
  {
    float t = k.n[0] * d;
#pragma unroll
    for (int j = 0; j < 3; j++)
      t = fmaf (k.n[j + 1], df[j], t);
#pragma unroll
    for (int j = 3; j >= 0; j--)
      t = fmaf (k.a[j], y[j], t);
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

/* One channel of one line: samples s .. e (the warm-ups included), outputs st .. en − 1.
 * src(k) gives the sample as offset + f (differences only need that); park(k, v) keeps the
 * causal sum of an output sample and parked(k) returns it; emit(k, v) takes the output
 * f + Re Σ(h⁺ + h⁻). Where a sweep starts at its segment's end (a border, or no warm-up)
 * its first step has Δf = 0 from the zero state and gives 0, as h = 0 there should. */
template <class Src, class Park, class Parked, class Emit>
__device__ __forceinline__ void sweep_line (int s, int st, int en, int e, float offset, const RealPoles &k,
    Src src, Park park, Parked parked, Emit emit)
{
  RealState q;
  q.zero ();
  float prev = src (s);
#pragma unroll 4
  for (int i = s + 1; i < st; i++) {
    const float v = src (i);
    q.step (k, v - prev);
    prev = v;
  }
#pragma unroll 4
  for (int i = st; i < en; i++) {
    const float v = src (i);
    park (i, q.step (k, v - prev));
    prev = v;
  }

  q.zero ();
  prev = src (e);
#pragma unroll 4
  for (int i = e - 1; i >= en; i--) {
    const float v = src (i);
    q.step (k, v - prev);
    prev = v;
  }
#pragma unroll 4
  for (int i = en - 1; i >= st; i--) {
    const float v = src (i);
    const float h = q.step (k, v - prev);
    prev = v;
    emit (i, v - offset + parked (i) + h);
  }
}

struct TileGeometry {
  int width, height, segments_x, segments_y, warmup;
  int t_stride;     /* halves per row of a T plane (odd in words) */
  int in_stride;    /* words per row of the frame tile (odd) */
  int rows_max;     /* the most rows a tile with margins has */
  int t_plane;      /* halves per T plane: rows_max · t_stride */
  int park_plane;   /* halves per plane of column sums: longest column segment · t_stride */
};

/* floor(j·n/segments) (cs_segment_bounds), in 32 bits where j·n fits: a 64-bit division is
 * a long subroutine */
static __device__ __forceinline__ int cut (int j, int n, int segments)
{
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
  const int n_rows = ry1 - ry0, n_cols = rx1 - rx0, tile_w = x_en - x_st;
  __half *t_planes = reinterpret_cast<__half *> (smem);
  unsigned int *frame = smem + 3 * g.t_plane / 2;   /* then the column sums, over it */
  __half *col_park = reinterpret_cast<__half *> (frame);
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, n_warps = blockDim.x / 32;

  /* the frame words, row by row: four rows' loads in flight per warp */
  const char *frame_row0 = in.at (ry0, rx0);
  for (int r0 = warp; r0 < n_rows; r0 += 4 * n_warps) {
    unsigned int v[4][kTileMaxColumns / 32];
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const unsigned int *src = reinterpret_cast<const unsigned int *> (frame_row0 + (r0 + i * n_warps) * in.line_step);
#pragma unroll
      for (int j = 0; j < kTileMaxColumns / 32; j++)
        if (r0 + i * n_warps < n_rows && lane + 32 * j < n_cols)
          v[i][j] = __ldg (src + lane + 32 * j);
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
      for (int j = 0; j < kTileMaxColumns / 32; j++)
        if (r0 + i * n_warps < n_rows && lane + 32 * j < n_cols)
          frame[(r0 + i * n_warps) * g.in_stride + lane + 32 * j] = v[i][j];
  }
  __syncthreads ();

  const unsigned int first = in.alpha_first ? 1u : 0u;
  /* rows: thread (channel, row) sweeps that row's channel over the margins, writes T */
  if (tid < 3 * n_rows) {
    const int ch = tid / n_rows, r = tid - ch * n_rows;
    const unsigned int *line = frame + r * g.in_stride - rx0;   /* indexed by x */
    __half *t = t_planes + ch * g.t_plane + r * g.t_stride - x_st;
    const unsigned int select = 0x7440u | (first + ch);
    sweep_line (rx0, x_st, x_en, rx1 - 1, 8388608.0f, k,
        [&] (int x) { return __uint_as_float (__byte_perm (line[x], 0x4B000000u, select)); },
        [&] (int x, float v) { t[x] = __float2half_rn (v); },
        [&] (int x) { return __half2float (t[x]); },
        [&] (int x, float v) { t[x] = __float2half_rn (v); });
  }
  __syncthreads ();

  /* columns: thread (channel, column) sweeps T down the tile and its margins; the output
   * byte goes back into the T slot it came from */
  if (tid < 3 * tile_w) {
    const int ch = tid / tile_w, c = tid - ch * tile_w;
    __half *t = t_planes + ch * g.t_plane + c - ry0 * g.t_stride;   /* indexed by y */
    __half *park = col_park + ch * g.park_plane + c - y_st * g.t_stride;
    const int stride = g.t_stride;
    sweep_line (ry0, y_st, y_en, ry1 - 1, 0.f, k,
        [&] (int y) { return __half2float (t[y * stride]); },
        [&] (int y, float v) { park[y * stride] = __float2half_rn (v); },
        [&] (int y) { return __half2float (park[y * stride]); },
        [&] (int y, float v) { reinterpret_cast<unsigned short *> (t)[y * stride] = round_to_byte (v + 0.5f); });
  }
  __syncthreads ();

  /* the tile out, alpha from the frame (its words in shared memory hold column sums now) */
  const unsigned short *bytes = reinterpret_cast<const unsigned short *> (t_planes) + (y_st - ry0) * g.t_stride;
  const unsigned int alpha = in.alpha_first ? 0u : 3u;
  const char *in_row = in.at (y_st, x_st);
  char *out_row = out.at (y_st, x_st);
  for (int r = warp; r < y_en - y_st; r += n_warps) {
    const unsigned int *src = reinterpret_cast<const unsigned int *> (in_row + r * in.line_step);
    unsigned int *dst = reinterpret_cast<unsigned int *> (out_row + r * out.line_step);
    const unsigned short *b = bytes + r * g.t_stride;
#pragma unroll
    for (int j = 0; j < kTileMaxSegment / 32; j++) {
      const int c = lane + 32 * j;
      if (c < tile_w)
        dst[c] = pack_pixel (b[c], b[g.t_plane + c], b[2 * g.t_plane + c], __byte_perm (__ldg (src + c), 0, alpha),
            out.alpha_first);
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
  g.t_stride = 2 * ((seg_x + 1) / 2 | 1);
  g.in_stride = (min (seg_x + 2 * warmup, n_x) | 1);
  g.rows_max = min (seg_y + 2 * warmup, n_y);
  g.t_plane = g.rows_max * g.t_stride;
  g.park_plane = seg_y * g.t_stride;
  return g;
}

static size_t tile_shared_bytes (const TileGeometry &g)
{
  const size_t frame = (size_t) g.rows_max * g.in_stride * 4, park = (size_t) 3 * g.park_plane * 2;
  return (size_t) 3 * g.t_plane * 2 + (frame > park ? frame : park);
}

static int tile_threads (const TileGeometry &g)
{
  const int seg_x = div_up (g.width, g.segments_x);
  return div_up (3 * max (g.rows_max, seg_x), 32) * 32;
}

/* 228 KB of shared memory per SM on sm_90, 1 KB of it reserved per block */
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
