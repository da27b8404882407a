/* recursivegauss with warm-ups in one kernel: a block per tile of one row segment by one
 * column segment, the frame read once and the output written once, and both passes as
 * matrix products on the tensor cores.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why one kernel: the two-pass path (cs_sweep.cuh) moves ~52 bytes per pixel through DRAM
 * against the 8 of the frame in and out; a tile's segments and their warm-ups fit in
 * shared memory when both are short. Why matrices: swept sample by sample, one thread per
 * line, the recursion cost ~16–21 instructions per step around its 8 FMAs, 4 sweeps per
 * pixel, and that bound the tile kernel this replaces (NOTES.md, v9–v11). A segment's
 * output is a fixed linear function of the samples its sweeps see, so the tile's rows are
 * one product with a constant matrix, and so are its columns; the tensor cores do one
 * m16n8k16 product (2048 multiply-adds) per issue slot.
 *
 * The matrix. The sweeps (cs_sweep.cuh, cs_ref_recursive.c) run on the differences
 * Δ[j] = f[j] − f[j−1] of a segment's samples s..e (its warm-ups included, clamped to the
 * frame), from a zero state, Δ[s] counting as 0; the output is f + Re Σ(h⁺ + h⁻). With g
 * the impulse response of the causal recursion (y[k] = Σ a_j y[k−j] + Σ n_j Δ[k−j], both
 * poles' real parts as one fourth-order recursion), the causal sum at i is
 * Σ_{j=s+1..i} g(i − j)Δ[j] and the anticausal one −Σ_{j=i+1..e} g(j − 1 − i)Δ[j]:
 *     T[i] = f[i] + Σ_{j=s+1..e} c(i − j)·Δ[j],   c(d) = g(d) (d >= 0), −g(−d − 1) (d < 0).
 * c depends on i − j alone, so with Δ set to 0 outside s+1..e every segment of every tile
 * is the same Toeplitz product: over a window of K samples starting P before the segment
 * (P = the warm-up rounded up to a multiple of 4, K = 64 + 2P rounded up to 16), output i
 * of 64 takes C[i][k] = c(i + P − k). Its m16n8k16 fragments repeat along the diagonals,
 * so a warp keeps the ones it needs in 28 (rows) or 36 (columns) registers, each one
 * load from tables of fp16 pairs made on the host. (Skipping the fragments that are zero
 * in fp16 cost more issue slots in predicates than the tensor pipe, 20 % busy, saved.)
 * Rows: the tile's rows with their margins are the lines, their differences (integers in
 * −255..255, exact in fp16) the operand, and T = f + C·Δ goes to shared memory as fp16 (as
 * the swept tile kept it). Columns: the same product on the differences of T down the
 * columns, read straight from T (the row addresses that ldmatrix takes are clamped to the
 * segment's samples, so that outside them the difference is exactly 0), added to T and
 * rounded to bytes.
 *
 * Accuracy: C is rounded to fp16 (relative 2^-11 per entry) and the products summed in
 * float, so a pass moves its result by at most 255·Σ_d |c_fp16(d) − c(d)|: 0.006 / 0.056 /
 * 0.19 LSB at σ = 0.5 / 2 / 5 (computed from the coefficients, the worst sign pattern of
 * ±255 differences); natural images stay far below. With T's fp16 rounding (1/16) the two
 * passes stay under 0.45, inside the rounding to the nearest byte's 1 LSB. The GPU suite
 * holds it to 1 LSB on noise, photos, 0/255 checkerboards and stripes.
 */
#include "cs_recursive_tile.cuh"
#include "cs_mma.cuh"
#include "cs_memo.cuh"

#include <string.h>

