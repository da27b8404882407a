/* recursivegauss with warm-ups of 17–64 samples, or with carried partition starts: rows, then
 * columns, each pass one tensor-core product per 64-sample segment through a half4 plane
 * (docs/algorithms.md, 5.4; carried starts: 5.2 and 5.4).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_recursive_lines.cuh"
#include "cs_mma.cuh"
#include "cs_carry.cuh"
#include "cs_launch.cuh"

#include <string.h>

namespace cs {

/* Carried starts (recursive_lines_carried): per segment and line the scanned states of
 * cs_carry.cuh, h⁺[st − 1] and h⁻[en], and the powers b_i^m that carry them into the segment.
 * What the states add to a sample m after st − 1 (causal) and m' before en (anticausal),
 *     Re Σ_i (b_i^m·h⁺_i + b_i^m'·h⁻_i) = Σ_q β_q·s_q,
 * s = (Re h⁺_0, Im h⁺_0, Re h⁺_1, Im h⁺_1, the same of h⁻), β = (Re b_0^m, −Im b_0^m, … m'),
 * is one more product per channel, in which states and powers both go in as fp16 hi + lo
 * parts (s_hi·β_hi + s_lo·β_hi + s_hi·β_lo, two k-steps): float precision without the 8
 * FMAs and 12 shared-memory loads per sample and channel the float sum cost. */
struct CarriedStarts {
  Carries states;
  /* [m][pole]: (Re b^m, −Im b^m) as fp16 hi (.x) and lo (.y) pairs, m = 0..64 */
  const uint2 *powers;
  /* LinesParams' pairs and ends in device memory: the kernels take their fragments from
   * there by lane (through L1) instead of through shared memory and two barriers */
  const unsigned int *pairs, *ends;
};

/* s_q, s_q+1 = one complex state as fp16 pairs: .x = hi, .y = lo = s − hi */
__device__ __forceinline__ uint2 split_state (float2 v)
{
  const unsigned int hi = halves (v.x, v.y);
  const float2 back = unhalves (hi);
  return make_uint2 (hi, halves (v.x - back.x, v.y - back.y));
}

/* The β pair of lane t (q = 2t, 2t + 1: direction t / 2, pole t % 2) for the sample at
 * offset x − st of a segment [st, en) */
__device__ __forceinline__ uint2 start_powers (const CarriedStarts &c, int t, int offset, int length)
{
  const int m = t / 2 ? length - offset : offset + 1;
  return __ldg (&c.powers[2 * clampi (m, 0, kSegment) + t % 2]);
}

/* The component of cs_carry.cuh's layout that lane t's pair q = 2t, 2t + 1 takes */
__device__ __forceinline__ int start_component (int t, int ch)
{
  return (t / 2) * 6 + (t % 2) * 3 + ch;
}

/* A pass's window along its lines: segment st..en, the window's first sample k0 = st − P,
 * and the sweeps' samples s..e. */
struct Window {
  int st, en, k0, s, e;
  __device__ Window (const LinesParams &p, int segment, int n)
  {
    st = cut (segment, n, p.segments);
    en = cut (segment + 1, n, p.segments);
    k0 = st - p.pad;
    s = max (st - p.warmup, 0);
    e = min (en + p.warmup, n) - 1;
  }
};

/* The window of 16 rows as fp16 planes per channel, f_plane[channel][row][sample]: the
 * samples clamped to s..e (bytes are exact in fp16), S sample pairs a thread, all loads
 * issued before any is used (each wait is a memory latency); and, where `alpha` is given, the
 * alpha of the segment's samples, alpha[row][x − st], as the fp16 1024 + alpha whose low byte
 * is the byte (T's fourth half, for the column pass to take). */
template <int S>
__device__ __forceinline__ void stage_rows (const Lines &in, const LinesParams &p, const Window &w, int y_first,
    int tid, __half (*f_plane)[kLinesPerBlock][16 * S + 8], unsigned short (*alpha)[kAlphaStride])
{
  constexpr int K = 16 * S;
  const unsigned int first = in.alpha_first ? 1u : 0u;
  static_assert (kLinesPerBlock * K / 2 == S * kLinesThreads, "S sample pairs per thread");
  unsigned int words[S][2];
#pragma unroll
  for (int j = 0; j < S; j++) {
    const int it = tid + j * kLinesThreads, r = it / (K / 2), k = 2 * (it % (K / 2));
    const unsigned int *row = reinterpret_cast<const unsigned int *> (in.at (min (y_first + r, p.height - 1), 0));
    const int x = w.k0 + k;
    if (x >= w.s && x + 1 <= w.e && (reinterpret_cast<uintptr_t> (row + x) & 7) == 0) {
      /* both inside s..e and 8-byte aligned: one load (a warp's loads then fill their sectors) */
      const uint2 both = __ldg (reinterpret_cast<const uint2 *> (row + x));
      words[j][0] = both.x;
      words[j][1] = both.y;
    } else {
      words[j][0] = __ldg (row + clampi (x, w.s, w.e));
      words[j][1] = __ldg (row + clampi (x + 1, w.s, w.e));
    }
  }
#pragma unroll
  for (int j = 0; j < S; j++) {
    const int it = tid + j * kLinesThreads, r = it / (K / 2), k = 2 * (it % (K / 2));
#pragma unroll
    for (int ch = 0; ch < 3; ch++)
      *reinterpret_cast<unsigned int *> (&f_plane[ch][r][k]) =
          hsub2 (biased_pair (words[j][0], words[j][1], first + ch), 0x64006400u);
    const int x = k - p.pad;   /* even, as the segment's length: a pair is wholly in or out */
    if (alpha && x >= 0 && x < kSegment)
      *reinterpret_cast<unsigned int *> (&alpha[r][x]) =
          biased_pair (words[j][0], words[j][1], in.alpha_first ? 0u : 3u);
  }
}

