/* gst-cudasmooth — pixel access shared by the kernels (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Two element types travel between passes: the 8-bit frame (4 bytes, layout from the caps)
 * and the intermediate half4 (8 bytes: r, g, b, alpha as fp16). fp16 keeps an 8-bit value
 * to within 1/16 LSB (11-bit significand), far inside every accuracy target, and halves
 * the bytes of float4; alpha (an integer <= 255) is exact in fp16.
 * A pass walks lines: rows (samples along x) or columns (samples along y). Addresses are
 * base + line·line_step + k·sample_step in bytes, 64-bit throughout (frames > 2 GiB).
 */
#ifndef CS_CUDA_PX_CUH
#define CS_CUDA_PX_CUH

#include <cuda_fp16.h>
#include <stdint.h>

#include "cs_cuda.h"

namespace cs {

struct U8 {
  static constexpr int bytes = 4;
};
struct H4 {
  static constexpr int bytes = 8;
};

/* A plane as one pass sees it. */
struct Lines {
  char *base;
  long long line_step;
  long long sample_step;
  int alpha_first;   /* U8 only: 1 when alpha/x is byte 0 */

  __device__ __forceinline__ char *at (int line, int k) const
  {
    return base + (long long) line * line_step + (long long) k * sample_step;
  }
};

/* Rows or columns of an image whose elements are elem_bytes wide. */
static inline Lines make_lines (void *base, size_t pitch, int elem_bytes, bool rows, int alpha_first)
{
  Lines l;
  l.base = (char *) base;
  l.line_step = rows ? (long long) pitch : elem_bytes;
  l.sample_step = rows ? elem_bytes : (long long) pitch;
  l.alpha_first = alpha_first;
  return l;
}

/* (r, g, b, alpha) of one element. */
__device__ __forceinline__ float4 load_px (U8, const Lines &l, const char *p)
{
  const uchar4 v = *reinterpret_cast<const uchar4 *> (p);
  return l.alpha_first ? make_float4 (v.y, v.z, v.w, v.x) : make_float4 (v.x, v.y, v.z, v.w);
}

__device__ __forceinline__ float4 load_px (H4, const Lines &, const char *p)
{
  const uint2 v = *reinterpret_cast<const uint2 *> (p);
  const float2 rg = __half22float2 (*reinterpret_cast<const __half2 *> (&v.x));
  const float2 ba = __half22float2 (*reinterpret_cast<const __half2 *> (&v.y));
  return make_float4 (rg.x, rg.y, ba.x, ba.y);
}

/* Round half up and clamp once, at the end (DESIGN.md). */
__device__ __forceinline__ unsigned int quantise (float v)
{
  return (unsigned int) min (max (__float2int_rd (v + 0.5f), 0), 255);
}

__device__ __forceinline__ void store_px (U8, const Lines &l, char *p, float4 v)
{
  const unsigned int r = quantise (v.x), g = quantise (v.y), b = quantise (v.z), a = quantise (v.w);
  const unsigned int word = l.alpha_first ? (a | r << 8 | g << 16 | b << 24)
                                          : (r | g << 8 | b << 16 | a << 24);
  *reinterpret_cast<unsigned int *> (p) = word;
}

__device__ __forceinline__ void store_px (H4, const Lines &, char *p, float4 v)
{
  __half2 rg = __floats2half2_rn (v.x, v.y);
  __half2 ba = __floats2half2_rn (v.z, v.w);
  uint2 w;
  w.x = *reinterpret_cast<unsigned int *> (&rg);
  w.y = *reinterpret_cast<unsigned int *> (&ba);
  *reinterpret_cast<uint2 *> (p) = w;
}

/* Squared colour distance of two frame pixels, in 0..255 units. */
__host__ __device__ __forceinline__ float colour_d2 (float4 a, float4 b)
{
  const float dr = a.x - b.x, dg = a.y - b.y, db = a.z - b.z;
  return fmaf (dr, dr, fmaf (dg, dg, db * db));
}

static inline int div_up (long long a, int b)
{
  return (int) ((a + b - 1) / b);
}

}  // namespace cs

#endif /* CS_CUDA_PX_CUH */