namespace cs {

static constexpr int kTileThreads = 256, kTileWarps = kTileThreads / 32, kTileBlocksPerSm = 2;
static constexpr int kMaxPad = 16;                               /* warm-ups up to 16 samples */
static constexpr int kMaxSteps = (kTileMaxSegment + 2 * kMaxPad) / 16;   /* k-steps of 16: 6 */
static constexpr int kTStride = kTileMaxSegment + 8;   /* halves per T row: 144 B, ldmatrix without bank conflicts */
static constexpr int kMaxPairs = 16 * kMaxSteps + kTileMaxSegment - 2;

/* Fragment counts: row products use B fragments indexed by n-tile − 2·k-step, column
 * products A fragments indexed by m-tile − k-step. */
__host__ __device__ constexpr int row_fragments (int steps) { return 2 * (steps - 1) + kTileMaxSegment / 8; }
__host__ __device__ constexpr int column_fragments (int steps) { return steps - 1 + kTileMaxSegment / 16; }

struct TileParams {
  int width, height, segments_x, segments_y, warmup, pad;
  /* (c(d), c(d − 1)) in fp16 as the low and high halves, d = pad − 16·steps + 2 .. pad + 63:
   * every fragment register is one of these words */
  unsigned int pairs[kMaxPairs];
};

template <int S>
struct TileLayout {
  static constexpr int K = 16 * S, kDStride = K + 8;   /* halves per Δ row: an odd number of 16 B units */
  static constexpr int kColFrags = column_fragments (S);
  static constexpr int kTBytes = 3 * K * kTStride * 2, kDBytes = 3 * K * kDStride * 2;
  /* the pairs, and per pair index i the row fragment words (P[i], P[i − 8]) and the column
   * fragment words (P[i], P[i + 8], P[i − 8], P[i]), so that a fragment is one load into
   * the registers an mma takes */
  static constexpr int kPairBytes = kMaxPairs * 4, kRowFragBytes = kMaxPairs * 8, kColFragBytes = kMaxPairs * 16;
  static constexpr int kBytes = kTBytes + kDBytes + kColFragBytes + kRowFragBytes + kPairBytes;
};

template <int S>
__global__ void __launch_bounds__ (kTileThreads, kTileBlocksPerSm)
recursive_tile (Lines in, Lines out, TileParams p)
{
  using L = TileLayout<S>;
  constexpr int K = L::K;
  extern __shared__ __align__ (16) unsigned char smem[];
  __half *t_plane = reinterpret_cast<__half *> (smem);
  __half *d_plane = reinterpret_cast<__half *> (smem + L::kTBytes);
  uint4 *col_words = reinterpret_cast<uint4 *> (smem + L::kTBytes + L::kDBytes);
  uint2 *row_words = reinterpret_cast<uint2 *> (smem + L::kTBytes + L::kDBytes + L::kColFragBytes);
  unsigned int *pairs = reinterpret_cast<unsigned int *> (smem + L::kTBytes + L::kDBytes + L::kColFragBytes + L::kRowFragBytes);

  const int x_st = cut (blockIdx.x, p.width, p.segments_x), x_en = cut (blockIdx.x + 1, p.width, p.segments_x);
  const int y_st = cut (blockIdx.y, p.height, p.segments_y), y_en = cut (blockIdx.y + 1, p.height, p.segments_y);
  if (x_en <= x_st || y_en <= y_st)
    return;   /* the whole block */
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
  /* the window: K samples from P before the segment; the sweeps' samples s..e in it */
  const int x0 = x_st - p.pad, y0 = y_st - p.pad;
  const int sx = max (x_st - p.warmup, 0), ex = min (x_en + p.warmup, p.width) - 1;
  const int sy = max (y_st - p.warmup, 0) - y0, ey = min (y_en + p.warmup, p.height) - 1 - y0;   /* rows of T */
  const int width_out = x_en - x_st, height_out = y_en - y_st;

  /* Δ of the window's rows, K per row, and f + 0.5 of its output columns (T's slots, the
   * half of the final rounding carried along; replaced by T + 0.5 below). Samples outside
   * the sweeps' s..e are read as the nearest inside (the frame clamped to s..e): their
   * differences, Δ[s] included, are then exactly the 0 that the sweeps start from, and
   * rows outside the segment's samples copy its first or last (T's rows there are never
   * read). A thread per four columns walks the rows (7–10 of them), its loads (five
   * words a row) in two batches, each issued whole before any word is used: each wait
   * costs a memory latency, and one batch of all rows would not fit the registers. The
   * first batch is in flight while the block sets up C's fragment tables. */
  const unsigned int first = in.alpha_first ? 1u : 0u;
  const int m_first = sy / 16, m_last = ey / 16;   /* the row m-tiles that hold samples */
  constexpr int kQuads = K / 4, kGroups = kTileThreads / kQuads, kAhead = (K + 2 * kGroups - 1) / (2 * kGroups);
  const int q = tid % kQuads, group = tid / kQuads, r_begin = 16 * m_first + group, r_end = 16 * (m_last + 1);
  int c[5];
#pragma unroll
  for (int j = 0; j < 5; j++)
    c[j] = clampi (x0 + 4 * q - 1 + j, sx, ex);
  unsigned int w[kAhead][5];
  /* words 1..4 in one 16-byte load where they are inside s..e and aligned */
  const bool inside = x0 + 4 * q >= sx && x0 + 4 * q + 3 <= ex;
  auto load_rows = [&] (int r0) {
#pragma unroll
    for (int b = 0; b < kAhead; b++) {
      const unsigned int *row = reinterpret_cast<const unsigned int *> (in.at (y0 + clampi (r0 + b * kGroups, sy, ey), 0));
      w[b][0] = __ldg (row + c[0]);
      if (inside && (reinterpret_cast<uintptr_t> (row + c[1]) & 15) == 0) {
        const uint4 four = __ldg (reinterpret_cast<const uint4 *> (row + c[1]));
        w[b][1] = four.x;
        w[b][2] = four.y;
        w[b][3] = four.z;
        w[b][4] = four.w;
      } else
#pragma unroll
        for (int j = 1; j < 5; j++)
          w[b][j] = __ldg (row + c[j]);
    }
  };
  if (group < kGroups)
    load_rows (r_begin);

  /* C's entries as fp16 pairs; a lane's fragment registers are the words at its
   * d0 = g − 2t + P plus compile-time offsets (8 per n-tile, 16 per m-tile or k-step) */
  constexpr int kPairs = 16 * S + kTileMaxSegment - 2;
  for (int i = tid; i < kPairs; i += kTileThreads)
    pairs[i] = p.pairs[i];
  __syncthreads ();
  for (int i = tid; i < kPairs; i += kTileThreads) {   /* entries outside 8..kPairs − 9 are not read */
    const unsigned int at = pairs[i], back = pairs[max (i - 8, 0)], ahead = pairs[min (i + 8, kPairs - 1)];
    row_words[i] = make_uint2 (at, back);
    col_words[i] = make_uint4 (at, ahead, back, at);
  }
  const int lane_pair = g - 2 * t + 16 * S - 2;   /* d0 − (P − 16S + 2) */

  if (group < kGroups) {
    const int i = 4 * q - p.pad;   /* output column of the thread's first sample */
    for (int r0 = r_begin; r0 < r_end; r0 += kAhead * kGroups) {
      if (r0 != r_begin)
        load_rows (r0);
#pragma unroll
      for (int b = 0; b < kAhead; b++) {
        const int r = r0 + b * kGroups;
        if (r >= r_end)
          break;
#pragma unroll
        for (int ch = 0; ch < 3; ch++) {
          const unsigned int now0 = biased_pair (w[b][1], w[b][2], first + ch),
                             now1 = biased_pair (w[b][3], w[b][4], first + ch);
          reinterpret_cast<uint2 *> (d_plane + (ch * K + r) * L::kDStride)[q] =
              make_uint2 (hsub2 (now0, biased_pair (w[b][0], w[b][1], first + ch)),
                  hsub2 (now1, biased_pair (w[b][2], w[b][3], first + ch)));
          if (i >= 0 && i < kTileMaxSegment)   /* (1024 + f) − 1023.5, exact */
            *reinterpret_cast<uint2 *> (t_plane + (ch * K + r) * kTStride + i) =
                make_uint2 (hsub2 (now0, 0x63FF63FFu), hsub2 (now1, 0x63FF63FFu));
        }
      }
    }
  }
  __syncthreads ();

  /* rows: a warp per (channel, m-tile of 16 rows, half of the 64 outputs), each warp on one
   * half throughout (its B fragments loaded once): T + 0.5 = f + 0.5 + Δ·Cᵀ */
  {
    constexpr int kHalfTiles = kTileMaxSegment / 16, kHalfFrags = kHalfTiles + 2 * (S - 1);
    const int half = warp & 1;
    /* B fragment of n-tile n = 4·half + j and k-step k: index j − 2k + 2(S − 1), entries
     * d = 8(n − 2k) + d0 and 8(n − 2k) − 8 + d0 */
    uint2 b[kHalfFrags];
#pragma unroll
    for (int u = 0; u < kHalfFrags; u++) {
      const int v = u - 2 * (S - 1) + 4 * half;
      b[u] = row_words[lane_pair + 8 * v];
    }
    const int n_items = 3 * (m_last - m_first + 1);
    for (int item = warp / 2; item < n_items; item += kTileWarps / 2) {
      const int ch = item % 3, m = m_first + item / 3;
      /* the sums start at f + 0.5 */
      __half *t_rows = t_plane + (ch * K + 16 * m + g) * kTStride + 2 * t + 32 * half;
      float acc[kHalfTiles][4];
#pragma unroll
      for (int n = 0; n < kHalfTiles; n++) {
        const float2 lo = unhalves (*reinterpret_cast<const unsigned int *> (t_rows + 8 * n)),
                     hi = unhalves (*reinterpret_cast<const unsigned int *> (t_rows + 8 * kTStride + 8 * n));
        acc[n][0] = lo.x;
        acc[n][1] = lo.y;
        acc[n][2] = hi.x;
        acc[n][3] = hi.y;
      }
      const __half *d_rows = d_plane + (ch * K + 16 * m + (lane & 15)) * L::kDStride + (lane >> 4) * 8;
#pragma unroll
      for (int k = 0; k < S; k++) {
        unsigned int a[4];
        ldmatrix_x4 (a, shared_address (d_rows + 16 * k));
#pragma unroll
        for (int n = 0; n < kHalfTiles; n++) {
          const int u = n - 2 * k + 2 * (S - 1);
          mma (acc[n], a, b[u].x, b[u].y);
        }
      }
#pragma unroll
      for (int n = 0; n < kHalfTiles; n++) {
        *reinterpret_cast<unsigned int *> (t_rows + 8 * n) = halves (acc[n][0], acc[n][1]);
        *reinterpret_cast<unsigned int *> (t_rows + 8 * kTStride + 8 * n) = halves (acc[n][2], acc[n][3]);
      }
    }
  }
  __syncthreads ();

  /* columns: warp per 8 output columns, all three channels and 64 output rows:
   * out = T + C·ΔT, ΔT from T through clamped row addresses */
  const int x_chunk = 8 * warp;
  if (x_chunk >= width_out)
    return;
  /* A fragment of m-tile m and k-step k: index m − k + (S − 1), entries d = 16(m − k) + d0
   * (+8, −8) */
  uint4 a_frag[L::kColFrags];
#pragma unroll
  for (int u = 0; u < L::kColFrags; u++) {
    const int v = u - (S - 1);
    a_frag[u] = col_words[lane_pair + 16 * v];
  }
  const int x = x_chunk + 2 * t;
  unsigned int alpha_words[kTileMaxSegment / 16][2][2];
#pragma unroll
  for (int m = 0; m < kTileMaxSegment / 16; m++)
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const int i = min (16 * m + g + 8 * h, height_out - 1);
      const unsigned int *src = reinterpret_cast<const unsigned int *> (in.at (y_st + i, x_st));
      /* both words in one 8-byte load where the row allows (a warp's loads then fill their
       * sectors) */
      if (x + 1 < width_out && (reinterpret_cast<uintptr_t> (src + x) & 7) == 0) {
        const uint2 both = __ldg (reinterpret_cast<const uint2 *> (src + x));
        alpha_words[m][h][0] = both.x;
        alpha_words[m][h][1] = both.y;
      } else
#pragma unroll
        for (int j = 0; j < 2; j++)
          alpha_words[m][h][j] = __ldg (src + min (x + j, width_out - 1));
    }
  /* the sums start at T + 0.5 of the output rows (rows past the segment: any T) */
  float acc[kTileMaxSegment / 16][3][4];
#pragma unroll
  for (int m = 0; m < kTileMaxSegment / 16; m++)
#pragma unroll
    for (int ch = 0; ch < 3; ch++)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const float2 v = unhalves (
            *reinterpret_cast<const unsigned int *> (t_plane + (ch * K + 16 * m + g + 8 * h + p.pad) * kTStride + x));
        acc[m][ch][2 * h] = v.x;
        acc[m][ch][2 * h + 1] = v.y;
      }