/* The window of T for 32 columns as fp16 planes per channel, t_plane[channel][sample][column]:
 * its rows clamped to s..e (and columns past the frame to its last), two pixels an item; 2S
 * items a thread, in batches (S/2 items, or S where registers allow) whose loads all go out
 * before any is used; and, where `alpha` is given, the alpha bytes of the segment's rows,
 * alpha[y − st][column] (the low bytes of T's fourth halves, 1024 + alpha). */
template <int S>
__device__ __forceinline__ void stage_columns (const Lines &t_in, const LinesParams &p, const Window &w,
    int x_first, int tid, __half (*t_plane)[16 * S][kColumnStride], unsigned char (*alpha)[kColumnsPerBlock])
{
  constexpr int K = 16 * S;
  static_assert (K * kColumnsPerBlock / 2 == 2 * S * kLinesThreads, "2S pixel pairs per thread");
  constexpr int kBatch = S <= 6 ? S : S / 2;
#pragma unroll 1
  for (int j0 = 0; j0 < 2 * S; j0 += kBatch) {
    uint2 v[kBatch][2];
#pragma unroll
    for (int j = 0; j < kBatch; j++) {
      if (j0 + j >= 2 * S)
        break;
      const int it = tid + (j0 + j) * kLinesThreads, r = it / (kColumnsPerBlock / 2),
                c = 2 * (it % (kColumnsPerBlock / 2));
      const int y = clampi (w.k0 + r, w.s, w.e), x = x_first + c;   /* even: the pair is 16-byte aligned */
      if (x + 1 < p.width) {
        const uint4 both = *reinterpret_cast<const uint4 *> (t_in.at (y, x));
        v[j][0] = make_uint2 (both.x, both.y);
        v[j][1] = make_uint2 (both.z, both.w);
      } else {
        v[j][0] = *reinterpret_cast<const uint2 *> (t_in.at (y, min (x, p.width - 1)));
        v[j][1] = v[j][0];
      }
    }
#pragma unroll
    for (int j = 0; j < kBatch; j++) {
      if (j0 + j >= 2 * S)
        break;
      const int it = tid + (j0 + j) * kLinesThreads, r = it / (kColumnsPerBlock / 2), c = 2 * (it % (kColumnsPerBlock / 2));
      /* (r, g), (b, a) of each -> (r0, r1), (g0, g1), (b0, b1) */
      *reinterpret_cast<unsigned int *> (&t_plane[0][r][c]) = __byte_perm (v[j][0].x, v[j][1].x, 0x5410);
      *reinterpret_cast<unsigned int *> (&t_plane[1][r][c]) = __byte_perm (v[j][0].x, v[j][1].x, 0x7632);
      *reinterpret_cast<unsigned int *> (&t_plane[2][r][c]) = __byte_perm (v[j][0].y, v[j][1].y, 0x5410);
      if (alpha && r >= p.pad && r - p.pad < kSegment)
        *reinterpret_cast<unsigned short *> (&alpha[r - p.pad][c]) = __byte_perm (v[j][0].y, v[j][1].y, 0x0062);
    }
  }
}

/* Compute, rows: the warp's two n-tiles of T for the block's 16 rows, all three channels:
 * F·Mᵀ (B fragments from `fragment`, k-steps outermost), the end terms and, carried, the
 * start terms */
template <int S, bool kCarried, class Fragment>
__device__ __forceinline__ void row_products (__half (&f_plane)[3][kLinesPerBlock][16 * S + 8], const Fragment &fragment,
    const unsigned int (&b_ends)[2], const float2 (&states)[kCarried ? 3 : 1][2], const uint2 (&betas)[2], int lane,
    float (&acc)[3][2][4])
{
  constexpr int K = 16 * S, kStride = K + 8;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int ch = 0; ch < 3; ch++)
#pragma unroll
    for (int j = 0; j < 2; j++)
      acc[ch][j][0] = acc[ch][j][1] = acc[ch][j][2] = acc[ch][j][3] = 0.f;
#pragma unroll
  for (int k = 0; k < S; k++) {
    const uint2 b0 = fragment (2 * (S - 1) - 2 * k), b1 = fragment (2 * (S - 1) - 2 * k + 1);
#pragma unroll
    for (int ch = 0; ch < 3; ch++) {
      unsigned int a[4];
      ldmatrix_x4 (a, shared_address (&f_plane[ch][lane & 15][(lane >> 4) * 8] + 16 * k));
      mma (acc[ch][0], a, b0.x, b0.y);
      mma (acc[ch][1], a, b1.x, b1.y);
    }
  }
#pragma unroll
  for (int ch = 0; ch < 3; ch++) {
    const unsigned short *f16 = reinterpret_cast<const unsigned short *> (&f_plane[ch][0][0]);
    const unsigned int ends_a[4] = {
      t == 0 ? pack_halves (f16[g * kStride], f16[g * kStride + K - 1]) : 0u,
      t == 0 ? pack_halves (f16[(g + 8) * kStride], f16[(g + 8) * kStride + K - 1]) : 0u, 0u, 0u };
#pragma unroll
    for (int j = 0; j < 2; j++)
      mma (acc[ch][j], ends_a, b_ends[j], 0u);
    if constexpr (kCarried) {
      /* A: rows g, g + 8 (lines) × (s_hi, then s_lo); B: β_hi for both, then β_lo × s_hi */
      const uint2 s0 = split_state (states[ch][0]), s1 = split_state (states[ch][1]);
      const unsigned int a_first[4] = { s0.x, s1.x, s0.y, s1.y }, a_second[4] = { s0.x, s1.x, 0u, 0u };
#pragma unroll
      for (int j = 0; j < 2; j++) {
        mma (acc[ch][j], a_first, betas[j].x, betas[j].x);
        mma (acc[ch][j], a_second, betas[j].y, 0u);
      }
    }
  }
}

