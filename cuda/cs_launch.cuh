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

/* Whether the current device overlaps launches (compute capability 9.0 or newer); a query of
 * the driver's cached attributes, well under a microsecond. */
static inline bool launches_overlap ()
{
  int device = 0, major = 0;
  return cudaGetDevice (&device) == cudaSuccess &&
      cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9;
}

/* An ordinary launch on devices without programmatic dependent launch. */
template <typename... Params, typename... Args>
static cudaError_t launch_overlapping (void (*kernel) (Params...), dim3 grid, dim3 block, size_t shared_bytes,
    cudaStream_t stream, Args &&...args)
{
  cudaLaunchAttribute overlap[1];
  overlap[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = overlap;
  config.numAttrs = launches_overlap () ? 1 : 0;
  return cudaLaunchKernelEx (&config, kernel, static_cast<Args &&> (args)...);
}

}  // namespace cs

#endif /* CS_LAUNCH_CUH */
