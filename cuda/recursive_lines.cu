/* recursivegauss with warm-ups of 17–64 samples: rows, then columns, each pass one matrix
 * product per 64-sample segment on the tensor cores.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why: warm-ups longer than 16 samples do not fit recursive_tile.cu's shared memory, and the
 * swept two-pass path (cs_sweep.cuh) re-reads 2·κσ samples per segment cut one recursion
 * step at a time (σ = 20: 0.36 ms at 4K, NOTES.md). A segment's output is a fixed linear
 * function of its window's samples, so each pass is a product of the lines with one
 * constant matrix, as in the tile kernel; here a pass goes through the frame (rows: the
 * 8-bit frame to T, half4, in the scratch plane; columns: T to the output).
 *
 * The matrix. recursive_tile.cu derives T[i] = f[i] + Σ_j c(i − j)·Δ[j] over the segment's
 * samples s..e, and a window of K samples starting P before the segment (P = the warm-up
 * rounded up to 4, K = 64 + 2P rounded up to a multiple of 16 of those this file builds).
 * Read with its samples outside s..e clamped to s..e (so that their differences are 0),
 * and summed by parts over the window k = 0..K−1, the same value is
 *     T[i] = Σ_k m(i + P − k)·f[k] − c(i + P)·f[0] + c(i + P − K)·f[K − 1],
 *     m(d) = δ(d) + c(d) − c(d − 1):
 * a Toeplitz product with the samples themselves, plus two terms on the window's end
 * samples (one more k-step). The tile kernel multiplies the differences instead; their
 * coefficients c are the step response, Σ|c| ~ 0.8σ, and rounded to fp16 they could move
 * a pass by up to 255·Σ|c_fp16 − c| = 0.19 / 0.42 / 0.67 LSB at σ = 6 / 10 / 20. m is the
 * smoothing kernel itself (Σ|m| ~ 1): the same bound for m and the end coefficients is
 * 0.046–0.051 LSB for σ 6–21 (computed from the coefficients), plus T's fp16 rounding
 * (1/16).
 */
#include "cs_recursive_lines.cuh"
#include "cs_mma.cuh"