/* Store, rows: T as half4 (r, g, b, 1024 + alpha); a lane's two pixels as one 16-byte store
 * where they are aligned (x even: the rows are 256-byte aligned) */
__device__ __forceinline__ void store_t_rows (const Lines &t_out, const LinesParams &p, const Window &w, int y_first,
    int warp, int lane, const float (&acc)[3][2][4], const unsigned short (&alpha)[kLinesPerBlock][kAlphaStride])
{
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int j = 0; j < 2; j++)
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const int y = y_first + g + 8 * h, x = w.st + 8 * (2 * warp + j) + 2 * t;
      if (y >= p.height)
        continue;
      uint2 v[2];
#pragma unroll
      for (int i = 0; i < 2; i++)
        v[i] = make_uint2 (halves (acc[0][j][2 * h + i], acc[1][j][2 * h + i]),
            halves (acc[2][j][2 * h + i], 0.f) | (unsigned int) alpha[g + 8 * h][x + i - w.st] << 16);
      uint2 *dst = reinterpret_cast<uint2 *> (t_out.at (y, x));
      if (x % 2 == 0 && x + 1 < w.en)
        *reinterpret_cast<uint4 *> (dst) = make_uint4 (v[0].x, v[0].y, v[1].x, v[1].y);
      else
#pragma unroll
        for (int i = 0; i < 2; i++)
          if (x + i < w.en)
            dst[i] = v[i];
    }
}

/* Rows: a block per (segment, 16 rows), a warp per quarter of the 64 outputs (two n-tiles),
 * all three channels: T = F·Mᵀ + the end terms, written as half4 (r, g, b, 1024 + alpha): the
 * column pass takes alpha from T, and needs no second read of the frame.
 * Warm-ups: eight blocks per SM (64 registers; 24 KB of shared memory at K = 192), which the
 * k-steps taken outermost allow (each k-step's two B fragments loaded once for the three
 * channels, not all 2S held): latency-bound at six, the pass measured 5–10 % faster for σ
 * 6–21 (docs/performance.md). Carried: seven (72 registers; at 64 the start terms
 * spill 52 bytes). */
template <int S, bool kCarried>
__global__ void __launch_bounds__ (kLinesThreads, kCarried ? 7 : 8)
recursive_rows_mma (Lines in, Lines t_out, LinesParams p, CarriedStarts c)
{
  constexpr int K = 16 * S, kStride = K + 8, kPairs = 16 * S + kSegment - 2;
  __shared__ __align__ (16) __half f_plane[3][kLinesPerBlock][kStride];
  __shared__ uint2 row_words[kCarried ? 1 : kPairs];
  __shared__ unsigned int pairs[kCarried ? 1 : kPairs];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
  const Window w (p, blockIdx.x, p.width);
  if (w.en <= w.st)
    return;
  const int y_first = blockIdx.y * kLinesPerBlock;
  let_next_kernel_start ();

  /* the frame and the tables were written before the chain of kernels began (cs_launch.cuh) */
  __shared__ __align__ (4) unsigned short alpha[kLinesPerBlock][kAlphaStride];
  stage_rows<S> (in, p, w, y_first, tid, f_plane, alpha);
  /* B fragment of n-tile n = 2·warp + j and k-step k: pair index j − 2k + 2(S − 1). The
   * k-steps run outermost, each taking its two fragments for all three channels: held for
   * every k-step at once they took 4(S − 1) + 4 registers (48 at K = 192) */
  const int lane_pair = g - 2 * t + 16 * S - 2;
  const auto pair_index = [&] (int u) { return lane_pair + 8 * (u - 2 * (S - 1) + 2 * warp); };
  const auto fragment = [&] (int u) {
    if constexpr (kCarried)
      return make_uint2 (__ldg (&c.pairs[pair_index (u)]), __ldg (&c.pairs[max (pair_index (u) - 8, 0)]));
    else
      return row_words[pair_index (u)];
  };
  /* the end terms as one more product: A's columns 0, 1 are f[0], f[K − 1], B's rows 0, 1
   * their coefficients (lanes with t = 0 hold them; the rest of both is 0) */
  unsigned int b_ends[2];
  const auto end_index = [&] (int j) { return 8 * (2 * warp + j) + g; };
  /* carried: lane t's states of lines g, g + 8 per channel, and its β pairs per n-tile */
  float2 states[kCarried ? 3 : 1][2];
  uint2 betas[2];
  if constexpr (kCarried) {
#pragma unroll
    for (int j = 0; j < 2; j++)
      b_ends[j] = t == 0 ? __ldg (&c.ends[end_index (j)]) : 0u;
#pragma unroll
    for (int j = 0; j < 2; j++)
      betas[j] = start_powers (c, t, 8 * (2 * warp + j) + g, w.en - w.st);
    wait_for_previous_kernel ();   /* the scan's states; T's readers of the frame before */
#pragma unroll
    for (int ch = 0; ch < 3; ch++)
#pragma unroll
      for (int h = 0; h < 2; h++)
        states[ch][h] = *c.states.at (blockIdx.x, start_component (t, ch), min (y_first + g + 8 * h, p.height - 1));
    __syncthreads ();
  } else {
    for (int i = tid; i < kPairs; i += kLinesThreads)
      pairs[i] = p.pairs[i];
    __syncthreads ();
    for (int i = tid; i < kPairs; i += kLinesThreads)
      row_words[i] = make_uint2 (pairs[i], pairs[max (i - 8, 0)]);
    __syncthreads ();
#pragma unroll
    for (int j = 0; j < 2; j++)
      b_ends[j] = t == 0 ? p.ends[end_index (j)] : 0u;
  }

  float acc[3][2][4];
  row_products<S, kCarried> (f_plane, fragment, b_ends, states, betas, lane, acc);
  store_t_rows (t_out, p, w, y_first, warp, lane, acc, alpha);
}

