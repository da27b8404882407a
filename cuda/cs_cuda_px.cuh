/* gst-cudasmooth — pixel access shared by the kernels (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Element types that travel between passes: the 8-bit frame (4 bytes, layout from the caps)
 * and the intermediate half4 (8 bytes: r, g, b, alpha as fp16), or half2 (4 bytes) where a
 * view of one or two channels is filtered. fp16 keeps an 8-bit value to within 1/16 LSB
 * (11-bit significand), far inside every accuracy target, and halves the bytes of float;
 * alpha (an integer <= 255) is exact in fp16.
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
struct H2 {
  static constexpr int bytes = 4;
};
/* An output element of C bytes of a view (common/cs_channels.h): the first channel's sample,
 * and the second's Lines::channel_offset bytes after it */
template <int C> struct V8 {
  static constexpr int bytes = 1;
};

/* A plane as one pass sees it. */
struct Lines {
  char *base;
  long long line_step;
  long long sample_step;
  union {
    int alpha_first;      /* U8: 1 when alpha/x is byte 0 */
    int channel_offset;   /* V8<2>: bytes from a sample's first channel to its second */
  };

  __device__ __forceinline__ char *at (int line, int k) const
  {
    return base + (long long) line * line_step + (long long) k * sample_step;
  }

  /* at() for lines and samples >= 0 and steps below 2^32 (the caller's check): a 32 x 32 ->
   * 64-bit multiply-add per step, where at()'s signed 64-bit products take ~5 instructions */
  __device__ __forceinline__ char *at_unsigned (unsigned int line, unsigned int k) const
  {
    return base + (unsigned long long) line * (unsigned int) line_step + (unsigned long long) k * (unsigned int) sample_step;
  }

  /* whether sample k of every line is `bytes`-aligned (a power of two): the base's sample k
   * and the line step both are, so one test serves all lines */
  __device__ __forceinline__ bool lines_aligned_at (unsigned int k, unsigned int bytes) const
  {
    return ((reinterpret_cast<uintptr_t> (at_unsigned (0, k)) | (uintptr_t) line_step) & (bytes - 1)) == 0;
  }

