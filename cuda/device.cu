/* gst-cudasmooth — device limits, the kernel-image check, copy plans and the plan interface.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_plan.cuh"

#include <new>

extern "C" cudaError_t cs_cuda_device_query (CsCudaDevice *dev)
{
  int device = 0;
  cudaError_t err = cudaGetDevice (&device);
  if (err != cudaSuccess)
    return err;
  const struct {
    cudaDeviceAttr attr;
    int *value;
  } wanted[] = {
    { cudaDevAttrComputeCapabilityMajor, &dev->cc_major },
    { cudaDevAttrComputeCapabilityMinor, &dev->cc_minor },
    { cudaDevAttrMultiProcessorCount, &dev->sm_count },
    { cudaDevAttrMaxThreadsPerMultiProcessor, &dev->max_threads_per_sm },
    { cudaDevAttrMaxSharedMemoryPerBlockOptin, &dev->max_shared_per_block },
    { cudaDevAttrMaxSharedMemoryPerMultiprocessor, &dev->max_shared_per_sm },
    { cudaDevAttrMaxRegistersPerMultiprocessor, &dev->regs_per_sm },
  };
  for (const auto &w : wanted)
    if ((err = cudaDeviceGetAttribute (w.value, w.attr, device)) != cudaSuccess)
      return err;
  int l2 = 0;
  if ((err = cudaDeviceGetAttribute (&l2, cudaDevAttrL2CacheSize, device)) != cudaSuccess)
    return err;
  dev->l2_bytes = (size_t) l2;
  return cudaSuccess;
}

/* Never launched: asking for its attributes loads this build's image for the device. */
__global__ void kernel_image_probe () {}

extern "C" cudaError_t cs_cuda_check_kernels (void)
{
  cudaFuncAttributes attr;
  return cudaFuncGetAttributes (&attr, kernel_image_probe);
}

extern "C" const char *cs_cuda_path_name (CsCudaPath path)
{
  switch (path) {
    case CS_CUDA_PATH_COPY: return "copy";
    case CS_CUDA_PATH_EDGEAWARE_SPLIT: return "edge-aware split sweeps";
    case CS_CUDA_PATH_BILATERAL_HALF_STRIPS: return "bilateral packed-half strips";
    case CS_CUDA_PATH_BILATERAL_HALF_TILES: return "bilateral packed-half tiles";
    case CS_CUDA_PATH_BILATERAL_FLOAT_TILES: return "bilateral float tiles";
    case CS_CUDA_PATH_BILATERAL_DIRECT: return "bilateral direct";
    case CS_CUDA_PATH_BILATERAL_SEPARABLE: return "bilateral separable";
    case CS_CUDA_PATH_RECURSIVE_TILES: return "recursive tensor-core tiles";
    case CS_CUDA_PATH_RECURSIVE_LINES: return "recursive tensor-core passes";
    case CS_CUDA_PATH_RECURSIVE_LINES_CARRIED: return "recursive tensor-core passes, carried starts";
    case CS_CUDA_PATH_RECURSIVE_SWEPT: return "recursive swept passes";
    case CS_CUDA_PATH_RECURSIVE_SWEPT_CARRIED: return "recursive swept passes, carried starts";
    case CS_CUDA_PATH_RECURSIVE_YVV: return "recursive Young-van Vliet passes";
  }
  return "unknown";
}

namespace cs {

cudaError_t copy_frame (const CsCudaImage &src, const CsCudaImage &dst, cudaStream_t stream)
{
  if (src.data == dst.data && src.pitch == dst.pitch)
    return cudaSuccess;
  return cudaMemcpy2DAsync (dst.data, dst.pitch, src.data, src.pitch, (size_t) src.width * 4, src.height,
      cudaMemcpyDeviceToDevice, stream);
}

namespace {

struct CopyPlan : CsCudaPlan {
  cudaError_t run (const CsCudaImage &src, const CsCudaImage &dst, void *, cudaStream_t stream) const override
  {
    if (!frames_fit (*this, src, dst) || src.alpha_offset != dst.alpha_offset)
      return cudaErrorInvalidValue;
    return copy_frame (src, dst, stream);
  }
};

}  // namespace

}  // namespace cs

extern "C" cudaError_t cs_cuda_copy_plan_new (int width, int height, CsCudaPlan **plan)
{
  *plan = nullptr;
  if (width <= 0 || height <= 0)
    return cudaErrorInvalidValue;
  cs::CopyPlan *copy = new (std::nothrow) cs::CopyPlan ();
  if (!copy)
    return cudaErrorMemoryAllocation;
  copy->width = width;
  copy->height = height;
  *plan = copy;
  return cudaSuccess;
}

extern "C" cudaError_t cs_cuda_edgeaware_plan_new (const CsEdgeAwareParams *p, int width, int height,
    const CsCudaDevice *dev, CsCudaPlan **plan)
{
  return cs::plan_edgeaware (*p, width, height, *dev, cs::PlanOverrides (), plan);
}

extern "C" cudaError_t cs_cuda_bilateral_plan_new (const CsBilateralParams *p, int width, int height,
    const CsCudaDevice *dev, CsCudaPlan **plan)
{
  return cs::plan_bilateral (*p, width, height, *dev, cs::PlanOverrides (), plan);
}

extern "C" cudaError_t cs_cuda_recursive_plan_new (const CsRecursiveParams *p, int width, int height,
    const CsCudaDevice *dev, CsCudaPlan **plan)
{
  return cs::plan_recursive (*p, width, height, *dev, cs::PlanOverrides (), plan);
}

extern "C" cudaError_t cs_cuda_edgeaware_plan_new_axes (const CsEdgeAwareParams *px, const CsEdgeAwareParams *py,
    int width, int height, const CsCudaDevice *dev, CsCudaPlan **plan)
{
  return cs::plan_edgeaware_axes (*px, *py, width, height, *dev, cs::PlanOverrides (), plan);
}

extern "C" cudaError_t cs_cuda_bilateral_plan_new_axes (const CsBilateralParams *px, const CsBilateralParams *py,
    int width, int height, const CsCudaDevice *dev, CsCudaPlan **plan)
{
  return cs::plan_bilateral_axes (*px, *py, width, height, *dev, cs::PlanOverrides (), plan);
}

extern "C" cudaError_t cs_cuda_recursive_plan_new_axes (const CsRecursiveParams *px, const CsRecursiveParams *py,
    int width, int height, const CsCudaDevice *dev, CsCudaPlan **plan)
{
  return cs::plan_recursive_axes (*px, *py, width, height, *dev, cs::PlanOverrides (), plan);
}

extern "C" void cs_cuda_plan_free (CsCudaPlan *plan)
{
  delete plan;
}

extern "C" CsCudaPath cs_cuda_plan_path (const CsCudaPlan *plan)
{
  return plan->path;
}

extern "C" int cs_cuda_plan_segments (const CsCudaPlan *plan, CsPass pass)
{
  return plan->segments[pass == CS_PASS_ROWS ? 0 : 1];
}

extern "C" size_t cs_cuda_plan_scratch_bytes (const CsCudaPlan *plan)
{
  return plan->scratch_bytes;
}

extern "C" size_t cs_cuda_plan_shared_bytes (const CsCudaPlan *plan)
{
  return plan->shared_bytes;
}

extern "C" cudaError_t cs_cuda_plan_run (const CsCudaPlan *plan, const CsCudaImage *src, const CsCudaImage *dst,
    void *scratch, cudaStream_t stream)
{
  return plan->run (*src, *dst, scratch, stream);
}