/* The A fragments of the columns' products for m-tile `warp`: fragment k of k-step k, index
 * warp − k + (S − 1); the end terms' A, columns 0, 1 = (−c(i + P), c(i + P − K)) for rows i
 * (lanes with t = 0); carried, the start terms' A, β of rows g, g + 8 (hi, then lo). From the
 * uploaded tables (carried), else from the parameters (the pairs through their shared copy). */
template <int S, bool kCarried>
struct ColumnFragments {
  uint4 a_frag[S];
  unsigned int ends_a[4] = { 0u, 0u, 0u, 0u };
  unsigned int beta_first[4] = { 0u, 0u, 0u, 0u }, beta_second[4] = { 0u, 0u, 0u, 0u };

  __device__ __forceinline__ ColumnFragments (const LinesParams &p, const CarriedStarts &c, const unsigned int *pairs,
      const Window &w, int warp, int lane)
  {
    const int g = lane / 4, t = lane % 4, lane_pair = g - 2 * t + 16 * S - 2;
    const auto pair_word = [&] (int i) {
      if constexpr (kCarried)
        return __ldg (&c.pairs[i]);
      else
        return pairs[i];
    };
    const auto end_word = [&] (int i) {
      if constexpr (kCarried)
        return __ldg (&c.ends[i]);
      else
        return p.ends[i];
    };
#pragma unroll
    for (int k = 0; k < S; k++) {
      const int i = lane_pair + 16 * (warp - k);   /* entries d, d + 8, d − 8, d */
      const unsigned int d = pair_word (i);
      a_frag[k] = make_uint4 (d, pair_word (i + 8), pair_word (i - 8), d);
    }
    if (t == 0) {
      ends_a[0] = end_word (16 * warp + g);
      ends_a[1] = end_word (16 * warp + g + 8);
    }
    if constexpr (kCarried) {
      const uint2 b0 = start_powers (c, t, 16 * warp + g, w.en - w.st);
      const uint2 b1 = start_powers (c, t, 16 * warp + g + 8, w.en - w.st);
      beta_first[0] = beta_first[2] = b0.x;
      beta_first[1] = beta_first[3] = b1.x;
      beta_second[0] = b0.y;
      beta_second[1] = b1.y;
    }
  }
};

/* Compute, columns: one half (16 columns, two n-tiles) of the block's columns for the warp's
 * m-tile, all three channels: M·T, the end terms and, carried, the start terms from the
 * block's states */
template <int S, bool kCarried>
__device__ __forceinline__ void column_half_products (__half (&t_plane)[3][16 * S][kColumnStride],
    const ColumnFragments<S, kCarried> &f, const float2 (&block_states)[kCarried ? kCarryComponents : 1][kColumnsPerBlock],
    int half, int lane, float (&acc)[3][2][4])
{
  constexpr int K = 16 * S;
  const int g = lane / 4, t = lane % 4;
  /* carried: lane t's states of this half's lines (columns) g of both n-tiles */
  float2 states[kCarried ? 3 : 1][2];
  if constexpr (kCarried)
#pragma unroll
    for (int ch = 0; ch < 3; ch++)
#pragma unroll
      for (int j = 0; j < 2; j++)
        states[ch][j] = block_states[start_component (t, ch)][16 * half + 8 * j + g];
#pragma unroll
  for (int ch = 0; ch < 3; ch++) {
#pragma unroll
    for (int j = 0; j < 2; j++)
      acc[ch][j][0] = acc[ch][j][1] = acc[ch][j][2] = acc[ch][j][3] = 0.f;
    /* x4.trans: rows k .. k + 15 of columns 16·half .. + 15: b0, b1 of two n-tiles */
    const __half *rows = &t_plane[ch][lane & 15][16 * half + (lane >> 4) * 8];
#pragma unroll
    for (int k = 0; k < S; k++) {
      unsigned int bv[4];
      ldmatrix_x4_trans (bv, shared_address (rows + 16 * k * kColumnStride));
      const unsigned int a[4] = { f.a_frag[k].x, f.a_frag[k].y, f.a_frag[k].z, f.a_frag[k].w };
      mma (acc[ch][0], a, bv[0], bv[1]);
      mma (acc[ch][1], a, bv[2], bv[3]);
    }
    const unsigned short *t16 = reinterpret_cast<const unsigned short *> (&t_plane[ch][0][0]);
#pragma unroll
    for (int j = 0; j < 2; j++) {
      const int c = 16 * half + 8 * j + g;
      const unsigned int b_ends = t == 0 ? pack_halves (t16[c], t16[(K - 1) * kColumnStride + c]) : 0u;
      mma (acc[ch][j], f.ends_a, b_ends, 0u);
    }
    if constexpr (kCarried)
#pragma unroll
      for (int j = 0; j < 2; j++) {
        /* B: column g (line) × (s_hi; s_lo), then (s_hi; 0) */
        const uint2 sv = split_state (states[ch][j]);
        mma (acc[ch][j], f.beta_first, sv.x, sv.y);
        mma (acc[ch][j], f.beta_second, sv.x, 0u);
      }
  }
}

/* Store, columns: the half's pixels rounded half up, with alpha from T; x is even, so both
 * pixels of a lane go in one 8-byte store where the row allows */
__device__ __forceinline__ void store_column_half (const Lines &out, const LinesParams &p, const Window &w, int x_first,
    int half, int warp, int lane, const float (&acc)[3][2][4], const unsigned char (&alpha)[kSegment][kColumnsPerBlock])
{
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int j = 0; j < 2; j++)
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const int y = w.st + 16 * warp + g + 8 * h, x = x_first + 16 * half + 8 * j + 2 * t;
      if (y >= w.en)
        continue;
      unsigned int v[2];
