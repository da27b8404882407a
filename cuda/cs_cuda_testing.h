/* gst-cudasmooth — entry points for the tests and benchmarks only (the cudasmooth-cuda-testing
 * library; the plugin holds none of them).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_CUDA_TESTING_H
#define CS_CUDA_TESTING_H

#include "cs_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Choices forced on a planner, to reach every path and segment count. */
typedef struct {
  int row_segments, column_segments;   /* 0: blocks-per-stripe, or automatic */
  int swept;             /* recursivegauss: the swept passes where the tensor-core kernels cover */
  int float_bilateral;   /* bilateral: the float kernels where the packed-half ones cover */
} CsCudaPlanOverrides;

cudaError_t cs_cuda_edgeaware_plan_new_with (const CsEdgeAwareParams *p, int width, int height,
    const CsCudaDevice *dev, const CsCudaPlanOverrides *o, CsCudaPlan **plan);
cudaError_t cs_cuda_bilateral_plan_new_with (const CsBilateralParams *p, int width, int height,
    const CsCudaDevice *dev, const CsCudaPlanOverrides *o, CsCudaPlan **plan);
cudaError_t cs_cuda_recursive_plan_new_with (const CsRecursiveParams *p, int width, int height,
    const CsCudaDevice *dev, const CsCudaPlanOverrides *o, CsCudaPlan **plan);

/* The limits of the architectures the default build targets (cards the planners must serve
 * without a test GPU of their kind): i = 0 .. count−1; NULL past the end. */
int cs_cuda_architecture_count (void);
const char *cs_cuda_architecture (int i, CsCudaDevice *limits);

/* For the benchmark's floor: the packed-half tile kernel (radius 2..7 of the bilateral's
 * packed-half path) for a dst-sized frame without its DRAM traffic — frame words made from
 * the pixel positions on chip instead of loaded, outputs computed and not stored (dst is
 * never written). What the taps, the tile in shared memory and the epilogue cost by
 * themselves. */
cudaError_t cs_cuda_bilateral_on_chip_floor (const CsCudaImage *dst, const CsBilateralParams *p,
    cudaStream_t stream);

/* What cs_cuda_plan_run_views does first: a frame's luma view (views[0], on the frame's
 * stream) and chroma view (views[1], on the side) in one launch on `stream` where their plans
 * can; cudaErrorNotSupported, with nothing launched, where they cannot (the two streams'
 * way then runs them). */
cudaError_t cs_cuda_plan_run_views_together (const CsCudaViewRun *views, int n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* CS_CUDA_TESTING_H */