  __host__ __device__ bool steps_fit_32_bits () const
  {
    return line_step >= 0 && sample_step >= 0 && line_step <= 0xFFFFFFFFll && sample_step <= 0xFFFFFFFFll;
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

/* A byte of w as a float without an integer-to-float conversion (a quarter-rate
 * instruction that shares its pipe with ex2 and sincos): 0x4B000000 | byte is the float
 * 2^23 + byte, exactly. */
__device__ __forceinline__ float byte_to_float (unsigned int w, unsigned int byte)
{
  return __uint_as_float (__byte_perm (w, 0x4B000000u, 0x7440u | byte)) - 8388608.0f;
}

/* (r, g, b, alpha) of one element. */
__device__ __forceinline__ float4 load_px (U8, const Lines &l, const char *p)
{
  const unsigned int w = *reinterpret_cast<const unsigned int *> (p);
  const unsigned int first = l.alpha_first ? 1u : 0u;
  return make_float4 (byte_to_float (w, first), byte_to_float (w, first + 1), byte_to_float (w, first + 2),
      byte_to_float (w, l.alpha_first ? 0u : 3u));
}

__device__ __forceinline__ float4 load_px (H4, const Lines &, const char *p)
{
  const uint2 v = *reinterpret_cast<const uint2 *> (p);
  const float2 rg = __half22float2 (*reinterpret_cast<const __half2 *> (&v.x));
  const float2 ba = __half22float2 (*reinterpret_cast<const __half2 *> (&v.y));
  return make_float4 (rg.x, rg.y, ba.x, ba.y);
}

/* (c0, c1, 0, 0): the channels of a view of one or two */
__device__ __forceinline__ float4 load_px (H2, const Lines &, const char *p)
{
  const float2 v = __half22float2 (*reinterpret_cast<const __half2 *> (p));
  return make_float4 (v.x, v.y, 0.f, 0.f);
}

/* Round half up and clamp once, at the end (docs/algorithms.md): floor(v + 0.5) clamped to
 * 0..255, returned in the low byte of 2^23 + that value (adding 2^23 rounding down is
 * floor for 0 <= t < 2^23; no float-to-integer conversion, see byte_to_float). */
__device__ __forceinline__ unsigned int quantise (float v)
{
  const float t = fminf (fmaxf (v + 0.5f, 0.0f), 255.0f);
  return __float_as_uint (__fadd_rd (t, 8388608.0f));
}

/* quantise() for a weighted mean of 8-bit values with positive weights: it lies in
 * [0, 255] up to float rounding (relative 1e-6), so floor(v + 0.5) needs no clamp. */
__device__ __forceinline__ unsigned int quantise_mean (float v)
{
  return __float_as_uint (__fadd_rd (v + 0.5f, 8388608.0f));
}

/* floor(v) clamped to 0..255, for v = value + 0.5 (docs/algorithms.md: round half up; a filter's
 * value can leave [0, 255] by rounding): one F2I.U8, which clamps by itself, against the
 * two clamps and the rounding add of quantise(). quantise() avoids conversions because
 * they share the ex2 pipe; where a kernel has few ex2 or none, this is cheaper. */
__device__ __forceinline__ unsigned int round_to_byte (float v)
{
  /* float-to-integer conversions clamp to the destination type's range; a 32-bit destination
   * takes the byte zero-extended (PTX: cvt's operands may be wider than its type), where a
   * 16-bit one cost a mask per value to widen */
  unsigned int b;
  asm ("cvt.rmi.u8.f32 %0, %1;" : "=r"(b) : "f"(v));
  return b;
}

/* floor(v) clamped to −128..127, in the low byte (two's complement; the upper bits are not
 * defined): v + 128 as a byte is this one with its top bit flipped */
__device__ __forceinline__ unsigned int round_to_signed_byte (float v)
{
  unsigned int b;   /* sign-extended into 32 bits (a 16-bit destination cost two PRMT per value to widen) */
  asm ("cvt.rmi.s8.f32 %0, %1;" : "=r"(b) : "f"(v));
  return b;
}

/* The low bytes of four quantised words (r, g, b, alpha) as one pixel in the frame's order,
 * alpha first or last: (r, g) and (b, alpha) are paired once, and only the last PRMT
 * depends on the order. */
__device__ __forceinline__ unsigned int pack_pixel (unsigned int r, unsigned int g, unsigned int b, unsigned int a,
    bool alpha_first)
{
  const unsigned int rg = __byte_perm (r, g, 0x0040u), ba = __byte_perm (b, a, 0x0040u);
  return alpha_first ? __byte_perm (rg, ba, 0x4105u) : __byte_perm (rg, ba, 0x5410u);
}

__device__ __forceinline__ void store_px (U8, const Lines &l, char *p, float4 v)
{
  const unsigned int r = quantise (v.x), g = quantise (v.y), b = quantise (v.z), a = quantise (v.w);
  *reinterpret_cast<unsigned int *> (p) = pack_pixel (r, g, b, a, l.alpha_first);
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

__device__ __forceinline__ void store_px (H2, const Lines &, char *p, float4 v)
{
  *reinterpret_cast<__half2 *> (p) = __floats2half2_rn (v.x, v.y);
}

/* the bytes U8's store would write into a working frame that a view is unpacked from */
template <int C>
__device__ __forceinline__ void store_px (V8<C>, const Lines &l, char *p, float4 v)
{
  p[0] = (char) quantise (v.x);
  if (C == 2)
    p[l.channel_offset] = (char) quantise (v.y);
}

/* Squared colour distance of two frame pixels, in 0..255 units. */
__host__ __device__ __forceinline__ float colour_d2 (float4 a, float4 b)
{
  const float dr = a.x - b.x, dg = a.y - b.y, db = a.z - b.z;
  return fmaf (dr, dr, fmaf (dg, dg, db * db));
}

/* The same over the first C channels: colour_d2 where the others are equal (a packed view's
 * zero channels), exactly, since the squares are integers below 2^24. */
template <int C>
__host__ __device__ __forceinline__ float colour_d2_of (float4 a, float4 b)
{
  static_assert (C >= 1 && C <= 3, "one to three colour channels");
  if (C == 3)
    return colour_d2 (a, b);
  const float dr = a.x - b.x, dg = a.y - b.y;
  return C == 2 ? fmaf (dr, dr, dg * dg) : dr * dr;
}

__device__ __forceinline__ int clampi (int v, int lo, int hi)
{
  return min (max (v, lo), hi);
}

static inline int div_up (long long a, int b)
{
  return (int) ((a + b - 1) / b);
}

}  // namespace cs

#endif /* CS_CUDA_PX_CUH */
