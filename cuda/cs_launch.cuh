/* gst-cudasmooth — launches that overlap the kernel before them in the stream (Hopper's
 * programmatic dependent launch), for chains of kernels that each read what the previous one
 * wrote (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A kernel launched with launch_overlapping may start while the previous kernel of its stream
 * is still running, once every block of that kernel has called let_next_kernel_start (or
 * finished). Before it reads or writes anything the previous kernels write or read, it must
 * call wait_for_previous_kernel, which returns when that kernel has completed and its writes
 * are visible. Every kernel of a chain waits before it finishes, so completion is transitive:
 * what any earlier kernel of the chain wrote is visible after the wait. Reads of data written
 * before the chain's first kernel (launched the ordinary way) may come before the wait: that
 * is the overlap, for example a pass's frame loads under the previous kernel's tail.
 * Before sm_90, and in launches without the attribute, both calls do nothing.
 */
#ifndef CS_LAUNCH_CUH
#define CS_LAUNCH_CUH

#include <cuda_runtime.h>

namespace cs {

static __device__ __forceinline__ void let_next_kernel_start ()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.launch_dependents;" :::);
#endif
}

static __device__ __forceinline__ void wait_for_previous_kernel ()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.wait;" ::: "memory");
#endif
}

/* overlap: whether the device has programmatic dependent launch (cs_plan.cuh's
 * launches_overlap, decided when the plan is made); an ordinary launch where it has not. */
template <typename... Params, typename... Args>
static cudaError_t launch_overlapping (bool overlap, void (*kernel) (Params...), dim3 grid, dim3 block,
    size_t shared_bytes, cudaStream_t stream, Args &&...args)
{
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = attribute;
  config.numAttrs = overlap ? 1 : 0;
  return cudaLaunchKernelEx (&config, kernel, static_cast<Args &&> (args)...);
}

}  // namespace cs

#endif /* CS_LAUNCH_CUH */
