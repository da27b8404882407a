/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothgpu.h"

#include <string.h>

#include <gst/cuda/gstcudabufferpool.h>
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
  gpu->params[0] = g_malloc0 (params_size);
  gpu->params[1] = g_malloc0 (params_size);
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
  for (int g = 0; g < 2; g++)
    for (int i = 0; i < N_LAYOUTS; i++) {
      if (gpu->plans[g][i])
        cs_cuda_plan_free (gpu->plans[g][i]);
      gpu->plans[g][i] = NULL;
    }
  memset (gpu->part_offset, 0, sizeof gpu->part_offset);
  memset (gpu->work_offset, 0, sizeof gpu->work_offset);
  memset (gpu->work_bytes, 0, sizeof gpu->work_bytes);
  gpu->have_params = FALSE;
}

/* With the context pushed and the streams idle. */
static void
destroy_streams (GstCudaSmoothGpu * gpu)
{
  for (int i = 0; i < GST_CUDA_SMOOTH_SLOTS; i++) {
    if (gpu->streams[i])
      cudaStreamDestroy (gpu->streams[i]);
    if (gpu->side_streams[i])
      cudaStreamDestroy (gpu->side_streams[i]);
    if (gpu->forked[i])
      cudaEventDestroy (gpu->forked[i]);
    if (gpu->joined[i])
      cudaEventDestroy (gpu->joined[i]);
#if GST_CUDA_SMOOTH_MEMORY_STREAMS
    if (gpu->ready[i])
      cudaEventDestroy (gpu->ready[i]);
    if (gpu->done[i])
      cudaEventDestroy (gpu->done[i]);
    gpu->ready[i] = gpu->done[i] = NULL;
#endif
  }
  memset (gpu->streams, 0, sizeof gpu->streams);
  memset (gpu->side_streams, 0, sizeof gpu->side_streams);
  memset (gpu->forked, 0, sizeof gpu->forked);
  memset (gpu->joined, 0, sizeof gpu->joined);
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
  for (int i = 0; i < GST_CUDA_SMOOTH_SLOTS && err == cudaSuccess; i++) {
    err = cudaStreamCreateWithFlags (&gpu->streams[i], cudaStreamNonBlocking);
    if (err == cudaSuccess)
      err = cudaStreamCreateWithFlags (&gpu->side_streams[i], cudaStreamNonBlocking);
  }
  for (int i = 0; i < GST_CUDA_SMOOTH_SLOTS && err == cudaSuccess; i++) {
    step = "creating its events";
    err = cudaEventCreateWithFlags (&gpu->forked[i], cudaEventDisableTiming);
    if (err == cudaSuccess)
      err = cudaEventCreateWithFlags (&gpu->joined[i], cudaEventDisableTiming);
  }
#if GST_CUDA_SMOOTH_MEMORY_STREAMS
  for (int i = 0; i < GST_CUDA_SMOOTH_SLOTS && err == cudaSuccess; i++) {
    step = "creating its events";
    err = cudaEventCreateWithFlags (&gpu->ready[i], cudaEventDisableTiming);
    if (err == cudaSuccess)
      err = cudaEventCreateWithFlags (&gpu->done[i], cudaEventDisableTiming);
  }
#endif
  if (err == cudaSuccess) {
    step = "querying the device";
    err = cs_cuda_device_query (&gpu->dev);
  }
  if (err == cudaSuccess) {
    step = "loading the kernels";
    err = cs_cuda_check_kernels ();
  }
  if (err != cudaSuccess)
    destroy_streams (gpu);
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
#if GST_CUDA_SMOOTH_MEMORY_STREAMS
  /* one stream for the pools: a pool's buffers all carry the same one */
  gpu->pool_stream = gst_cuda_stream_new (gpu->ctx);
#endif
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
    destroy_streams (gpu);
    pop ();
  } else {
    /* Nothing of the context can be freed without it; its allocations go with it when its
     * last reference (ours, unless neighbours share it) is dropped below. */
    GST_ERROR ("cannot make the CUDA context current to free the device buffers");
    memset (gpu->slots, 0, sizeof gpu->slots);
  }
  memset (gpu->streams, 0, sizeof gpu->streams);
  memset (gpu->side_streams, 0, sizeof gpu->side_streams);
  memset (gpu->forked, 0, sizeof gpu->forked);
  memset (gpu->joined, 0, sizeof gpu->joined);
  gpu->have_streams = FALSE;
