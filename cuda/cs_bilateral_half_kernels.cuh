/* gst-cudasmooth — the packed-half exact Gaussian bilateral kernels (bilateral_half.cu says
 * why and how); a header so that the benchmark's on-chip floor can instantiate them too
 * (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_BILATERAL_HALF_KERNELS_CUH
#define CS_BILATERAL_HALF_KERNELS_CUH

#include "cs_bilateral_half.cuh"
#include "cs_cuda_px.cuh"
#include "cs_mufu.cuh"

#include <type_traits>

namespace cs {

static const int kPairStride = 32;   /* a thread's two outputs: columns x and x + 32 */
static const int kBlockW = 32, kBlockH = 8, kOutW = 2 * kPairStride;
/* Output rows per thread and blocks per SM (launch bounds: 80 registers at 3 blocks). More
 * rows share each tile load; fewer registers let more warps hide the ex2 and shared-memory
 * latency. Measured on an H100 against the neighbouring choices (docs/performance.md):
 * r = 2, 3 four rows and 3 blocks, r >= 4 two rows and 3 blocks. (r = 1 runs in strips,
 * bilateral_gauss_half_strips.) */
template <int R> constexpr int rows_per_thread () { return R <= 3 ? 4 : 2; }
static const int kTileBlocksPerSm = 3;

/* Windows from this radius sum by rows and keep their colours scaled. */
template <int R> constexpr bool scaled_row_sums () { return R > 3; }

__device__ __forceinline__ __half2 as_half2 (unsigned int u)
{
  return *reinterpret_cast<const __half2 *> (&u);
}
__device__ __forceinline__ unsigned int as_word (__half2 h)
{
  return *reinterpret_cast<const unsigned int *> (&h);
}

/* Channel `byte` of the pixels a and b as a half2 whose halves have the exponent bits
 * `exponents` and the bytes as their low mantissa bits: with 0x5400 that is (64 + a/16,
 * 64 + b/16), with 0x6400 (1024 + a, 1024 + b), both exact, with no conversion or
 * arithmetic (see byte_to_float). */
