/* recursivegauss with warm-ups of up to 16 samples in one kernel: a block per tile of one
 * row segment by one column segment, the tile read once and written once, both passes as
 * Toeplitz matrix products on the tensor cores (docs/algorithms.md, 5.3: the matrix, the
 * centring on 128, the fp16 error bound of 0.08 LSB, the two instances).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_recursive_tile.cuh"
#include "cs_launch.cuh"
#include "cs_mma.cuh"
#include "cs_plan.cuh"

#include <limits.h>
#include <string.h>

#include <algorithm>
#include <cstdlib>

namespace cs {

/* T (the rows' result, the columns' input) in a plane of its own, or, with kInPlace, over
 * the first 64 samples of its row once the row's products have read them: 64 KB a block
 * instead of 106 at S = 6, so that three blocks fit an SM */
template <int S, bool kInPlace>
struct TileLayout {
  static constexpr int K = 16 * S, kFStride = K + 8;   /* halves per sample row: an odd number of 16 B units */
  static constexpr int kTStride = kInPlace ? kFStride : kTileMaxSegment + 8;   /* 144 B apart: no bank conflicts */
  static constexpr int kColFrags = column_fragments (S);
  static constexpr int kFBytes = 3 * K * kFStride * 2, kTBytes = kInPlace ? 0 : 3 * K * kTStride * 2;
  /* the pairs, and per pair index i the row fragment words (P[i], P[i − 8]) and the column
   * fragment words (P[i], P[i + 8], P[i − 8], P[i]), so that a fragment is one load into
   * the registers an mma takes */
  static constexpr int kPairBytes = kTileMaxPairs * 4, kRowFragBytes = kTileMaxPairs * 8, kColFragBytes = kTileMaxPairs * 16;
  static constexpr int kEndBytes = kTileMaxSegment * 16;   /* per output i: (hi, hi of i + 8, lo, lo of i + 8) */
  static constexpr int kBoundsBytes = 32;   /* a view block's planes' column bounds and rows (block_window) */
  static constexpr int kBytes =
      kFBytes + kTBytes + kColFragBytes + kRowFragBytes + kPairBytes + kEndBytes + kBoundsBytes;
};

/* A tile: its segments, and the window around them. */
struct TileWindow {
  int x_st, x_en, y_st, y_en;   /* the outputs: columns x_st..x_en − 1, rows y_st..y_en − 1 */
  int x0, y0;                   /* the window: K samples from P before the segment */
  int sx, ex;                   /* the sweeps' columns of the frame */
  int sy, ey;                   /* the sweeps' rows, as rows of the window (and of T) */
  int width_out, height_out;
  unsigned int block_x;         /* the block's index along the rows (a view's: its planes, ViewPlane) */

  /* the tile of row segment tile_x and column segment blockIdx.y */
  __device__ __forceinline__ TileWindow (const TileParams &p, unsigned int tile_x)
      : TileWindow (p, cut (tile_x, p.width, p.segments_x), cut (tile_x + 1, p.width, p.segments_x))
  {
  }

  /* the tile of columns x_st..x_en − 1 and column segment blockIdx.y */
  __device__ __forceinline__ TileWindow (const TileParams &p, int x_start, int x_end)
      : TileWindow (p, x_start, x_end, cut (blockIdx.y, p.height, p.segments_y), cut (blockIdx.y + 1, p.height, p.segments_y))
  {
  }

  /* the tile of columns x_st..x_en − 1 and rows y_st..y_en − 1 */
  __device__ __forceinline__ TileWindow (const TileParams &p, int x_start, int x_end, int y_start, int y_end,
      unsigned int block = blockIdx.x)
      : x_st (x_start), x_en (x_end), y_st (y_start), y_en (y_end), x0 (x_st - p.pad), y0 (y_st - p.pad), sx (max (x_st - p.warmup, 0)), ex (min (x_en + p.warmup, p.width) - 1),
        sy (max (y_st - p.warmup, 0) - y0), ey (min (y_en + p.warmup, p.height) - 1 - y0), width_out (x_en - x_st),
        height_out (y_en - y_st), block_x (block)
  {
  }

  /* the tile of columns x_st..x_en − 1 and the rows of `rows` (a block's column segment,
   * without dividing again) */
  __device__ __forceinline__ TileWindow (const TileParams &p, int x_start, int x_end, const TileWindow &rows)
      : x_st (x_start), x_en (x_end), y_st (rows.y_st), y_en (rows.y_en), x0 (x_st - p.pad), y0 (rows.y0),
        sx (max (x_st - p.warmup, 0)), ex (min (x_en + p.warmup, p.width) - 1), sy (rows.sy), ey (rows.ey),
        width_out (x_en - x_st), height_out (rows.height_out), block_x (rows.block_x)
  {
  }

  __device__ __forceinline__ bool empty () const { return x_en <= x_st || y_en <= y_st; }
};

/* Load: the window's samples, K per row, as fp16 (exact for bytes). Samples outside the
 * sweeps' s..e are read as the nearest inside (the frame clamped to s..e), which is what the
 * sum by parts assumes; rows outside the segment's samples copy its first or last (T's rows
 * there are never read). A thread per four columns walks the rows (7–10 of them), its loads
 * (four words a row) in two batches, each issued whole before any word is used: each wait
 * costs a memory latency, and one batch of all rows would not fit the registers. The first
 * batch is in flight while the block sets up M's fragment tables. */
template <int S, class Rows>
struct RowBatches {
  static constexpr int K = 16 * S, kQuads = K / 4, kGroups = kTileThreads / kQuads;
  static constexpr int kAhead = (K + 2 * kGroups - 1) / (2 * kGroups);
  int q, group, r_begin, r_end;

  /* rows of the window from m-tile m_first to m_last */
  __device__ __forceinline__ RowBatches (int m_first, int m_last, int tid)
      : q (tid % kQuads), group (tid / kQuads), r_begin (16 * m_first + tid / kQuads), r_end (16 * (m_last + 1))
  {
  }

  __device__ __forceinline__ bool active () const { return group < kGroups; }

  /* the fetched batch and the rest, into the planes of samples as f − 128:
   * (1024 + f) − 1152, exact (Rows::stage_row) */
  template <int kFStride, class Px>
  __device__ __forceinline__ void stage (const Px &in, const TileWindow &win, __half *f_plane)
  {
    Rows &rows = *static_cast<Rows *> (this);
    const unsigned int first = Rows::first_colour (in);
    for (int r0 = r_begin; r0 < r_end; r0 += kAhead * kGroups) {
      if (r0 != r_begin)
        rows.fetch (in, win, r0);
#pragma unroll
      for (int b = 0; b < kAhead; b++) {
        const int r = r0 + b * kGroups;
        if (r >= r_end)
          break;
        rows.template stage_row<kFStride> (first, f_plane, b, r);
      }
    }
  }
};

template <int S>
struct WindowRows : RowBatches<S, WindowRows<S>> {
  using B = RowBatches<S, WindowRows<S>>;
  using B::K, B::kAhead, B::kGroups, B::q;
  int c[4];
  bool vector;
  unsigned int w[kAhead][4];

  __device__ __forceinline__ WindowRows (const TileParams &, const int *, const Lines &in, const TileWindow &win,
      int m_first, int m_last, int tid)
      : B (m_first, m_last, tid)
  {
#pragma unroll
    for (int j = 0; j < 4; j++)
      c[j] = clampi (win.x0 + 4 * q + j, win.sx, win.ex);
    /* the four words in one 16-byte load where they are inside s..e and every row has them
     * 16-byte aligned (the frame's base and pitch): decided once, so that the rows' loads
     * are one straight run (a test per row made each its own branch, ~10 instructions a row) */
    const bool inside = win.x0 + 4 * q >= win.sx && win.x0 + 4 * q + 3 <= win.ex;
    vector = inside && in.lines_aligned_at (c[0], 16);
  }