#pragma unroll
      for (int i = 0; i < 2; i++)
        v[i] = pack_pixel (round_to_byte (acc[0][j][2 * h + i] + 0.5f), round_to_byte (acc[1][j][2 * h + i] + 0.5f),
            round_to_byte (acc[2][j][2 * h + i] + 0.5f), alpha[16 * warp + g + 8 * h][16 * half + 8 * j + 2 * t + i],
            out.alpha_first);
      unsigned int *dst = reinterpret_cast<unsigned int *> (out.at (y, x));
      if (x + 1 < p.width && (reinterpret_cast<uintptr_t> (dst) & 7) == 0)
        *reinterpret_cast<uint2 *> (dst) = make_uint2 (v[0], v[1]);
      else
#pragma unroll
        for (int i = 0; i < 2; i++)
          if (x + i < p.width)
            dst[i] = v[i];
    }
}

/* Columns: a block per (32 columns, segment), a warp per m-tile of 16 outputs, all three
 * channels, the columns in two halves: out = M·T + the end terms, rounded half up. */
template <int S, bool kCarried>
/* At most 128 registers: four blocks per SM (K = 192 takes 122 since T brings alpha; before,
 * it spilled 12 bytes and was still 10 % faster at 4K than 133 registers at three blocks:
 * docs/performance.md). */
__global__ void __launch_bounds__ (kLinesThreads, 4)
recursive_columns_mma (Lines t_in, Lines out, LinesParams p, CarriedStarts c)
{
  constexpr int kPairs = 16 * S + kSegment - 2;
  __shared__ __align__ (16) __half t_plane[3][16 * S][kColumnStride];
  __shared__ unsigned int pairs[kCarried ? 1 : kPairs];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const Window w (p, blockIdx.y, p.height);
  if (w.en <= w.st)
    return;
  const int x_first = blockIdx.x * kColumnsPerBlock;
  let_next_kernel_start ();

  if constexpr (!kCarried) {
    for (int i = tid; i < kPairs; i += kLinesThreads)
      pairs[i] = p.pairs[i];
    __syncthreads ();
  }
  const ColumnFragments<S, kCarried> fragments (p, c, pairs, w, warp, lane);
  wait_for_previous_kernel ();   /* T and the scanned states */
  __shared__ __align__ (4) unsigned char alpha[kSegment][kColumnsPerBlock];
  /* carried: the block's states (32 columns × 12 components), loaded with T's window and
   * parked in shared memory, so that neither half of the products waits on a load of its own */
  constexpr int kBlockStates = kCarryComponents * kColumnsPerBlock, kStatesPerThread = kBlockStates / kLinesThreads;
  static_assert (kBlockStates % kLinesThreads == 0, "the block's states spread evenly");
  __shared__ float2 block_states[kCarried ? kCarryComponents : 1][kColumnsPerBlock];
  float2 my_states[kCarried ? kStatesPerThread : 1];
  if constexpr (kCarried)
#pragma unroll
    for (int i = 0; i < kStatesPerThread; i++) {
      const int item = tid + i * kLinesThreads, column = item % kColumnsPerBlock;
      my_states[i] = *c.states.at (blockIdx.y, item / kColumnsPerBlock, min (x_first + column, p.width - 1));
    }
  stage_columns<S> (t_in, p, w, x_first, tid, t_plane, alpha);
  if constexpr (kCarried)
#pragma unroll
    for (int i = 0; i < kStatesPerThread; i++) {
      const int item = tid + i * kLinesThreads;
      block_states[item / kColumnsPerBlock][item % kColumnsPerBlock] = my_states[i];
    }
  __syncthreads ();
#pragma unroll 1
  for (int half = 0; half < 2; half++) {
    float acc[3][2][4];
    column_half_products<S, kCarried> (t_plane, fragments, block_states, half, lane, acc);
    store_column_half (out, p, w, x_first, half, warp, lane, acc, alpha);
  }
}

/* ---------------------------------------------------------------- carried starts
 *
 * With carried starts (cs_carry.cuh) a segment's output is the same product as above with a
 * warm-up of one sample — the window st − 1 .. en, from zero states — plus what the scanned
 * states h⁺[st − 1] and h⁻[en] add (CarriedStarts: one more product). Its fp16 m(d) moves a
 * pass by at most 0.055–0.070 LSB for σ 22–250 at K = 80 (the bound above, computed from the
 * coefficients). The carries themselves, each segment's end states from a zero start,
 *     U⁺ = Σ_{k=st}^{en−1} W(en − 1 − k)·D[k],   U⁻ = −Σ_{k=st+1}^{en} W(k − 1 − st)·D[k],
 * W(m) = x·b^m, are products too: summed by parts over the same window (its samples clamped
 * to st − 1 .. en, so the differences outside are 0) they are the window's samples times
 * eight columns of coefficients (direction, pole, re/im), one n-tile. The samples are exact
 * in fp16 (bytes, or T's own halves), and the coefficients go in as two fp16 parts, hi and
 * lo = v − hi, scaled by a power of two into fp16's normal range: the products then have
 * the float sums' precision, which the scan needs (each state feeds every later segment).
 * The causal coefficients depend on the segment's length, n/B or n/B + 1 (two tables). */
/* A copy of the tables into device memory, so that the kernels read them by lane through
 * the caches (a kernel parameter indexed per lane would serialise on the constant cache). */
__global__ void upload_tables (CarriedTables src, CarriedTables *dst)
{
  const unsigned int *from = reinterpret_cast<const unsigned int *> (&src);
  unsigned int *to = reinterpret_cast<unsigned int *> (dst);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (int) (sizeof src / 4); i += gridDim.x * blockDim.x)
    to[i] = from[i];
}