#pragma unroll
  for (int k = 0; k < S; k++) {
    /* lanes 0..15 address rows 16k .. 16k + 15 of the window (x2: lanes 16..31 unused) */
    const int r = 16 * k + (lane & 15), now = clampi (r, sy, ey), before = clampi (r - 1, sy, ey);
#pragma unroll
    for (int ch = 0; ch < 3; ch++) {
      const __half *column = t_plane + ch * K * kTStride + x_chunk;
      unsigned int v[2], w[2];
      ldmatrix_x2_trans (v, shared_address (column + now * kTStride));
      ldmatrix_x2_trans (w, shared_address (column + before * kTStride));
      const unsigned int b0 = hsub2 (v[0], w[0]), b1 = hsub2 (v[1], w[1]);
#pragma unroll
      for (int m = 0; m < kTileMaxSegment / 16; m++) {
        const int u = m - k + (S - 1);
        const unsigned int a[4] = { a_frag[u].x, a_frag[u].y, a_frag[u].z, a_frag[u].w };
        mma (acc[m][ch], a, b0, b1);
      }
    }
  }

  /* out = floor(T + 0.5 + the sums) (DESIGN.md: round half up), clamped by the conversion;
   * alpha from the frame, its words fetched before the products */
  const unsigned int alpha = in.alpha_first ? 0u : 3u;