  /* issues the loads of rows r0, r0 + kGroups, … (kAhead of them) */
  __device__ __forceinline__ void fetch (const Lines &in, const TileWindow &win, int r0)
  {
    if (vector)
#pragma unroll
      for (int b = 0; b < kAhead; b++) {
        const uint4 four = __ldg (reinterpret_cast<const uint4 *> (in.at_unsigned (win.y0 + clampi (r0 + b * kGroups, win.sy, win.ey), c[0])));
        w[b][0] = four.x;
        w[b][1] = four.y;
        w[b][2] = four.z;
        w[b][3] = four.w;
      }
    else
#pragma unroll
      for (int b = 0; b < kAhead; b++) {
        const unsigned int *row = reinterpret_cast<const unsigned int *> (in.at_unsigned (win.y0 + clampi (r0 + b * kGroups, win.sy, win.ey), 0));
#pragma unroll
        for (int j = 0; j < 4; j++)
          w[b][j] = __ldg (row + c[j]);
      }
  }

  /* the byte of a pixel's first colour channel */
  static __device__ __forceinline__ unsigned int first_colour (const Lines &in) { return in.alpha_first ? 1u : 0u; }

  /* row r of batch b into the channels' planes */
  template <int kFStride>
  __device__ __forceinline__ void stage_row (unsigned int first, __half *f_plane, int b, int r) const
  {
#pragma unroll
    for (int ch = 0; ch < 3; ch++)
      reinterpret_cast<uint2 *> (f_plane + (ch * K + r) * kFStride)[q] =
          make_uint2 (hsub2 (biased_pair (w[b][0], w[b][1], first + ch), 0x64806480u),
              hsub2 (biased_pair (w[b][2], w[b][3], first + ch), 0x64806480u));
  }
};

/* The planes of a view's block. A block fills three planes of samples whatever the layout:
 * the RGBA family's three colour channels of tile (blockIdx.x, blockIdx.y), or, on a view of
 * C channels, the (tile, channel) pairs 3·x .. 3·x + 2 of tile row y for block (x, y) of the
 * view (blockIdx, or its place in a launch of two views: recursive_tile_views), tiles before
 * channels (one channel: three tiles side by side; two: a tile and a
 * half). Every block then does the products of three planes, and a view's frame takes C/3 of
 * the blocks of an RGBA frame of its size. Planes past the row's last tile repeat it, filtered
 * but not stored. */
template <int C>
struct ViewPlane {
  int tile, channel;
  bool stored;

  __device__ __forceinline__ ViewPlane (const TileParams &p, unsigned int block_x, int j)
  {
    const int i = 3 * block_x + j;
    tile = min (i / C, p.segments_x - 1);
    channel = i % C;
    stored = i < C * p.segments_x;
  }
};

/* The block's window: the RGBA family's tile; a view block's first plane's, its planes'
 * column bounds into shared memory on the way: x_st of plane j at j, x_en at 3 + j, and the
 * block's rows at 6 and 7 (a division each, once a block rather than in every thread) */
template <int C>
__device__ __forceinline__ TileWindow block_window (const TileParams &p, const Lines &, int *, int, unsigned int,
    unsigned int)
{
  return TileWindow (p, blockIdx.x);
}

template <int C>
__device__ __forceinline__ TileWindow block_window (const TileParams &p, const CsChannels &, int *bounds, int tid,
    unsigned int block_x, unsigned int block_y)
{
  if (tid < 6)
    bounds[tid] = cut (ViewPlane<C> (p, block_x, tid % 3).tile + tid / 3, p.width, p.segments_x);
  else if (tid < 8)
    bounds[tid] = cut (block_y + tid - 6, p.height, p.segments_y);
  __syncthreads ();
  return TileWindow (p, bounds[0], bounds[3], bounds[6], bounds[7], block_x);
}

/* plane j's tile, from block_window's bounds and the block's rows */
__device__ __forceinline__ TileWindow plane_window (const TileParams &p, const int *bounds, int j, const TileWindow &rows)
{
  return TileWindow (p, bounds[j], bounds[3 + j], rows);
}

static constexpr int view_blocks_x (int channels, int segments_x)
{
  return (channels * segments_x + 2) / 3;
}

/* A channel's first sample and row stride, selected: a run-time index into the parameter's
 * arrays would copy the view to local memory. */
__device__ __forceinline__ unsigned char *channel_base (const CsChannels &v, int channel)
{
  return channel == 0 ? v.data[0] : channel == 1 ? v.data[1] : v.data[2];
}

__device__ __forceinline__ ptrdiff_t channel_stride (const CsChannels &v, int channel)
{
  return channel == 0 ? v.stride[0] : channel == 1 ? v.stride[1] : v.stride[2];
}

/* Load, views: as WindowRows, a thread per four columns of each plane walking the rows, one
 * word a row and plane (sample k in byte k). The four samples, clamped to the sweeps' s..e,
 * span at most 4·step bytes; the thread loads the aligned words that hold them and picks the
 * samples with PRMT, its selectors and the words' offsets set once, so that every lane runs
 * the same instructions whatever its alignment and clamping (a vector load for inner columns
 * and byte loads for the others diverged within every warp).
 * - Word rows (samples one or two bytes apart, every channel's rows a multiple of 4 bytes
 *   apart and one stride for all, and every lane's four samples of each plane in two words:
 *   luma, GRAY8, I420 chroma at the sizes GStreamer lays out; NV12 chroma and YUY2 luma where
 *   the tiles start at even columns): the two words from the sample's word hold the four
 *   samples at the same offsets in every row, so a row takes one address, and a plane one
 *   or two loads and one PRMT. Decided for the whole block, so that its loads do not diverge.
 * - Other rows: the words at the sample's own address in each row, funnel-shifted to its
 *   byte (two at step 1, three at step 2); byte loads above step 2 (packed 4:2:2 chroma). */
template <int S, int C>
struct ViewRows : RowBatches<S, ViewRows<S, C>> {
  using B = RowBatches<S, ViewRows<S, C>>;
  using B::kAhead, B::kGroups, B::q;
  /* per plane j, set once (two registers, so that three-block instances do not spill).
   * Word rows: the word holding sample c0 of frame row 0, in bytes from `base` (the channels'
   * first word), and the PRMT selector of the four samples in it and the next word (bits
   * 0..15), with the next word's offset from it, 0 or 4 (bits 16..). Other rows: sample c0 of
   * frame row 0 in bytes from the view's data[0] (launch_tiles_view: 32 bits hold both), and
   * the selector: bits 4k..4k + 3 (c_k − c_0)·step for k = 1..3, bits 0..3 (c_3 − c_0)·step */
  int offset[3];
  unsigned int pick[3];
  bool word_rows;
  const unsigned char *base;
  unsigned int w[kAhead][3];

  __device__ __forceinline__ ViewRows (const TileParams &p, const int *bounds, const CsChannels &in,
      const TileWindow &win, int m_first, int m_last, int tid)
      : B (m_first, m_last, tid)
  {
    const bool one_stride = (in.step == 1 || in.step == 2) && in.stride[0] > 0 && in.stride[0] % 4 == 0 &&
        (C == 1 || in.stride[1] == in.stride[0]);
    const unsigned char *first = C == 1 || in.data[0] < in.data[1] ? in.data[0] : in.data[1];
    base = reinterpret_cast<const unsigned char *> (reinterpret_cast<uintptr_t> (first) & ~(uintptr_t) 3);
    bool in_two_words = true;
    if (one_stride) {
#pragma unroll
      for (int j = 0; j < 3; j++) {
        int c[4];
        const int channel = plane_columns (p, bounds, win, j, c);
        const uintptr_t at = reinterpret_cast<uintptr_t> (channel_base (in, channel) + c[0] * in.step);
        const unsigned int shift = (unsigned int) (at & 3), last = shift + (unsigned int) ((c[3] - c[0]) * in.step);
        in_two_words = in_two_words && last < 8;
        offset[j] = (int) ((at & ~(uintptr_t) 3) - reinterpret_cast<uintptr_t> (base));
        pick[j] = (last >= 4 ? 4u : 0u) << 16;
#pragma unroll
        for (int k = 0; k < 4; k++)
          pick[j] |= (shift + (unsigned int) ((c[k] - c[0]) * in.step)) << (4 * k);
      }
    }
    /* block-wide (one_stride is the same in every thread) */
    word_rows = one_stride && __syncthreads_and (in_two_words);
    if (word_rows)
      return;
#pragma unroll
    for (int j = 0; j < 3; j++) {
      int c[4];
      const int channel = plane_columns (p, bounds, win, j, c);
      offset[j] = (int) (channel_base (in, channel) - in.data[0]) + c[0] * in.step;
      pick[j] = (unsigned int) ((c[3] - c[0]) * in.step);
#pragma unroll
      for (int k = 1; k < 4; k++)
        pick[j] |= (unsigned int) ((c[k] - c[0]) * in.step) << (4 * k);
    }
  }