#if GST_CUDA_SMOOTH_MEMORY_STREAMS
  memset (gpu->ready, 0, sizeof gpu->ready);
  memset (gpu->done, 0, sizeof gpu->done);
  g_clear_pointer (&gpu->pool_stream, gst_cuda_stream_unref);
#endif
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

/* The height of group g's pictures of a layout. */
static gint
layout_height (const GstVideoInfo * info, int g, int layout)
{
  const gint comp = g == 0 ? 0 : 1;
  const gint h = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, comp, GST_VIDEO_INFO_HEIGHT (info));
  return layout == WHOLE ? h : layout == TOP ? (h + 1) / 2 : h / 2;
}

static gint
group_width (const GstVideoInfo * info, int g)
{
  return GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (info->finfo, g == 0 ? 0 : 1, GST_VIDEO_INFO_WIDTH (info));
}

/* A slot's scratch, once the plans are made: each group its own part, since the groups run
 * at once on two streams (cs_cuda_plan_run_views); a part holds the largest scratch of the
 * group's plans, then (GRAY8 and YUV) the working frames of its views where its plans pack
 * them (cs_cuda_plan_work_bytes), 256-byte aligned. */
static void
layout_scratch (GstCudaSmoothGpu * gpu)
{
  size_t offset = 0;
  for (guint g = 0; g < gpu->layout.n_groups; g++) {
    size_t scratch = 0, work = 0;
    for (int l = 0; l < N_LAYOUTS; l++)
      if (gpu->plans[g][l]) {
        scratch = MAX (scratch, cs_cuda_plan_scratch_bytes (gpu->plans[g][l]));
        if (!gpu->layout.packed_rgb)
          work = MAX (work, cs_cuda_plan_work_bytes (gpu->plans[g][l], g == 0 ? 1 : 2));
      }
    gpu->part_offset[g] = offset;
    gpu->work_offset[g] = offset + (scratch + 255) / 256 * 256;
    gpu->work_bytes[g] = work;
    offset = gpu->work_offset[g] + (work + 255) / 256 * 256;
  }
  gpu->part_offset[gpu->layout.n_groups] = offset;
}

/* The plans' scratch, and the working frames where the format is not RGBA, of every group. */
static size_t
plans_scratch_bytes (GstCudaSmoothGpu * gpu)
{
  return gpu->part_offset[gpu->layout.n_groups];
}

/* Device bytes a frame in flight (a slot) takes with the current plans: its device frames
 * (none for CUDA-memory sides) and the plans' scratch and working frames. */
static guint64
slot_bytes (GstCudaSmoothGpu * gpu)
{
  const guint64 frame = gpu->d_bytes;
  return (gpu->in_cuda ? 0 : frame) + (gpu->out_cuda ? 0 : frame) + plans_scratch_bytes (gpu);
}

/* Plans for the groups' parameters for every layout the caps use (the streams are idle).
 * RGBA formats take copy plans where identity; the groups of other formats a NULL plan,
 * which copies (cs_cuda_plan_run_channels). */
static cudaError_t
make_plans (GstCudaSmoothGpu * gpu, const GstCudaSmoothGroupParams * gp, gboolean identity)
{
  free_plans (gpu);
  for (guint g = 0; g < 2; g++) {
    gpu->filter[g] = g < gpu->layout.n_groups && gp->filter[g];
    gpu->sub_x[g] = gp->sub_x[g];
    gpu->sub_y[g] = gp->sub_y[g];
    if (gpu->filter[g])
      memcpy (gpu->params[g], gp->params[g], gpu->params_size);
  }
  gpu->identity = identity;
  for (guint g = 0; g < gpu->layout.n_groups; g++)
    for (int l = 0; l < N_LAYOUTS; l++) {
      if (!layout_used (&gpu->info, l) || (!gpu->layout.packed_rgb && (identity || !gpu->filter[g])))
        continue;
      const gint w = group_width (&gpu->info, g), h = layout_height (&gpu->info, g, l);
      if (h == 0)
        continue;   /* no rows to plan for (that field of a two-row 4:2:0 frame's chroma) */
      CsCudaPlan **plan = &gpu->plans[g][l];
      const cudaError_t err = identity || !gpu->filter[g] ? cs_cuda_copy_plan_new (w, h, plan)
          : gpu->plan_new (gpu->params[g], gpu->sub_x[g], gpu->sub_y[g], w, h, &gpu->dev, plan);
      if (err != cudaSuccess) {
        free_plans (gpu);
        return err;
      }
      GST_DEBUG ("plan for %dx%d pictures of group %u: %s, %d/%d segments, %zu bytes of scratch", w, h, g,
          cs_cuda_path_name (cs_cuda_plan_path (*plan)), cs_cuda_plan_segments (*plan, CS_PASS_ROWS),
          cs_cuda_plan_segments (*plan, CS_PASS_COLUMNS), cs_cuda_plan_scratch_bytes (*plan));
    }
  layout_scratch (gpu);
  gpu->have_params = TRUE;
  GST_INFO ("device memory a frame in flight: %.1f MiB (frames, the plans' scratch and working frames)",
      slot_bytes (gpu) / 1048576.0);
  return cudaSuccess;
}