#pragma unroll
  for (int m = 0; m < kTileMaxSegment / 16; m++) {
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const int i = 16 * m + g + 8 * h;
      if (i >= height_out)
        continue;
      unsigned int *dst = reinterpret_cast<unsigned int *> (out.at (y_st + i, x_st + x));
      unsigned int v[2];
#pragma unroll
      for (int j = 0; j < 2; j++)
        v[j] = pack_pixel (round_to_byte (acc[m][0][2 * h + j]), round_to_byte (acc[m][1][2 * h + j]),
            round_to_byte (acc[m][2][2 * h + j]), __byte_perm (alpha_words[m][h][j], 0, alpha), out.alpha_first);
      /* both pixels in one 8-byte store where the row allows */
      if (x + 1 < width_out && (reinterpret_cast<uintptr_t> (dst) & 7) == 0)
        *reinterpret_cast<uint2 *> (dst) = make_uint2 (v[0], v[1]);
      else
#pragma unroll
        for (int j = 0; j < 2; j++)
          if (x + j < width_out)
            dst[j] = v[j];
    }
  }
}

/* P: the warm-up rounded up to a multiple of 4, so that the output columns start on an
 * 8-byte boundary of the window's rows */
static int window_pad (int warmup)
{
  return (warmup + 3) & ~3;
}