  /* the frame columns of this thread's four samples of plane j, clamped to the sweeps'
   * s..e; returns the plane's channel */
  __device__ __forceinline__ int plane_columns (const TileParams &p, const int *bounds, const TileWindow &win, int j,
      int c[4]) const
  {
    const TileWindow columns = plane_window (p, bounds, j, win);
#pragma unroll
    for (int k = 0; k < 4; k++)
      c[k] = clampi (columns.x0 + 4 * q + k, columns.sx, columns.ex);
    return ViewPlane<C> (p, win.block_x, j).channel;
  }

  /* word rows: the samples of rows r0, r0 + kGroups, … of the three planes */
  __device__ __forceinline__ void fetch_word_rows (const CsChannels &in, const TileWindow &win, int r0)
  {
    const unsigned int stride = (unsigned int) in.stride[0];
#pragma unroll
    for (int b = 0; b < kAhead; b++) {
      const unsigned int y = (unsigned int) (win.y0 + clampi (r0 + b * kGroups, win.sy, win.ey));
      const unsigned char *row = base + (unsigned long long) y * stride;
#pragma unroll
      for (int j = 0; j < 3; j++) {
        const unsigned int *lo = reinterpret_cast<const unsigned int *> (row + (unsigned int) offset[j]);
        const unsigned int first = __ldg (lo);
        w[b][j] = __byte_perm (first, pick[j] >> 16 ? __ldg (lo + 1) : first, pick[j]);
      }
    }
  }

  /* plane j's four samples of window row r, samples kStep bytes apart (0: any step) */
  template <int kStep>
  __device__ __forceinline__ unsigned int samples (const CsChannels &in, const TileWindow &win, int j, int r) const
  {
    const int channel = (3 * win.block_x + j) % C;
    const unsigned char *at =
        in.data[0] + offset[j] + (ptrdiff_t) (win.y0 + clampi (r, win.sy, win.ey)) * channel_stride (in, channel);
    const uintptr_t a = reinterpret_cast<uintptr_t> (at);
    const unsigned int shift = 8u * (unsigned int) (a & 3), span = pick[j] & 0xFu, select = pick[j] & 0xFFF0u;
    const unsigned int *lo = reinterpret_cast<const unsigned int *> (a & ~(uintptr_t) 3);
    const unsigned int *hi = reinterpret_cast<const unsigned int *> ((a + span) & ~(uintptr_t) 3);
    if constexpr (kStep == 1) {   /* the samples in 3 + 4 bytes from lo: two words (the same where they fit one) */
      const unsigned int shifted = __funnelshift_r (__ldg (lo), __ldg (hi), shift);
      return __byte_perm (shifted, 0, select);
    }
    if constexpr (kStep == 2) {   /* in 3 + 7 bytes: lo, the word after it (no further than hi) and hi */
      const unsigned int w0 = __ldg (lo), w1 = __ldg (lo + (hi > lo)), w2 = __ldg (hi);
      return __byte_perm (__funnelshift_r (w0, w1, shift), __funnelshift_r (w1, w2, shift), select);
    }
    unsigned int v = 0;
#pragma unroll
    for (int k = 0; k < 4; k++)
      v |= (unsigned int) __ldg (at + ((select >> (4 * k)) & 0xF)) << (8 * k);
    return v;
  }

  template <int kStep>
  __device__ __forceinline__ void fetch_rows (const CsChannels &in, const TileWindow &win, int r0)
  {
#pragma unroll
    for (int b = 0; b < kAhead; b++)
#pragma unroll
      for (int j = 0; j < 3; j++)
        w[b][j] = samples<kStep> (in, win, j, r0 + b * kGroups);
  }

  /* the samples of rows r0, r0 + kGroups, … (kAhead of them) of the three planes: the step
   * decided once, outside the rows, so that all their loads issue before the first is used */
  __device__ __forceinline__ void fetch (const CsChannels &in, const TileWindow &win, int r0)
  {
    if (word_rows)
      fetch_word_rows (in, win, r0);
    else if (in.step == 1)
      fetch_rows<1> (in, win, r0);
    else if (in.step == 2)
      fetch_rows<2> (in, win, r0);
    else
      fetch_rows<0> (in, win, r0);
  }

  static __device__ __forceinline__ unsigned int first_colour (const CsChannels &) { return 0; }

  /* row r of batch b into the three planes (each word one plane's four samples) */
  template <int kFStride>
  __device__ __forceinline__ void stage_row (unsigned int, __half *f_plane, int b, int r) const
  {
#pragma unroll
    for (int j = 0; j < 3; j++)
      reinterpret_cast<uint2 *> (f_plane + (j * B::K + r) * kFStride)[q] =
          make_uint2 (hsub2 (__byte_perm (w[b][j], 0x64646464u, 0x4140u), 0x64806480u),
              hsub2 (__byte_perm (w[b][j], 0x64646464u, 0x4342u), 0x64806480u));
  }
};

/* The loader of a layout */
template <int S, class Px, int C> struct TileRows { typedef WindowRows<S> T; };
template <int S, int C> struct TileRows<S, CsChannels, C> { typedef ViewRows<S, C> T; };

/* M's entries as fp16 pairs into the fragment tables; a lane's fragment registers are the
 * words at its d0 = g − 2t + P plus compile-time offsets (8 per n-tile, 16 per m-tile or
 * k-step) */
template <int S>
__device__ __forceinline__ void tile_tables (const TileParams &p, int tid, unsigned int *pairs, uint2 *row_words,
    uint4 *col_words, uint4 *col_ends)
{
  constexpr int kPairs = 16 * S + kTileMaxSegment - 2;
  for (int i = tid; i < kPairs; i += kTileThreads)
    pairs[i] = p.pairs[i];
  __syncthreads ();
  for (int i = tid; i < kPairs; i += kTileThreads) {   /* entries outside 8..kPairs − 9 are not read */
    const unsigned int at = pairs[i], back = pairs[max (i - 8, 0)], ahead = pairs[min (i + 8, kPairs - 1)];
    row_words[i] = make_uint2 (at, back);
    col_words[i] = make_uint4 (at, ahead, back, at);
  }
  for (int i = tid; i < kTileMaxSegment; i += kTileThreads) {
    const int below = min (i + 8, kTileMaxSegment - 1);   /* entries past 63 are not read */
    col_ends[i] = make_uint4 (p.ends_hi[i], p.ends_hi[below], p.ends_lo[i], p.ends_lo[below]);
  }
}

/* Compute, rows: a warp per (channel, m-tile of 16 rows, half of the 64 outputs), each warp
 * on one half throughout (its B fragments loaded once): T − 127.5 = 0.5 + (f − 128)·Mᵀ + the
 * end terms, into T's plane (over the samples with kInPlace) */