/* Whether gp asks for other plans than the current ones. */
static gboolean
params_changed (GstCudaSmoothGpu * gpu, const GstCudaSmoothGroupParams * gp, gboolean identity)
{
  if (!gpu->have_params || identity != gpu->identity)
    return TRUE;
  for (guint g = 0; g < gpu->layout.n_groups; g++)
    if (gp->filter[g] != gpu->filter[g] || (gp->filter[g] && memcmp (gp->params[g], gpu->params[g], gpu->params_size)))
      return TRUE;
  return FALSE;
}

/* With the context pushed: the buffers a frame on `slot` needs, with what was being
 * allocated when it failed. */
static cudaError_t
ensure_slot (GstCudaSmoothGpu * gpu, int slot, gboolean need_in, gboolean need_out, const char **what)
{
  GstCudaSmoothSlot *s = &gpu->slots[slot];
  const size_t bytes = gpu->d_bytes;
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

/* The upload and download frames. Where the caps' own layout has every pitch a multiple of
 * 64 bytes and every plane 256-aligned (NV12, I420 and the rest at the common video sizes),
 * the device frames copy it, so that a frame in that layout moves in one copy each way
 * (one_copy_span): an NV12 frame's two plane copies take the bus 6 % longer at 1080p than
 * one copy of the same bytes (docs/performance.md). Otherwise each plane's rows at a pitch of
 * whole 512 bytes. */
static void
layout_device_frames (GstCudaSmoothGpu * gpu)
{
  const GstVideoInfo *info = &gpu->info;
  gboolean mirror = TRUE;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    guint64 row_bytes, rows;
    gst_cuda_smooth_plane_extent (info, p, &row_bytes, &rows);
    const gint stride = GST_VIDEO_INFO_PLANE_STRIDE (info, p);
    mirror &= stride > 0 && (guint64) stride >= row_bytes && stride % 64 == 0 &&
        GST_VIDEO_INFO_PLANE_OFFSET (info, p) % 256 == 0;
  }
  gpu->d_bytes = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    guint64 row_bytes, rows;
    gst_cuda_smooth_plane_extent (info, p, &row_bytes, &rows);
    gpu->d_offset[p] = mirror ? GST_VIDEO_INFO_PLANE_OFFSET (info, p) : gpu->d_bytes;
    gpu->d_pitch[p] = mirror ? (size_t) GST_VIDEO_INFO_PLANE_STRIDE (info, p) : (row_bytes + 511) / 512 * 512;
    gpu->d_bytes = MAX (gpu->d_bytes, gpu->d_offset[p] + gpu->d_pitch[p] * rows);
  }
  GST_INFO ("device frames %s", mirror ? "in the caps' layout: a frame in it moves in one copy each way"
      : "at 512-byte pitches: frames move plane by plane");
}

/* The bytes from the frame's first plane to the end of its last where the frame lies in one
 * memory with its planes at the device frames' offsets and pitches (one copy moves it);
 * else 0. */