/* Rows: a block per (segment, 16 rows) stages the window as recursive_rows_mma does; warp ch
 * multiplies channel ch's samples by the coefficients (hi, then lo). */
__global__ void __launch_bounds__ (kLinesThreads)
carry_rows_mma (Lines in, LinesParams p, const CarriedTables *tables, Carries out, float unscale)
{
  constexpr int S = kCarriedSteps, kStride = 16 * S + 8;
  __shared__ __align__ (16) __half f_plane[3][kLinesPerBlock][kStride];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
  const Window w (p, blockIdx.x, p.width);
  if (w.en <= w.st)
    return;
  const int y_first = blockIdx.y * kLinesPerBlock;
  let_next_kernel_start ();
  stage_rows<S> (in, p, w, y_first, tid, f_plane, nullptr);   /* the frame: before the chain */
  __syncthreads ();
  wait_for_previous_kernel ();   /* the tables (and the states' last readers) */
  if (warp >= 3)
    return;
  const int ch = warp;
  const uint4 *coeffs = tables->carry[0][w.en - w.st - p.width / p.segments][0];
  float acc[4] = { 0.f, 0.f, 0.f, 0.f };
  const __half *rows = &f_plane[ch][lane & 15][(lane >> 4) * 8];
#pragma unroll
  for (int k = 0; k < S; k++) {
    unsigned int a[4];
    ldmatrix_x4 (a, shared_address (rows + 16 * k));
    const uint4 b = __ldg (&coeffs[32 * k + lane]);
    mma (acc, a, b.x, b.y);
    mma (acc, a, b.z, b.w);
  }
  /* acc: rows g, g + 8 (lines), columns 2t, 2t + 1 (re, im of direction t / 2, pole t % 2) */
  const int component = (t / 2) * 6 + (t % 2) * 3 + ch;
#pragma unroll
  for (int h = 0; h < 2; h++) {
    const int y = y_first + g + 8 * h;
    if (y < p.height)
      *out.at (blockIdx.x, component, y) = make_float2 (acc[2 * h] * unscale, acc[2 * h + 1] * unscale);
  }
}

/* Columns: a block per (32 columns, segment) stages T as recursive_columns_mma does; warp n
 * takes columns 8n .. 8n + 7: the coefficients are A (rows g: hi of column g, rows g + 8: its
 * lo), the samples B. */
__global__ void __launch_bounds__ (kLinesThreads)
carry_columns_mma (Lines t_in, LinesParams p, const CarriedTables *tables, Carries out, float unscale)
{
  constexpr int S = kCarriedSteps;
  __shared__ __align__ (16) __half t_plane[3][16 * S][kColumnStride];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
  const Window w (p, blockIdx.y, p.height);
  if (w.en <= w.st)
    return;
  const int x_first = blockIdx.x * kColumnsPerBlock;
  let_next_kernel_start ();
  const uint4 *coeffs = tables->carry[1][w.en - w.st - p.height / p.segments][0];
  uint4 a_frag[S];
#pragma unroll
  for (int k = 0; k < S; k++)
    a_frag[k] = __ldg (&coeffs[32 * k + lane]);   /* the tables: before the chain */
  wait_for_previous_kernel ();   /* T */
  stage_columns<S> (t_in, p, w, x_first, tid, t_plane, nullptr);
  __syncthreads ();
  /* row g of the result is coefficient column g: direction g / 4, pole g / 2 % 2, re/im g % 2 */
  const int direction = g / 4, pole = g / 2 % 2, part = g % 2;
#pragma unroll
  for (int ch = 0; ch < 3; ch++) {
    float acc[4] = { 0.f, 0.f, 0.f, 0.f };
#pragma unroll
    for (int k = 0; k < S; k++) {
      unsigned int bv[2];
      ldmatrix_x2_trans (bv, shared_address (&t_plane[ch][16 * k + (lane & 15)][8 * warp]));
      const unsigned int a[4] = { a_frag[k].x, a_frag[k].z, a_frag[k].y, a_frag[k].w };
      mma (acc, a, bv[0], bv[1]);
    }
#pragma unroll
    for (int i = 0; i < 2; i++) {
      const int x = x_first + 8 * warp + 2 * t + i;
      if (x < p.width)
        reinterpret_cast<float *> (out.at (blockIdx.y, direction * 6 + pole * 3 + ch, x))[part] =
            (acc[i] + acc[2 + i]) * unscale;
    }
  }
}

static int lines_pad (int warmup)
{
  return (warmup + 3) & ~3;
}

/* The warm-up kernels' instances: K = 128, 160, 192 (the carried passes take K = 80). */
static int lines_steps (int warmup)
{
  const int needed = div_up (kSegment + 2 * lines_pad (warmup), 16);
  return needed <= 8 ? 8 : needed <= 10 ? 10 : 12;
}

bool recursive_lines_cover (int n_x, int n_y, int segments_x, int segments_y, int warmup)
{
  return warmup > 0 && lines_pad (warmup) <= kLinesMaxPad && segments_x >= 1 && segments_y >= 1 &&
      div_up (n_x, segments_x) <= kSegment && div_up (n_y, segments_y) <= kSegment;
}

/* m(d) and the end coefficients in fp16, for one pass (the same for both: both have the
 * same warm-up and 64-sample window offset) */