template <int S, bool kInPlace>
__device__ __forceinline__ void tile_row_products (const TileParams &p, __half *f_plane, __half *t_plane,
    const uint2 *row_words, int m_first, int m_last, int lane_pair, int warp, int lane)
{
  using L = TileLayout<S, kInPlace>;
  constexpr int K = L::K;
  const int g = lane / 4, t = lane % 4;
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
  /* the end terms as one more product: A's columns 0, 1 (and 8, 9) are f[0], f[K − 1] of
   * rows g, g + 8, B's rows 0, 1 their coefficients' hi parts for output column g of the
   * n-tile, rows 8, 9 the lo parts (lanes with t = 0 hold them; the rest of both is 0) */
  uint2 b_ends[kHalfTiles];
#pragma unroll
  for (int n = 0; n < kHalfTiles; n++) {
    const int i = 32 * half + 8 * n + g;
    b_ends[n] = t == 0 ? make_uint2 (p.ends_hi[i], p.ends_lo[i]) : make_uint2 (0u, 0u);
  }
  /* items in rounds of four (a pair of warps each), so that with T in place one block
   * barrier per round separates the round's reads of its rows from T's stores over them */
  const int n_items = 3 * (m_last - m_first + 1);
  for (int round = 0; round < n_items; round += kTileWarps / 2) {
    const int item = round + warp / 2;
    const bool active = item < n_items;
    const int ch = item % 3, m = m_first + item / 3;
    float acc[kHalfTiles][4];
    if (active) {
#pragma unroll
      for (int n = 0; n < kHalfTiles; n++)
        acc[n][0] = acc[n][1] = acc[n][2] = acc[n][3] = 0.5f;
      const __half *f_rows = f_plane + (ch * K + 16 * m + (lane & 15)) * L::kFStride + (lane >> 4) * 8;
#pragma unroll
      for (int k = 0; k < S; k++) {
        unsigned int a[4];
        ldmatrix_x4 (a, shared_address (f_rows + 16 * k));
#pragma unroll
        for (int n = 0; n < kHalfTiles; n++) {
          const int u = n - 2 * k + 2 * (S - 1);
          mma (acc[n], a, b[u].x, b[u].y);
        }
      }
      const unsigned short *f16 = reinterpret_cast<const unsigned short *> (f_plane + (ch * K + 16 * m + g) * L::kFStride);
      unsigned int ends_a[4] = { 0u, 0u, 0u, 0u };
      if (t == 0) {
        ends_a[0] = ends_a[2] = pack_halves (f16[0], f16[K - 1]);
        ends_a[1] = ends_a[3] = pack_halves (f16[8 * L::kFStride], f16[8 * L::kFStride + K - 1]);
      }
#pragma unroll
      for (int n = 0; n < kHalfTiles; n++)
        mma (acc[n], ends_a, b_ends[n].x, b_ends[n].y);
    }
    if constexpr (kInPlace)
      __syncthreads ();   /* T over the rows' samples: the round has read them */
    if (active) {
      __half *t_rows = t_plane + (ch * K + 16 * m + g) * L::kTStride + 2 * t + 32 * half;
#pragma unroll
      for (int n = 0; n < kHalfTiles; n++) {
        *reinterpret_cast<unsigned int *> (t_rows + 8 * n) = halves (acc[n][0], acc[n][1]);
        *reinterpret_cast<unsigned int *> (t_rows + 8 * L::kTStride + 8 * n) = halves (acc[n][2], acc[n][3]);
      }
    }
  }
}

/* A lane's output words: two columns (x, x + 1) of rows 16m + g + 8h of the segment. */
typedef unsigned int TileWords[kTileMaxSegment / 16][2][2];

/* Load, columns: the output words holding only alpha (from the frame, fetched before the
 * products); both words in one 8-byte load where every row allows (a warp's loads then fill
 * their sectors), decided once, as the window's loads */
__device__ __forceinline__ void load_alpha_words (const Lines &in, const Lines &out, const TileWindow &win, int x,
    int g, TileWords &words)
{
  const unsigned int alpha_at = out.alpha_first ? 0u : 3u;
  const unsigned int alpha_select = (0x4444u & ~(0xFu << (4 * alpha_at))) | ((in.alpha_first ? 0u : 3u) << (4 * alpha_at));
  const bool in_pairs = x + 1 < win.width_out && in.lines_aligned_at (win.x_st + x, 8);
  if (in_pairs)
#pragma unroll
    for (int m = 0; m < kTileMaxSegment / 16; m++)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const uint2 both = __ldg (reinterpret_cast<const uint2 *> (in.at_unsigned (win.y_st + min (16 * m + g + 8 * h, win.height_out - 1), win.x_st + x)));
        words[m][h][0] = both.x;
        words[m][h][1] = both.y;
      }
  else
#pragma unroll
    for (int m = 0; m < kTileMaxSegment / 16; m++)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const unsigned int *src = reinterpret_cast<const unsigned int *> (in.at_unsigned (win.y_st + min (16 * m + g + 8 * h, win.height_out - 1), win.x_st));
#pragma unroll
        for (int j = 0; j < 2; j++)
          words[m][h][j] = __ldg (src + min (x + j, win.width_out - 1));
      }
#pragma unroll
  for (int m = 0; m < kTileMaxSegment / 16; m++)
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
      for (int j = 0; j < 2; j++)
        words[m][h][j] = __byte_perm (words[m][h][j], 0, alpha_select);
}

/* Compute, columns, one channel: M·(T − 127.5) + the end terms for the warp's 8 columns and
 * 64 output rows, T's rows read through clamped row addresses. A fragment of m-tile m and
 * k-step k: the col_words entry at lane_pair + 16(m − k) (held: all of them; sliding: the
 * four a k-step takes, shifted by one per k-step) */
template <int S, bool kSliding, int kHeld>
__device__ __forceinline__ void column_products (const __half *t_channel, const uint4 *col_frag, const uint4 (&held)[kHeld],
    const uint4 *col_ends, const TileWindow &win, int x_chunk, int lane, float (&acc)[kTileMaxSegment / 16][4])
{
  constexpr int kTStride = TileLayout<S, kSliding>::kTStride, kTiles = kTileMaxSegment / 16;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int m = 0; m < kTiles; m++)
    acc[m][0] = acc[m][1] = acc[m][2] = acc[m][3] = 0.f;
  /* the end terms: A's columns 0, 1 the coefficients' hi parts for output rows g, g + 8
   * of the m-tile, columns 8, 9 their lo parts; B's rows 0, 1 and 8, 9 both T[s], T[e]
   * of column g (lanes with t = 0; the rest 0) */
  const unsigned short *t16 = reinterpret_cast<const unsigned short *> (t_channel + x_chunk + g);
  const unsigned int b_ends = t == 0 ? pack_halves (t16[win.sy * kTStride], t16[win.ey * kTStride]) : 0u;
#pragma unroll
  for (int m = 0; m < kTiles; m++) {
    const uint4 e = t == 0 ? col_ends[16 * m + g] : make_uint4 (0u, 0u, 0u, 0u);
    const unsigned int a[4] = { e.x, e.y, e.z, e.w };
    mma (acc[m], a, b_ends, b_ends);
  }
  uint4 frag[kTiles];   /* sliding: frag[m] for the k-step at hand, col_frag[16(m − k)] */
  if constexpr (kSliding)
#pragma unroll
    for (int m = 0; m < kTiles; m++)
      frag[m] = col_frag[16 * m];
#pragma unroll
  for (int k = 0; k < S; k++) {
    /* lanes 0..15 address rows 16k .. 16k + 15 of the window (x2: lanes 16..31 unused) */
    const int now = clampi (16 * k + (lane & 15), win.sy, win.ey);
    unsigned int v[2];
    ldmatrix_x2_trans (v, shared_address (t_channel + now * kTStride + x_chunk));
#pragma unroll
    for (int m = 0; m < kTiles; m++) {
      const uint4 f = kSliding ? frag[m] : held[kSliding ? 0 : m - k + (S - 1)];
      const unsigned int a[4] = { f.x, f.y, f.z, f.w };
      mma (acc[m], a, v[0], v[1]);
    }
    if (kSliding && k + 1 < S) {
#pragma unroll
      for (int m = kTiles - 1; m > 0; m--)
        frag[m] = frag[m - 1];
      frag[0] = col_frag[-16 * (k + 1)];
    }
  }
}

