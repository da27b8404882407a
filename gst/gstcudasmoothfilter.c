/* gst-cudasmooth — the abstract base class of the three filters (see the header).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frame flow. submit_input_buffer lets GstBaseTransform renegotiate and apply QoS, then
 * takes the queued buffer, snapshots the properties and starts the frame: on the CPU path
 * it is filtered at once; on the GPU its upload, kernels and download are enqueued on one
 * of N_SLOTS streams. generate_output hands frames downstream in order, holding back at
 * most `depth` frames still in flight (N_SLOTS − 1 while overlapping, else 0), so that the
 * upload of one frame, the kernels of the next and the download of a third run at once.
 * Serialized events drain held frames first, so nothing is reordered around EOS, caps,
 * segments or custom events; a flush drops them.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothfilter.h"

#include <gst/gst.h>

#ifdef HAVE_CUDA
#define GST_USE_UNSTABLE_API
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "gstcudasmoothpinned.h"
#endif

GST_DEBUG_CATEGORY (gst_cuda_smooth_debug);
#define GST_CAT_DEFAULT gst_cuda_smooth_debug

#define FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR }"
/* Frames in flight while overlapping: with two, a frame's upload, kernels and download ran
 * as one chain per stream and a 4K edge-aware frame took (0.67 + 0.68 + 0.67) / 2 ms, 1040
 * fps; with three the copy engines and the kernels each stay busy, 1495 fps, the PCIe floor
 * (tests/bench/NOTES.md). Each slot holds its own device frames and scratch. */
#define N_SLOTS 3
#define HELD_FRAMES (N_SLOTS - 1)

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_OVERLAP,
};

#define DEFAULT_BACKEND GST_CUDA_SMOOTH_BACKEND_AUTO
#define DEFAULT_DEVICE_ID -1
#define DEFAULT_OVERLAP GST_CUDA_SMOOTH_OVERLAP_AUTO

/* A frame between submit_input_buffer and generate_output. */
typedef struct
{
  GstBuffer *inbuf;        /* NULL once released */
  GstBuffer *outbuf;
  GstVideoFrame in_frame, out_frame;
  gboolean in_mapped, out_mapped;
  gint slot;               /* stream the frame's GPU work is on; −1: already complete */
} Pending;

typedef struct
{
  /* properties, under the object lock */
  GstCudaSmoothBackend backend;
  gint device_id;
  GstCudaSmoothOverlap overlap;

  /* streaming thread */
  gboolean started;
  gboolean use_cuda;
  GstVideoInfo in_info, out_info;
  gboolean in_cuda_caps, out_cuda_caps, same_caps;
  int alpha_offset;
  GQueue pending;
  guint64 frames;
  gboolean upstream_live;
  gboolean live_known;
  CsCpuWorkspace cpu_ws;
  int n_threads;

#ifdef HAVE_CUDA
  GstCudaContext *ctx;
  CsCudaDevice dev;
  gboolean have_streams;
  cudaStream_t streams[N_SLOTS];
  void *d_in[N_SLOTS], *d_out[N_SLOTS], *scratch[N_SLOTS];
  size_t d_pitch, scratch_bytes[N_SLOTS];
  int n_slots;   /* slots the device had memory for, N_SLOTS until one ran out */
#endif
} GstCudaSmoothFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaSmoothFilter, gst_cuda_smooth_filter,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstCudaSmoothFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cuda_smooth_debug, "cudasmooth", 0, "CUDA smoothing filters"));

#define PRIV(self) ((GstCudaSmoothFilterPrivate *) gst_cuda_smooth_filter_get_instance_private (self))

GType
gst_cuda_smooth_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SMOOTH_BACKEND_AUTO, "CUDA when a usable device exists, else the CPU", "auto"},
    {GST_CUDA_SMOOTH_BACKEND_CUDA, "CUDA only (fail in start without a device)", "cuda"},
    {GST_CUDA_SMOOTH_BACKEND_CPU, "Multi-threaded CPU path", "cpu"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaSmoothBackend", values));
  return type;
}

GType
gst_cuda_smooth_overlap_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SMOOTH_OVERLAP_AUTO, "Overlap unless upstream is live", "auto"},
    {GST_CUDA_SMOOTH_OVERLAP_ON, "Always hold two frames to overlap transfers and kernels", "on"},
    {GST_CUDA_SMOOTH_OVERLAP_OFF, "Never hold a frame (no added latency)", "off"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaSmoothOverlap", values));
  return type;
}

GstCaps *
gst_cuda_smooth_filter_template_caps (void)
{
  GstCaps *caps = gst_caps_from_string (GST_VIDEO_CAPS_MAKE (FORMATS));
#ifdef HAVE_CUDA
  gst_caps_append (caps, gst_caps_from_string (
          GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, FORMATS)));
#endif
  return caps;
}

void
gst_cuda_smooth_filter_class_add_pad_templates (GstElementClass * klass)
{
  GstCaps *caps = gst_cuda_smooth_filter_template_caps ();
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

gboolean
gst_cuda_smooth_filter_uses_cuda (GstCudaSmoothFilter * self)
{
  return PRIV (self)->use_cuda;
}

static int
alpha_offset_of (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_xRGB:
    case GST_VIDEO_FORMAT_xBGR:
      return 0;
    default:
      return 3;
  }
}