__device__ __forceinline__ unsigned int byte_halves (unsigned int a, unsigned int b, unsigned int byte,
    unsigned int exponents)
{
  const unsigned int picked = __byte_perm (a, b, byte | ((byte + 4) << 8));
  unsigned int biased;   /* (picked & 0x00FF00FF) | exponents in one LOP3 (nvcc makes two) */
  asm ("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(biased) : "r"(picked), "r"(0x00FF00FFu), "r"(exponents));
  return biased;
}

/* 1024 + p from an exact colour 64 + p/16 (both halves): the epilogue's addend. */
__device__ __forceinline__ unsigned int plus_1024 (__half2 sixteenths)
{
  return as_word (__hmul2 (sixteenths, __float2half2_rn (16.0f)));
}

/* Channel `byte` of the pixels a and b as the scaled colours Q (one FMA on 64 + v/16). */
__device__ __forceinline__ __half2 scaled_colours (unsigned int a, unsigned int b, unsigned int byte,
    const HalfGaussK &k)
{
  return __hfma2 (as_half2 (byte_halves (a, b, byte, 0x54005400u)), k.scale, k.offset);
}

__device__ __forceinline__ __half2 exp2_h2 (__half2 x)
{
  unsigned int y;
  asm ("ex2.approx.f16x2 %0, %1;" : "=r"(y) : "r"(*reinterpret_cast<const unsigned int *> (&x)));
  return as_half2 (y);
}

/* out = p + 16·Σw·d/Σw (d in sixteenths; with scaled colours (16/a)·Σw·D/Σw) in one
 * HFMA2 per channel and output pair: with 1024 + p as the addend (exact: 16·(64 + p/16),
 * or from the centre's bytes) the result lies in [1024, 2048), where fp16's step is 1, so
 * the HFMA2's one rounding is the rounding to a byte and the byte is the fp16's low 8 bits
 * (fp16 1024 + v is 0x64vv). The mean moves the result by less than 256, so the scale over
 * Σw rounded to fp16 (relative 2^−11) moves it by less than 0.125 (the float epilogue
 * this replaced spent 6 conversions on the ex2 pipe and ~20 more instructions).
 * Clamped to [1024, 1279] so that a sum rounded past 0 or 255 cannot wrap the byte. Ties
 * round to even where docs/algorithms.md rounds half up: within the 1 LSB the kernel is held to. */
struct PixelOrder {
  unsigned int low, high;   /* PRMT selectors placing (r, g, b, alpha) of the low / high output */
  __device__ explicit PixelOrder (bool alpha_first)
      : low (alpha_first ? 0x4105u : 0x5410u), high (alpha_first ? 0x6327u : 0x7632u) {}
};

/* The pixels' channel and alpha bytes: c0 the first colour byte, alpha_pair the PRMT
 * selector placing the low pixel's alpha in byte 0 and the high one's in byte 1. */
struct ByteLayout {
  unsigned int c0, alpha_pair;
  __device__ explicit ByteLayout (bool alpha_first)
      : c0 (alpha_first ? 1u : 0u), alpha_pair (alpha_first ? 0x0040u : 0x0073u) {}
};

/* The two output pixels of one output pair: sums[0..2] = Σw·d or Σw·D (r, g, b), sums[3]
 * = Σw; centre1024: the centre pixels' channels as (1024 + low, 1024 + high); alpha: the
 * low pixel's in byte 0, the high one's in byte 1; out_scale: 16 for exact colours, 16/a
 * for scaled ones.
 * kClamp: false where the rounded mean provably stays in [0, 255] (exact colours). The
 * weights are positive and the same in both sums, so only the fp16 rounding of the n − 1
 * terms (the centre's is exact) can push the mean Σw·d/Σw past the neighbours' range: it
 * moves it by at most (2n + 1)·2^−11 relatively, while the mean stays a fraction
 * f <= (n − 1)/n of the way from p to 0 or 255; no wrap needs (2n + 1)·2^−11 <= 1/(n − 1):
 * n = 9 (r = 1) 0.009 <= 0.125, n = 25 (r = 2) 0.025 <= 0.042; not provable this way from
 * r = 3. */
template <bool kClamp, bool kScaledColours>
__device__ __forceinline__ uint2 output_pair (const __half2 (&sums)[4], const unsigned int (&centre1024)[3],
    unsigned int alpha, float out_scale, PixelOrder order)
{
  const __half2 lowest = __float2half2_rn (1024.0f), highest = __float2half2_rn (1279.0f);
  const float2 s_w = __half22float2 (sums[3]);
  const float2 r_w = make_float2 (rcp_ftz (s_w.x), rcp_ftz (s_w.y));   /* Σw >= 1 (the centre's 1): the bare MUFU.RCP */
  /* 16/Σw: one packed multiply by a power of two (the same bits as rounding 16/Σw) */
  const __half2 inv = kScaledColours ? __floats2half2_rn (r_w.x * out_scale, r_w.y * out_scale)
                                     : __hmul2 (__floats2half2_rn (r_w.x, r_w.y), __float2half2_rn (16.0f));
  unsigned int v[3];
#pragma unroll
  for (int ch = 0; ch < 3; ch++) {
    __half2 biased = __hfma2 (sums[ch], inv, as_half2 (centre1024[ch]));
    if (kClamp)
      biased = __hmin2 (__hmax2 (biased, lowest), highest);
    v[ch] = *reinterpret_cast<const unsigned int *> (&biased);
  }
  /* bytes 0 and 2 of each channel word are the low and high outputs */
  const unsigned int rg = __byte_perm (v[0], v[1], 0x6240u), ba = __byte_perm (v[2], alpha, 0x5240u);
  return make_uint2 (__byte_perm (rg, ba, order.low), __byte_perm (rg, ba, order.high));
}

/* output_pair's sums for a view's C channels: each channel's word holds the low and high
 * outputs in bytes 0 and 2 */
template <bool kClamp, bool kScaledColours, int C>
__device__ __forceinline__ void output_channels (const __half2 (&sums)[4], const unsigned int (&centre1024)[C],
    float out_scale, unsigned int (&v)[C])
{
  const __half2 lowest = __float2half2_rn (1024.0f), highest = __float2half2_rn (1279.0f);
  const float2 s_w = __half22float2 (sums[3]);
  const float2 r_w = make_float2 (rcp_ftz (s_w.x), rcp_ftz (s_w.y));
  const __half2 inv = kScaledColours ? __floats2half2_rn (r_w.x * out_scale, r_w.y * out_scale)
                                     : __hmul2 (__floats2half2_rn (r_w.x, r_w.y), __float2half2_rn (16.0f));
#pragma unroll
  for (int ch = 0; ch < C; ch++) {
    __half2 biased = __hfma2 (sums[ch], inv, as_half2 (centre1024[ch]));
    if (kClamp)
      biased = __hmin2 (__hmax2 (biased, lowest), highest);
    v[ch] = as_word (biased);
  }
}

/* The per-thread state of bilateral_gauss_half: its outputs' centre colours and sums, for C
 * channels. */
template <int K, int C>
struct HalfWindows {
  __half2 s_dy[2 * kMaxRadius + 1];   /* c_s·dy² by dy + R (exact colours, rows unrolled) */
  __half2 p[C][K];               /* centre colours as 64 + p/16 or scaled (Q), both halves */
  unsigned int alpha[K];         /* centre alphas: x in byte 0, x + 32 in byte 1 (frames) */
  /* Σw·d or Σw·D (channels) and Σw (in [3]): of the window (r <= 3), or of one window row, added into
   * window[] row by row with its row factor (r >= 4: 225 terms in one fp16 sum round too
   * much, 15 rows of 15 do not) */
  __half2 acc[K][4], window[K][4];
};

/* The weight of exact colour differences d (sixteenths) of C channels:
 * 2^(s_row − c'·(t_col + |d|²)). */
template <int C>
__device__ __forceinline__ __half2 exact_tap_weight (const __half2 (&d)[C], __half2 t_col, __half2 s_row,
    const HalfGaussK &k)
{
  __half2 d2 = t_col;
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    d2 = __hfma2 (d[ch], d[ch], d2);
  return exp2_h2 (__hfma2 (k.neg_c, d2, s_row));
}

/* The weight of scaled colour differences D: 2^(s_col − |D|²), C FMAs. */
template <int C>
__device__ __forceinline__ __half2 scaled_tap_weight (const __half2 (&d)[C], __half2 s_col)
{
  __half2 e = s_col;
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    e = __hfma2 (__hneg2 (d[ch]), d[ch], e);
  return exp2_h2 (e);
}

/* A tile entry: the C channels' half2 words of a thread's two pixels and, for frames, their
 * alphas (uint4: three colours and the alpha pair); one or two channels of a view take 4 or
 * 8 bytes. */
template <int C> struct TileEntry { typedef uint4 T; };
template <> struct TileEntry<1> { typedef unsigned int T; };
template <> struct TileEntry<2> { typedef uint2 T; };

__device__ __forceinline__ unsigned int entry_word (const uint4 &e, int ch)
{
  return ch == 0 ? e.x : ch == 1 ? e.y : e.z;
}
__device__ __forceinline__ unsigned int entry_word (const uint2 &e, int ch)
{
  return ch == 0 ? e.x : e.y;
}
__device__ __forceinline__ unsigned int entry_word (unsigned int e, int)
{
  return e;
}
__device__ __forceinline__ unsigned int entry_alpha (const uint4 &e) { return e.w; }
__device__ __forceinline__ unsigned int entry_alpha (const uint2 &) { return 0u; }
__device__ __forceinline__ unsigned int entry_alpha (unsigned int) { return 0u; }
__device__ __forceinline__ void make_entry (uint4 &e, const unsigned int (&q)[3], unsigned int alpha)
{
  e = make_uint4 (q[0], q[1], q[2], alpha);
}
__device__ __forceinline__ void make_entry (uint2 &e, const unsigned int (&q)[2], unsigned int)
{
  e = make_uint2 (q[0], q[1]);
}
__device__ __forceinline__ void make_entry (unsigned int &e, const unsigned int (&q)[1], unsigned int)
{
  e = q[0];
}

/* The taps of tile row r for the thread's output rows J0..J1 — exactly those whose window
 * holds row r, so the loop bodies carry no tests. row_offset: the row's offset r − R, a
 * compile-time constant where the rows unroll (always, for exact colours). Windows of
 * scaled colours sum the row with the column term alone and add it into the window times
 * the row factor. */
template <int R, int K, int J0, int J1, int C>
__device__ __forceinline__ void tile_row (const typename TileEntry<C>::T *tile_row_r, int row_offset, const HalfGaussK &k,
    HalfWindows<K, C> &s)
{
  constexpr bool kRowSums = scaled_row_sums<R> ();
#pragma unroll
  for (int dx = -R; dx <= R; dx++) {
    const typename TileEntry<C>::T qv = tile_row_r[dx];
    __half2 q[C];
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      q[ch] = as_half2 (entry_word (qv, ch));
#pragma unroll
    for (int j = J0; j <= J1; j++) {
      const int dy = row_offset - j;
      if (!kRowSums && dy == 0 && dx == 0)
        continue;   /* the centre: counted in Σw from the start */
      /* Tile row `row_offset` straight above or below output row j is itself one of the
       * thread's output rows j' (exact colours: rows unrolled, so this is decided at compile
       * time). w(p, q) = w(q, p) to the bit (d² and the spatial term are even), so the pair
       * is taken once, when the upper row's tile row comes (dy < 0), for both rows: j' gets
       * w·(−d), the same bits as its own tap's w·d'. */
      const bool own_pair = !kRowSums && dx == 0 && row_offset >= 0 && row_offset < K;
      if (own_pair && dy > 0)
        continue;   /* taken with the pair */
      __half2 d[C];
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        d[ch] = __hsub2 (q[ch], s.p[ch][j]);
      __half2 w;
      if constexpr (kRowSums)
        w = scaled_tap_weight (d, k.s_col[dx + kMaxRadius]);
      else
        w = exact_tap_weight (d, k.t_col[dx + kMaxRadius], s.s_dy[dy + R], k);
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        s.acc[j][ch] = __hfma2 (w, d[ch], s.acc[j][ch]);
      s.acc[j][3] = __hadd2 (w, s.acc[j][3]);
      if (own_pair && dy < 0) {
        /* row_offset itself; the clamp only lets the compiler see the index in range */
        const int upper = row_offset < 0 ? 0 : row_offset < K ? row_offset : K - 1;
#pragma unroll
        for (int ch = 0; ch < C; ch++)
          s.acc[upper][ch] = __hfma2 (w, __hneg2 (d[ch]), s.acc[upper][ch]);
        s.acc[upper][3] = __hadd2 (w, s.acc[upper][3]);
      }
    }
  }
  if constexpr (kRowSums) {
#pragma unroll
    for (int j = J0; j <= J1; j++) {
      const __half2 g = k.g_row[row_offset - j + kMaxRadius];
#pragma unroll
      for (int c4 = 0; c4 < 4; c4++) {
        s.window[j][c4] = __hfma2 (s.acc[j][c4], g, s.window[j][c4]);
        s.acc[j][c4] = __float2half2_rn (0.0f);
      }
    }
  }
}

/* Tile rows r .. r_end − 1, each for the thread's output rows whose window holds it:
 * r − 2R .. r, clipped to 0 .. K − 1. */
template <int R, int K, int r, int r_end, int C>
__device__ __forceinline__ void tile_rows (const typename TileEntry<C>::T *col, int stride, const HalfGaussK &k,
    HalfWindows<K, C> &s)
{
  if constexpr (r < r_end) {
    constexpr int j0 = r - 2 * R > 0 ? r - 2 * R : 0, j1 = r < K - 1 ? r : K - 1;
    tile_row<R, K, j0, j1, C> (col + r * stride, r - R, k, s);
    tile_rows<R, K, r + 1, r_end, C> (col, stride, k, s);
  }
}

/* A stand-in frame word for kOnChip: colours of a hash of the pixel's position (noise, as
 * costly to filter as a photo: the taps' arithmetic does not depend on the data), alpha 255
 * (RGBA order), so that no output word is 0. */
__device__ __forceinline__ unsigned int on_chip_word (int x, int y)
{
  return ((unsigned int) x * 0x9E3779B1u ^ (unsigned int) y * 0x85EBCA77u) | 0xFF000000u;
}

/* The pixels a kernel reads and writes, by layout: the RGBA family's 4-byte words
 * (Lines: colours from byte 0 or 1, alpha kept), or a view's channels of one byte each
 * (CsChannels, common/cs_channels.h: GRAY8 and the YUV planes, channel c in byte c of the
 * words the kernel composes; no alpha). Each gives the words of pixels and stores outputs;
 * the taps between them are the same code for every layout. */
__device__ __forceinline__ unsigned int first_colour (const Lines &l)
{
  return l.alpha_first ? 1u : 0u;
}
__device__ __forceinline__ unsigned int first_colour (const CsChannels &)
{
  return 0u;
}

/* the words of pixels col_a and col_b of row y */
template <int C>
__device__ __forceinline__ void load_pair (const Lines &in, int y, int col_a, int col_b, unsigned int &a, unsigned int &b)
{
  const unsigned int *row = reinterpret_cast<const unsigned int *> (in.base + (long long) y * in.line_step);
  a = row[col_a], b = row[col_b];
}
template <int C>
__device__ __forceinline__ void load_pair (const CsChannels &in, int y, int col_a, int col_b, unsigned int &a,
    unsigned int &b)
{
  a = b = 0u;
#pragma unroll
  for (int ch = 0; ch < C; ch++) {
    const unsigned char *row = in.data[ch] + (ptrdiff_t) y * in.stride[ch];
    a |= (unsigned int) row[(ptrdiff_t) col_a * in.step] << (8 * ch);
    b |= (unsigned int) row[(ptrdiff_t) col_b * in.step] << (8 * ch);
  }
}

/* the word of pixel x of row y */
template <int C>
__device__ __forceinline__ unsigned int pixel_word (const Lines &in, int y, int x)
{
  return reinterpret_cast<const unsigned int *> (in.base + (long long) y * in.line_step)[x];
}
template <int C>
__device__ __forceinline__ unsigned int pixel_word (const CsChannels &in, int y, int x)
{
  unsigned int w = 0u;
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    w |= (unsigned int) in.data[ch][(ptrdiff_t) y * in.stride[ch] + (ptrdiff_t) x * in.step] << (8 * ch);
  return w;
}

/* Load: the block's tile, each thread all its entries' words before it converts and stores
 * any: one memory latency per block instead of one per entry (a loop that the compiler
 * unrolls by 4 leaves up to 3 entries to a remainder loop, one latency each, and the barrier
 * waits for the slowest thread). */
template <int R, bool kOnChip, int C, class Px, class Entry, int SH, int SW>
__device__ __forceinline__ void load_tile (const Px &in, int x0, int y0, int width, int height, const HalfGaussK &k,
    const ByteLayout &bytes, Entry (&tile)[SH][SW])
{
  constexpr int K = rows_per_thread<R> (), kOutH = kBlockH * K;
  constexpr bool kScaled = scaled_row_sums<R> ();
  constexpr int kEntries = SW * SH, kThreads = kBlockW * kBlockH, kPerThread = (kEntries + kThreads - 1) / kThreads;
  const int first = threadIdx.y * kBlockW + threadIdx.x;
  unsigned int a[kPerThread], b[kPerThread];
  const auto load_words = [&] (auto word_at) {   /* word_at (sy, sx): the frame word of tile column sx */
#pragma unroll
    for (int e = 0; e < kPerThread; e++) {
      const int i = first + e * kThreads, sy = i / SW, sx = i - sy * SW;
      if (i < kEntries)
        a[e] = word_at (sy, sx), b[e] = word_at (sy, sx + kPairStride);
    }
  };
  if constexpr (kOnChip) {
    load_words ([&] (int sy, int sx) { return on_chip_word (x0 + sx - R, y0 + sy - R); });
  } else if constexpr (!std::is_same<Px, Lines>::value) {
    load_words ([&] (int sy, int sx) {
      return pixel_word<C> (in, clampi (y0 + sy - R, 0, height - 1), clampi (x0 + sx - R, 0, width - 1));
    });
  } else if (x0 >= R && y0 >= R && x0 + kOutW + R <= width && y0 + kOutH + R <= height) {
    /* the whole tile lies in the frame (most blocks): no clamps */
    const char *origin = in.base + (long long) (y0 - R) * in.line_step + 4 * (x0 - R);
    load_words ([&] (int sy, int sx) {
      return reinterpret_cast<const unsigned int *> (origin + (long long) sy * in.line_step)[sx];
    });
  } else {
    load_words ([&] (int sy, int sx) {
      const char *row = in.base + (long long) clampi (y0 + sy - R, 0, height - 1) * in.line_step;
      return *reinterpret_cast<const unsigned int *> (row + 4 * clampi (x0 + sx - R, 0, width - 1));
    });
  }
#pragma unroll
  for (int e = 0; e < kPerThread; e++) {
    const int i = first + e * kThreads, sy = i / SW, sx = i - sy * SW;
    if (i < kEntries) {
      unsigned int q[C];
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        q[ch] = kScaled ? as_word (scaled_colours (a[e], b[e], bytes.c0 + ch, k))
                        : byte_halves (a[e], b[e], bytes.c0 + ch, 0x54005400u);
      make_entry (tile[sy][sx], q, __byte_perm (a[e], b[e], bytes.alpha_pair));
    }
  }
}

/* Compute: the K windows of a thread's two columns, their sums over the tile's rows */
template <int R, int C, class Entry, int SH, int SW>
__device__ __forceinline__ void window_sums (const Entry (&tile)[SH][SW], const HalfGaussK &k,
    HalfWindows<rows_per_thread<R> (), C> &s)
{
  constexpr int K = rows_per_thread<R> ();
  constexpr bool kScaled = scaled_row_sums<R> ();
  const int tx = threadIdx.x, ty0 = threadIdx.y * K;
#pragma unroll
  for (int j = 0; j < K; j++) {
    const Entry c = tile[ty0 + j + R][tx + R];
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      s.p[ch][j] = as_half2 (entry_word (c, ch));
    s.alpha[j] = entry_alpha (c);
#pragma unroll
    for (int c4 = 0; c4 < 4; c4++)
      s.acc[j][c4] = s.window[j][c4] = __float2half2_rn (0.0f);
    /* the centre tap, w = 1 and d = 0, where tile_row leaves it out (whole-window sums) */
    if (!kScaled)
      s.acc[j][3] = __float2half2_rn (1.0f);
  }
  const Entry *col = &tile[ty0][tx + R];
  if constexpr (!kScaled) {
#pragma unroll
    for (int dy = -R; dy <= R; dy++)
      s.s_dy[dy + R] = __hmul2 (k.c_s, __float2half2_rn ((float) (dy * dy)));
    tile_rows<R, K, 0, K + 2 * R, C> (col, SW, k, s);
  } else {
    /* the first and last K − 1 rows serve some output rows, those between all K */
    tile_rows<R, K, 0, K - 1, C> (col, SW, k, s);
#pragma unroll 1
    for (int r = K - 1; r <= 2 * R; r++)
      tile_row<R, K, 0, K - 1, C> (col + r * SW, r - R, k, s);
    tile_rows<R, K, 2 * R + 1, K + 2 * R, C> (col, SW, k, s);
  }
  if constexpr (kScaled) {
#pragma unroll
    for (int j = 0; j < K; j++)
#pragma unroll
      for (int c4 = 0; c4 < 4; c4++)
        s.acc[j][c4] = s.window[j][c4];
  }
}

/* Store: the K rows of a thread's two columns, each window's sum normalised and added to its
 * centre. The addends 1024 + p are 16 times the exact colours; the scaled ones are not exact,
 * so those windows load the centres' bytes again (all K rows' loads first, one latency; the
 * tile load brought these lines into the caches). */
template <int R, bool kOnChip, int C, class Px>
__device__ __forceinline__ void store_windows (const Px &in, const Px &out, int x0, int y0, int width, int height,
    const HalfGaussK &k, const ByteLayout &bytes, const HalfWindows<rows_per_thread<R> (), C> &s)
{
  constexpr int K = rows_per_thread<R> ();
  constexpr bool kScaled = scaled_row_sums<R> ();
  const int tx = threadIdx.x, ty0 = threadIdx.y * K;
  const int x = x0 + tx;
  const bool store_low = x < width, store_high = x + kPairStride < width;
  unsigned int centre1024[K][C];
  if constexpr (kScaled) {
    const int x_low = min (x, width - 1), x_high = min (x + kPairStride, width - 1);
    unsigned int centre_low[K], centre_high[K];
#pragma unroll
    for (int j = 0; j < K; j++) {
      const int y = min (y0 + ty0 + j, height - 1);
      if constexpr (kOnChip) {
        centre_low[j] = on_chip_word (x_low, y), centre_high[j] = on_chip_word (x_high, y);
      } else if constexpr (!std::is_same<Px, Lines>::value) {
        centre_low[j] = pixel_word<C> (in, y, x_low), centre_high[j] = pixel_word<C> (in, y, x_high);
      } else {
        const unsigned int *row = reinterpret_cast<const unsigned int *> (in.base + (long long) y * in.line_step);
        centre_low[j] = row[x_low], centre_high[j] = row[x_high];
      }
    }
#pragma unroll
    for (int j = 0; j < K; j++)
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        centre1024[j][ch] = byte_halves (centre_low[j], centre_high[j], bytes.c0 + ch, 0x64006400u);
  } else {
#pragma unroll
    for (int j = 0; j < K; j++)
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        centre1024[j][ch] = plus_1024 (s.p[ch][j]);
  }
  if constexpr (std::is_same<Px, Lines>::value) {
    const PixelOrder order (out.alpha_first);
    unsigned int *o = reinterpret_cast<unsigned int *> (out.base + (long long) (y0 + ty0) * out.line_step) + x;
#pragma unroll
    for (int j = 0; j < K; j++) {
      if (y0 + ty0 + j >= height)
        break;
      const uint2 px = output_pair<(R > 2), kScaled> (s.acc[j], centre1024[j], s.alpha[j],
          kScaled ? k.out_scale : 16.0f, order);
      if (kOnChip) {
        if ((px.x | px.y) == 0u)   /* never: alpha is 255; keeps both outputs computed */
          o[0] = px.x;
      } else {
        if (store_low)
          o[0] = px.x;
        if (store_high)
          o[kPairStride] = px.y;
      }
      o = reinterpret_cast<unsigned int *> (reinterpret_cast<char *> (o) + out.line_step);
    }
  } else {
#pragma unroll
    for (int j = 0; j < K; j++) {
      if (y0 + ty0 + j >= height)
        break;
      unsigned int v[C];
      output_channels<(R > 2), kScaled> (s.acc[j], centre1024[j], kScaled ? k.out_scale : 16.0f, v);
#pragma unroll
      for (int ch = 0; ch < C; ch++) {
        unsigned char *o = out.data[ch] + (ptrdiff_t) (y0 + ty0 + j) * out.stride[ch] + (ptrdiff_t) x * out.step;
        if (store_low)
          o[0] = (unsigned char) v[ch];
        if (store_high)
          o[(ptrdiff_t) kPairStride * out.step] = (unsigned char) (v[ch] >> 16);
      }
    }
  }
}

/* A 64 x 8K block of outputs; thread (tx, ty) computes columns x0 + tx and x0 + tx + 32
 * of rows K·ty .. K·ty + K − 1. The tile entry [sy][sx] holds the colours (64 + v/16, or
 * scaled from r = 4) of the pixels at columns x0 + sx − R and x0 + sx − R + 32 as three
 * half2 and their alphas, so every lane reads its own consecutive 16 bytes. Tile row r
 * serves output rows r − 2R .. r of the thread: windows
 * up to r = 3 unroll completely; larger ones loop over the rows that serve all K and
 * unroll the first and last K − 1, so no tap is tested for being in its window.
 * kOnChip (a benchmark floor, bilateral_gauss_half_on_chip): the same kernel without its
 * DRAM traffic — frame words made from the pixel positions instead of loaded, outputs
 * computed and not stored (RGBA order; `in` is not read, `out` never written). */
template <int R, bool kOnChip = false, int C = 3, class Px = Lines>
__global__ void __launch_bounds__ (kBlockW * kBlockH, kTileBlocksPerSm)
bilateral_gauss_half (Px in, Px out, int width, int height, HalfGaussK k)
{
  constexpr int K = rows_per_thread<R> (), kOutH = kBlockH * K;
  constexpr int SW = kPairStride + 2 * R, SH = kOutH + 2 * R;
  static_assert (R <= 3 || K - 1 <= 2 * R + 1, "the row loop's rows must serve all K output rows");
  __shared__ typename TileEntry<C>::T tile[SH][SW];
  const int x0 = blockIdx.x * kOutW, y0 = blockIdx.y * kOutH;
  const ByteLayout bytes (first_colour (in) != 0u);
  load_tile<R, kOnChip, C> (in, x0, y0, width, height, k, bytes, tile);
  __syncthreads ();
  HalfWindows<K, C> s;
  window_sums<R, C> (tile, k, s);
  store_windows<R, kOnChip, C> (in, out, x0, y0, width, height, k, bytes, s);
}

/* Radius 1 without shared memory: a warp per strip of 62 columns by 8 or 16 rows. Lane l
 * holds the adjacent pixels b + 2l and b + 2l + 1 of a row (b: the column before the
 * strip's first) in the halves of its half2 words, so the left and right neighbours of
 * both are one shuffle and one PRMT away (the nearer half of the neighbouring lane's word
 * beside a half of its own). Each row is loaded and converted once and serves three output
 * rows, where bilateral_gauss_half<1> (which this replaced) stored 34 × 26 tile entries
 * in shared memory for 64 × 24 outputs and waited at a barrier for them; that tile cost
 * more issue slots than the taps leave at r = 1. Lane 0's low pixel and lane 31's high one
 * are the strip's margins: their sums are computed and not stored (2 of 64 columns). Each
 * tap is computed as bilateral_gauss_half<R> computes it, in the same order. */
static const int kStripOut = 2 * 32 - 2;
/* Measured on an H100 (docs/performance.md): rows loaded 2 ahead and 4 blocks of 8 warps
 * per SM (64 registers), against all rows loaded first and 3 blocks. */
static const int kStripBlocks = 4, kStripAhead = 2;

template <int C>
struct StripRow {
  __half2 left[C], centre[C], right[C];   /* the channels' words of the pixels at dx = −1, 0, 1 */
};

template <int C>
__device__ __forceinline__ StripRow<C> strip_row (unsigned int a, unsigned int b, unsigned int c0)
{
  StripRow<C> row;
#pragma unroll
  for (int ch = 0; ch < C; ch++) {
    const unsigned int w = byte_halves (a, b, c0 + ch, 0x54005400u);
    const unsigned int up = __shfl_up_sync (0xFFFFFFFFu, w, 1), down = __shfl_down_sync (0xFFFFFFFFu, w, 1);
    row.left[ch] = as_half2 (__byte_perm (up, w, 0x5432u));     /* (lane − 1's high, own low) */
    row.centre[ch] = as_half2 (w);
    row.right[ch] = as_half2 (__byte_perm (w, down, 0x5432u));  /* (own high, lane + 1's low) */
  }
  return row;
}

/* One tap of an output pair: its weights and colour differences q − p (sixteenths). */
template <int C>
struct Tap {
  __half2 w, d[C];
};

template <int C>
__device__ __forceinline__ Tap<C> fresh_tap (const __half2 (&q)[C], const __half2 (&p)[C], __half2 t_col, __half2 s_row,
    const HalfGaussK &k)
{
  Tap<C> t;
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    t.d[ch] = __hsub2 (q[ch], p[ch]);
  t.w = exact_tap_weight (t.d, t_col, s_row, k);
  return t;
}

/* The halves (lane − 1's high, own low) or (own high, lane + 1's low) of a word. */
__device__ __forceinline__ __half2 from_left (__half2 x)
{
  const unsigned int own = *reinterpret_cast<const unsigned int *> (&x);
  return as_half2 (__byte_perm (__shfl_up_sync (0xFFFFFFFFu, own, 1), own, 0x5432u));
}
__device__ __forceinline__ __half2 from_right (__half2 x)
{
  const unsigned int own = *reinterpret_cast<const unsigned int *> (&x);
  return as_half2 (__byte_perm (own, __shfl_down_sync (0xFFFFFFFFu, own, 1), 0x5432u));
}
/* A tap whose weight comes from its other end: only the weight travels (one shuffle and
 * one PRMT); the differences q − p are exact in fp16, so recomputing them (3 HSUB2) gives
 * the bits the partner's negated ones would, for 5 instructions instead of 8. */
template <int C>
__device__ __forceinline__ Tap<C> taken_tap (__half2 w, const __half2 (&q)[C], const __half2 (&p)[C])
{
  Tap<C> t;
  t.w = w;
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    t.d[ch] = __hsub2 (q[ch], p[ch]);
  return t;
}

/* acc += w·d, Σw += w; for a tap seen from its other end, d is negated (a free operand
 * modifier): w(p, q) = w(q, p) to the bit, since d² and the spatial term are even. */
template <bool kReversed, int C>
__device__ __forceinline__ void accumulate (__half2 (&acc)[4], const Tap<C> &t)
{
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    acc[ch] = __hfma2 (t.w, kReversed ? __hneg2 (t.d[ch]) : t.d[ch], acc[ch]);
  acc[3] = __hadd2 (t.w, acc[3]);
}

/* Each weight joins two pixels, and a strip meets most pairs twice: the taps of an output
 * pair at dy = −1 are those of the previous row's pair at dy = +1 seen from their other
 * end (dx = 0 in the same lane and halves; the diagonals one half over, through the
 * neighbouring lane), and the tap at (0, −1) is the one at (0, +1) one half over. So a row
 * computes 4 taps (0, +1), (+1, −1..1) and takes the other 4: half the ex2; a taken tap
 * costs nothing (dx = 0: its differences are kept, negated) or 5 instructions (taken_tap),
 * against 10 for a fresh one. The accumulation order stays (dy, dx) row-major, as in
 * bilateral_gauss_half<R>, and a weight taken from the other end has the same bits as a
 * fresh one. */
/* Store: the output pair of row y (pixels xa and xa + 1), p + 16·Σw·d/Σw as output_pair
 * computes it; frames keep the input's alpha. */
template <int C>
__device__ __forceinline__ void store_strip_pair (const Lines &out, const ByteLayout &bytes, const PixelOrder &order,
    int y, int xa, bool store_low, bool store_high, const __half2 (&acc)[4], const __half2 (&p)[C], unsigned int raw_a,
    unsigned int raw_b)
{
  static_assert (C == 3, "frames of the RGBA family have three colours");
  const unsigned int centre1024[3] = { plus_1024 (p[0]), plus_1024 (p[1]), plus_1024 (p[2]) };
  const unsigned int alphas = __byte_perm (raw_a, raw_b, bytes.alpha_pair);
  const uint2 px = output_pair<false, false> (acc, centre1024, alphas, 16.0f, order);
  unsigned int *o = reinterpret_cast<unsigned int *> (out.base + (long long) y * out.line_step) + xa;
  if (store_low)
    o[0] = px.x;
  if (store_high)
    o[1] = px.y;
}
template <int C>
__device__ __forceinline__ void store_strip_pair (const CsChannels &out, const ByteLayout &, const PixelOrder &, int y,
    int xa, bool store_low, bool store_high, const __half2 (&acc)[4], const __half2 (&p)[C], unsigned int, unsigned int)
{
  const float2 s_w = __half22float2 (acc[3]);
  const float2 r_w = make_float2 (rcp_ftz (s_w.x), rcp_ftz (s_w.y));
  const __half2 inv = __hmul2 (__floats2half2_rn (r_w.x, r_w.y), __float2half2_rn (16.0f));
#pragma unroll
  for (int ch = 0; ch < C; ch++) {
    const unsigned int v = as_word (__hfma2 (acc[ch], inv, as_half2 (plus_1024 (p[ch]))));
    unsigned char *o = out.data[ch] + (ptrdiff_t) y * out.stride[ch] + (ptrdiff_t) xa * out.step;
    if (store_low)
      o[0] = (unsigned char) v;
    if (store_high)
      o[out.step] = (unsigned char) (v >> 16);   /* bytes 0 and 2: the low and high outputs */
  }
}

/* C channels of pixels laid out as Px (Lines: the RGBA family, C = 3; CsChannels: a view). */
template <int H, int C, class Px>
__global__ void __launch_bounds__ (kBlockW * kBlockH, kStripBlocks)
bilateral_gauss_half_strips (Px in, Px out, int width, int height, HalfGaussK k)
{
  const int lane = threadIdx.x, y0 = (blockIdx.y * kBlockH + threadIdx.y) * H;
  if (y0 >= height)
    return;   /* the whole warp */
  const int xa = blockIdx.x * kStripOut - 1 + 2 * lane;
  const ByteLayout bytes (first_colour (in) != 0u);
  /* the strip's raw words, kAhead rows before they are converted (program order keeps
   * each row's loads ahead of the previous rows' stores) */
  const int col_a = clampi (xa, 0, width - 1), col_b = clampi (xa + 1, 0, width - 1);
  unsigned int raw_a[H + 2], raw_b[H + 2];
  const auto load_row = [&] (int i) {
    load_pair<C> (in, clampi (y0 - 1 + i, 0, height - 1), col_a, col_b, raw_a[i], raw_b[i]);
  };
  constexpr int kAhead = kStripAhead < H ? kStripAhead : H;
#pragma unroll
  for (int i = 0; i < 2 + kAhead; i++)
    load_row (i);
  const __half2 s_edge = k.c_s, s_mid = __float2half2_rn (0.0f);   /* c_s·dy² for |dy| = 1, 0 */
  const __half2 t_left = k.t_col[kMaxRadius - 1], t_mid = k.t_col[kMaxRadius], t_right = k.t_col[kMaxRadius + 1];
  const bool store_low = lane > 0 && xa < width, store_high = lane < 31 && xa + 1 < width;
  const PixelOrder order (first_colour (out) != 0u);
  StripRow<C> above = strip_row<C> (raw_a[0], raw_b[0], bytes.c0), here = strip_row<C> (raw_a[1], raw_b[1], bytes.c0);
  Tap<C> below_left, below_centre, below_right;   /* the previous row's (+1, dx) taps */
#pragma unroll
  for (int j = 0; j < H; j++) {
    if (j + 2 + kAhead < H + 2)
      load_row (j + 2 + kAhead);
    const StripRow<C> below = strip_row<C> (raw_a[j + 2], raw_b[j + 2], bytes.c0);
    const __half2 (&p)[C] = here.centre;
    __half2 acc[4] = { __float2half2_rn (0.0f), __float2half2_rn (0.0f), __float2half2_rn (0.0f),
      __float2half2_rn (1.0f) };   /* the centre tap, w = 1 and d = 0 */
    if (j == 0) {
      accumulate<false> (acc, fresh_tap (above.left, p, t_left, s_edge, k));
      accumulate<false> (acc, fresh_tap (above.centre, p, t_mid, s_edge, k));
      accumulate<false> (acc, fresh_tap (above.right, p, t_right, s_edge, k));
    } else {
      accumulate<false> (acc, taken_tap (from_left (below_right.w), above.left, p));
      accumulate<true> (acc, below_centre);
      accumulate<false> (acc, taken_tap (from_right (below_left.w), above.right, p));
    }
    const Tap<C> right = fresh_tap (here.right, p, t_right, s_mid, k);
    accumulate<false> (acc, taken_tap (from_left (right.w), here.left, p));
    accumulate<false> (acc, right);
    below_left = fresh_tap (below.left, p, t_left, s_edge, k);
    below_centre = fresh_tap (below.centre, p, t_mid, s_edge, k);
    below_right = fresh_tap (below.right, p, t_right, s_edge, k);
    accumulate<false> (acc, below_left);
    accumulate<false> (acc, below_centre);
    accumulate<false> (acc, below_right);
    if (y0 + j < height)
      store_strip_pair<C> (out, bytes, order, y0 + j, xa, store_low, store_high, acc, p, raw_a[j + 1], raw_b[j + 1]);
    above = here;
    here = below;
  }
}

/* The tile kernel of radius 2..7 over a width x height frame. */
template <bool kOnChip>
static cudaError_t launch_tiles (Lines in, Lines out, int width, int height, int radius, const HalfGaussK &k,
    cudaStream_t stream)
{
  switch (radius) {
#define CASE(R) \
  case R: \
    bilateral_gauss_half<R, kOnChip><<<dim3 (div_up (width, kOutW), div_up (height, kBlockH * rows_per_thread<R> ())), \
        dim3 (kBlockW, kBlockH), 0, stream>>> (in, out, width, height, k); \
    break;
    CASE (2) CASE (3) CASE (4) CASE (5) CASE (6) CASE (7)
#undef CASE
    default:
      return cudaErrorInvalidValue;
  }
  return cudaGetLastError ();
}

}  // namespace cs

#endif /* CS_BILATERAL_HALF_KERNELS_CUH */
