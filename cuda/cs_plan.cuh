/* gst-cudasmooth — what a plan is inside cuda/ (cs_cuda.h's CsCudaPlan), and the choices
 * tests and benchmarks may force on the planners (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_PLAN_CUH
#define CS_PLAN_CUH

#include "cs_cuda.h"

/* A filter's plan: what it chose, and run(), which only launches. Planners are host code
 * without CUDA calls, so that tests can plan for devices they do not have. */
struct CsCudaPlan {
  CsCudaPath path = CS_CUDA_PATH_COPY;
  int width = 0, height = 0;
  int segments[2] = { 0, 0 };   /* [CS_PASS_ROWS], [CS_PASS_COLUMNS] */
  size_t scratch_bytes = 0, shared_bytes = 0;

  virtual ~CsCudaPlan () = default;
  virtual cudaError_t run (const CsCudaImage &src, const CsCudaImage &dst, void *scratch,
      cudaStream_t stream) const = 0;
  /* run() on a working frame that holds a view's `channels` colour channels, its other
   * colour bytes and alpha 0 (channels.cu): a plan whose kernels can leave those out does. */
  virtual cudaError_t run_packed (const CsCudaImage &src, const CsCudaImage &dst, void *scratch, int,
      cudaStream_t stream) const
  {
    return run (src, dst, scratch, stream);
  }
  /* run_packed() writing the result into the view dst itself rather than a working frame to
   * unpack; cudaErrorNotSupported where the plan cannot (the caller unpacks) */
  virtual cudaError_t run_packed_to_view (const CsCudaImage &, const CsChannels &, void *, cudaStream_t) const
  {
    return cudaErrorNotSupported;
  }
  /* The plan on a view's own channels (views of the plan's size, checked by the caller), where
   * its kernels take views; cudaErrorNotSupported where they do not, and the caller packs
   * the view into an RGBA working frame (channels.cu). beside: its kernels may start while
   * the stream's previous kernel finishes (cs_cuda_plan_run_channels_beside). */
  virtual cudaError_t run_view (const CsChannels &, const CsChannels &, void *, bool, cudaStream_t) const
  {
    return cudaErrorNotSupported;
  }
  /* run_view on a frame's two views in one launch on `stream`: this plan's on src/dst (luma)
   * and `second`'s on src1/dst1 (chroma), views of the plans' sizes (checked by the caller);
   * cudaErrorNotSupported where the plans cannot, and the caller runs them apart. */
  virtual cudaError_t run_views_with (const CsChannels &, const CsChannels &, const CsCudaPlan &, const CsChannels &,
      const CsChannels &, cudaStream_t) const
  {
    return cudaErrorNotSupported;
  }
  /* Whether run_view takes views of `channels` channels (those need no working frames:
   * cs_cuda_plan_work_bytes) */
  virtual bool takes_views (int) const
  {
    return false;
  }
};

namespace cs {

/* Choices a test or benchmark forces on a planner; the product plans with none. */
struct PlanOverrides {
  int row_segments = 0, column_segments = 0;   /* 0: blocks-per-stripe, or automatic */
  bool swept = false;            /* recursivegauss: the swept passes where the tensor-core kernels cover */
  bool float_bilateral = false;  /* bilateral: the float kernels where the packed-half ones cover */
};

cudaError_t plan_edgeaware (const CsEdgeAwareParams &p, int width, int height, const CsCudaDevice &dev,
    const PlanOverrides &o, CsCudaPlan **out);
cudaError_t plan_bilateral (const CsBilateralParams &p, int width, int height, const CsCudaDevice &dev,
    const PlanOverrides &o, CsCudaPlan **out);
cudaError_t plan_recursive (const CsRecursiveParams &p, int width, int height, const CsCudaDevice &dev,
    const PlanOverrides &o, CsCudaPlan **out);

/* The same with rows filtered by px and columns by py (cs_cuda.h, the _axes planners). */
cudaError_t plan_edgeaware_axes (const CsEdgeAwareParams &px, const CsEdgeAwareParams &py, int width, int height,
    const CsCudaDevice &dev, const PlanOverrides &o, CsCudaPlan **out);
cudaError_t plan_bilateral_axes (const CsBilateralParams &px, const CsBilateralParams &py, int width, int height,
    const CsCudaDevice &dev, const PlanOverrides &o, CsCudaPlan **out);
cudaError_t plan_recursive_axes (const CsRecursiveParams &px, const CsRecursiveParams &py, int width, int height,
    const CsCudaDevice &dev, const PlanOverrides &o, CsCudaPlan **out);

/* A copy of src into dst (device to device; nothing where they are the same frame). */
cudaError_t copy_frame (const CsCudaImage &src, const CsCudaImage &dst, cudaStream_t stream);

/* A frame's luma and chroma views (views[0] on the frame's stream, views[1] on the side) in
 * one launch on the frame's stream where their plans can (CsCudaPlan::run_views_with), as
 * cs_cuda_plan_run_views does first; cudaErrorNotSupported, with nothing launched, where
 * they cannot. */
cudaError_t run_views_together (const CsCudaViewRun *views, int n, cudaStream_t stream);

/* Whether src and dst are frames of the plan's size. */
static inline bool frames_fit (const CsCudaPlan &plan, const CsCudaImage &src, const CsCudaImage &dst)
{
  return src.width == plan.width && src.height == plan.height && dst.width == plan.width && dst.height == plan.height;
}

/* Whether the device runs launches that overlap the kernel before them in a stream
 * (programmatic dependent launch, cs_launch.cuh): compute capability 9.0 and newer. */
static inline bool launches_overlap (const CsCudaDevice &dev)
{
  return dev.cc_major >= 9;
}

}  // namespace cs

#endif /* CS_PLAN_CUH */