/* The A fragments the columns' products take, held in registers (two blocks per SM) or not
 * (sliding: column_products loads them as it goes) */
template <int S, bool kSliding, int kHeld>
__device__ __forceinline__ void hold_fragments (const uint4 *col_frag, uint4 (&held)[kHeld])
{
  if constexpr (!kSliding)
#pragma unroll
    for (int u = 0; u < kHeld; u++)
      held[u] = col_frag[16 * (u - (S - 1))];
}

/* Store: the words, each byte of the channels recentred on 128 (its top bit flipped); both
 * pixels in one 8-byte store where every row allows */
__device__ __forceinline__ void store_words (const Lines &out, const TileWindow &win, int x, int g, const TileWords &words)
{
  const unsigned int centre = out.alpha_first ? 0x80808000u : 0x00808080u;   /* the channels' bytes */
  const bool out_pairs = x + 1 < win.width_out && out.lines_aligned_at (win.x_st + x, 8);
#pragma unroll
  for (int m = 0; m < kTileMaxSegment / 16; m++) {
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const int i = 16 * m + g + 8 * h;
      if (i >= win.height_out)
        continue;
      unsigned int *dst = reinterpret_cast<unsigned int *> (out.at_unsigned (win.y_st + i, win.x_st + x));
      if (out_pairs)
        *reinterpret_cast<uint2 *> (dst) = make_uint2 (words[m][h][0] ^ centre, words[m][h][1] ^ centre);
      else
#pragma unroll
        for (int j = 0; j < 2; j++)
          if (x + j < win.width_out)
            dst[j] = words[m][h][j] ^ centre;
    }
  }
}

/* A column warp's lane: its fragment row g, its output columns x, x + 1 of the warp's eight
 * from x_chunk, and the A fragments it holds (all of them at two blocks per SM) or slides
 * from col_frag (at three; see tile_columns). */
template <int S, int kBlocksPerSm>
struct ColumnLane {
  static constexpr bool kSlidingFragments = kBlocksPerSm >= 3;
  using L = TileLayout<S, kSlidingFragments>;
  int g, x_chunk, x;
  const uint4 *col_frag;
  uint4 held[kSlidingFragments ? 1 : L::kColFrags];

  __device__ __forceinline__ ColumnLane (const uint4 *col_words, int lane_pair, int warp, int lane)
      : g (lane / 4), x_chunk (8 * warp), x (8 * warp + 2 * (lane % 4)), col_frag (col_words + lane_pair)
  {
    hold_fragments<S, kSlidingFragments> (col_frag, held);
  }
};

/* Columns: a warp per 8 output columns, all three channels and 64 output rows. With two
 * blocks per SM the warp holds all S + 3 A fragments (36 registers). At three, bounded to 80
 * registers, that made ptxas spill the row indices; there the warp slides four of them
 * along the k-steps: −1 to −2 % at 4K, where holding them all measured 1.5–2.5 % faster at
 * 1080p (docs/performance.md). */
template <int S, int kBlocksPerSm, int C>
__device__ __forceinline__ void tile_columns (const TileParams &, const int *, const Lines &in, const Lines &out,
    const TileWindow &win, __half *, const __half *t_plane, const uint4 *col_words, const uint4 *col_ends, int lane_pair,
    int warp, int lane)
{
  if (8 * warp >= win.width_out)
    return;
  using W = ColumnLane<S, kBlocksPerSm>;
  W c (col_words, lane_pair, warp, lane);
  TileWords words;
  load_alpha_words (in, out, win, c.x, c.g, words);
/* at three blocks per SM one channel at a time (unrolled, the next channel's loads are
 * hoisted and spill at 80 registers); at two the channels' products interleave */
#pragma unroll (kBlocksPerSm == 2 ? 3 : 1)
  for (int ch = 0; ch < 3; ch++) {
    float acc[kTileMaxSegment / 16][4];
    column_products<S, W::kSlidingFragments> (t_plane + ch * W::L::K * W::L::kTStride, c.col_frag, c.held, col_ends,
        win, c.x_chunk, lane, acc);
    /* out − 128 = floor(T − 127.5 + the sums) (docs/algorithms.md: round half up; the 0.5
     * came with T), clamped to −128..127 by the conversion, into the channel's byte */
    const unsigned int at = (out.alpha_first ? 1u : 0u) + ch;
    const unsigned int select = (0x3210u & ~(0xFu << (4 * at))) | (4u << (4 * at));
#pragma unroll
    for (int m = 0; m < kTileMaxSegment / 16; m++)
#pragma unroll
      for (int h = 0; h < 2; h++)
#pragma unroll
        for (int j = 0; j < 2; j++)
          words[m][h][j] = __byte_perm (words[m][h][j], round_to_signed_byte (acc[m][2 * h + j]), select);
  }
  store_words (out, win, c.x, c.g, words);
}

/* Store, views: through shared memory. A column warp holds 8 columns of 64 rows, a byte a
 * sample: stored from there, each store instruction wrote 8 bytes (or, two apart, 16) in
 * each of 8 rows, a partial L2 sector apiece, where an RGBA warp's wrote 32 bytes a row
 * (docs/performance.md, "Formats"). So each plane's outputs go to a stage of 64 rows, and
 * the block then stores the stage's rows whole: 16 bytes a thread where every row of the
 * tile is 16-byte aligned and 64 samples a byte apart (luma, GRAY8 and planar chroma at the
 * usual sizes), words at any alignment, bytes along the row at other steps. A stage row
 * holds column x at byte 16 + x (the bytes before it let a row's first word start up to 3
 * columns early); 112 bytes apart, the column warps' 2-byte writes of 8 rows fall in
 * distinct banks. */
static constexpr int kStageStride = 112, kStageBytes = kTileMaxSegment * kStageStride;

/* the plane's two columns (x, x + 1) of its 64 rows into its stage, recentred on 128: out −
 * 128 = floor(T − 127.5 + the sums), as the RGBA family's bytes (rows and columns past the
 * tile's too; they are not stored) */
template <int kRow>
__device__ __forceinline__ void stage_plane (unsigned char *stage, int x, int g, const float (&acc)[kTileMaxSegment / 16][4])
{
#pragma unroll
  for (int m = 0; m < kTileMaxSegment / 16; m++)
#pragma unroll
    for (int h = 0; h < 2; h++)
      *reinterpret_cast<unsigned short *> (stage + (16 * m + g + 8 * h) * kRow + 16 + x) = (unsigned short) (
          __byte_perm (round_to_signed_byte (acc[m][2 * h]), round_to_signed_byte (acc[m][2 * h + 1]), 0x0040u) ^ 0x8080u);
}

/* A plane's stage into its channel, the block's threads along the rows. Samples a byte
 * apart: 16-byte chunks where the rows allow, else the aligned words of each row (17 reach
 * 64 bytes from any alignment), those inside the tile whole, the one or two at its ends by
 * their bytes inside it; a row's word from two stage words by PRMT. Other steps: a byte a
 * sample. */
