/* gst-cudasmooth — bare special-function-unit instructions (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * exp2f, rsqrtf and 1/x in IEEE mode wrap each MUFU in denormal guards (a compare and a
 * scaling multiply before it, one after) or range checks. The kernels call these only
 * where the argument and the result stay in the normal range or where a flushed result
 * is negligible; there they give the same bits as the guarded forms, several
 * instructions cheaper, and off the dependency chain the guards sat on.
 */
#ifndef CS_MUFU_CUH
#define CS_MUFU_CUH

namespace cs {

__device__ __forceinline__ float ex2_ftz (float v)
{
  float r;
  asm ("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}

__device__ __forceinline__ float rsqrt_ftz (float v)
{
  float r;
  asm ("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}

__device__ __forceinline__ float rcp_ftz (float v)
{
  float r;
  asm ("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}

}  // namespace cs

#endif /* CS_MUFU_CUH */