static gboolean
caps_are_cuda (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);
  return f && gst_caps_features_contains (f, "memory:CUDAMemory");
}

/* ------------------------------------------------------------------ CUDA resources */

#ifdef HAVE_CUDA
#define CUDA_ERROR(self, err, what) \
  GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("CUDA error: %s", cudaGetErrorName (err)), \
      ("%s failed: %s (%s)", what, cudaGetErrorName (err), cudaGetErrorString (err)))

static void
free_slot (GstCudaSmoothFilterPrivate * priv, int i)
{
  if (priv->d_in[i])
    cudaFree (priv->d_in[i]);
  if (priv->d_out[i])
    cudaFree (priv->d_out[i]);
  if (priv->scratch[i])
    cudaFree (priv->scratch[i]);
  priv->d_in[i] = priv->d_out[i] = priv->scratch[i] = NULL;
  priv->scratch_bytes[i] = 0;
}

static void
free_device_buffers (GstCudaSmoothFilterPrivate * priv)
{
  for (int i = 0; i < N_SLOTS; i++)
    free_slot (priv, i);
  priv->n_slots = N_SLOTS;
}

/* The device frames' row pitch for the negotiated width */
static size_t
device_pitch (const GstVideoInfo * info)
{
  const size_t row = (size_t) GST_VIDEO_INFO_WIDTH (info) * 4;
  return (row + 511) / 512 * 512;
}

/* With the context pushed: at least `bytes` of scratch on a slot. */
static cudaError_t
ensure_scratch (GstCudaSmoothFilterPrivate * priv, int slot, size_t bytes)
{
  cudaError_t err;
  if (bytes <= priv->scratch_bytes[slot])
    return cudaSuccess;
  if (priv->scratch[slot]) {
    /* the slot's earlier frame may still use it */
    if ((err = cudaStreamSynchronize (priv->streams[slot])) != cudaSuccess)
      return err;
    cudaFree (priv->scratch[slot]);
    priv->scratch[slot] = NULL;
    priv->scratch_bytes[slot] = 0;
  }
  if ((err = cudaMalloc (&priv->scratch[slot], bytes)) != cudaSuccess)
    return err;
  priv->scratch_bytes[slot] = bytes;
  return cudaSuccess;
}

/* With the context pushed: the device buffers a frame on `slot` needs (an upload and a
 * download buffer unless its memory is already ours on the device, and scratch), with what
 * was being allocated when it failed. */
static cudaError_t
ensure_slot (GstCudaSmoothFilterPrivate * priv, int slot, gboolean need_in, gboolean need_out,
    size_t scratch_bytes, const char **what)
{
  const size_t bytes = priv->d_pitch * GST_VIDEO_INFO_HEIGHT (&priv->in_info);
  cudaError_t err = cudaSuccess;
  *what = "allocating the upload buffer";
  if (need_in && !priv->d_in[slot])
    err = cudaMalloc (&priv->d_in[slot], bytes);
  if (err == cudaSuccess && need_out && !priv->d_out[slot]) {
    *what = "allocating the download buffer";
    err = cudaMalloc (&priv->d_out[slot], bytes);
  }
  if (err == cudaSuccess && scratch_bytes) {
    *what = "allocating scratch memory";
    err = ensure_scratch (priv, slot, scratch_bytes);
  }
  return err;
}

static gboolean
open_cuda (GstCudaSmoothFilter * self, gchar ** why)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  cudaError_t err = cudaSuccess;
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);
  /* every GstCuda call asserts the driver library is loaded: check first */
  if (!gst_cuda_load_library ()) {
    *why = g_strdup ("the NVIDIA driver library (libcuda) could not be loaded");
    return FALSE;
  }
  if (!gst_cuda_ensure_element_context (GST_ELEMENT (self), device_id, &priv->ctx)) {
    *why = g_strdup ("no CUDA context (no driver, no device, or device id out of range)");
    return FALSE;
  }
  if (!gst_cuda_context_push (priv->ctx)) {
    *why = g_strdup ("cannot make the CUDA context current");
    gst_clear_object (&priv->ctx);
    return FALSE;
  }
  for (int i = 0; i < N_SLOTS && err == cudaSuccess; i++)
    err = cudaStreamCreateWithFlags (&priv->streams[i], cudaStreamNonBlocking);
  if (err == cudaSuccess)
    err = cs_cuda_device_query (&priv->dev);
  if (err != cudaSuccess) {
    for (int i = 0; i < N_SLOTS; i++)
      if (priv->streams[i])
        cudaStreamDestroy (priv->streams[i]);
    memset (priv->streams, 0, sizeof priv->streams);
  }
  gst_cuda_context_pop (NULL);
  if (err != cudaSuccess) {
    *why = g_strdup_printf ("CUDA runtime: %s", cudaGetErrorName (err));
    gst_clear_object (&priv->ctx);
    return FALSE;
  }
  priv->have_streams = TRUE;
  return TRUE;
}