namespace cs {

static constexpr int kSegment = 64, kMaxPad = 64, kLinesPerBlock = 16, kThreads = 128;
static constexpr int kMaxSteps = 12;                        /* K <= 192 */
static constexpr int kMaxPairs = 16 * kMaxSteps + kSegment - 2;
static constexpr int kColumnsPerBlock = 32, kColumnStride = kColumnsPerBlock + 8;   /* 80 B rows: ldmatrix without bank conflicts */

struct LinesParams {
  int width, height, segments, pad, warmup;
  /* (m(d), m(d − 1)) in fp16, d = P − 16·steps + 2 .. P + 63, as in recursive_tile.cu */
  unsigned int pairs[kMaxPairs];
  /* (−c(i + P), c(i + P − K)) in fp16, i = 0..63: the end samples' coefficients */
  unsigned int ends[kSegment];
};

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

/* Rows: a block per (segment, 16 rows), a warp per quarter of the 64 outputs (two n-tiles),
 * all three channels: T = F·Mᵀ + the end terms, written as half4 (alpha 0: the column pass
 * takes alpha from the frame). */
template <int S>
__global__ void __launch_bounds__ (kThreads)
recursive_rows_mma (Lines in, Lines t_out, LinesParams p)
{
  constexpr int K = 16 * S, kStride = K + 8, kPairs = 16 * S + kSegment - 2;
  __shared__ __align__ (16) __half f_plane[3][kLinesPerBlock][kStride];
  __shared__ uint2 row_words[kPairs];
  __shared__ unsigned int pairs[kPairs];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
  const Window w (p, blockIdx.x, p.width);
  if (w.en <= w.st)
    return;
  const int y_first = blockIdx.y * kLinesPerBlock;

  /* the window's samples, clamped to s..e, as fp16 per channel (bytes are exact): a thread's
   * S sample pairs, all loads issued before any is used (each wait is a memory latency) */
  const unsigned int first = in.alpha_first ? 1u : 0u;
  static_assert (kLinesPerBlock * K / 2 == S * kThreads, "S sample pairs per thread");
  unsigned int words[S][2];
#pragma unroll
  for (int j = 0; j < S; j++) {
    const int it = tid + j * kThreads, r = it / (K / 2), k = 2 * (it % (K / 2));
    const unsigned int *row = reinterpret_cast<const unsigned int *> (in.at (min (y_first + r, p.height - 1), 0));
    words[j][0] = __ldg (row + clampi (w.k0 + k, w.s, w.e));
    words[j][1] = __ldg (row + clampi (w.k0 + k + 1, w.s, w.e));
  }
#pragma unroll
  for (int j = 0; j < S; j++) {
    const int it = tid + j * kThreads, r = it / (K / 2), k = 2 * (it % (K / 2));
#pragma unroll
    for (int ch = 0; ch < 3; ch++)
      *reinterpret_cast<unsigned int *> (&f_plane[ch][r][k]) =
          hsub2 (biased_pair (words[j][0], words[j][1], first + ch), 0x64006400u);
  }
  for (int i = tid; i < kPairs; i += kThreads)
    pairs[i] = p.pairs[i];
  __syncthreads ();
  for (int i = tid; i < kPairs; i += kThreads)
    row_words[i] = make_uint2 (pairs[i], pairs[max (i - 8, 0)]);
  __syncthreads ();

  /* B fragment of n-tile n = 2·warp + j and k-step k: index j − 2k + 2(S − 1) */
  const int lane_pair = g - 2 * t + 16 * S - 2;
  constexpr int kFrags = 2 + 2 * (S - 1);
  uint2 b[kFrags];
#pragma unroll
  for (int u = 0; u < kFrags; u++)
    b[u] = row_words[lane_pair + 8 * (u - 2 * (S - 1) + 2 * warp)];
  /* the end terms as one more product: A's columns 0, 1 are f[0], f[K − 1], B's rows 0, 1
   * their coefficients (lanes with t = 0 hold them; the rest of both is 0) */
  unsigned int b_ends[2];
#pragma unroll
  for (int j = 0; j < 2; j++)
    b_ends[j] = t == 0 ? p.ends[8 * (2 * warp + j) + g] : 0u;

  float acc[3][2][4];
#pragma unroll
  for (int ch = 0; ch < 3; ch++) {
#pragma unroll
    for (int j = 0; j < 2; j++)
      acc[ch][j][0] = acc[ch][j][1] = acc[ch][j][2] = acc[ch][j][3] = 0.f;
    const __half *rows = &f_plane[ch][lane & 15][(lane >> 4) * 8];
#pragma unroll
    for (int k = 0; k < S; k++) {
      unsigned int a[4];
      ldmatrix_x4 (a, shared_address (rows + 16 * k));
#pragma unroll
      for (int j = 0; j < 2; j++) {
        const int u = j - 2 * k + 2 * (S - 1);
        mma (acc[ch][j], a, b[u].x, b[u].y);
      }
    }
    const unsigned short *f16 = reinterpret_cast<const unsigned short *> (&f_plane[ch][0][0]);
    const unsigned int ends_a[4] = {
      t == 0 ? pack_halves (f16[g * kStride], f16[g * kStride + K - 1]) : 0u,
      t == 0 ? pack_halves (f16[(g + 8) * kStride], f16[(g + 8) * kStride + K - 1]) : 0u, 0u, 0u };
#pragma unroll
    for (int j = 0; j < 2; j++)
      mma (acc[ch][j], ends_a, b_ends[j], 0u);
  }

  /* T as half4 (r, g, b, 0) */
#pragma unroll
  for (int j = 0; j < 2; j++)
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const int y = y_first + g + 8 * h, x = w.st + 8 * (2 * warp + j) + 2 * t;
      if (y >= p.height)
        continue;
      uint2 *dst = reinterpret_cast<uint2 *> (t_out.at (y, x));
#pragma unroll
      for (int i = 0; i < 2; i++)
        if (x + i < w.en)
          dst[i] = make_uint2 (halves (acc[0][j][2 * h + i], acc[1][j][2 * h + i]), halves (acc[2][j][2 * h + i], 0.f));
    }
}

/* Columns: a block per (32 columns, segment), a warp per m-tile of 16 outputs, all three
 * channels, the columns in two halves: out = M·T + the end terms, rounded half up. */
template <int S>
/* 128 registers: four blocks per SM. At K = 192 that spills 12 bytes (ptxas warns), and is
 * still 10 % faster at 4K than 133 registers at three blocks (NOTES.md, v13). */
