/* bilateral, exact mode, Gaussian range kernel, radius <= 7: the window sums in packed
 * half arithmetic, two outputs per instruction.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why: in float every tap costs 8 FP32 instructions and one ex2 (bilateral_tiled), and
 * windows of r >= 2 sit on the FP32 pipe's floor. Here a thread holds two outputs, x and
 * x + 32, in the two halves of each half2, so a tap's 11 instructions (3 differences, 3
 * squares, the exponent, 4 accumulations; 10 from r = 4, below) serve two outputs. The
 * ex2 stay one per output and tap (sm_90 runs ex2.approx.f16x2 as two MUFU.EX2.F16), so
 * the floor becomes the MUFU pipe: 16 ex2 per clock per SM, against 128 FP32 lanes / 9
 * issue slots per tap before.
 *
 * Why it stays within 1 LSB of the double reference (DESIGN.md's exact filter):
 * - up to r = 3 colours are kept as 64 + v/16, exact in fp16 (its step in [64, 128) is
 *   1/16), so the differences d = (q − p)/16 are exact, and their squares (<= 254) and
 *   sums (<= 762) stay in range; the exponent is e = S(dx, dy) − c'·Σd², c' =
 *   256·log2(e)/(2σr²);
 * - from r = 4 colours are kept scaled, Q = a·(v/16 − 8) + o with a = √c' and o a constant
 *   common to every pixel (it cancels in every difference), so that e = S − Σ(Q − P)²
 *   takes 3 FMAs and no multiply by c' (−4.5 % at r = 7; at r <= 3 it bought no time, so
 *   they keep the exact colours). |Q| <= 8a, so its rounding (relative 2^-11) moves a
 *   colour by at most 1/16 LSB: the kernel filters an image within 1/16 LSB of the input.
 *   The differences D = Q − P are rounded (relative 2^-11) but exactly antisymmetric;
 * - e is rounded to 11 bits: for a weight that counts (e > −10) that is under 1 % of the
 *   weight; ex2.approx.f16 adds at most 2^-9.9 relative;
 * - the sums are of w·d, not w·q: out = p + 16·Σw·d / Σw (or (16/a)·Σw·D / Σw), p the
 *   exact byte. The centre weight is exactly 1, so Σw >= 1, and a relative weight error ε
 *   moves the output by ε·|q − out| at most, where the weights that are not negligible
 *   have |q − p| of a few σr;
 * - the sums stay in fp16, each term rounded relative 2^-11, and the rounding grows with the
 *   number of terms and with how far the weighted neighbours lie from p (σr). Windows up
 *   to r = 3 sum all (<= 49) terms; larger ones sum each window row (<= 15 terms) and add
 *   the rows into the window sums. An fp16 emulation against the double filter (photos,
 *   noisy photos, uniform and mixed noise, isolated 255 spikes on a flat 10 field; r 1..7,
 *   σs r/2 and 3r, σr 2..600) gave max 2 for whole-window sums at r = 3, σr = 600 (spikes)
 *   and at r = 7, σr = 64 (mixed noise, σs = 21), and max 1 everywhere with the row sums
 *   and σr <= 100. This kernel takes σr <= 64; larger σr, the Lorentzian and r > 7 run in
 *   float (bilateral.cu).
 * The GPU suite holds it to 1 LSB for σr from 2 to 64 on photos, noise and spikes.
 *
 * The spatial term costs no instruction: up to r = 3 its column part c_s·dx² is divided by
 * −c' and starts the sum of squares, and its row part c_s·dy² is the exponent's addend
 * (one value per window row and output row); from r = 4 the column term starts the
 * exponent's FMA chain and each window row's sums are multiplied by the row factor
 * 2^(c_s·dy²) as they are added into the window's (an FMA where an add was).
 *
 * Up to r = 3 the taps straight above or below that join two of a thread's own output rows
 * are taken once for both (w(p, q) = w(q, p) to the bit): 6 of the 192 tap pairs a thread
 * computes at r = 3 and 5 of 96 at r = 2, −1.5 to −2 % (tests/bench/NOTES.md).
 */
#include "cs_bilateral_half_kernels.cuh"

#include <math.h>

namespace cs {

bool bilateral_gauss_half_covers (int radius, double sigma_r)
{
  const double c = 256.0 * 1.4426950408889634 / (2.0 * sigma_r * sigma_r);
  return radius >= 1 && radius <= kMaxRadius && sigma_r <= kMaxSigmaR && c <= 0x1p15;
}

HalfGaussK half_gauss_constants (double sigma, double sigma_r)
{
  const double log2e = 1.4426950408889634;
  const double c_s = -log2e / (2.0 * sigma * sigma), c = 256.0 * log2e / (2.0 * sigma_r * sigma_r);
  HalfGaussK k = {};
  /* the colour scale a = √c' as fp16 (c ≤ 2^15: a ≤ 181, |Q| ≤ 1448); the offset centres
   * a·(64 + v/16) on 0, and its own rounding is the same for every pixel */
  const __half a = __double2half (sqrt (c));
  const double a_value = __half2float (a);
  k.scale = __halves2half2 (a, a);
  k.offset = __float2half2_rn ((float) (-72.0 * a_value));
  k.out_scale = (float) (16.0 / a_value);
  k.neg_c = __float2half2_rn ((float) -c);
  /* fp16's range ends at 65504: a tinier σs would make c_s −inf, and −inf·0 at dy = 0 NaN;
   * at −60000 every weight off the centre row is 0 all the same. The tables are computed
   * here: there a tiny σs gives −inf (s_col) or 0 (g_row), weights of 0, as it should. */
  k.c_s = __float2half2_rn ((float) fmax (c_s, -60000.0));
  for (int d = -kMaxRadius; d <= kMaxRadius; d++) {
    k.t_col[d + kMaxRadius] = __float2half2_rn ((float) (c_s * d * d / -c));
    k.s_col[d + kMaxRadius] = __float2half2_rn ((float) (c_s * d * d));
    k.g_row[d + kMaxRadius] = __float2half2_rn ((float) exp2 (c_s * d * d));
  }
  return k;
}

bool half_gauss_tall_strips (int width, int height, int sm_count, int fill)
{
  /* strips of 16 rows spend less on their first row (3 more fresh taps and one more row
   * converted per strip), but leave SMs idle unless the frame has strips enough to fill
   * the GPU about twice at 16 rows (4K: 1.98 times on an H100; 1080p: half) */
  const long long tall_strips = (long long) div_up (width, kStripOut) * div_up (height, 16);
  return sm_count > 0 && 2 * tall_strips >= (long long) fill * kStripBlocks * kBlockH * sm_count;
}

cudaError_t launch_gauss_half (Lines in, Lines out, int width, int height, int radius, const HalfGaussK &k,
    bool tall, cudaStream_t stream)
{
  if (radius == 1) {
    const dim3 block (kBlockW, kBlockH);
    const dim3 grid (div_up (width, kStripOut), div_up (div_up (height, tall ? 16 : 8), kBlockH));
    if (tall)
      bilateral_gauss_half_strips<16><<<grid, block, 0, stream>>> (in, out, width, height, k);
    else
      bilateral_gauss_half_strips<8><<<grid, block, 0, stream>>> (in, out, width, height, k);
    return cudaGetLastError ();
  }
  return launch_tiles<false> (in, out, width, height, radius, k, stream);
}

}  // namespace cs