static void
close_cuda (GstCudaSmoothFilterPrivate * priv)
{
  if (!priv->ctx)
    return;
  if (gst_cuda_context_push (priv->ctx)) {
    for (int i = 0; i < N_SLOTS; i++)
      if (priv->have_streams && priv->streams[i])
        cudaStreamSynchronize (priv->streams[i]);
    free_device_buffers (priv);
    for (int i = 0; i < N_SLOTS; i++)
      if (priv->have_streams && priv->streams[i])
        cudaStreamDestroy (priv->streams[i]);
    gst_cuda_context_pop (NULL);
  }
  memset (priv->streams, 0, sizeof priv->streams);
  priv->have_streams = FALSE;
  gst_clear_object (&priv->ctx);
}
#endif

/* ------------------------------------------------------------------ held frames */

static void
release_frames (Pending * p)
{
  if (p->in_mapped)
    gst_video_frame_unmap (&p->in_frame);
  if (p->out_mapped)
    gst_video_frame_unmap (&p->out_frame);
  p->in_mapped = p->out_mapped = FALSE;
  gst_clear_buffer (&p->inbuf);
}

/* Waits for a frame's GPU work; returns FALSE (error posted) when it failed. */
static gboolean
complete (GstCudaSmoothFilter * self, Pending * p)
{
  gboolean ok = TRUE;
#ifdef HAVE_CUDA
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  if (p->slot >= 0) {
    cudaError_t err = cudaErrorInvalidResourceHandle;
    if (gst_cuda_context_push (priv->ctx)) {
      err = cudaStreamSynchronize (priv->streams[p->slot]);
      gst_cuda_context_pop (NULL);
    }
    if (err != cudaSuccess) {
      CUDA_ERROR (self, err, "cudaStreamSynchronize");
      ok = FALSE;
    }
    p->slot = -1;
  }
#else
  (void) self;
#endif
  release_frames (p);
  return ok;
}

static void
drop_pending (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  Pending *p;
  while ((p = g_queue_pop_head (&priv->pending))) {
    complete (self, p);
    gst_clear_buffer (&p->outbuf);
    g_free (p);
  }
}

/* Pushes every held frame downstream, oldest first. */
static GstFlowReturn
drain_pending (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstFlowReturn ret = GST_FLOW_OK;
  Pending *p;
  while ((p = g_queue_pop_head (&priv->pending))) {
    GstBuffer *out = p->outbuf;
    const gboolean ok = complete (self, p);
    g_free (p);
    if (!ok || ret != GST_FLOW_OK) {
      gst_buffer_unref (out);
      ret = ok ? ret : GST_FLOW_ERROR;
      continue;
    }
    ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
  }
  return ret;
}

static gboolean
overlapping (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCudaSmoothOverlap mode;
  if (!priv->use_cuda)
    return FALSE;
  GST_OBJECT_LOCK (self);
  mode = priv->overlap;
  GST_OBJECT_UNLOCK (self);
  if (mode == GST_CUDA_SMOOTH_OVERLAP_AUTO)
    return priv->live_known && !priv->upstream_live;
  return mode == GST_CUDA_SMOOTH_OVERLAP_ON;
}

/* ------------------------------------------------------------------ frame work */

static CsImage
image_of (GstVideoFrame * frame, int alpha_offset)
{
  CsImage img;
  img.data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  img.width = GST_VIDEO_FRAME_WIDTH (frame);
  img.height = GST_VIDEO_FRAME_HEIGHT (frame);
  img.stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  img.alpha_offset = alpha_offset;
  return img;
}

static GstFlowReturn
filter_on_cpu (GstCudaSmoothFilter * self, Pending * p, gboolean identity,
    const GstCudaSmoothParams * params)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCudaSmoothFilterClass *klass = GST_CUDA_SMOOTH_FILTER_GET_CLASS (self);

  if (!gst_video_frame_map (&p->in_frame, &priv->in_info, p->inbuf, GST_MAP_READ) ||
      !(p->in_mapped = TRUE) ||
      !gst_video_frame_map (&p->out_frame, &priv->out_info, p->outbuf, GST_MAP_WRITE)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot map a video frame"), (NULL));
    return GST_FLOW_ERROR;
  }
  p->out_mapped = TRUE;
  CsImage src = image_of (&p->in_frame, priv->alpha_offset);
  CsImage dst = image_of (&p->out_frame, priv->alpha_offset);
  if (identity)
    cs_image_copy (&src, &dst);
  else if (klass->filter_cpu (params, &src, &dst, priv->n_threads, &priv->cpu_ws) != 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Out of memory on the CPU path"),
        ("%dx%d frame", src.width, src.height));
    return GST_FLOW_ERROR;
  }
  release_frames (p);
  return GST_FLOW_OK;
}

#ifdef HAVE_CUDA
/* Maps a buffer for the GPU: TRUE with *on_device when it is CUDA memory of our context
 * (device pointer mapped), else mapped as host memory. */
static gboolean
map_for_gpu (GstCudaSmoothFilterPrivate * priv, GstVideoFrame * frame, GstVideoInfo * info,
    GstBuffer * buf, GstMapFlags flags, gboolean * on_device)
{
  GstMemory *mem = gst_buffer_n_memory (buf) == 1 ? gst_buffer_peek_memory (buf, 0) : NULL;
  *on_device = mem && gst_is_cuda_memory (mem) && GST_CUDA_MEMORY_CAST (mem)->context == priv->ctx;
  return gst_video_frame_map (frame, info, buf, flags | (*on_device ? GST_MAP_CUDA : 0));
}

