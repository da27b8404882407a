/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothpinned.h"

#include <cuda_runtime_api.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_smooth_debug);
#define GST_CAT_DEFAULT gst_cuda_smooth_debug

#define GST_TYPE_CUDA_SMOOTH_PINNED_ALLOCATOR (gst_cuda_smooth_pinned_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaSmoothPinnedAllocator, gst_cuda_smooth_pinned_allocator, GST,
    CUDA_SMOOTH_PINNED_ALLOCATOR, GstAllocator);

struct _GstCudaSmoothPinnedAllocator
{
  GstAllocator parent;
  GstCudaContext *ctx;
};

G_DEFINE_TYPE (GstCudaSmoothPinnedAllocator, gst_cuda_smooth_pinned_allocator, GST_TYPE_ALLOCATOR);

typedef struct
{
  GstMemory mem;
  GstCudaContext *ctx;
  gpointer data;
} PinnedMemory;

static GstMemory *
pinned_alloc (GstAllocator * allocator, gsize size, GstAllocationParams * params)
{
  GstCudaSmoothPinnedAllocator *self = GST_CUDA_SMOOTH_PINNED_ALLOCATOR (allocator);
  const gsize maxsize = size + params->prefix + params->padding;
  gpointer data = NULL;
  cudaError_t err;

  if (!gst_cuda_context_push (self->ctx))
    return NULL;
  err = cudaHostAlloc (&data, maxsize, cudaHostAllocPortable);
  gst_cuda_context_pop (NULL);
  if (err != cudaSuccess) {
    GST_ERROR_OBJECT (self, "cudaHostAlloc of %" G_GSIZE_FORMAT " bytes: %s", maxsize,
        cudaGetErrorName (err));
    return NULL;
  }
  PinnedMemory *mem = g_new0 (PinnedMemory, 1);
  /* cudaHostAlloc returns page-aligned memory, so any requested alignment holds */
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags, allocator, NULL, maxsize,
      params->align, params->prefix, size);
  mem->ctx = gst_object_ref (self->ctx);
  mem->data = data;
  return GST_MEMORY_CAST (mem);
}

static void
pinned_free (GstAllocator * allocator, GstMemory * memory)
{
  PinnedMemory *mem = (PinnedMemory *) memory;
  (void) allocator;
  /* a share (gst_memory_share, gst_buffer_copy_region) views its parent's pages and holds
   * a reference to it: the parent frees them */
  if (!memory->parent && gst_cuda_context_push (mem->ctx)) {
    const cudaError_t err = cudaFreeHost (mem->data);
    if (err != cudaSuccess)
      GST_WARNING ("cudaFreeHost: %s", cudaGetErrorName (err));
    gst_cuda_context_pop (NULL);
  }
  gst_object_unref (mem->ctx);
  g_free (mem);
}

static gpointer
pinned_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  (void) maxsize;
  (void) flags;
  return ((PinnedMemory *) memory)->data;
}

static void
pinned_unmap (GstMemory * memory)
{
  (void) memory;
}

static GstMemory *
pinned_share (GstMemory * memory, gssize offset, gssize size)
{
  PinnedMemory *mem = (PinnedMemory *) memory, *sub;
  GstMemory *parent = memory->parent ? memory->parent : memory;
  if (size == -1)
    size = memory->size - offset;
  sub = g_new0 (PinnedMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY, memory->allocator,
      parent, memory->maxsize, memory->align, memory->offset + offset, size);
  sub->ctx = gst_object_ref (mem->ctx);
  sub->data = mem->data;
  return GST_MEMORY_CAST (sub);
}

static void
gst_cuda_smooth_pinned_allocator_finalize (GObject * object)
{
  GstCudaSmoothPinnedAllocator *self = GST_CUDA_SMOOTH_PINNED_ALLOCATOR (object);
  gst_clear_object (&self->ctx);
  G_OBJECT_CLASS (gst_cuda_smooth_pinned_allocator_parent_class)->finalize (object);
}

static void
gst_cuda_smooth_pinned_allocator_class_init (GstCudaSmoothPinnedAllocatorClass * klass)
{
  GST_ALLOCATOR_CLASS (klass)->alloc = pinned_alloc;
  GST_ALLOCATOR_CLASS (klass)->free = pinned_free;
  G_OBJECT_CLASS (klass)->finalize = gst_cuda_smooth_pinned_allocator_finalize;
}

static void
gst_cuda_smooth_pinned_allocator_init (GstCudaSmoothPinnedAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR (self);
  alloc->mem_type = "CudaSmoothPinnedHost";
  alloc->mem_map = pinned_map;
  alloc->mem_unmap = pinned_unmap;
  alloc->mem_share = pinned_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

gboolean
gst_cuda_smooth_is_pinned_memory (GstMemory * mem)
{
  return mem && GST_IS_CUDA_SMOOTH_PINNED_ALLOCATOR (mem->allocator);
}

GstAllocator *
gst_cuda_smooth_pinned_allocator_new (GstCudaContext * ctx)
{
  GstCudaSmoothPinnedAllocator *alloc = g_object_new (GST_TYPE_CUDA_SMOOTH_PINNED_ALLOCATOR, NULL);
  gst_object_ref_sink (alloc);
  alloc->ctx = gst_object_ref (ctx);
  return GST_ALLOCATOR (alloc);
}

GstBufferPool *
gst_cuda_smooth_pinned_pool_new (GstCudaContext * ctx, GstCaps * caps, guint min_buffers,
    guint max_buffers)
{
  GstVideoInfo info;
  GstAllocator *alloc;
  GstBufferPool *pool;
  GstStructure *config;
  GstAllocationParams params;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;
  alloc = gst_cuda_smooth_pinned_allocator_new (ctx);

  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), min_buffers, max_buffers);
  gst_allocation_params_init (&params);
  gst_buffer_pool_config_set_allocator (config, alloc, &params);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref (alloc);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}