static size_t
one_copy_span (const GstCudaSmoothGpu * gpu, const GstVideoFrame * frame)
{
  if (gst_buffer_n_memory (frame->buffer) != 1)
    return 0;
  const guint8 *first = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  size_t span = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&gpu->info); p++) {
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    if ((size_t) GST_VIDEO_FRAME_PLANE_STRIDE (frame, p) != gpu->d_pitch[p] || data < first ||
        (size_t) (data - first) != gpu->d_offset[p] - gpu->d_offset[0])
      return 0;
    guint64 row_bytes, rows;
    gst_cuda_smooth_plane_extent (&gpu->info, p, &row_bytes, &rows);
    span = MAX (span, gpu->d_offset[p] - gpu->d_offset[0] + gpu->d_pitch[p] * (rows - 1) + row_bytes);
  }
  return span;
}

cudaError_t
gst_cuda_smooth_gpu_configure (GstCudaSmoothGpu * gpu, const GstVideoInfo * info, gboolean in_cuda,
    gboolean out_cuda, const GstCudaSmoothGroupParams * gp, gboolean identity, const char **what)
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
  gst_cuda_smooth_layout_of (info, &gpu->layout);
  layout_device_frames (gpu);
  *what = "planning the filter";
  err = make_plans (gpu, gp, identity);
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

gboolean
gst_cuda_smooth_gpu_map (GstCudaSmoothGpu * gpu, GstVideoFrame * frame, GstBuffer * buf, GstMapFlags flags,
    gboolean * on_device, gchar ** why)
{
  GstMemory *mem = gst_buffer_n_memory (buf) == 1 ? gst_buffer_peek_memory (buf, 0) : NULL;
  *on_device = mem && gst_is_cuda_memory (mem) && GST_CUDA_MEMORY_CAST (mem)->context == gpu->ctx;
  return gst_cuda_smooth_frame_map (frame, &gpu->info, buf, flags | (*on_device ? GST_MAP_CUDA : 0), why);
}

void
gst_cuda_smooth_gpu_configure_pool (GstCudaSmoothGpu * gpu, GstStructure * config)
{
#if GST_CUDA_SMOOTH_MEMORY_STREAMS
  GstCudaStream *theirs = gst_buffer_pool_config_get_cuda_stream (config);
  if (theirs)
    gst_cuda_stream_unref (theirs);
  else if (gpu->pool_stream)
    gst_buffer_pool_config_set_cuda_stream (config, gpu->pool_stream);
#else
  (void) gpu;
  (void) config;
#endif
}

#if GST_CUDA_SMOOTH_MEMORY_STREAMS
/* The stream of a buffer mapped on the device (one CUDA memory), as the runtime API takes
 * it; NULL for none (the default stream: its producer finished before pushing). */
static cudaStream_t
memory_stream (GstBuffer * buf)
{
  GstCudaStream *s = gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (buf, 0)));
  return s ? (cudaStream_t) gst_cuda_stream_get_handle (s) : NULL;
}

/* stream waits for the work enqueued on `on` so far (event: free for reuse once recorded
 * and waited on: a wait takes the record it sees when it is enqueued) */
static cudaError_t
wait_for (cudaStream_t stream, cudaStream_t on, cudaEvent_t event)
{
  cudaError_t err = cudaEventRecord (event, on);
  return err == cudaSuccess ? cudaStreamWaitEvent (stream, event, 0) : err;
}
#endif

/* Picture i of n of a frame whose rows start at base, pitch apart, as cs_cuda.h takes it. */
static CsCudaImage
device_picture (const GstCudaSmoothPicture * pic, guint i, guint n, void *base, size_t pitch, int alpha_offset)
{
  CsCudaImage img = { (char *) base + i * pitch, pic->width, pic->height, pitch * n, alpha_offset };
  return img;
}

/* Copies every plane of a frame between host and device: in one copy where the host frame
 * lies as the device frame does (span, from one_copy_span), else cudaMemcpy2DAsync per plane. */
static cudaError_t
copy_planes (GstCudaSmoothGpu * gpu, guint8 * const dst[], const size_t dst_pitch[], guint8 * const src[],
    const size_t src_pitch[], size_t span, enum cudaMemcpyKind kind, cudaStream_t stream)
{
  if (span)
    return cudaMemcpyAsync (dst[0], src[0], span, kind, stream);
  cudaError_t err = cudaSuccess;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&gpu->info) && err == cudaSuccess; p++) {
    guint64 row_bytes, rows;
    gst_cuda_smooth_plane_extent (&gpu->info, p, &row_bytes, &rows);
    err = cudaMemcpy2DAsync (dst[p], dst_pitch[p], src[p], src_pitch[p], row_bytes, rows, kind, stream);
  }
  return err;
}