static GstFlowReturn
filter_on_gpu (GstCudaSmoothFilter * self, Pending * p, gboolean identity,
    const GstCudaSmoothParams * params)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCudaSmoothFilterClass *klass = GST_CUDA_SMOOTH_FILTER_GET_CLASS (self);
  gboolean in_dev, out_dev;
  /* one frame at a time needs one slot (cameras keep a third of the device memory) */
  int slot = overlapping (self) ? (int) (priv->frames++ % priv->n_slots) : 0;
  const int w = GST_VIDEO_INFO_WIDTH (&priv->in_info), h = GST_VIDEO_INFO_HEIGHT (&priv->in_info);
  cudaError_t err = cudaSuccess;
  const char *what = "";

  if (!map_for_gpu (priv, &p->in_frame, &priv->in_info, p->inbuf, GST_MAP_READ, &in_dev) ||
      !(p->in_mapped = TRUE) ||
      !map_for_gpu (priv, &p->out_frame, &priv->out_info, p->outbuf, GST_MAP_WRITE, &out_dev)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot map a video frame"), (NULL));
    return GST_FLOW_ERROR;
  }
  p->out_mapped = TRUE;
  if (!gst_cuda_context_push (priv->ctx)) {
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("Cannot make the CUDA context current"), (NULL));
    return GST_FLOW_ERROR;
  }
  const size_t scratch_bytes = identity ? 0 : klass->cuda_scratch_bytes (params, w, h);
  err = ensure_slot (priv, slot, !in_dev, !out_dev, scratch_bytes, &what);
  if (err == cudaErrorMemoryAllocation && slot > 0) {
    /* Slot 0's buffers fitted at negotiation; a device without room for every slot runs
     * fewer frames in flight rather than none. */
    cudaGetLastError ();   /* not left for a later check to find */
    cudaStreamSynchronize (priv->streams[slot]);   /* its earlier frames may use its buffers */
    free_slot (priv, slot);
    priv->n_slots = slot;
    GST_ELEMENT_WARNING (self, RESOURCE, NO_SPACE_LEFT,
        ("Not enough GPU memory for %d frames in flight; running %d", N_SLOTS, slot),
        ("%s for frame slot %d: %s", what, slot, cudaGetErrorName (err)));
    slot = 0;
    err = ensure_slot (priv, slot, !in_dev, !out_dev, scratch_bytes, &what);
  }
  if (err != cudaSuccess) {
    gst_cuda_context_pop (NULL);
    CUDA_ERROR (self, err, what);
    return GST_FLOW_ERROR;
  }
  p->slot = slot;
  const cudaStream_t stream = priv->streams[slot];
  CsCudaImage src = { GST_VIDEO_FRAME_PLANE_DATA (&p->in_frame, 0), w, h,
    (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&p->in_frame, 0), priv->alpha_offset };
  CsCudaImage dst = { GST_VIDEO_FRAME_PLANE_DATA (&p->out_frame, 0), w, h,
    (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&p->out_frame, 0), priv->alpha_offset };
  const CsCudaImage host_out = dst;

  if (!in_dev) {
    /* system memory, or CUDA memory of another context (mapped to host): upload */
    what = "cudaMemcpy2DAsync (upload)";
    err = cudaMemcpy2DAsync (priv->d_in[slot], priv->d_pitch, src.data, src.pitch,
        (size_t) w * 4, h, cudaMemcpyHostToDevice, stream);
    src.data = priv->d_in[slot];
    src.pitch = priv->d_pitch;
  }
  if (!out_dev) {
    dst.data = priv->d_out[slot];
    dst.pitch = priv->d_pitch;
  }
  if (err == cudaSuccess) {
    if (identity) {
      what = "copying the frame";
      err = cs_cuda_copy (&src, &dst, stream);
    } else {
      what = "filtering";
      err = klass->filter_cuda (params, &src, &dst, &priv->dev, priv->scratch[slot],
          priv->scratch_bytes[slot], stream);
    }
  }
  if (err == cudaSuccess && !out_dev) {
    what = "cudaMemcpy2DAsync (download)";
    err = cudaMemcpy2DAsync (host_out.data, host_out.pitch, dst.data, dst.pitch, (size_t) w * 4,
        h, cudaMemcpyDeviceToHost, stream);
  }
  gst_cuda_context_pop (NULL);
  if (err != cudaSuccess) {
    CUDA_ERROR (self, err, what);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}
#endif

/* Controller values at the buffer's stream time, then a consistent copy of the properties. */
static gboolean
snapshot_params (GstCudaSmoothFilter * self, GstBuffer * buf, GstCudaSmoothParams * params)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  const GstClockTime ts = GST_BUFFER_TIMESTAMP (buf);
  gboolean identity;
  if (GST_CLOCK_TIME_IS_VALID (ts)) {
    const GstClockTime st = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME, ts);
    if (GST_CLOCK_TIME_IS_VALID (st))
      gst_object_sync_values (GST_OBJECT (self), st);
  }
  GST_OBJECT_LOCK (self);
  identity = GST_CUDA_SMOOTH_FILTER_GET_CLASS (self)->snapshot (self, params);
  GST_OBJECT_UNLOCK (self);
  return identity;
}