__global__ void __launch_bounds__ (kThreads, 4)
recursive_columns_mma (Lines t_in, Lines in, Lines out, LinesParams p)
{
  constexpr int K = 16 * S, kPairs = 16 * S + kSegment - 2;
  __shared__ __align__ (16) __half t_plane[3][K][kColumnStride];
  __shared__ unsigned int pairs[kPairs];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
  const Window w (p, blockIdx.y, p.height);
  if (w.en <= w.st)
    return;
  const int x_first = blockIdx.x * kColumnsPerBlock;

  /* the window's rows of T, clamped to s..e (and columns past the frame to its last), as
   * fp16 planes, two pixels an item; 2S items a thread, in batches of S/2 whose loads all go
   * out before any is used */
  static_assert (K * kColumnsPerBlock / 2 == 2 * S * kThreads, "2S pixel pairs per thread");
  constexpr int kBatch = S / 2;
#pragma unroll 1
  for (int j0 = 0; j0 < 2 * S; j0 += kBatch) {
    uint2 v[kBatch][2];
#pragma unroll
    for (int j = 0; j < kBatch; j++) {
      const int it = tid + (j0 + j) * kThreads, r = it / (kColumnsPerBlock / 2), c = 2 * (it % (kColumnsPerBlock / 2));
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
      const int it = tid + (j0 + j) * kThreads, r = it / (kColumnsPerBlock / 2), c = 2 * (it % (kColumnsPerBlock / 2));
      /* (r, g), (b, a) of each -> (r0, r1), (g0, g1), (b0, b1) */
      *reinterpret_cast<unsigned int *> (&t_plane[0][r][c]) = __byte_perm (v[j][0].x, v[j][1].x, 0x5410);
      *reinterpret_cast<unsigned int *> (&t_plane[1][r][c]) = __byte_perm (v[j][0].x, v[j][1].x, 0x7632);
      *reinterpret_cast<unsigned int *> (&t_plane[2][r][c]) = __byte_perm (v[j][0].y, v[j][1].y, 0x5410);
    }
  }
  for (int i = tid; i < kPairs; i += kThreads)
    pairs[i] = p.pairs[i];
  __syncthreads ();

  /* A fragment of m-tile `warp` and k-step k: index warp − k + (S − 1); the end terms'
   * A: columns 0, 1 = (−c(i + P), c(i + P − K)) for rows i (lanes with t = 0) */
  const int lane_pair = g - 2 * t + 16 * S - 2;
  uint4 a_frag[S];
#pragma unroll
  for (int k = 0; k < S; k++) {
    const int i = lane_pair + 16 * (warp - k);   /* entries d, d + 8, d − 8, d */
    a_frag[k] = make_uint4 (pairs[i], pairs[i + 8], pairs[i - 8], pairs[i]);
  }
  const unsigned int ends_a[4] = { t == 0 ? p.ends[16 * warp + g] : 0u, t == 0 ? p.ends[16 * warp + g + 8] : 0u, 0u,
    0u };
  const unsigned int alpha = in.alpha_first ? 0u : 3u;

#pragma unroll 1
  for (int half = 0; half < 2; half++) {
    /* this half's alpha words, fetched before its products */
    unsigned int alpha_words[2][2][2];
#pragma unroll
    for (int j = 0; j < 2; j++)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const int y = min (w.st + 16 * warp + g + 8 * h, w.en - 1), x = x_first + 16 * half + 8 * j + 2 * t;
#pragma unroll
        for (int i = 0; i < 2; i++)
          alpha_words[j][h][i] = __ldg (reinterpret_cast<const unsigned int *> (in.at (y, min (x + i, p.width - 1))));
      }
    float acc[3][2][4];
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
        const unsigned int a[4] = { a_frag[k].x, a_frag[k].y, a_frag[k].z, a_frag[k].w };
        mma (acc[ch][0], a, bv[0], bv[1]);
        mma (acc[ch][1], a, bv[2], bv[3]);
      }
      const unsigned short *t16 = reinterpret_cast<const unsigned short *> (&t_plane[ch][0][0]);
#pragma unroll
      for (int j = 0; j < 2; j++) {
        const int c = 16 * half + 8 * j + g;
        const unsigned int b_ends = t == 0 ? pack_halves (t16[c], t16[(K - 1) * kColumnStride + c]) : 0u;
        mma (acc[ch][j], ends_a, b_ends, 0u);
      }
    }