/* RGBA formats: each picture through its plan (alpha copied by it). */
static cudaError_t
run_packed (GstCudaSmoothGpu * gpu, const GstCudaSmoothPending * p, guint8 * in, size_t in_pitch, guint8 * out,
    size_t out_pitch, void *scratch, cudaStream_t stream)
{
  GstCudaSmoothPicture pics[2];
  const guint n = gst_cuda_smooth_frame_pictures (&p->in_frame, &gpu->info, pics);
  const int alpha = gst_cuda_smooth_alpha_offset (&gpu->info);
  cudaError_t err = cudaSuccess;
  for (guint i = 0; i < n && err == cudaSuccess; i++) {
    const CsCudaPlan *plan = gpu->plans[0][n == 1 ? WHOLE : i == 0 ? TOP : BOTTOM];
    const CsCudaImage src = device_picture (&pics[i], i, n, in, in_pitch, alpha);
    const CsCudaImage dst = device_picture (&pics[i], i, n, out, out_pitch, alpha);
    err = plan ? cs_cuda_plan_run (plan, &src, &dst, scratch, stream) : cudaErrorInvalidValue;
  }
  return err;
}

/* GRAY8 and YUV: every group of every picture through its plan, or copied; luma (or grey) on
 * the slot's stream, chroma on its side stream at the same time, each group in its own part
 * of the scratch (cs_cuda_plan_run_views); a group's second field beside its first. */
static cudaError_t
run_groups (GstCudaSmoothGpu * gpu, const GstCudaSmoothPending * p, guint8 * const in[], const size_t in_pitch[],
    guint8 * const out[], const size_t out_pitch[], void *scratch, cudaStream_t stream)
{
  const guint n = gst_cuda_smooth_frame_n_fields (&p->in_frame, &gpu->info);
  gint in_strides[GST_VIDEO_MAX_PLANES], out_strides[GST_VIDEO_MAX_PLANES];
  for (guint i = 0; i < GST_VIDEO_INFO_N_PLANES (&gpu->info); i++) {
    in_strides[i] = (gint) in_pitch[i];
    out_strides[i] = (gint) out_pitch[i];
  }
  CsCudaViewRun views[2 * 2];
  int n_views = 0;
  for (guint g = 0; g < gpu->layout.n_groups; g++)
    for (guint f = 0; f < n; f++) {
      CsCudaViewRun *v = &views[n_views];
      v->plan = gpu->plans[g][n == 1 ? WHOLE : f == 0 ? TOP : BOTTOM];
      v->src = gst_cuda_smooth_group_view (&gpu->info, in, in_strides, g, f, n);
      v->dst = gst_cuda_smooth_group_view (&gpu->info, out, out_strides, g, f, n);
      if (v->src.width == 0 || v->src.height == 0)
        continue;   /* the bottom chroma field of a two-row 4:2:0 frame has no rows */
      v->scratch = (guint8 *) scratch + gpu->part_offset[g];
      v->work = gpu->work_bytes[g] ? (guint8 *) scratch + gpu->work_offset[g] : NULL;
      v->on_side = g > 0;
      n_views++;
    }
  const int slot = p->slot;
  return cs_cuda_plan_run_views (views, n_views, stream, gpu->side_streams[slot], gpu->forked[slot],
      gpu->joined[slot]);
}