static void lines_coefficients (const CsDericheCoeffs &coeffs, int pad, int steps, LinesParams &p)
{
  const int K = 16 * steps, d_min = pad - K + 1, d_max = pad + kSegment - 1;
  const int reach = (d_max > -d_min ? d_max : -d_min) + 2;
  double g[16 * kLinesMaxSteps + kSegment + 4];
  deriche_step_response (coeffs, reach, g);
  auto m = [&] (int d) { return (d == 0 ? 1.0 : 0.0) + folded_response (g, d) - folded_response (g, d - 1); };
  for (int d = d_min + 1; d <= d_max; d++)
    p.pairs[d - d_min - 1] = pack_halves (fp16_bits (m (d)), fp16_bits (m (d - 1)));
  for (int i = 0; i < kSegment; i++)
    p.ends[i] = pack_halves (fp16_bits (-folded_response (g, i + pad)), fp16_bits (folded_response (g, i + pad - K)));
}

void plan_lines (int width, int height, int segments_x, int segments_y, int warmup, const CsDericheCoeffs &c,
    bool overlap, LinesLaunch &l)
{
  l.steps = lines_steps (warmup);
  l.overlap = overlap;
  LinesParams &rows = l.rows;
  rows.width = width;
  rows.height = height;
  rows.segments = segments_x;
  rows.pad = lines_pad (warmup);
  rows.warmup = warmup;
  lines_coefficients (c, rows.pad, l.steps, rows);
  l.columns = rows;
  l.columns.segments = segments_y;
}

template <int S>
static cudaError_t launch_steps (Lines in, Lines t_plane, Lines out, const LinesLaunch &l, cudaStream_t stream)
{
  recursive_rows_mma<S, false><<<dim3 (l.rows.segments, div_up (l.rows.height, kLinesPerBlock)), kLinesThreads, 0,
      stream>>> (in, t_plane, l.rows, CarriedStarts ());
  const cudaError_t err = cudaGetLastError ();
  if (err != cudaSuccess)
    return err;
  return launch_overlapping (l.overlap, recursive_columns_mma<S, false>,
      dim3 (div_up (l.rows.width, kColumnsPerBlock), l.columns.segments), dim3 (kLinesThreads), 0, stream, t_plane, out,
      l.columns, CarriedStarts ());
}

cudaError_t launch_lines (Lines in, Lines t_plane, Lines out, const LinesLaunch &l, cudaStream_t stream)
{
  switch (l.steps) {
  case 8:
    return launch_steps<8> (in, t_plane, out, l, stream);
  case 10:
    return launch_steps<10> (in, t_plane, out, l, stream);
  default:
    return launch_steps<12> (in, t_plane, out, l, stream);
  }
}

}  // namespace cs