static void
learn_liveness (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstQuery *q;
  if (priv->live_known)
    return;
  q = gst_query_new_latency ();
  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), q)) {
    gst_query_parse_latency (q, &priv->upstream_live, NULL, NULL);
    priv->live_known = TRUE;
    GST_DEBUG_OBJECT (self, "upstream is %slive", priv->upstream_live ? "" : "not ");
  }
  gst_query_unref (q);
}

static GstFlowReturn
gst_cuda_smooth_filter_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont,
    GstBuffer * inbuf)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCudaSmoothParams params;
  GstFlowReturn ret;
  Pending *p;

  /* GstBaseTransform flags the next buffer it pushes DISCONT after a DISCONT input; push
   * the held frames ourselves first, so the flag lands on the frame that carries it.
   * (Its is_discont stays TRUE until it pushes a buffer itself, so ask the buffer.) */
  if (GST_BUFFER_IS_DISCONT (inbuf) && (ret = drain_pending (self)) != GST_FLOW_OK) {
    gst_buffer_unref (inbuf);
    return ret;
  }
  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->submit_input_buffer (trans,
      is_discont, inbuf);
  if (ret != GST_FLOW_OK || !trans->queued_buf)
    return ret;
  p = g_new0 (Pending, 1);
  p->inbuf = trans->queued_buf;
  p->slot = -1;
  trans->queued_buf = NULL;

  const gboolean identity = snapshot_params (self, p->inbuf, &params);
  if (identity && priv->same_caps) {
    p->outbuf = p->inbuf;   /* pass through, in order behind any held frame */
    p->inbuf = NULL;
    g_queue_push_tail (&priv->pending, p);
    return GST_FLOW_OK;
  }
  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->prepare_output_buffer (trans,
      p->inbuf, &p->outbuf);
  if (ret == GST_FLOW_OK) {
#ifdef HAVE_CUDA
    if (priv->use_cuda) {
      learn_liveness (self);
      ret = filter_on_gpu (self, p, identity, &params);
    } else
#endif
      ret = filter_on_cpu (self, p, identity, &params);
  }
  if (ret != GST_FLOW_OK) {
    complete (self, p);
    gst_clear_buffer (&p->outbuf);
    g_free (p);
    return ret;
  }
  g_queue_push_tail (&priv->pending, p);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_smooth_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  Pending *p = g_queue_peek_head (&priv->pending);
  const guint depth = overlapping (self) ? HELD_FRAMES : 0;

  *outbuf = NULL;
  if (!p || (p->slot >= 0 && g_queue_get_length (&priv->pending) <= depth))
    return GST_FLOW_OK;
  g_queue_pop_head (&priv->pending);
  if (!complete (self, p)) {
    gst_clear_buffer (&p->outbuf);
    g_free (p);
    return GST_FLOW_ERROR;
  }
  *outbuf = p->outbuf;
  g_free (p);
  return GST_FLOW_OK;
}

/* GstBaseTransform treats a class without `transform` as always in place (and then never
 * negotiates an output pool); frames really go through submit_input_buffer and
 * generate_output above, so this is never called. */
static GstFlowReturn
gst_cuda_smooth_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf, GstBuffer * outbuf)
{
  (void) inbuf;
  (void) outbuf;
  GST_ELEMENT_ERROR (trans, CORE, NOT_IMPLEMENTED, (NULL), ("transform() is not used"));
  return GST_FLOW_ERROR;
}

/* ------------------------------------------------------------------ negotiation */

static GstCaps *
gst_cuda_smooth_filter_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCaps *ret = gst_caps_new_empty ();
  gboolean cuda_possible = FALSE;
  (void) direction;
#ifdef HAVE_CUDA
  GST_OBJECT_LOCK (self);
  cuda_possible = priv->backend != GST_CUDA_SMOOTH_BACKEND_CPU;
  GST_OBJECT_UNLOCK (self);
  cuda_possible = cuda_possible && (!priv->started || priv->use_cuda);
#else
  (void) priv;
#endif
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    const gboolean cuda_in = caps_are_cuda (caps, i);
    /* the input's memory first, so that like stays with like when both are possible */
    const char *order[2] = {
      cuda_in ? GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY : GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY,
      cuda_in ? GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY : GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY,
    };
    if (gst_caps_features_is_any (gst_caps_get_features (caps, i)))
      continue;
    for (int k = 0; k < 2; k++) {
      const gboolean is_cuda = g_str_equal (order[k], GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
      if (is_cuda && !cuda_possible)
        continue;
      ret = gst_caps_merge_structure_full (ret, gst_structure_copy (s),
          gst_caps_features_new (order[k], NULL));
    }
  }
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (ret);
    ret = tmp;
  }
  GST_LOG_OBJECT (self, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps, ret);
  return ret;
}

