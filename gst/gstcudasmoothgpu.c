/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothgpu.h"

#include <string.h>

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_smooth_debug);
#define GST_CAT_DEFAULT gst_cuda_smooth_debug

/* The pictures a frame of the caps can hold, by plan: the whole frame, the top field, the
 * bottom field. */
enum { WHOLE, TOP, BOTTOM, N_LAYOUTS };

void
gst_cuda_smooth_gpu_init (GstCudaSmoothGpu * gpu, GstCudaSmoothPlanFunc plan_new, gsize params_size)
{
  memset (gpu, 0, sizeof *gpu);
  gpu->plan_new = plan_new;
  gpu->params_size = params_size;
  gpu->params = g_malloc0 (params_size);
  gpu->n_slots = GST_CUDA_SMOOTH_SLOTS;
}

static gboolean
push (GstCudaSmoothGpu * gpu)
{
  return gpu->ctx && gst_cuda_context_push (gpu->ctx);
}

static void
pop (void)
{
  gst_cuda_context_pop (NULL);
}

/* With the context pushed. */
static void
sync_streams (GstCudaSmoothGpu * gpu)
{
  for (int i = 0; i < GST_CUDA_SMOOTH_SLOTS; i++)
    if (gpu->have_streams && gpu->streams[i])
      cudaStreamSynchronize (gpu->streams[i]);
}

static void
free_slot (GstCudaSmoothSlot * s)
{
  if (s->d_in)
    cudaFree (s->d_in);
  if (s->d_out)
    cudaFree (s->d_out);
  if (s->scratch)
    cudaFree (s->scratch);
  memset (s, 0, sizeof *s);
}

/* With the context pushed and the streams idle. */
static void
free_slots (GstCudaSmoothGpu * gpu)
{
  for (int i = 0; i < GST_CUDA_SMOOTH_SLOTS; i++)
    free_slot (&gpu->slots[i]);
  gpu->n_slots = GST_CUDA_SMOOTH_SLOTS;
}

static void
free_plans (GstCudaSmoothGpu * gpu)
{
  for (int i = 0; i < N_LAYOUTS; i++) {
    if (gpu->plans[i])
      cs_cuda_plan_free (gpu->plans[i]);
    gpu->plans[i] = NULL;
  }
  gpu->have_params = FALSE;
}

gboolean
gst_cuda_smooth_gpu_open (GstCudaSmoothGpu * gpu, GstElement * element, gint device_id, gchar ** why)
{
  cudaError_t err = cudaSuccess;
  const char *step = "creating its streams";

  /* every GstCuda call asserts that the driver library is loaded: check first */
  if (!gst_cuda_load_library ()) {
    *why = g_strdup ("the NVIDIA driver library (libcuda.so.1) could not be loaded: no NVIDIA driver is installed");
    return FALSE;
  }
  if (!gst_cuda_ensure_element_context (element, device_id, &gpu->ctx)) {
    *why = device_id >= 0 ? g_strdup_printf ("no CUDA device %d (no device, or the driver cannot open it)", device_id)
                          : g_strdup ("no CUDA device (none present, or the driver cannot open one)");
    return FALSE;
  }
  if (!push (gpu)) {
    *why = g_strdup ("its CUDA context cannot be made current");
    gst_clear_object (&gpu->ctx);
    return FALSE;
  }
  for (int i = 0; i < GST_CUDA_SMOOTH_SLOTS && err == cudaSuccess; i++)
    err = cudaStreamCreateWithFlags (&gpu->streams[i], cudaStreamNonBlocking);
  if (err == cudaSuccess) {
    step = "querying the device";
    err = cs_cuda_device_query (&gpu->dev);
  }
  if (err == cudaSuccess) {
    step = "loading the kernels";
    err = cs_cuda_check_kernels ();
  }
  if (err != cudaSuccess) {
    for (int i = 0; i < GST_CUDA_SMOOTH_SLOTS; i++)
      if (gpu->streams[i])
        cudaStreamDestroy (gpu->streams[i]);
    memset (gpu->streams, 0, sizeof gpu->streams);
  }
  pop ();
  if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorUnsupportedPtxVersion) {
    *why = g_strdup_printf ("this build has no kernels for the GPU (compute capability %d.%d; %s): "
        "rebuild with -Dcuda-architectures covering it", gpu->dev.cc_major, gpu->dev.cc_minor, cudaGetErrorName (err));
  } else if (err != cudaSuccess) {
    *why = g_strdup_printf ("CUDA error %s while %s", cudaGetErrorName (err), step);
  }
  if (err != cudaSuccess) {
    gst_clear_object (&gpu->ctx);
    return FALSE;
  }
  gpu->have_streams = TRUE;
  GST_INFO ("CUDA device: compute capability %d.%d, %d SMs, %d bytes of shared memory a block", gpu->dev.cc_major,
      gpu->dev.cc_minor, gpu->dev.sm_count, gpu->dev.max_shared_per_block);
  return TRUE;
}

