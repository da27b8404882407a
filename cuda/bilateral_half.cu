/* bilateral, exact mode, Gaussian range kernel, radius <= 7, σr <= 64: the window sums in
 * packed half arithmetic, two outputs per instruction, within 1 LSB of the double filter
 * (docs/algorithms.md, 6.2 and 6.3). The kernels are in cs_bilateral_half_kernels.cuh.
 * SPDX-License-Identifier: LGPL-2.1-or-later
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
      bilateral_gauss_half_strips<16, 3><<<grid, block, 0, stream>>> (in, out, width, height, k);
    else
      bilateral_gauss_half_strips<8, 3><<<grid, block, 0, stream>>> (in, out, width, height, k);
    return cudaGetLastError ();
  }
  return launch_tiles<false> (in, out, width, height, radius, k, stream);
}

template <int C>
static void launch_view (const CsChannels &in, const CsChannels &out, int radius, const HalfGaussK &k, bool tall,
    cudaStream_t stream)
{
  const int w = in.width, h = in.height;
  const dim3 block (kBlockW, kBlockH);
  if (radius == 1) {
    const dim3 grid (div_up (w, kStripOut), div_up (div_up (h, tall ? 16 : 8), kBlockH));
    if (tall)
      bilateral_gauss_half_strips<16, C><<<grid, block, 0, stream>>> (in, out, w, h, k);
    else
      bilateral_gauss_half_strips<8, C><<<grid, block, 0, stream>>> (in, out, w, h, k);
    return;
  }
  switch (radius) {
#define CASE(R) \
  case R: \
    bilateral_gauss_half<R, false, C><<<dim3 (div_up (w, kOutW), div_up (h, kBlockH * rows_per_thread<R> ())), block, 0, \
        stream>>> (in, out, w, h, k); \
    break;
    CASE (2) CASE (3) CASE (4) CASE (5) CASE (6) CASE (7)
#undef CASE
  }
}

cudaError_t launch_gauss_half_view (const CsChannels &in, const CsChannels &out, int radius, const HalfGaussK &k,
    bool tall, cudaStream_t stream)
{
  /* (three channels of separate planes would spill at 16 rows: the working frame serves them) */
  if (radius < 1 || radius > kMaxRadius)
    return cudaErrorInvalidValue;
  if (in.channels == 1)
    launch_view<1> (in, out, radius, k, tall, stream);
  else if (in.channels == 2)
    launch_view<2> (in, out, radius, k, tall, stream);
  else
    return cudaErrorNotSupported;
  return cudaGetLastError ();
}

}  // namespace cs