static gboolean
gst_cuda_smooth_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);

  if (!gst_video_info_from_caps (&priv->in_info, incaps) ||
      !gst_video_info_from_caps (&priv->out_info, outcaps) ||
      GST_VIDEO_INFO_FORMAT (&priv->in_info) != GST_VIDEO_INFO_FORMAT (&priv->out_info) ||
      GST_VIDEO_INFO_WIDTH (&priv->in_info) != GST_VIDEO_INFO_WIDTH (&priv->out_info) ||
      GST_VIDEO_INFO_HEIGHT (&priv->in_info) != GST_VIDEO_INFO_HEIGHT (&priv->out_info)) {
    GST_WARNING_OBJECT (self, "unsupported caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  priv->in_cuda_caps = caps_are_cuda (incaps, 0);
  priv->out_cuda_caps = caps_are_cuda (outcaps, 0);
  priv->same_caps = gst_caps_is_equal (incaps, outcaps);
  priv->alpha_offset = alpha_offset_of (GST_VIDEO_INFO_FORMAT (&priv->in_info));
  if ((priv->in_cuda_caps || priv->out_cuda_caps) && !priv->use_cuda)
    return FALSE;

#ifdef HAVE_CUDA
  if (priv->use_cuda) {
    GstCudaSmoothParams params;
    const int w = GST_VIDEO_INFO_WIDTH (&priv->in_info), h = GST_VIDEO_INFO_HEIGHT (&priv->in_info);
    cudaError_t err = cudaErrorInvalidResourceHandle;
    const char *what = "making the CUDA context current";
    GST_OBJECT_LOCK (self);
    const gboolean identity = GST_CUDA_SMOOTH_FILTER_GET_CLASS (self)->snapshot (self, &params);
    GST_OBJECT_UNLOCK (self);
    if (gst_cuda_context_push (priv->ctx)) {
      for (int i = 0; i < N_SLOTS; i++)
        cudaStreamSynchronize (priv->streams[i]);
      free_device_buffers (priv);
      /* Slot 0's buffers now, so that a frame the GPU cannot hold fails at negotiation. The
       * other slots' come with their first frame, which only overlapping gives them: without
       * overlap every frame runs on slot 0. */
      priv->d_pitch = device_pitch (&priv->in_info);
      err = ensure_slot (priv, 0, !priv->in_cuda_caps, !priv->out_cuda_caps,
          identity ? 0 : GST_CUDA_SMOOTH_FILTER_GET_CLASS (self)->cuda_scratch_bytes (&params, w, h), &what);
      if (err != cudaSuccess)
        free_device_buffers (priv);
      gst_cuda_context_pop (NULL);
    }
    if (err != cudaSuccess) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("Not enough GPU memory for %dx%d frames", w, h),
          ("%s: %s (%s)", what, cudaGetErrorName (err), cudaGetErrorString (err)));
      return FALSE;
    }
  }
#endif
  GST_DEBUG_OBJECT (self, "in %s memory, out %s memory, %s", priv->in_cuda_caps ? "CUDA" : "system",
      priv->out_cuda_caps ? "CUDA" : "system", priv->use_cuda ? "GPU" : "CPU");
  return TRUE;
}

static gboolean
gst_cuda_smooth_filter_get_unit_size (GstBaseTransform * trans, GstCaps * caps, gsize * size)
{
  GstVideoInfo info;
  (void) trans;
  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  *size = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

static GstBufferPool *
make_pool (GstCudaSmoothFilter * self, GstCaps * caps, gboolean cuda_memory, guint min)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstBufferPool *pool = NULL;
  GstVideoInfo info;
  if (!gst_video_info_from_caps (&info, caps))
    return NULL;
#ifdef HAVE_CUDA
  if (priv->use_cuda && !cuda_memory)
    return gst_cuda_smooth_pinned_pool_new (priv->ctx, caps, min, 0);
  if (cuda_memory)
    pool = gst_cuda_buffer_pool_new (priv->ctx);
#else
  (void) priv;
  (void) cuda_memory;
#endif
  if (!pool)
    pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), min, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

static guint
pool_buffer_size (GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  guint size = 0;
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);
  return size;
}

/* Upstream asks what to allocate: pinned host memory (or CUDA memory) from us. */
static gboolean
gst_cuda_smooth_filter_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query,
    GstQuery * query)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCaps *caps;
  gboolean need_pool;
  (void) decide_query;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps)
    return FALSE;
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
#ifdef HAVE_CUDA
  /* Sources such as GstBaseSrc re-apply the query's first allocator to the pool they take
   * from us: name the pinned allocator too, or they would swap in pageable memory. */
  if (PRIV (self)->use_cuda && !caps_are_cuda (caps, 0)) {
    GstAllocator *pinned = gst_cuda_smooth_pinned_allocator_new (PRIV (self)->ctx);
    GstAllocationParams params;
    gst_allocation_params_init (&params);
    gst_query_add_allocation_param (query, pinned, &params);
    gst_object_unref (pinned);
  }
#endif
  if (need_pool && gst_query_get_n_allocation_pools (query) == 0) {
    /* the frames we hold, and the one upstream fills meanwhile */
    GstBufferPool *pool = make_pool (self, caps, caps_are_cuda (caps, 0), HELD_FRAMES + 1);
    if (pool) {
      gst_query_add_allocation_pool (query, pool, pool_buffer_size (pool), HELD_FRAMES + 1, 0);
      gst_object_unref (pool);
    }
  }
  return TRUE;
}

