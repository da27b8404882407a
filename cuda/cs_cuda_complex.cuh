/* gst-cudasmooth — the little complex arithmetic the recursive kernels need (internal).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_CUDA_COMPLEX_CUH
#define CS_CUDA_COMPLEX_CUH

namespace cs {

__host__ __device__ __forceinline__ float2 cx (float re, float im)
{
  return make_float2 (re, im);
}

__host__ __device__ __forceinline__ float2 cmul (float2 a, float2 b)
{
  return make_float2 (fmaf (a.x, b.x, -a.y * b.y), fmaf (a.x, b.y, a.y * b.x));
}

__host__ __device__ __forceinline__ float2 cscale (float2 a, float s)
{
  return make_float2 (a.x * s, a.y * s);
}

/* c·x + b·g for real x: the one step every complex-pole recursion takes. */
__host__ __device__ __forceinline__ float2 cstep (float2 c, float x, float2 b, float2 g)
{
  return make_float2 (fmaf (c.x, x, fmaf (b.x, g.x, -b.y * g.y)),
      fmaf (c.y, x, fmaf (b.x, g.y, b.y * g.x)));
}

}  // namespace cs

#endif /* CS_CUDA_COMPLEX_CUH */