cudaError_t
gst_cuda_smooth_gpu_submit (GstCudaSmoothGpu * gpu, GstCudaSmoothPending * p, gboolean in_dev, gboolean out_dev,
    const GstCudaSmoothGroupParams * gp, gboolean identity, gboolean overlap, const char **what, gboolean * slots_lost)
{
  const guint n_planes = GST_VIDEO_INFO_N_PLANES (&gpu->info);
  int slot = overlap ? (int) (gpu->frames++ % gpu->n_slots) : 0;
  cudaError_t err;
  *slots_lost = FALSE;
  *what = "making the CUDA context current";
  if (!push (gpu))
    return cudaErrorInvalidResourceHandle;
  if (params_changed (gpu, gp, identity)) {
    /* new parameters: plans for them, once no frame in flight runs the old ones */
    sync_streams (gpu);
    *what = "planning the filter";
    if ((err = make_plans (gpu, gp, identity)) != cudaSuccess)
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
#if GST_CUDA_SMOOTH_MEMORY_STREAMS
  /* the input's producer and the output's last readers may still have work on their streams */
  const cudaStream_t in_stream = in_dev ? memory_stream (p->inbuf) : NULL;
  const cudaStream_t out_stream = out_dev ? memory_stream (p->outbuf) : NULL;
  GST_LOG ("frame on slot %d: input %s, output %s", slot, !in_dev ? "uploaded" : in_stream ? "with a stream" : "without",
      !out_dev ? "downloaded" : out_stream ? "with a stream" : "without");
  *what = "waiting for the buffers' streams";
  if (in_stream && (err = wait_for (stream, in_stream, gpu->ready[slot])) != cudaSuccess)
    goto out;
  if (out_stream && out_stream != in_stream && (err = wait_for (stream, out_stream, gpu->ready[slot])) != cudaSuccess)
    goto out;
#endif
  guint8 *in[GST_VIDEO_MAX_PLANES] = { 0 }, *out[GST_VIDEO_MAX_PLANES] = { 0 }, *host_out[GST_VIDEO_MAX_PLANES] = { 0 };
  size_t in_pitch[GST_VIDEO_MAX_PLANES] = { 0 }, out_pitch[GST_VIDEO_MAX_PLANES] = { 0 };
  size_t host_out_pitch[GST_VIDEO_MAX_PLANES] = { 0 };
  for (guint i = 0; i < n_planes; i++) {
    in[i] = GST_VIDEO_FRAME_PLANE_DATA (&p->in_frame, i);
    in_pitch[i] = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&p->in_frame, i);
    host_out[i] = out[i] = GST_VIDEO_FRAME_PLANE_DATA (&p->out_frame, i);
    host_out_pitch[i] = out_pitch[i] = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&p->out_frame, i);
  }
  if (!in_dev) {
    /* system memory, or CUDA memory of another context (mapped to host): upload */
    guint8 *d_in[GST_VIDEO_MAX_PLANES] = { 0 };
    for (guint i = 0; i < n_planes; i++)
      d_in[i] = (guint8 *) s->d_in + gpu->d_offset[i];
    *what = "copying the frame to the device";
    err = copy_planes (gpu, d_in, gpu->d_pitch, in, in_pitch, one_copy_span (gpu, &p->in_frame),
        cudaMemcpyHostToDevice, stream);
    for (guint i = 0; i < n_planes; i++) {
      in[i] = d_in[i];
      in_pitch[i] = gpu->d_pitch[i];
    }
  }
  if (!out_dev)
    for (guint i = 0; i < n_planes; i++) {
      out[i] = (guint8 *) s->d_out + gpu->d_offset[i];
      out_pitch[i] = gpu->d_pitch[i];
    }
  *what = identity ? "copying the frame" : "filtering";
  if (err == cudaSuccess)
    err = gpu->layout.packed_rgb ? run_packed (gpu, p, in[0], in_pitch[0], out[0], out_pitch[0], s->scratch, stream)
        : run_groups (gpu, p, in, in_pitch, out, out_pitch, s->scratch, stream);
  if (err == cudaSuccess && !out_dev) {
    *what = "copying the frame from the device";
    err = copy_planes (gpu, host_out, host_out_pitch, out, out_pitch, one_copy_span (gpu, &p->out_frame),
        cudaMemcpyDeviceToHost, stream);
  }
#if GST_CUDA_SMOOTH_MEMORY_STREAMS
  if (err == cudaSuccess && in_stream && out_stream) {
    /* Downstream syncs the output's stream (gst_cuda_memory_sync) or shares it; upstream's
     * next work on the input's stream (refilling this buffer) comes after our reads. So the
     * frame leaves now, without a host wait. */
    *what = "ordering the buffers' streams after the frame";
    if ((err = wait_for (out_stream, stream, gpu->done[slot])) == cudaSuccess && in_stream != out_stream)
      err = cudaStreamWaitEvent (in_stream, gpu->done[slot], 0);
    if (err == cudaSuccess)
      p->slot = -1;
    if (err == cudaSuccess && !gpu->told_ordered)
      GST_INFO ("CUDA memory on both sides with streams: frames leave ordered by the streams, without a host wait");
    gpu->told_ordered = TRUE;
  }
#endif
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