static int window_steps (int warmup)
{
  return div_up (kTileMaxSegment + 2 * window_pad (warmup), 16);
}

bool recursive_tiles_cover (int n_x, int n_y, int segments_x, int segments_y, int warmup)
{
  return segments_x >= 1 && segments_y >= 1 && div_up (n_x, segments_x) <= kTileMaxSegment &&
      div_up (n_y, segments_y) <= kTileMaxSegment && warmup >= 0 && window_pad (warmup) <= kMaxPad;
}

/* c(d) from the recursion's response (cs_mma.cuh), as the fp16 pairs the kernel takes */
static void tile_coefficients (const CsDericheCoeffs &c, int pad, int steps, TileParams &p)
{
  /* g: the response to Δ = δ[0], over the longest reach a window needs */
  const int d_min = pad - 16 * steps + 1, d_max = pad + kTileMaxSegment - 1, reach = d_max > -d_min ? d_max : -d_min;
  double gr[kMaxPairs + 2];
  deriche_step_response (c, reach, gr);
  for (int d = d_min + 1; d <= d_max; d++)
    p.pairs[d - d_min - 1] = pack_halves (fp16_bits (folded_response (gr, d)), fp16_bits (folded_response (gr, d - 1)));
}

template <int S>
static cudaError_t launch_tiles (Lines in, Lines out, const TileParams &p, cudaStream_t stream)
{
  const int bytes = TileLayout<S>::kBytes;
  cudaError_t err = cudaFuncSetAttribute (recursive_tile<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  /* all of the SM's L1 as shared memory whatever this launch's size: the kernel reads the
   * frame once, and a carveout that follows the size would be re-chosen between frames */
  if (err == cudaSuccess)
    err = cudaFuncSetAttribute (recursive_tile<S>, cudaFuncAttributePreferredSharedMemoryCarveout,
        cudaSharedmemCarveoutMaxShared);
  if (err != cudaSuccess)
    return err;
  recursive_tile<S><<<dim3 (p.segments_x, p.segments_y), kTileThreads, bytes, stream>>> (in, out, p);
  return cudaGetLastError ();
}

cudaError_t recursive_tiles (Lines in, Lines out, int width, int height, int segments_x, int segments_y,
    int warmup, const CsDericheCoeffs &c, cudaStream_t stream)
{
  if (!recursive_tiles_cover (width, height, segments_x, segments_y, warmup))
    return cudaErrorInvalidValue;
  TileParams p;
  p.width = width;
  p.height = height;
  p.segments_x = segments_x;
  p.segments_y = segments_y;
  p.warmup = warmup;
  p.pad = window_pad (warmup);
  const int steps = window_steps (warmup) <= 5 ? 5 : 6;   /* the kernel's instances */
  struct Pairs {
    unsigned int pairs[kMaxPairs];
  };
  static thread_local LastBuilt<TableKey, Pairs> last;
  const Pairs &built = last.get (TableKey { c.sigma, p.pad, steps }, [&] (Pairs &v) {
    tile_coefficients (c, p.pad, steps, p);
    memcpy (v.pairs, p.pairs, sizeof v.pairs);
  });
  memcpy (p.pairs, built.pairs, sizeof p.pairs);
  return steps <= 5 ? launch_tiles<5> (in, out, p, stream) : launch_tiles<6> (in, out, p, stream);
}

}  // namespace cs
