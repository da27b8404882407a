/* gst-cudasmooth — the tests' and benchmarks' entry points (cs_cuda_testing.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_bilateral_half_kernels.cuh"
#include "cs_cuda_testing.h"
#include "cs_plan.cuh"

static cs::PlanOverrides overrides_of (const CsCudaPlanOverrides *o)
{
  cs::PlanOverrides v;
  v.row_segments = o->row_segments;
  v.column_segments = o->column_segments;
  v.swept = o->swept != 0;
  v.float_bilateral = o->float_bilateral != 0;
  return v;
}

extern "C" cudaError_t cs_cuda_edgeaware_plan_new_with (const CsEdgeAwareParams *p, int width, int height,
    const CsCudaDevice *dev, const CsCudaPlanOverrides *o, CsCudaPlan **plan)
{
  return cs::plan_edgeaware (*p, width, height, *dev, overrides_of (o), plan);
}

extern "C" cudaError_t cs_cuda_bilateral_plan_new_with (const CsBilateralParams *p, int width, int height,
    const CsCudaDevice *dev, const CsCudaPlanOverrides *o, CsCudaPlan **plan)
{
  return cs::plan_bilateral (*p, width, height, *dev, overrides_of (o), plan);
}

extern "C" cudaError_t cs_cuda_recursive_plan_new_with (const CsRecursiveParams *p, int width, int height,
    const CsCudaDevice *dev, const CsCudaPlanOverrides *o, CsCudaPlan **plan)
{
  return cs::plan_recursive (*p, width, height, *dev, overrides_of (o), plan);
}

/* From NVIDIA's tuning guides and device queries (CUDA 13): compute capability, SMs of one
 * example card, threads per SM, opt-in shared memory per block and per SM, registers per SM,
 * L2 bytes. */
static const struct {
  const char *name;
  CsCudaDevice limits;
} kArchitectures[] = {
  { "sm_75 (Tesla T4)", { 7, 5, 40, 1024, 65536, 65536, 65536, 4 << 20 } },
  { "sm_80 (A100)", { 8, 0, 108, 2048, 166912, 167936, 65536, 40 << 20 } },
  { "sm_86 (RTX 3090)", { 8, 6, 82, 1536, 101376, 102400, 65536, 6 << 20 } },
  { "sm_87 (Jetson AGX Orin)", { 8, 7, 16, 1536, 166912, 167936, 65536, 4 << 20 } },
  { "sm_89 (L4)", { 8, 9, 58, 1536, 101376, 102400, 65536, 48 << 20 } },
  { "sm_90 (H100 SXM)", { 9, 0, 132, 2048, 232448, 233472, 65536, 50 << 20 } },
};

extern "C" int cs_cuda_architecture_count (void)
{
  return (int) (sizeof kArchitectures / sizeof kArchitectures[0]);
}

extern "C" const char *cs_cuda_architecture (int i, CsCudaDevice *limits)
{
  if (i < 0 || i >= cs_cuda_architecture_count ())
    return nullptr;
  *limits = kArchitectures[i].limits;
  return kArchitectures[i].name;
}

extern "C" cudaError_t cs_cuda_bilateral_on_chip_floor (const CsCudaImage *dst, const CsBilateralParams *p,
    cudaStream_t stream)
{
  const int radius = cs_bilateral_effective_radius (p);
  if (cs_bilateral_params_check (p) || p->mode != CS_BILATERAL_EXACT || p->range_kernel != CS_RANGE_KERNEL_GAUSSIAN ||
      !cs::bilateral_gauss_half_covers (radius, p->sigma_r) || radius < 2 || dst->width <= 0 || dst->height <= 0)
    return cudaErrorInvalidValue;
  const cs::HalfGaussK k = cs::half_gauss_constants (p->sigma, p->sigma_r);
  const cs::Lines rgba = cs::make_lines (dst->data, dst->pitch, 4, true, 0);
  return cs::launch_tiles<true> (rgba, rgba, dst->width, dst->height, radius, k, stream);
}

extern "C" cudaError_t cs_cuda_plan_run_views_together (const CsCudaViewRun *views, int n, cudaStream_t stream)
{
  return cs::run_views_together (views, n, stream);
}