template <int kRow>
__device__ __forceinline__ void store_stage (const CsChannels &out, int channel, const TileWindow &win,
    const unsigned char *stage, int tid)
{
  const ptrdiff_t stride = channel_stride (out, channel);
  unsigned char *first = channel_base (out, channel) + (ptrdiff_t) win.x_st * out.step + (ptrdiff_t) win.y_st * stride;
  if (out.step == 1 && win.width_out == kTileMaxSegment && ((reinterpret_cast<uintptr_t> (first) | (uintptr_t) stride) & 15) == 0) {
    static_assert (kTileThreads == kTileMaxSegment * kTileMaxSegment / 16, "a chunk a thread");
    const int i = tid / 4, chunk = tid % 4;
    if (i < win.height_out)
      *reinterpret_cast<uint4 *> (first + (ptrdiff_t) i * stride + 16 * chunk) =
          *reinterpret_cast<const uint4 *> (stage + i * kRow + 16 + 16 * chunk);
  } else if (out.step == 1) {
    constexpr int kWords = kTileMaxSegment / 4 + 1;
    for (int slot = tid; slot < win.height_out * kWords; slot += kTileThreads) {
      const int i = slot / kWords, k = slot - kWords * i;
      unsigned char *row = first + (ptrdiff_t) i * stride;
      const unsigned int s = (unsigned int) (reinterpret_cast<uintptr_t> (row) & 3u);
      unsigned char *word = row - s + 4 * k;
      const int x0 = 4 * k - (int) s;   /* the word's first column */
      const unsigned char *from = stage + i * kRow;
      if (x0 >= 0 && x0 + 3 < win.width_out) {
        const unsigned int *w = reinterpret_cast<const unsigned int *> (from) + 3 + k;   /* columns 4k − 4 .. 4k + 3 */
        *reinterpret_cast<unsigned int *> (word) = __byte_perm (w[0], w[1], 0x7654u - 0x1111u * s);
      } else {
#pragma unroll
        for (int b = 0; b < 4; b++)
          if (x0 + b >= 0 && x0 + b < win.width_out)
            word[b] = from[16 + x0 + b];
      }
    }
  } else {
    /* a column a thread, rows kTileThreads / 64 apart: the addresses step by a constant */
    constexpr int kRowsApart = kTileThreads / kTileMaxSegment;
    const int x = tid % kTileMaxSegment;
    if (x >= win.width_out)
      return;
    unsigned char *to = first + (ptrdiff_t) x * out.step + (ptrdiff_t) (tid / kTileMaxSegment) * stride;
    const unsigned char *from = stage + (tid / kTileMaxSegment) * kRow + 16 + x;
    for (int i = tid / kTileMaxSegment; i < win.height_out; i += kRowsApart) {
      *to = *from;
      to += kRowsApart * stride;
      from += kRowsApart * kRow;
    }
  }
}

/* A tile's two channels a byte apart (NV12, NV21 chroma) from their stages, where the
 * tile's rows are 16-byte aligned and 64 samples wide: each row's 128 bytes in 16-byte
 * chunks, 8 samples of each channel interleaved by PRMT. False where the layout is not
 * that; the planes are then stored one by one. */
template <int kRow>
__device__ __forceinline__ bool store_stage_pair (const CsChannels &out, const TileWindow &win,
    const unsigned char *stage0, const unsigned char *stage1, int tid)
{
  const bool zero_first = out.data[0] + 1 == out.data[1];
  if (out.step != 2 || !(zero_first || out.data[1] + 1 == out.data[0]) || out.stride[0] != out.stride[1] ||
      win.width_out != kTileMaxSegment)
    return false;
  const ptrdiff_t stride = out.stride[0];
  unsigned char *first = (zero_first ? out.data[0] : out.data[1]) + (ptrdiff_t) win.x_st * 2 + (ptrdiff_t) win.y_st * stride;
  if (((reinterpret_cast<uintptr_t> (first) | (uintptr_t) stride) & 15) != 0)
    return false;
  const unsigned char *lo = zero_first ? stage0 : stage1, *hi = zero_first ? stage1 : stage0;
  constexpr int kChunks = 2 * kTileMaxSegment / 16;
  for (int slot = tid; slot < win.height_out * kChunks; slot += kTileThreads) {
    const int i = slot / kChunks, chunk = slot % kChunks;
    const uint2 a = *reinterpret_cast<const uint2 *> (lo + i * kRow + 16 + 8 * chunk);
    const uint2 b = *reinterpret_cast<const uint2 *> (hi + i * kRow + 16 + 8 * chunk);
    *reinterpret_cast<uint4 *> (first + (ptrdiff_t) i * stride + 16 * chunk) = make_uint4 (
        __byte_perm (a.x, b.x, 0x5140u), __byte_perm (a.x, b.x, 0x7362u), __byte_perm (a.y, b.y, 0x5140u),
        __byte_perm (a.y, b.y, 0x7362u));
  }
  return true;
}

/* Columns, views: a warp per 8 output columns of each of the block's planes in turn (the
 * fragments as tile_columns holds or slides them), each plane's outputs into its stage; the
 * stages are stored once all three are. With T in a plane of its own (two blocks per SM) the
 * stages are over the samples' plane, which the rows' products are done with; with T over
 * the samples (three), in the rows' bytes past T where they hold a stage row (96-sample
 * windows), else over the plane's T once every warp has read that. */
template <int S, int kBlocksPerSm, int C>
__device__ __forceinline__ void tile_columns (const TileParams &p, const int *bounds, const CsChannels &,
    const CsChannels &out, const TileWindow &win, __half *f_plane, const __half *t_plane, const uint4 *col_words,
    const uint4 *col_ends, int lane_pair, int warp, int lane)
{
  using W = ColumnLane<S, kBlocksPerSm>;
  constexpr bool kOverT = W::kSlidingFragments;   /* T over the samples (TileLayout's kInPlace) */
  constexpr int kPlaneHalves = W::L::K * W::L::kTStride;
  /* with T over the samples, rows of the samples' plane hold T's 64 halves and the rest of
   * the window's (at 96-sample windows 80 bytes, a stage row): stage rows there need no wait */
  constexpr int kSampleRow = 2 * W::L::kFStride, kTail = kSampleRow - 2 * kTileMaxSegment;
  constexpr bool kInTails = kOverT && kTail >= 16 + kTileMaxSegment;
  constexpr int kRow = kInTails ? kSampleRow : kStageStride;
  static_assert (kInTails ? kTileMaxSegment <= W::L::K
                 : kOverT ? kStageBytes <= 2 * kPlaneHalves : 3 * kStageBytes <= W::L::kFBytes, "the stages fit");
  unsigned char *stages = reinterpret_cast<unsigned char *> (f_plane);
  const auto stage = [&] (int j) {
    return kInTails ? stages + 2 * kPlaneHalves * j + 2 * kTileMaxSegment : stages + (kOverT ? 2 * kPlaneHalves : kStageBytes) * j;
  };
  W c (col_words, lane_pair, warp, lane);
#pragma unroll 1
  for (int j = 0; j < 3; j++) {
    const bool active = ViewPlane<C> (p, win.block_x, j).stored && c.x_chunk < plane_window (p, bounds, j, win).width_out;
    float acc[kTileMaxSegment / 16][4];
    if (active)
      column_products<S, W::kSlidingFragments> (t_plane + j * kPlaneHalves, c.col_frag, c.held, col_ends, win,
          c.x_chunk, lane, acc);
    if constexpr (kOverT && !kInTails)
      __syncthreads ();
    if (active)
      stage_plane<kRow> (stage (j), c.x, c.g, acc);
  }
  __syncthreads ();
  for (int j = 0; j < 3; j++) {
    const ViewPlane<C> plane (p, win.block_x, j);
    if (!plane.stored)
      continue;
    /* a tile's channel 0 and 1 side by side in the block (C = 2): together where they can be */
    if (C == 2 && j < 2 && plane.channel == 0 && ViewPlane<C> (p, win.block_x, j + 1).stored &&
        store_stage_pair<kRow> (out, plane_window (p, bounds, j, win), stage (j), stage (j + 1), threadIdx.x)) {
      j++;
      continue;
    }
    store_stage<kRow> (out, plane.channel, plane_window (p, bounds, j, win), stage (j), threadIdx.x);
  }
}

/* Whether the block has nothing to do: a view's block may hold tiles of no columns beside
 * others (more segments than samples) */