/* Where our output buffers come from: our pinned pool for system memory on the GPU path,
 * a CUDA pool of our context for CUDA memory, else downstream's pool or a video pool. */
static gboolean
gst_cuda_smooth_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCaps *caps;
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  const gboolean have = gst_query_get_n_allocation_pools (query) > 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;
  if (have)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
#ifdef HAVE_CUDA
  if (pool && priv->out_cuda_caps &&
      !(GST_IS_CUDA_BUFFER_POOL (pool) && GST_CUDA_BUFFER_POOL (pool)->context == priv->ctx))
    gst_clear_object (&pool);
  if (pool && priv->use_cuda && !priv->out_cuda_caps)
    gst_clear_object (&pool);   /* system memory on the GPU path: always our pinned pool */
#endif
  /* more than downstream asks for by the frames we may hold */
  min = MAX (min, 2) + HELD_FRAMES;
  if (pool) {
    GstVideoInfo info;
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_video_info_from_caps (&info, caps);
    gst_buffer_pool_config_set_params (config, caps, MAX (size, GST_VIDEO_INFO_SIZE (&info)), min, max);
    if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
      gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config))
      gst_clear_object (&pool);
  }
  if (!pool)
    pool = make_pool (self, caps, priv->out_cuda_caps, min);
  if (!pool)
    return FALSE;
  size = pool_buffer_size (pool);
  if (have)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, 0);
  else
    gst_query_add_allocation_pool (query, pool, size, min, 0);
  gst_object_unref (pool);
  return TRUE;
}

/* Metas travel as GstVideoFilter lets them: those without tags or tagged only "video". */
static gboolean
gst_cuda_smooth_filter_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf)
{
  const GstMetaInfo *info = meta->info;
  const gchar *const *tags = gst_meta_api_type_get_tags (info->api);
  if (!tags || (g_strv_length ((gchar **) tags) == 1 &&
          gst_meta_api_type_has_tag (info->api, g_quark_from_string (GST_META_TAG_VIDEO_STR))))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->transform_meta (trans,
      outbuf, meta, inbuf);
}

/* ------------------------------------------------------------------ events, queries, state */

static gboolean
gst_cuda_smooth_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    drop_pending (self);
  else if (GST_EVENT_IS_SERIALIZED (event))
    drain_pending (self);   /* nothing overtakes a held frame */
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->sink_event (trans, event);
}

static gboolean
gst_cuda_smooth_filter_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  gboolean ret;

#ifdef HAVE_CUDA
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT && priv->ctx &&
      gst_cuda_handle_context_query (GST_ELEMENT (self), query, priv->ctx))
    return TRUE;
#endif
  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->query (trans, direction, query);
  if (ret && direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    gboolean live;
    GstClockTime min, max;
    gst_query_parse_latency (query, &live, &min, &max);
    priv->upstream_live = live;
    priv->live_known = TRUE;
    if (overlapping (self)) {
      const GstVideoInfo *info = &priv->out_info;
      const GstClockTime held = GST_VIDEO_INFO_FPS_N (info) > 0 ?
          gst_util_uint64_scale_int (HELD_FRAMES * GST_SECOND, GST_VIDEO_INFO_FPS_D (info),
          GST_VIDEO_INFO_FPS_N (info)) : 0;
      min += held;
      if (GST_CLOCK_TIME_IS_VALID (max))
        max += held;
      gst_query_set_latency (query, live, min, max);
      GST_DEBUG_OBJECT (self, "%d held frames add %" GST_TIME_FORMAT, HELD_FRAMES, GST_TIME_ARGS (held));
    }
  }
  return ret;
}

static void
gst_cuda_smooth_filter_set_context (GstElement * element, GstContext * context)
{
#ifdef HAVE_CUDA
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (element);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  gint device_id;
  GST_OBJECT_LOCK (self);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);
  if (gst_cuda_load_library ())
    gst_cuda_handle_set_context (element, context, device_id, &priv->ctx);
#endif
  GST_ELEMENT_CLASS (gst_cuda_smooth_filter_parent_class)->set_context (element, context);
}

static gboolean
gst_cuda_smooth_filter_start (GstBaseTransform * trans)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCudaSmoothBackend backend;

  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  GST_OBJECT_UNLOCK (self);
  priv->use_cuda = FALSE;
  priv->live_known = FALSE;
  priv->frames = 0;
  priv->n_threads = (int) g_get_num_processors ();
  if (backend != GST_CUDA_SMOOTH_BACKEND_CPU) {
    gchar *why = NULL;
#ifdef HAVE_CUDA
    priv->use_cuda = open_cuda (self, &why);
#else
    why = g_strdup ("built without CUDA");
#endif
    if (!priv->use_cuda && backend == GST_CUDA_SMOOTH_BACKEND_CUDA) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No usable CUDA device"),
          ("backend=cuda: %s", why));
      g_free (why);
      return FALSE;
    }
    if (!priv->use_cuda)
      GST_WARNING_OBJECT (self, "no usable CUDA device (%s): using the CPU path", why);
    g_free (why);
  }
  GST_INFO_OBJECT (self, "running on the %s", priv->use_cuda ? "GPU" : "CPU");
  priv->started = TRUE;
  return TRUE;
}