void
gst_cuda_smooth_gpu_close (GstCudaSmoothGpu * gpu)
{
  free_plans (gpu);
  if (!gpu->ctx)
    return;
  if (push (gpu)) {
    sync_streams (gpu);
    free_slots (gpu);
    for (int i = 0; i < GST_CUDA_SMOOTH_SLOTS; i++)
      if (gpu->have_streams && gpu->streams[i])
        cudaStreamDestroy (gpu->streams[i]);
    pop ();
  } else {
    /* Nothing of the context can be freed without it; its allocations go with it when its
     * last reference (ours, unless neighbours share it) is dropped below. */
    GST_ERROR ("cannot make the CUDA context current to free the device buffers");
    memset (gpu->slots, 0, sizeof gpu->slots);
  }
  memset (gpu->streams, 0, sizeof gpu->streams);
  gpu->have_streams = FALSE;
  gst_clear_object (&gpu->ctx);
}

/* The layouts caps of info can produce: whole frames, fields, or both (mixed). */
static gboolean
layout_used (const GstVideoInfo * info, int layout)
{
  if (!GST_VIDEO_INFO_IS_INTERLACED (info) || GST_VIDEO_INFO_HEIGHT (info) < 2)
    return layout == WHOLE;
  if (GST_VIDEO_INFO_INTERLACE_MODE (info) == GST_VIDEO_INTERLACE_MODE_MIXED)
    return TRUE;
  return layout != WHOLE;
}

static gint
layout_height (const GstVideoInfo * info, int layout)
{
  const gint h = GST_VIDEO_INFO_HEIGHT (info);
  return layout == WHOLE ? h : layout == TOP ? (h + 1) / 2 : h / 2;
}

/* Plans for params for every layout the caps use (the streams are idle). */
static cudaError_t
make_plans (GstCudaSmoothGpu * gpu, gconstpointer params, gboolean identity)
{
  free_plans (gpu);
  memcpy (gpu->params, params, gpu->params_size);
  gpu->identity = identity;
  for (int l = 0; l < N_LAYOUTS; l++) {
    if (!layout_used (&gpu->info, l))
      continue;
    const gint w = GST_VIDEO_INFO_WIDTH (&gpu->info), h = layout_height (&gpu->info, l);
    const cudaError_t err = identity ? cs_cuda_copy_plan_new (w, h, &gpu->plans[l])
        : gpu->plan_new (params, w, h, &gpu->dev, &gpu->plans[l]);
    if (err != cudaSuccess) {
      free_plans (gpu);
      return err;
    }
    GST_DEBUG ("plan for %dx%d pictures: %s, %d/%d segments, %zu bytes of scratch", w, h,
        cs_cuda_path_name (cs_cuda_plan_path (gpu->plans[l])), cs_cuda_plan_segments (gpu->plans[l], CS_PASS_ROWS),
        cs_cuda_plan_segments (gpu->plans[l], CS_PASS_COLUMNS), cs_cuda_plan_scratch_bytes (gpu->plans[l]));
  }
  gpu->have_params = TRUE;
  return cudaSuccess;
}

static size_t
plans_scratch_bytes (GstCudaSmoothGpu * gpu)
{
  size_t bytes = 0;
  for (int l = 0; l < N_LAYOUTS; l++)
    if (gpu->plans[l])
      bytes = MAX (bytes, cs_cuda_plan_scratch_bytes (gpu->plans[l]));
  return bytes;
}