__device__ __forceinline__ bool block_empty (const Lines &, const TileWindow &win) { return win.empty (); }

/* A view's kernel lets a following view's kernel, launched beside it, start once all its
 * blocks have (launch_tiles_view); launched beside the previous one, it waits for that one
 * before it finishes, so that the last view's kernel finishing means the frame is done
 * (cs_launch.cuh). Without the launch attribute both do nothing; the RGBA family's frames are
 * one launch. */
__device__ __forceinline__ void view_chain_start (const Lines &) {}
__device__ __forceinline__ void view_chain_start (const CsChannels &) { let_next_kernel_start (); }
__device__ __forceinline__ void view_chain_end (const Lines &) {}
__device__ __forceinline__ void view_chain_end (const CsChannels &) { wait_for_previous_kernel (); }
__device__ __forceinline__ bool block_empty (const CsChannels &, const TileWindow &win) { return win.y_en <= win.y_st; }

/* Block (block_x, block_y) of a layout's grid, in the block's shared memory smem */
template <int S, int kBlocksPerSm, class Px, int C>
__device__ __forceinline__ void tile_block (const Px &in, const Px &out, const TileParams &p, unsigned int block_x,
    unsigned int block_y, unsigned char *smem)
{
  constexpr bool kInPlace = kBlocksPerSm >= 3;
  using L = TileLayout<S, kInPlace>;
  /* the samples' rows, each row's first 64 halves replaced by T − 127.5 once the row
   * products have read it */
  __half *f_plane = reinterpret_cast<__half *> (smem);
  __half *t_plane = kInPlace ? f_plane : reinterpret_cast<__half *> (smem + L::kFBytes);
  unsigned char *tables = smem + L::kFBytes + L::kTBytes;
  uint4 *col_words = reinterpret_cast<uint4 *> (tables);
  uint4 *col_ends = reinterpret_cast<uint4 *> (tables + L::kColFragBytes);
  uint2 *row_words = reinterpret_cast<uint2 *> (tables + L::kColFragBytes + L::kEndBytes);
  unsigned int *pairs = reinterpret_cast<unsigned int *> (tables + L::kColFragBytes + L::kEndBytes + L::kRowFragBytes);

  int *bounds = reinterpret_cast<int *> (smem + L::kBytes - L::kBoundsBytes);
  view_chain_start (in);
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
  const TileWindow win = block_window<C> (p, in, bounds, tid, block_x, block_y);
  if (block_empty (in, win)) {
    view_chain_end (in);
    return;   /* the whole block */
  }
  const int m_first = win.sy / 16, m_last = win.ey / 16;   /* the row m-tiles that hold samples */
  typename TileRows<S, Px, C>::T rows (p, bounds, in, win, m_first, m_last, tid);
  if (rows.active ())
    rows.fetch (in, win, rows.r_begin);
  tile_tables<S> (p, tid, pairs, row_words, col_words, col_ends);
  const int lane_pair = g - 2 * t + 16 * S - 2;   /* d0 − (P − 16S + 2) */
  if (rows.active ())
    rows.template stage<L::kFStride> (in, win, f_plane);
  __syncthreads ();
  tile_row_products<S, kInPlace> (p, f_plane, t_plane, row_words, m_first, m_last, lane_pair, warp, lane);
  __syncthreads ();
  tile_columns<S, kBlocksPerSm, C> (p, bounds, in, out, win, f_plane, t_plane, col_words, col_ends, lane_pair, warp, lane);
  view_chain_end (in);
}

template <int S, int kBlocksPerSm, class Px, int C>
__global__ void __launch_bounds__ (kTileThreads, kBlocksPerSm)
recursive_tile (Px in, Px out, TileParams p)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  tile_block<S, kBlocksPerSm, Px, C> (in, out, p, blockIdx.x, blockIdx.y, smem);
}

/* A frame's luma view (one channel, windows of 16·S0) and chroma view (two, 16·S1) in one
 * launch of the two-block instances: luma's rows of blocks, then chroma's, each row as wide
 * as the wider view's (the other's blocks past its width return at once). At 1080p both
 * views are one wave of two blocks per SM; launched apart, chroma's blocks started later
 * and ended the frame (docs/performance.md, "Formats"). */
template <int S0, int S1>
__global__ void __launch_bounds__ (kTileThreads, 2)
recursive_tile_views (CsChannels in0, CsChannels out0, TileParams p0, CsChannels in1, CsChannels out1, TileParams p1,
    unsigned int rows0)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  if (blockIdx.y < rows0) {
    if (blockIdx.x < view_blocks_x (1, p0.segments_x))
      tile_block<S0, 2, CsChannels, 1> (in0, out0, p0, blockIdx.x, blockIdx.y, smem);
  } else if (blockIdx.x < view_blocks_x (2, p1.segments_x)) {
    tile_block<S1, 2, CsChannels, 2> (in1, out1, p1, blockIdx.x, blockIdx.y - rows0, smem);
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
      div_up (n_y, segments_y) <= kTileMaxSegment && warmup >= 0 && window_pad (warmup) <= kTileMaxPad;
}

/* m(d) and the end coefficients from the recursion's response (cs_mma.cuh), as the fp16
 * words the kernel takes */
static void tile_coefficients (const CsDericheCoeffs &c, int pad, int steps, TileParams &p)
{
  /* g: the response to Δ = δ[0], over the longest reach a window needs */
  const int K = 16 * steps, d_min = pad - K + 1, d_max = pad + kTileMaxSegment - 1;
  const int reach = (d_max > -d_min ? d_max : -d_min) + 2;
  double gr[kTileMaxPairs + 4];
  deriche_step_response (c, reach, gr);
  auto m = [&] (int d) { return (d == 0 ? 1.0 : 0.0) + folded_response (gr, d) - folded_response (gr, d - 1); };
  for (int d = d_min + 1; d <= d_max; d++)
    p.pairs[d - d_min - 1] = pack_halves (fp16_bits (m (d)), fp16_bits (m (d - 1)));
  for (int i = 0; i < kTileMaxSegment; i++) {
    unsigned short first_hi, first_lo, last_hi, last_lo;
    fp16_split (-folded_response (gr, i + pad), first_hi, first_lo);
    fp16_split (folded_response (gr, i + pad - K), last_hi, last_lo);
    p.ends_hi[i] = pack_halves (first_hi, last_hi);
    p.ends_lo[i] = pack_halves (first_lo, last_lo);
  }
}

template <int S, bool kInPlace>
static constexpr int tile_bytes ()
{
  return TileLayout<S, kInPlace>::kBytes;
}

static int instance_bytes (int steps, int blocks_per_sm)
{
  if (steps <= 5)
    return blocks_per_sm >= 3 ? tile_bytes<5, true> () : tile_bytes<5, false> ();
  return blocks_per_sm >= 3 ? tile_bytes<6, true> () : tile_bytes<6, false> ();
}

/* The kernel's instance for a launch of `blocks` blocks: three per SM (80 registers, T over
 * the samples) where the launch has the policy's waves of them, or where two per SM (128
 * registers, T in a plane of its own; faster a block) would take more waves than three; two
 * below that, as measured (cs_policy.cuh); and three wherever two's shared memory is more
 * than a block may take. False when neither fits the device. */
static bool tile_instance (int warmup, long long blocks, const CsCudaDevice &dev, const Policy &policy, int &steps,
    int &blocks_per_sm, int &bytes)
{
  steps = window_steps (warmup) <= 5 ? 5 : 6;
  const long long waves_of_two = (blocks + 2ll * dev.sm_count - 1) / (2ll * dev.sm_count);
  const long long waves_of_three = (blocks + 3ll * dev.sm_count - 1) / (3ll * dev.sm_count);
  blocks_per_sm = blocks >= (long long) policy.recursive_tile_three_block_waves * 3 * dev.sm_count ||
          waves_of_two > waves_of_three || instance_bytes (steps, 2) > dev.max_shared_per_block ? 3 : 2;
  bytes = instance_bytes (steps, blocks_per_sm);
  return bytes <= dev.max_shared_per_block;
}