namespace cs {

bool recursive_lines_carried_cover (int n_x, int n_y, int segments_x, int segments_y)
{
  const auto fits = [] (int n, int segments) {
    return segments >= 1 && segments <= (n >= 32 ? n / 16 : 1) && div_up (n, segments) <= kSegment;
  };
  return fits (n_x, segments_x) && fits (n_y, segments_y);
}

size_t recursive_lines_carried_table_bytes ()
{
  return sizeof (CarriedTables);
}

/* The carry coefficients of both passes (segments of `shortest` and shortest + 1 samples)
 * and the powers b^m, in double, then split as CarriedTables says. unscale: what each pass's
 * sums are multiplied by to undo the power-of-two scaling. */
static void carried_tables (const CsDericheCoeffs &c, const int shortest[2], CarriedTables &t, float unscale[2])
{
  constexpr int K = 16 * kCarriedSteps;
  const int pad = lines_pad (1);
  /* b_i^m by repeated multiplication (in double, 80 steps lose nothing a float keeps, and
   * exp/sincos per entry cost ~100 µs of host time per build), and W_i(m) = x_i·b_i^m
   * (uniform_x), 0 for m < 0 */
  constexpr int kPowers = K + 1;
  double power[2][kPowers][2], w_table[2][kPowers][2];
  for (int i = 0; i < 2; i++) {
    const double br = c.b[i].re, bi = c.b[i].im;
    double xr, xi;
    uniform_x (c, i, xr, xi);
    power[i][0][0] = 1.0;
    power[i][0][1] = 0.0;
    for (int m = 1; m < kPowers; m++) {
      power[i][m][0] = power[i][m - 1][0] * br - power[i][m - 1][1] * bi;
      power[i][m][1] = power[i][m - 1][0] * bi + power[i][m - 1][1] * br;
    }
    for (int m = 0; m < kPowers; m++) {
      w_table[i][m][0] = xr * power[i][m][0] - xi * power[i][m][1];
      w_table[i][m][1] = xr * power[i][m][1] + xi * power[i][m][0];
    }
  }
  const auto weight = [&] (int i, int m, double &re, double &im) {
    re = m >= 0 ? w_table[i][m][0] : 0.0;
    im = m >= 0 ? w_table[i][m][1] : 0.0;
  };
  for (int pass = 0; pass < 2; pass++) {
    double coef[2][K][8];
    double peak = 0.0;
    for (int v = 0; v < 2; v++) {
      const int last = shortest[pass] + v - 1 + pad;   /* window index of en − 1 */
      for (int k = 0; k < K; k++)
        for (int i = 0; i < 2; i++) {
          /* Σ_{k=1}^{K−1} a_k (f_k − f_{k−1}) = Σ_k f_k (a_k [k ≥ 1] − a_{k+1} [k ≤ K − 2]);
           * causal a_k = W(last − k), anticausal a_k = −W(k − 1 − pad) */
          double c0r, c0i, c1r, c1i, a0r, a0i, a1r, a1i;
          weight (i, last - k, c0r, c0i);
          weight (i, last - k - 1, c1r, c1i);
          weight (i, k - 1 - pad, a0r, a0i);
          weight (i, k - pad, a1r, a1i);
          const double now = k >= 1 ? 1.0 : 0.0, next = k <= K - 2 ? 1.0 : 0.0;
          coef[v][k][2 * i] = now * c0r - next * c1r;
          coef[v][k][2 * i + 1] = now * c0i - next * c1i;
          coef[v][k][4 + 2 * i] = -now * a0r + next * a1r;
          coef[v][k][4 + 2 * i + 1] = -now * a0i + next * a1i;
          for (int j = 0; j < 8; j += 4) {
            peak = fmax (peak, fabs (coef[v][k][j + 2 * i]));
            peak = fmax (peak, fabs (coef[v][k][j + 2 * i + 1]));
          }
        }
    }
    int exponent;
    frexp (peak > 0.0 ? peak : 1.0, &exponent);   /* peak·2^−exponent in [0.5, 1) */
    const double scale = ldexp (1.0, -exponent);
    unscale[pass] = (float) ldexp (1.0, exponent);
    for (int v = 0; v < 2; v++)
      for (int step = 0; step < kCarriedSteps; step++)
        for (int lane = 0; lane < 32; lane++) {
          const int g = lane / 4, r = 16 * step + 2 * (lane % 4);
          unsigned short hi[4], lo[4];
          const int rows[4] = { r, r + 1, r + 8, r + 9 };
          for (int q = 0; q < 4; q++)
            fp16_split (coef[v][rows[q]][g] * scale, hi[q], lo[q]);
          t.carry[pass][v][step][lane] = make_uint4 (pack_halves (hi[0], hi[1]), pack_halves (hi[2], hi[3]),
              pack_halves (lo[0], lo[1]), pack_halves (lo[2], lo[3]));
        }
  }
  for (int m = 0; m <= kSegment; m++)
    for (int i = 0; i < 2; i++) {
      unsigned short hi[2], lo[2];
      const double pair[2] = { power[i][m][0], -power[i][m][1] };
      for (int q = 0; q < 2; q++)
        fp16_split (pair[q], hi[q], lo[q]);
      t.powers[m][i] = make_uint2 (pack_halves (hi[0], hi[1]), pack_halves (lo[0], lo[1]));
    }
}

/* One pass with carried starts: its carries, their scan along the lines, and the pass from
 * the scanned states; each launch overlaps the one before it (cs_launch.cuh: 1–3 µs per
 * kernel boundary). */
static cudaError_t launch_carried_pass (bool overlap,
    void (*carry) (Lines, LinesParams, const CarriedTables *, Carries, float),
    void (*pass) (Lines, Lines, LinesParams, CarriedStarts), dim3 grid, Lines src, Lines dst, const LinesParams &p,
    const CarriedTables *tables, const Carries &states, float unscale, const Segments &lines, const CarryJumps &jumps,
    cudaStream_t stream)
{
  const CarriedStarts starts = { states, &tables->powers[0][0], tables->pairs, tables->ends };
  cudaError_t err = launch_overlapping (overlap, carry, grid, dim3 (kLinesThreads), 0, stream, src, p, tables, states,
      unscale);
  if (err == cudaSuccess)
    err = launch_overlapping (overlap, scan_carries, dim3 (div_up ((long long) lines.n_lines * kCarryComponents, 128)),
        dim3 (128), 0, stream, states, lines, jumps);
  if (err == cudaSuccess)
    err = launch_overlapping (overlap, pass, grid, dim3 (kLinesThreads), 0, stream, src, dst, p, starts);
  return err;
}

void plan_lines_carried (int width, int height, int segments_x, int segments_y, const CsDericheCoeffs &c,
    bool overlap, CarriedLaunch &l)
{
  l.overlap = overlap;
  LinesParams &rows = l.rows;
  rows.width = width;
  rows.height = height;
  rows.segments = segments_x;
  rows.pad = lines_pad (1);
  rows.warmup = 1;   /* the kernels take pairs and ends from the tables: rows.pairs stays unset */
  l.columns = rows;
  l.columns.segments = segments_y;
  const int shortest[2] = { width / segments_x, height / segments_y };
  carried_tables (c, shortest, l.tables, l.unscale);
  LinesParams coefficients;
  lines_coefficients (c, rows.pad, kCarriedSteps, coefficients);
  memcpy (l.tables.pairs, coefficients.pairs, sizeof l.tables.pairs);
  memcpy (l.tables.ends, coefficients.ends, sizeof l.tables.ends);
  for (int pass = 0; pass < 2; pass++)
    l.jumps[pass] = carry_jumps (c, shortest[pass]);
}

cudaError_t launch_lines_carried (Lines in, Lines t_plane, Lines out, const CarriedLaunch &l, float2 *states,
    void *tables, cudaStream_t stream)
{
  const int width = l.rows.width, height = l.rows.height, segments_x = l.rows.segments, segments_y = l.columns.segments;
  CarriedTables *device_tables = static_cast<CarriedTables *> (tables);
  upload_tables<<<div_up (sizeof l.tables / 4, kLinesThreads), kLinesThreads, 0, stream>>> (l.tables, device_tables);

  const Carries row_states = { states, height, segments_x }, column_states = { states, width, segments_y };
  const Segments row_lines = { width, height, segments_x }, column_lines = { height, width, segments_y };
  cudaError_t err = cudaGetLastError ();
  if (err == cudaSuccess)
    err = launch_carried_pass (l.overlap, carry_rows_mma, recursive_rows_mma<kCarriedSteps, true>,
        dim3 (segments_x, div_up (height, kLinesPerBlock)), in, t_plane, l.rows, device_tables, row_states,
        l.unscale[0], row_lines, l.jumps[0], stream);
  if (err == cudaSuccess)
    err = launch_carried_pass (l.overlap, carry_columns_mma, recursive_columns_mma<kCarriedSteps, true>,
        dim3 (div_up (width, kColumnsPerBlock), segments_y), t_plane, out, l.columns, device_tables, column_states,
        l.unscale[1], column_lines, l.jumps[1], stream);
  return err;
}

}  // namespace cs