#pragma unroll
    for (int j = 0; j < 2; j++)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const int y = w.st + 16 * warp + g + 8 * h, x = x_first + 16 * half + 8 * j + 2 * t;
        if (y >= w.en)
          continue;
#pragma unroll
        for (int i = 0; i < 2; i++)
          if (x + i < p.width) {
            const unsigned int a = __byte_perm (alpha_words[j][h][i], 0, alpha);
            *reinterpret_cast<unsigned int *> (out.at (y, x + i)) = pack_pixel (
                round_to_byte (acc[0][j][2 * h + i] + 0.5f), round_to_byte (acc[1][j][2 * h + i] + 0.5f),
                round_to_byte (acc[2][j][2 * h + i] + 0.5f), a, out.alpha_first);
          }
      }
  }
}

static int lines_pad (int warmup)
{
  return (warmup + 3) & ~3;
}

/* The kernels' instances: K = 128, 160, 192. */
static int lines_steps (int warmup)
{
  const int needed = div_up (kSegment + 2 * lines_pad (warmup), 16);
  return needed <= 8 ? 8 : needed <= 10 ? 10 : 12;
}

bool recursive_lines_cover (int n_x, int n_y, int segments_x, int segments_y, int warmup)
{
  return warmup > 0 && lines_pad (warmup) <= kMaxPad && segments_x >= 1 && segments_y >= 1 &&
      div_up (n_x, segments_x) <= kSegment && div_up (n_y, segments_y) <= kSegment;
}

/* m(d) and the end coefficients in fp16, for one pass (the same for both: both have the
 * same warm-up and 64-sample window offset) */
static void lines_coefficients (const CsDericheCoeffs &coeffs, int pad, int steps, LinesParams &p)
{
  const int K = 16 * steps, d_min = pad - K + 1, d_max = pad + kSegment - 1;
  const int reach = (d_max > -d_min ? d_max : -d_min) + 2;
  double g[16 * kMaxSteps + kSegment + 4];
  deriche_step_response (coeffs, reach, g);
  auto m = [&] (int d) { return (d == 0 ? 1.0 : 0.0) + folded_response (g, d) - folded_response (g, d - 1); };
  for (int d = d_min + 1; d <= d_max; d++)
    p.pairs[d - d_min - 1] = pack_halves (fp16_bits (m (d)), fp16_bits (m (d - 1)));
  for (int i = 0; i < kSegment; i++)
    p.ends[i] = pack_halves (fp16_bits (-folded_response (g, i + pad)), fp16_bits (folded_response (g, i + pad - K)));
}

template <int S>
static cudaError_t launch_lines (Lines in, Lines t_rows, Lines t_columns, Lines out, int width, int height,
    int segments_x, int segments_y, const LinesParams &rows, const LinesParams &columns, cudaStream_t stream)
{
  recursive_rows_mma<S><<<dim3 (segments_x, div_up (height, kLinesPerBlock)), kThreads, 0, stream>>> (in, t_rows, rows);
  recursive_columns_mma<S><<<dim3 (div_up (width, kColumnsPerBlock), segments_y), kThreads, 0, stream>>> (
      t_columns, in, out, columns);
  return cudaGetLastError ();
}

cudaError_t recursive_lines (Lines in, Lines t_plane, Lines out, int width, int height, int segments_x,
    int segments_y, int warmup, const CsDericheCoeffs &c, cudaStream_t stream)
{
  if (!recursive_lines_cover (width, height, segments_x, segments_y, warmup))
    return cudaErrorInvalidValue;
  const int steps = lines_steps (warmup);
  LinesParams rows;
  rows.width = width;
  rows.height = height;
  rows.segments = segments_x;
  rows.pad = lines_pad (warmup);
  rows.warmup = warmup;
  lines_coefficients (c, rows.pad, steps, rows);
  LinesParams columns = rows;
  columns.segments = segments_y;
  switch (steps) {
  case 8:
    return launch_lines<8> (in, t_plane, t_plane, out, width, height, segments_x, segments_y, rows, columns, stream);
  case 10:
    return launch_lines<10> (in, t_plane, t_plane, out, width, height, segments_x, segments_y, rows, columns, stream);
  default:
    return launch_lines<12> (in, t_plane, t_plane, out, width, height, segments_x, segments_y, rows, columns, stream);
  }
}

}  // namespace cs