bool recursive_tiles_fit (int warmup, long long tiles, const CsCudaDevice &dev, const Policy &policy)
{
  int steps, blocks_per_sm, bytes;
  return window_pad (warmup) <= kTileMaxPad && tile_instance (warmup, tiles, dev, policy, steps, blocks_per_sm, bytes);
}

bool plan_tiles (int width, int height, int segments_x, int segments_y, int warmup, const CsDericheCoeffs &c,
    const CsCudaDevice &dev, const Policy &policy, TileLaunch &t)
{
  if (!recursive_tiles_cover (width, height, segments_x, segments_y, warmup))
    return false;
  /* an instance per layout: the RGBA family's block a tile, a view's three (tile, channel)
   * pairs (view_blocks_x) */
  t.shared_bytes = 0;
  for (int slot = 0; slot < 3; slot++) {
    const long long blocks = (long long) (slot ? view_blocks_x (slot, segments_x) : segments_x) * segments_y;
    if (!tile_instance (warmup, blocks, dev, policy, t.steps, t.blocks_per_sm[slot], t.slot_bytes[slot]))
      return false;
    t.shared_bytes = std::max (t.shared_bytes, t.slot_bytes[slot]);
  }
  TileParams &p = t.p;
  p.width = width;
  p.height = height;
  p.segments_x = segments_x;
  p.segments_y = segments_y;
  p.warmup = warmup;
  p.pad = window_pad (warmup);
  tile_coefficients (c, p.pad, t.steps, p);
  t.attributes_set[0] = t.attributes_set[1] = t.attributes_set[2] = false;
  t.views_bytes_set[0] = t.views_bytes_set[1] = t.views_bytes_set[2] = 0;
  t.overlap = launches_overlap (dev);
  return true;
}

/* kernel instance of a layout: Lines (C = 3), or a view of C = 1 or 2 channels; slot: its
 * attributes' flag in the launch */
template <int S, int kBlocksPerSm, class Px, int C>
static cudaError_t launch_instance (const Px &in, const Px &out, const TileLaunch &t, dim3 grid, int slot,
    bool beside, cudaStream_t stream)
{
  const auto kernel = recursive_tile<S, kBlocksPerSm, Px, C>;
  if (!t.attributes_set[slot]) {
    /* once per plan and layout: the kernel's shared memory, and all of the SM's L1 as shared
     * memory whatever this launch's size (the kernel reads the frame once) */
    cudaError_t err = cudaFuncSetAttribute (kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, t.slot_bytes[slot]);
    if (err == cudaSuccess)
      err = cudaFuncSetAttribute (kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
          cudaSharedmemCarveoutMaxShared);
    if (err != cudaSuccess)
      return err;
    t.attributes_set[slot] = true;
  }
  return launch_overlapping (beside && t.overlap, kernel, grid, dim3 (kTileThreads), t.slot_bytes[slot], stream, in, out,
      t.p);
}

template <class Px, int C>
static cudaError_t launch_layout (const Px &in, const Px &out, const TileLaunch &t, dim3 grid, int slot, bool beside,
    cudaStream_t stream)
{
  if (t.blocks_per_sm[slot] >= 3)
    return t.steps <= 5 ? launch_instance<5, 3, Px, C> (in, out, t, grid, slot, beside, stream)
                        : launch_instance<6, 3, Px, C> (in, out, t, grid, slot, beside, stream);
  return t.steps <= 5 ? launch_instance<5, 2, Px, C> (in, out, t, grid, slot, beside, stream)
                      : launch_instance<6, 2, Px, C> (in, out, t, grid, slot, beside, stream);
}

cudaError_t launch_tiles (Lines in, Lines out, const TileLaunch &t, cudaStream_t stream)
{
  if (!in.steps_fit_32_bits () || !out.steps_fit_32_bits ())
    return cudaErrorInvalidValue;
  return launch_layout<Lines, 3> (in, out, t, dim3 (t.p.segments_x, t.p.segments_y), 0, false, stream);
}

/* Whether the tile kernels take view `in` (and `out`, its destination): cudaSuccess, or why
 * not */
static cudaError_t view_fits (const CsChannels &in, const CsChannels &out)
{
  if (in.channels != out.channels || in.step < 1 || out.step < 1)
    return cudaErrorInvalidValue;
  /* ViewRows's selectors hold samples up to 15 bytes apart, its offsets 32 bits */
  const long long reach = (long long) in.width * in.step + 3;
  for (int c = 0; c < in.channels; c++)
    if (std::llabs (in.data[c] - in.data[0]) + reach > INT_MAX || std::llabs (in.stride[c]) > INT_MAX)
      return cudaErrorNotSupported;
  return in.step > 4 ? cudaErrorNotSupported : cudaSuccess;
}

cudaError_t launch_tiles_view (const CsChannels &in, const CsChannels &out, const TileLaunch &t, bool beside,
    cudaStream_t stream)
{
  const cudaError_t fits = view_fits (in, out);
  if (fits != cudaSuccess)
    return fits;
  const dim3 grid (view_blocks_x (in.channels, t.p.segments_x), t.p.segments_y);
  if (in.channels == 1)
    return launch_layout<CsChannels, 1> (in, out, t, grid, 1, beside, stream);
  if (in.channels == 2)
    return launch_layout<CsChannels, 2> (in, out, t, grid, 2, beside, stream);
  return cudaErrorNotSupported;   /* three channels: the RGBA kernels on a working frame */
}

template <int S0, int S1>
static cudaError_t launch_views_instance (const CsChannels &in0, const CsChannels &out0, const TileLaunch &t0,
    const CsChannels &in1, const CsChannels &out1, const TileLaunch &t1, int instance, cudaStream_t stream)
{
  const auto kernel = recursive_tile_views<S0, S1>;
  const int bytes = std::max (t0.slot_bytes[1], t1.slot_bytes[2]);
  if (t0.views_bytes_set[instance] < bytes) {   /* as launch_instance, once per plan and size */
    cudaError_t err = cudaFuncSetAttribute (kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    if (err == cudaSuccess)
      err = cudaFuncSetAttribute (kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
    if (err != cudaSuccess)
      return err;
    t0.views_bytes_set[instance] = bytes;
  }
  const unsigned int width = (unsigned int) std::max (view_blocks_x (1, t0.p.segments_x), view_blocks_x (2, t1.p.segments_x));
  const dim3 grid (width, (unsigned int) (t0.p.segments_y + t1.p.segments_y));
  kernel<<<grid, kTileThreads, bytes, stream>>> (in0, out0, t0.p, in1, out1, t1.p, (unsigned int) t0.p.segments_y);
  return cudaGetLastError ();
}

cudaError_t launch_tiles_views (const CsChannels &in0, const CsChannels &out0, const TileLaunch &t0,
    const CsChannels &in1, const CsChannels &out1, const TileLaunch &t1, cudaStream_t stream)
{
  cudaError_t fits = view_fits (in0, out0);
  if (fits == cudaSuccess)
    fits = view_fits (in1, out1);
  if (fits != cudaSuccess)
    return fits;
  /* the pairs the subsampled chroma of a frame gives: its warm-up no longer than luma's */
  if (in0.channels != 1 || in1.channels != 2 || t0.blocks_per_sm[1] != 2 || t1.blocks_per_sm[2] != 2 ||
      t1.steps > t0.steps)
    return cudaErrorNotSupported;
  if (t0.steps <= 5)
    return launch_views_instance<5, 5> (in0, out0, t0, in1, out1, t1, 0, stream);
  if (t1.steps <= 5)
    return launch_views_instance<6, 5> (in0, out0, t0, in1, out1, t1, 1, stream);
  return launch_views_instance<6, 6> (in0, out0, t0, in1, out1, t1, 2, stream);
}

}  // namespace cs