/* With the context pushed: the buffers a frame on `slot` needs, with what was being
 * allocated when it failed. */
static cudaError_t
ensure_slot (GstCudaSmoothGpu * gpu, int slot, gboolean need_in, gboolean need_out, const char **what)
{
  GstCudaSmoothSlot *s = &gpu->slots[slot];
  const size_t bytes = gpu->d_pitch * GST_VIDEO_INFO_HEIGHT (&gpu->info);
  const size_t scratch_bytes = plans_scratch_bytes (gpu);
  cudaError_t err = cudaSuccess;
  *what = "allocating the upload frame";
  if (need_in && !s->d_in)
    err = cudaMalloc (&s->d_in, bytes);
  if (err == cudaSuccess && need_out && !s->d_out) {
    *what = "allocating the download frame";
    err = cudaMalloc (&s->d_out, bytes);
  }
  if (err == cudaSuccess && scratch_bytes > s->scratch_bytes) {
    *what = "allocating scratch memory";
    if (s->scratch) {
      /* the slot's earlier frame may still use it */
      if ((err = cudaStreamSynchronize (gpu->streams[slot])) != cudaSuccess)
        return err;
      cudaFree (s->scratch);
      s->scratch = NULL;
      s->scratch_bytes = 0;
    }
    if ((err = cudaMalloc (&s->scratch, scratch_bytes)) == cudaSuccess)
      s->scratch_bytes = scratch_bytes;
  }
  return err;
}

cudaError_t
gst_cuda_smooth_gpu_configure (GstCudaSmoothGpu * gpu, const GstVideoInfo * info, gboolean in_cuda,
    gboolean out_cuda, gconstpointer params, gboolean identity, const char **what)
{
  cudaError_t err;
  *what = "making the CUDA context current";
  if (!push (gpu))
    return cudaErrorInvalidResourceHandle;
  sync_streams (gpu);
  free_slots (gpu);
  gpu->info = *info;
  gpu->in_cuda = in_cuda;
  gpu->out_cuda = out_cuda;
  gpu->d_pitch = ((size_t) GST_VIDEO_INFO_WIDTH (info) * 4 + 511) / 512 * 512;
  *what = "planning the filter";
  err = make_plans (gpu, params, identity);
  /* slot 0's buffers now, so that a frame the GPU cannot hold fails at negotiation; the
   * other slots' come with their first frame, which only overlapping gives them */
  if (err == cudaSuccess)
    err = ensure_slot (gpu, 0, !in_cuda, !out_cuda, what);
  if (err != cudaSuccess) {
    free_slots (gpu);
    cudaGetLastError ();   /* not left for a later check to find */
  }
  pop ();
  return err;
}

guint64
gst_cuda_smooth_gpu_slot_bytes (GstCudaSmoothGpu * gpu)
{
  const guint64 frame = (guint64) gpu->d_pitch * GST_VIDEO_INFO_HEIGHT (&gpu->info);
  return (gpu->in_cuda ? 0 : frame) + (gpu->out_cuda ? 0 : frame) + plans_scratch_bytes (gpu);
}

gboolean
gst_cuda_smooth_gpu_map (GstCudaSmoothGpu * gpu, GstVideoFrame * frame, GstBuffer * buf, GstMapFlags flags,
    gboolean * on_device, gchar ** why)
{
  GstMemory *mem = gst_buffer_n_memory (buf) == 1 ? gst_buffer_peek_memory (buf, 0) : NULL;
  *on_device = mem && gst_is_cuda_memory (mem) && GST_CUDA_MEMORY_CAST (mem)->context == gpu->ctx;
  return gst_cuda_smooth_frame_map (frame, &gpu->info, buf, flags | (*on_device ? GST_MAP_CUDA : 0), why);
}

/* Picture i of n of a frame whose rows start at base, pitch apart, as cs_cuda.h takes it. */
static CsCudaImage
device_picture (const GstCudaSmoothPicture * pic, guint i, guint n, void *base, size_t pitch, int alpha_offset)
{
  CsCudaImage img = { (char *) base + i * pitch, pic->width, pic->height, pitch * n, alpha_offset };
  return img;
}

