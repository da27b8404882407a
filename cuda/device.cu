/* gst-cudasmooth — device query and the identity copy.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_cuda.h"

extern "C" cudaError_t cs_cuda_device_query (CsCudaDevice *dev)
{
  int device = 0;
  cudaError_t err = cudaGetDevice (&device);
  if (err != cudaSuccess)
    return err;
  int sms = 0, threads = 0, l2 = 0;
  if ((err = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess ||
      (err = cudaDeviceGetAttribute (&threads, cudaDevAttrMaxThreadsPerMultiProcessor, device)) != cudaSuccess ||
      (err = cudaDeviceGetAttribute (&l2, cudaDevAttrL2CacheSize, device)) != cudaSuccess)
    return err;
  dev->sm_count = sms;
  dev->max_threads_per_sm = threads;
  dev->l2_bytes = (size_t) l2;
  return cudaSuccess;
}

extern "C" cudaError_t cs_cuda_copy (const CsCudaImage *src, const CsCudaImage *dst, cudaStream_t stream)
{
  if (src->width != dst->width || src->height != dst->height || src->alpha_offset != dst->alpha_offset)
    return cudaErrorInvalidValue;
  if (src->data == dst->data)
    return cudaSuccess;
  return cudaMemcpy2DAsync (dst->data, dst->pitch, src->data, src->pitch, (size_t) src->width * 4,
      src->height, cudaMemcpyDeviceToDevice, stream);
}