static gboolean
gst_cuda_smooth_filter_stop (GstBaseTransform * trans)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  drop_pending (self);
#ifdef HAVE_CUDA
  close_cuda (priv);
#endif
  cs_cpu_workspace_clear (&priv->cpu_ws);
  priv->use_cuda = FALSE;
  priv->started = FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------ properties, class */

static void
gst_cuda_smooth_filter_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (GST_CUDA_SMOOTH_FILTER (object));
  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_BACKEND:
      priv->backend = g_value_get_enum (value);
      break;
    case PROP_CUDA_DEVICE_ID:
      priv->device_id = g_value_get_int (value);
      break;
    case PROP_OVERLAP:
      priv->overlap = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cuda_smooth_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (GST_CUDA_SMOOTH_FILTER (object));
  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_BACKEND:
      g_value_set_enum (value, priv->backend);
      break;
    case PROP_CUDA_DEVICE_ID:
      g_value_set_int (value, priv->device_id);
      break;
    case PROP_OVERLAP:
      g_value_set_enum (value, priv->overlap);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
  GST_OBJECT_UNLOCK (object);
}

/* The parameter field behind a subclass property, or NULL when the class lists none. */
static gpointer
field_of (GObject * object, guint prop_id)
{
  GstCudaSmoothFilterClass *klass = GST_CUDA_SMOOTH_FILTER_GET_CLASS (object);
  if (prop_id == 0 || prop_id >= klass->n_field_offsets || klass->field_offsets[prop_id] == 0)
    return NULL;
  return G_STRUCT_MEMBER_P (object, klass->field_offsets[prop_id]);
}

void
gst_cuda_smooth_filter_set_field_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  gpointer field = field_of (object, prop_id);
  if (field == NULL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  GST_OBJECT_LOCK (object);
  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
    case G_TYPE_DOUBLE:
      *(gdouble *) field = g_value_get_double (value);
      break;
    case G_TYPE_INT:
      *(gint *) field = g_value_get_int (value);
      break;
    case G_TYPE_ENUM:
      *(gint *) field = g_value_get_enum (value);
      break;
    default:
      g_assert_not_reached ();
  }
  GST_OBJECT_UNLOCK (object);
}

void
gst_cuda_smooth_filter_get_field_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  gpointer field = field_of (object, prop_id);
  if (field == NULL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  GST_OBJECT_LOCK (object);
  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
    case G_TYPE_DOUBLE:
      g_value_set_double (value, *(gdouble *) field);
      break;
    case G_TYPE_INT:
      g_value_set_int (value, *(gint *) field);
      break;
    case G_TYPE_ENUM:
      g_value_set_enum (value, *(gint *) field);
      break;
    default:
      g_assert_not_reached ();
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cuda_smooth_filter_finalize (GObject * object)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (object);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  drop_pending (self);
#ifdef HAVE_CUDA
  close_cuda (priv);
#endif
  cs_cpu_workspace_clear (&priv->cpu_ws);
  G_OBJECT_CLASS (gst_cuda_smooth_filter_parent_class)->finalize (object);
}

static void
gst_cuda_smooth_filter_class_init (GstCudaSmoothFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_smooth_filter_set_property;
  gobject_class->get_property = gst_cuda_smooth_filter_get_property;
  gobject_class->finalize = gst_cuda_smooth_filter_finalize;

  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where to filter: auto (CUDA if a usable device exists, else CPU), cuda, cpu; "
          "takes effect at the next start (READY->PAUSED)",
          gst_cuda_smooth_backend_get_type (), DEFAULT_BACKEND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to use (-1 = any, or the one of a shared CUDA context)", -1, 1023,
          DEFAULT_DEVICE_ID, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_OVERLAP,
      g_param_spec_enum ("overlap", "Overlap",
          "Hold two frames so that one frame's upload, the next one's kernels and a third one's "
          "download run at once (GPU path): auto = only when upstream is not live (no added "
          "latency for cameras), on, off",
          gst_cuda_smooth_overlap_get_type (), DEFAULT_OVERLAP,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_stop);
  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_transform_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_set_caps);
  trans_class->get_unit_size = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_get_unit_size);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_propose_allocation);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_decide_allocation);
  trans_class->transform_meta = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_transform_meta);
  trans_class->submit_input_buffer = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_submit_input_buffer);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_generate_output);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_smooth_filter_query);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SMOOTH_FILTER, 0);
  gst_type_mark_as_plugin_api (gst_cuda_smooth_backend_get_type (), 0);
  gst_type_mark_as_plugin_api (gst_cuda_smooth_overlap_get_type (), 0);
}

static void
gst_cuda_smooth_filter_init (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  priv->backend = DEFAULT_BACKEND;
  priv->device_id = DEFAULT_DEVICE_ID;
  priv->overlap = DEFAULT_OVERLAP;
#ifdef HAVE_CUDA
  priv->n_slots = N_SLOTS;
#endif
  g_queue_init (&priv->pending);
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
}
