/* gst-cudasmooth — a buffer pool of page-locked (pinned) host memory.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Host<->device copies from pinned memory run at full PCIe speed and asynchronously
 * (docs/performance.md: ~54 GB/s per direction pinned, 10–14 GB/s pageable). The filters propose
 * such a pool to upstream and draw their own system-memory output buffers from one.
 */
#ifndef __GST_CUDA_SMOOTH_PINNED_H__
#define __GST_CUDA_SMOOTH_PINNED_H__

#define GST_USE_UNSTABLE_API
#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* An allocator of pinned host memory made in ctx (kept alive by it and its memories). */
GstAllocator *gst_cuda_smooth_pinned_allocator_new (GstCudaContext * ctx);

/* A GstVideoBufferPool whose memory is cudaHostAlloc(cudaHostAllocPortable) memory made
 * in ctx (the pool and every buffer keep ctx alive). Configured for caps with
 * min..max buffers and GstVideoMeta. */
GstBufferPool *gst_cuda_smooth_pinned_pool_new (GstCudaContext * ctx, GstCaps * caps,
    guint min_buffers, guint max_buffers);

/* TRUE when mem was allocated by such a pool (so copies from it can be asynchronous). */
gboolean gst_cuda_smooth_is_pinned_memory (GstMemory * mem);

G_END_DECLS

#endif