cudaError_t
gst_cuda_smooth_gpu_submit (GstCudaSmoothGpu * gpu, GstCudaSmoothPending * p, gboolean in_dev, gboolean out_dev,
    gconstpointer params, gboolean identity, gboolean overlap, const char **what, gboolean * slots_lost)
{
  const gint w = GST_VIDEO_INFO_WIDTH (&gpu->info), h = GST_VIDEO_INFO_HEIGHT (&gpu->info);
  int slot = overlap ? (int) (gpu->frames++ % gpu->n_slots) : 0;
  cudaError_t err;
  *slots_lost = FALSE;
  *what = "making the CUDA context current";
  if (!push (gpu))
    return cudaErrorInvalidResourceHandle;
  if (!gpu->have_params || identity != gpu->identity || memcmp (params, gpu->params, gpu->params_size)) {
    /* new parameters: plans for them, once no frame in flight runs the old ones */
    sync_streams (gpu);
    *what = "planning the filter";
    if ((err = make_plans (gpu, params, identity)) != cudaSuccess)
      goto out;
  }
  err = ensure_slot (gpu, slot, !in_dev, !out_dev, what);
  if (err == cudaErrorMemoryAllocation && slot > 0) {
    /* Slot 0's buffers fitted at negotiation; a device without room for every slot runs
     * fewer frames in flight rather than none. */
    cudaGetLastError ();
    cudaStreamSynchronize (gpu->streams[slot]);   /* its earlier frames may use its buffers */
    free_slot (&gpu->slots[slot]);
    gpu->n_slots = slot;
    *slots_lost = TRUE;
    slot = 0;
    err = ensure_slot (gpu, slot, !in_dev, !out_dev, what);
  }
  if (err != cudaSuccess)
    goto out;
  p->slot = slot;
  const cudaStream_t stream = gpu->streams[slot];
  const GstCudaSmoothSlot *s = &gpu->slots[slot];
  void *in = GST_VIDEO_FRAME_PLANE_DATA (&p->in_frame, 0), *out = GST_VIDEO_FRAME_PLANE_DATA (&p->out_frame, 0);
  size_t in_pitch = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&p->in_frame, 0);
  size_t out_pitch = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&p->out_frame, 0);
  if (!in_dev) {
    /* system memory, or CUDA memory of another context (mapped to host): upload */
    *what = "cudaMemcpy2DAsync (upload)";
    err = cudaMemcpy2DAsync (s->d_in, gpu->d_pitch, in, in_pitch, (size_t) w * 4, h, cudaMemcpyHostToDevice, stream);
    in = s->d_in;
    in_pitch = gpu->d_pitch;
  }
  void *host_out = out;
  const size_t host_out_pitch = out_pitch;
  if (!out_dev) {
    out = s->d_out;
    out_pitch = gpu->d_pitch;
  }
  GstCudaSmoothPicture pics[2];
  const guint n = gst_cuda_smooth_frame_pictures (&p->in_frame, &gpu->info, pics);
  const int alpha = gst_cuda_smooth_alpha_offset (&gpu->info);
  *what = identity ? "copying the frame" : "filtering";
  for (guint i = 0; i < n && err == cudaSuccess; i++) {
    const CsCudaPlan *plan = gpu->plans[n == 1 ? WHOLE : i == 0 ? TOP : BOTTOM];
    const CsCudaImage src = device_picture (&pics[i], i, n, in, in_pitch, alpha);
    const CsCudaImage dst = device_picture (&pics[i], i, n, out, out_pitch, alpha);
    err = plan ? cs_cuda_plan_run (plan, &src, &dst, s->scratch, stream) : cudaErrorInvalidValue;
  }
  if (err == cudaSuccess && !out_dev) {
    *what = "cudaMemcpy2DAsync (download)";
    err = cudaMemcpy2DAsync (host_out, host_out_pitch, out, out_pitch, (size_t) w * 4, h, cudaMemcpyDeviceToHost,
        stream);
  }
out:
  pop ();
  return err;
}

cudaError_t
gst_cuda_smooth_gpu_wait (GstCudaSmoothGpu * gpu, gint slot)
{
  cudaError_t err = cudaErrorInvalidResourceHandle;
  if (push (gpu)) {
    err = cudaStreamSynchronize (gpu->streams[slot]);
    pop ();
  }
  return err;
}
