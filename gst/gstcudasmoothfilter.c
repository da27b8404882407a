/* gst-cudasmooth — the abstract base class of the three filters (see the header).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frame flow. submit_input_buffer lets GstBaseTransform renegotiate and apply QoS, then
 * takes the queued buffer, snapshots the properties and starts the frame: on the CPU path
 * it is filtered at once; on the GPU its upload, kernels and download are enqueued on one
 * of the executor's streams. generate_output hands frames downstream in order, holding back
 * at most `depth` frames still in flight (GST_CUDA_SMOOTH_SLOTS − 1 while overlapping, else
 * 0). Serialized events drain held frames first, so nothing is reordered around EOS, caps,
 * segments or custom events; a flush drops them. A buffer that holds no frame the element
 * can read (a zero-size GAP buffer, a short one, a video meta that points outside it) is
 * passed on as an empty GAP buffer with its timestamps, with one warning.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothfilter.h"

#include <string.h>

#include <gst/gst.h>

#include "gstcudasmoothcpu.h"
#include "gstcudasmoothframe.h"
#include "gstcudasmoothmemory.h"
#include "gstcudasmoothqueue.h"

#ifdef HAVE_CUDA
#define GST_USE_UNSTABLE_API
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "gstcudasmoothgpu.h"
#include "gstcudasmoothpinned.h"
#define N_SLOTS GST_CUDA_SMOOTH_SLOTS
#else
#define N_SLOTS 1
#endif

GST_DEBUG_CATEGORY (gst_cuda_smooth_debug);
#define GST_CAT_DEFAULT gst_cuda_smooth_debug

#define FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, GRAY8, NV12, NV21, I420, YV12, Y444, YUY2, UYVY }"
/* GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, also in builds without the CUDA library */
#define CUDA_MEMORY "memory:CUDAMemory"
/* Frames held while overlapping: with the one being submitted, one per stream. */
#define HELD_FRAMES (N_SLOTS - 1)

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_OVERLAP,
  PROP_MEMORY_LIMIT,
  PROP_ACTIVE_BACKEND,
  PROP_CHROMA,
};

#define DEFAULT_BACKEND GST_CUDA_SMOOTH_BACKEND_AUTO
#define DEFAULT_DEVICE_ID -1
#define DEFAULT_OVERLAP GST_CUDA_SMOOTH_OVERLAP_AUTO
#define DEFAULT_MEMORY_LIMIT 0
#define DEFAULT_CHROMA GST_CUDA_SMOOTH_CHROMA_FILTER

typedef struct
{
  /* properties, under the object lock */
  GstCudaSmoothBackend backend;
  gint device_id;
  GstCudaSmoothOverlap overlap;
  guint64 memory_limit_mib;
  GstCudaSmoothActiveBackend active;
  GstCudaSmoothChroma chroma;

  /* streaming thread (caps, buffers, serialized events) */
  gboolean started;
  gboolean use_cuda;
  GstVideoInfo in_info, out_info;
  gboolean in_cuda_caps, out_cuda_caps, same_caps;
  gpointer params;             /* this frame's parameters, params_size bytes */
  gpointer chroma_params;      /* those of its chroma, for the identity test */
  GstCudaSmoothGroupParams groups;   /* what each group of this frame gets */
  GstCudaSmoothLayout layout;  /* of the caps' format */
  gpointer cpu_params;         /* the parameters the CPU workspace was reserved for */
  gboolean cpu_filter[2];      /* and the groups it filtered */
  gboolean have_cpu_params;
  GstCudaSmoothQueue queue;
  GstCudaSmoothCpu cpu;
  gboolean warned_unreadable;  /* since the last caps: one warning for buffers passed on as gaps */
  gboolean refused_memory;     /* the memory-limit error was posted (once: negotiation retries) */
  GstFlowReturn drain_flow;    /* a drain's flow error at an event, for the next buffer to return */
  gint upstream_live;          /* atomic, also set from the query thread: −1 unknown, 0, 1 */
#ifdef HAVE_CUDA
  GstCudaSmoothGpu gpu;
#endif
} GstCudaSmoothFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaSmoothFilter, gst_cuda_smooth_filter,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstCudaSmoothFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cuda_smooth_debug, "cudasmooth", 0, "CUDA smoothing filters (shared base)"));

#define PRIV(self) ((GstCudaSmoothFilterPrivate *) gst_cuda_smooth_filter_get_instance_private (self))
#define CLASS(self) GST_CUDA_SMOOTH_FILTER_GET_CLASS (self)

/* The sizes and interlace modes the filters take: progressive frames, and interlaced ones
 * whose fields are filtered apart (gstcudasmoothframe.h); not one field per buffer. */
#define CAPS_FIELDS \
  ", width = (int) [ 1, 32768 ], height = (int) [ 1, 32768 ], framerate = (fraction) [ 0, max ], " \
  "interlace-mode = (string) { progressive, interleaved, mixed }"
G_STATIC_ASSERT (GST_CUDA_SMOOTH_MAX_SIDE == 32768);

GstCaps *
gst_cuda_smooth_filter_template_caps (void)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw, format = (string) " FORMATS CAPS_FIELDS);
#ifdef HAVE_CUDA
  gst_caps_append (caps, gst_caps_from_string ("video/x-raw(" CUDA_MEMORY
          "), format = (string) " FORMATS CAPS_FIELDS));
#endif
  return caps;
}

void
gst_cuda_smooth_filter_class_add_pad_templates (GstElementClass * klass)
{
  GstCaps *caps = gst_cuda_smooth_filter_template_caps ();
  gst_element_class_add_pad_template (klass, gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (klass, gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

static gboolean
caps_are_cuda (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);
  return f && gst_caps_features_contains (f, CUDA_MEMORY);
}

static void
set_active (GstCudaSmoothFilter * self, GstCudaSmoothActiveBackend active)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  gboolean changed;
  GST_OBJECT_LOCK (self);
  changed = priv->active != active;
  priv->active = active;
  GST_OBJECT_UNLOCK (self);
  if (changed)
    g_object_notify (G_OBJECT (self), "active-backend");
}

/* ------------------------------------------------------------------ held frames */

#ifdef HAVE_CUDA
#define CUDA_ERROR(self, err, what) \
  GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("CUDA error: %s", cudaGetErrorName (err)), \
      ("%s failed: %s (%s)", what, cudaGetErrorName (err), cudaGetErrorString (err)))
#endif

/* GstCudaSmoothWaitFunc of the queue */
static gboolean
wait_for_slot (gpointer user_data, gint slot)
{
#ifdef HAVE_CUDA
  GstCudaSmoothFilter *self = user_data;
  const cudaError_t err = gst_cuda_smooth_gpu_wait (&PRIV (self)->gpu, slot);
  if (err != cudaSuccess) {
    CUDA_ERROR (self, err, "cudaStreamSynchronize");
    return FALSE;
  }
#else
  (void) user_data;
  (void) slot;
#endif
  return TRUE;
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
    return g_atomic_int_get (&priv->upstream_live) == 0;
  return mode == GST_CUDA_SMOOTH_OVERLAP_ON;
}

/* Frames the element may hold: none on the CPU path. */
static guint
frames_held (GstCudaSmoothFilter * self)
{
  return PRIV (self)->use_cuda ? HELD_FRAMES : 0;
}

/* Pushes every held frame. A flow error is one no buffer returns: an EOS posts it, other
 * events leave it for the next buffer to return. */
static void
drain (GstCudaSmoothFilter * self, gboolean eos)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  const GstFlowReturn ret = gst_cuda_smooth_queue_drain (&priv->queue, GST_BASE_TRANSFORM_SRC_PAD (self));
  if (ret == GST_FLOW_OK || ret == GST_FLOW_FLUSHING)
    return;
  GST_DEBUG_OBJECT (self, "draining held frames: %s", gst_flow_get_name (ret));
  if (eos && (ret == GST_FLOW_NOT_LINKED || ret < GST_FLOW_EOS))
    GST_ELEMENT_FLOW_ERROR (self, ret);
  else if (priv->drain_flow == GST_FLOW_OK)
    priv->drain_flow = ret;
}

/* ------------------------------------------------------------------ frame work */

/* A consistent copy of the properties into priv->params, the chroma's parameters and what
 * each group of the caps' format gets; TRUE when they leave the frame unchanged. */
static gboolean
read_params (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCudaSmoothChroma chroma;
  GST_OBJECT_LOCK (self);
  CLASS (self)->get_params (self, priv->params);
  chroma = priv->chroma;
  GST_OBJECT_UNLOCK (self);
  const gboolean identity = CLASS (self)->is_identity (priv->params);
  priv->groups.params[0] = priv->params;
  priv->groups.filter[0] = !identity;
  priv->groups.params[1] = priv->params;
  priv->groups.filter[1] = FALSE;
  priv->groups.sub_x[0] = priv->groups.sub_y[0] = 1;
  priv->groups.sub_x[1] = priv->layout.sub_x;
  priv->groups.sub_y[1] = priv->layout.sub_y;
  if (priv->layout.n_groups == 2 && chroma == GST_CUDA_SMOOTH_CHROMA_FILTER) {
    /* the chroma changes no byte where its widest σ, along the less subsampled axis, does not */
    CLASS (self)->subsample_params (priv->params, MIN (priv->layout.sub_x, priv->layout.sub_y), priv->chroma_params);
    priv->groups.filter[1] = !CLASS (self)->is_identity (priv->chroma_params);
  }
  return identity;
}

/* Controller values at the buffer's stream time, then read_params (). */
static gboolean
snapshot_params (GstCudaSmoothFilter * self, GstBuffer * buf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  const GstClockTime ts = GST_BUFFER_TIMESTAMP (buf);
  if (GST_CLOCK_TIME_IS_VALID (ts)) {
    const GstClockTime st = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME, ts);
    if (GST_CLOCK_TIME_IS_VALID (st))
      gst_object_sync_values (GST_OBJECT (self), st);
  }
  return read_params (self);
}

#ifdef HAVE_CUDA
static void
learn_liveness (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstQuery *q;
  gboolean live;
  if (g_atomic_int_get (&priv->upstream_live) >= 0)
    return;
  q = gst_query_new_latency ();
  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), q)) {
    gst_query_parse_latency (q, &live, NULL, NULL);
    g_atomic_int_set (&priv->upstream_live, live ? 1 : 0);
    GST_DEBUG_OBJECT (self, "upstream is %slive", live ? "" : "not ");
  }
  gst_query_unref (q);
}
#endif

/* Host bytes the element takes for frames of info with the parameters in priv->params:
 * the pools it allocates and the CPU path's workspace. */
static guint64
host_bytes (GstCudaSmoothFilter * self, guint64 * workspace)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  const guint64 frame = GST_VIDEO_INFO_SIZE (&priv->in_info);
  /* the output pool (2 + the frames held) and the pool proposed upstream (held + 1),
   * where those are host memory */
  const guint64 out_frames = priv->out_cuda_caps ? 0 : 2 + frames_held (self);
  const guint64 in_frames = priv->in_cuda_caps ? 0 : 1 + frames_held (self);
  *workspace = priv->use_cuda ? 0 : gst_cuda_smooth_cpu_workspace_bytes (&priv->cpu, &priv->groups, &priv->in_info);
  return (out_frames + in_frames) * frame + *workspace;
}

/* Posts an error and returns FALSE when frames of the current caps and parameters would
 * take more host memory than the limit. */
static gboolean
within_memory_limit (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  const gchar *source;
  guint64 mib, workspace;
  GST_OBJECT_LOCK (self);
  mib = priv->memory_limit_mib;
  GST_OBJECT_UNLOCK (self);
  const guint64 limit = gst_cuda_smooth_memory_limit (mib, &source), need = host_bytes (self, &workspace);
  GST_DEBUG_OBJECT (self, "host memory: %" G_GUINT64_FORMAT " bytes (workspace %" G_GUINT64_FORMAT "), limit %"
      G_GUINT64_FORMAT " (%s)", need, workspace, limit, source);
  if (need <= limit)
    return TRUE;
  if (priv->refused_memory)
    return FALSE;
  priv->refused_memory = TRUE;
  GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
      ("%dx%d frames need %" G_GUINT64_FORMAT " MiB of memory, more than the limit of %" G_GUINT64_FORMAT " MiB",
          GST_VIDEO_INFO_WIDTH (&priv->in_info), GST_VIDEO_INFO_HEIGHT (&priv->in_info), (need + (1 << 20) - 1) >> 20,
          limit >> 20),
      ("%s path: frames %" G_GUINT64_FORMAT " MiB, workspace %" G_GUINT64_FORMAT " MiB; the limit is %s; raise "
          "memory-limit (MiB) to allow more", priv->use_cuda ? "GPU" : "CPU", (need - workspace) >> 20,
          workspace >> 20, source));
  return FALSE;
}

/* The CPU workspace for the parameters in priv->params (reserved again only when they
 * change, and checked against the memory limit then). */
static gboolean
ensure_cpu_workspace (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  const gsize size = CLASS (self)->params_size;
  if (priv->have_cpu_params && !memcmp (priv->cpu_params, priv->params, size) &&
      priv->cpu_filter[0] == priv->groups.filter[0] && priv->cpu_filter[1] == priv->groups.filter[1])
    return TRUE;
  if (!within_memory_limit (self))
    return FALSE;
  if (gst_cuda_smooth_cpu_reserve (&priv->cpu, &priv->groups, &priv->in_info) != 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Out of memory for the CPU path's workspace"),
        ("%" G_GSIZE_FORMAT " bytes for %dx%d frames", gst_cuda_smooth_cpu_workspace_bytes (&priv->cpu, &priv->groups,
                &priv->in_info), GST_VIDEO_INFO_WIDTH (&priv->in_info), GST_VIDEO_INFO_HEIGHT (&priv->in_info)));
    return FALSE;
  }
  memcpy (priv->cpu_params, priv->params, size);
  priv->cpu_filter[0] = priv->groups.filter[0];
  priv->cpu_filter[1] = priv->groups.filter[1];
  priv->have_cpu_params = TRUE;
  return TRUE;
}

/* Maps the frame's input (for the GPU when it runs there); FALSE with *why when the buffer
 * holds no frame it can read. */
static gboolean
map_input (GstCudaSmoothFilter * self, GstCudaSmoothPending * p, gboolean * on_device, gchar ** why)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  *on_device = FALSE;
#ifdef HAVE_CUDA
  if (priv->use_cuda)
    return (p->in_mapped = gst_cuda_smooth_gpu_map (&priv->gpu, &p->in_frame, p->inbuf, GST_MAP_READ, on_device, why));
#endif
  return (p->in_mapped = gst_cuda_smooth_frame_map (&p->in_frame, &priv->in_info, p->inbuf, GST_MAP_READ, why));
}

static gboolean
map_output (GstCudaSmoothFilter * self, GstCudaSmoothPending * p, gboolean * on_device, gchar ** why)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  *on_device = FALSE;
#ifdef HAVE_CUDA
  if (priv->use_cuda)
    return (p->out_mapped = gst_cuda_smooth_gpu_map (&priv->gpu, &p->out_frame, p->outbuf, GST_MAP_WRITE, on_device,
            why));
#endif
  return (p->out_mapped = gst_cuda_smooth_frame_map (&p->out_frame, &priv->out_info, p->outbuf, GST_MAP_WRITE, why));
}

/* An input buffer without a readable frame: an empty GAP buffer in its place. */
static void
pass_on_as_gap (GstCudaSmoothFilter * self, GstCudaSmoothPending * p, const gchar * why)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  if (!priv->warned_unreadable) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("A buffer that holds no readable frame is passed on as a gap"),
        ("%s (pts %" GST_TIME_FORMAT "%s); later ones are logged only", why,
            GST_TIME_ARGS (GST_BUFFER_PTS (p->inbuf)),
            GST_BUFFER_FLAG_IS_SET (p->inbuf, GST_BUFFER_FLAG_GAP) ? ", a GAP buffer" : ""));
    priv->warned_unreadable = TRUE;
  } else {
    GST_DEBUG_OBJECT (self, "passed on as a gap: %s", why);
  }
  p->outbuf = gst_cuda_smooth_gap_buffer_for (p->inbuf);
  gst_cuda_smooth_pending_complete (&priv->queue, p);
}

static GstFlowReturn
filter_frame (GstCudaSmoothFilter * self, GstCudaSmoothPending * p, gboolean identity, gboolean in_dev,
    gboolean out_dev)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
#ifdef HAVE_CUDA
  if (priv->use_cuda) {
    const char *what = "";
    gboolean slots_lost;
    learn_liveness (self);
    const cudaError_t err = gst_cuda_smooth_gpu_submit (&priv->gpu, p, in_dev, out_dev, &priv->groups, identity,
        overlapping (self), &what, &slots_lost);
    if (slots_lost)
      GST_ELEMENT_WARNING (self, RESOURCE, NO_SPACE_LEFT,
          ("Not enough GPU memory for %d frames in flight; running %d", N_SLOTS, priv->gpu.n_slots),
          ("allocating the buffers of another stream failed"));
    if (err != cudaSuccess) {
      CUDA_ERROR (self, err, what);
      return GST_FLOW_ERROR;
    }
    return GST_FLOW_OK;
  }
#else
  (void) in_dev;
  (void) out_dev;
#endif
  if (!identity && !ensure_cpu_workspace (self))
    return GST_FLOW_ERROR;
  if (gst_cuda_smooth_cpu_run (&priv->cpu, &priv->groups, identity, &p->in_frame, &p->out_frame, &priv->in_info) != 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Out of memory on the CPU path"),
        ("%dx%d frame", GST_VIDEO_INFO_WIDTH (&priv->in_info), GST_VIDEO_INFO_HEIGHT (&priv->in_info)));
    return GST_FLOW_ERROR;
  }
  gst_cuda_smooth_pending_complete (&priv->queue, p);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_smooth_filter_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont, GstBuffer * inbuf)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstFlowReturn ret;
  gboolean in_dev, out_dev;
  gchar *why = NULL;

  if (priv->drain_flow != GST_FLOW_OK) {
    /* the frames an event drained met this downstream: upstream learns it now */
    ret = priv->drain_flow;
    priv->drain_flow = GST_FLOW_OK;
    gst_buffer_unref (inbuf);
    return ret;
  }
  /* GstBaseTransform flags the next buffer it pushes DISCONT after a DISCONT input; push
   * the held frames ourselves first, so the flag lands on the frame that carries it.
   * (Its is_discont stays TRUE until it pushes a buffer itself, so ask the buffer.) */
  if (GST_BUFFER_IS_DISCONT (inbuf) &&
      (ret = gst_cuda_smooth_queue_drain (&priv->queue, GST_BASE_TRANSFORM_SRC_PAD (self))) != GST_FLOW_OK) {
    gst_buffer_unref (inbuf);
    return ret;
  }
  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->submit_input_buffer (trans, is_discont, inbuf);
  if (ret != GST_FLOW_OK || !trans->queued_buf)
    return ret;
  GstCudaSmoothPending *p = gst_cuda_smooth_pending_new (trans->queued_buf);
  trans->queued_buf = NULL;

  const gboolean identity = snapshot_params (self, p->inbuf);
  if (identity && priv->same_caps) {
    p->outbuf = p->inbuf;   /* pass through, in order behind any held frame */
    p->inbuf = NULL;
    gst_cuda_smooth_queue_push (&priv->queue, p);
    return GST_FLOW_OK;
  }
  if (!map_input (self, p, &in_dev, &why)) {
    pass_on_as_gap (self, p, why);
    g_free (why);
    gst_cuda_smooth_queue_push (&priv->queue, p);
    return GST_FLOW_OK;
  }
  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->prepare_output_buffer (trans, p->inbuf,
      &p->outbuf);
  if (ret == GST_FLOW_OK && !map_output (self, p, &out_dev, &why)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("An output buffer does not hold the frame it is meant for"),
        ("%s (from the downstream buffer pool)", why));
    g_free (why);
    ret = GST_FLOW_ERROR;
  }
  if (ret == GST_FLOW_OK)
    ret = filter_frame (self, p, identity, in_dev, out_dev);
  if (ret != GST_FLOW_OK) {
    gst_cuda_smooth_pending_discard (&priv->queue, p);
    return ret;
  }
  gst_cuda_smooth_queue_push (&priv->queue, p);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_smooth_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  return gst_cuda_smooth_queue_pop (&PRIV (self)->queue, overlapping (self) ? HELD_FRAMES : 0, outbuf);
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
gst_cuda_smooth_filter_transform_caps (GstBaseTransform * trans, GstPadDirection direction, GstCaps * caps,
    GstCaps * filter)
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
      cuda_in ? CUDA_MEMORY : GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY,
      cuda_in ? GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY : CUDA_MEMORY,
    };
    if (gst_caps_features_is_any (gst_caps_get_features (caps, i)))
      continue;
    for (int k = 0; k < 2; k++) {
      const gboolean is_cuda = g_str_equal (order[k], CUDA_MEMORY);
      if (is_cuda && !cuda_possible)
        continue;
      ret = gst_caps_merge_structure_full (ret, gst_structure_copy (s), gst_caps_features_new (order[k], NULL));
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

#ifdef HAVE_CUDA
/* The GPU executor for the new caps; on a GPU without memory for them, backend=auto runs
 * system-memory caps on the CPU instead (with a warning saying so). */
static gboolean
configure_gpu (GstCudaSmoothFilter * self, gboolean identity)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  const char *what = "";
  const cudaError_t err = gst_cuda_smooth_gpu_configure (&priv->gpu, &priv->in_info, priv->in_cuda_caps,
      priv->out_cuda_caps, &priv->groups, identity, &what);
  if (err == cudaSuccess)
    return TRUE;
  const gint w = GST_VIDEO_INFO_WIDTH (&priv->in_info), h = GST_VIDEO_INFO_HEIGHT (&priv->in_info);
  GstCudaSmoothBackend backend;
  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  GST_OBJECT_UNLOCK (self);
  if (err == cudaErrorMemoryAllocation && backend == GST_CUDA_SMOOTH_BACKEND_AUTO && !priv->in_cuda_caps &&
      !priv->out_cuda_caps) {
    GST_ELEMENT_WARNING (self, RESOURCE, NO_SPACE_LEFT, ("Running on the CPU: the GPU has too little free memory "
            "for %dx%d frames", w, h), ("backend=auto; %s: %s", what, cudaGetErrorName (err)));
    gst_cuda_smooth_gpu_close (&priv->gpu);
    priv->use_cuda = FALSE;
    set_active (self, GST_CUDA_SMOOTH_ACTIVE_CPU);
    return TRUE;
  }
  if (err == cudaErrorMemoryAllocation)
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Not enough GPU memory for %dx%d frames", w, h),
        ("%s: %s (%s)", what, cudaGetErrorName (err), cudaGetErrorString (err)));
  else
    CUDA_ERROR (self, err, what);
  return FALSE;
}
#endif

static gboolean
gst_cuda_smooth_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);

  if (!gst_video_info_from_caps (&priv->in_info, incaps) || !gst_video_info_from_caps (&priv->out_info, outcaps) ||
      GST_VIDEO_INFO_FORMAT (&priv->in_info) != GST_VIDEO_INFO_FORMAT (&priv->out_info) ||
      GST_VIDEO_INFO_WIDTH (&priv->in_info) != GST_VIDEO_INFO_WIDTH (&priv->out_info) ||
      GST_VIDEO_INFO_HEIGHT (&priv->in_info) != GST_VIDEO_INFO_HEIGHT (&priv->out_info) ||
      GST_VIDEO_INFO_INTERLACE_MODE (&priv->in_info) != GST_VIDEO_INFO_INTERLACE_MODE (&priv->out_info)) {
    GST_WARNING_OBJECT (self, "unsupported caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  priv->in_cuda_caps = caps_are_cuda (incaps, 0);
  priv->out_cuda_caps = caps_are_cuda (outcaps, 0);
  /* (caps may differ in fields that leave the frames alike, e.g. an explicit progressive) */
  priv->same_caps = priv->in_cuda_caps == priv->out_cuda_caps && gst_video_info_is_equal (&priv->in_info, &priv->out_info);
  priv->warned_unreadable = FALSE;
  priv->have_cpu_params = FALSE;
  if ((priv->in_cuda_caps || priv->out_cuda_caps) && !priv->use_cuda)
    return FALSE;

  gst_cuda_smooth_layout_of (&priv->in_info, &priv->layout);
  const gboolean identity = read_params (self);
#ifdef HAVE_CUDA
  if (priv->use_cuda && !configure_gpu (self, identity))
    return FALSE;
#else
  (void) identity;
#endif
  if (priv->use_cuda ? !within_memory_limit (self) : !ensure_cpu_workspace (self))
    return FALSE;
  priv->refused_memory = FALSE;
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
    return gst_cuda_smooth_pinned_pool_new (priv->gpu.ctx, caps, min, 0);
  if (cuda_memory)
    pool = gst_cuda_buffer_pool_new (priv->gpu.ctx);
#else
  (void) priv;
  (void) cuda_memory;
#endif
  if (!pool)
    pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), min, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
#ifdef HAVE_CUDA
  if (cuda_memory)
    gst_cuda_smooth_gpu_configure_pool (&priv->gpu, config);
#endif
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
gst_cuda_smooth_filter_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query, GstQuery * query)
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
    GstAllocator *pinned = gst_cuda_smooth_pinned_allocator_new (PRIV (self)->gpu.ctx);
    GstAllocationParams params;
    gst_allocation_params_init (&params);
    gst_query_add_allocation_param (query, pinned, &params);
    gst_object_unref (pinned);
  }
#endif
  if (need_pool && gst_query_get_n_allocation_pools (query) == 0) {
    /* the frames we hold, and the one upstream fills meanwhile */
    const guint min = frames_held (self) + 1;
    GstBufferPool *pool = make_pool (self, caps, caps_are_cuda (caps, 0), min);
    if (pool) {
      gst_query_add_allocation_pool (query, pool, pool_buffer_size (pool), min, 0);
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
      !(GST_IS_CUDA_BUFFER_POOL (pool) && GST_CUDA_BUFFER_POOL (pool)->context == priv->gpu.ctx))
    gst_clear_object (&pool);
  if (pool && priv->use_cuda && !priv->out_cuda_caps)
    gst_clear_object (&pool);   /* system memory on the GPU path: always our pinned pool */
#endif
  /* more than downstream asks for by the frames we may hold */
  min = MAX (min, 2) + frames_held (self);
  if (pool) {
    GstVideoInfo info;
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_video_info_from_caps (&info, caps);
    gst_buffer_pool_config_set_params (config, caps, MAX (size, GST_VIDEO_INFO_SIZE (&info)), min, max);
    if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
      gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
#ifdef HAVE_CUDA
    if (priv->out_cuda_caps)
      gst_cuda_smooth_gpu_configure_pool (&priv->gpu, config);
#endif
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
gst_cuda_smooth_filter_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  const GstMetaInfo *info = meta->info;
  const gchar *const *tags = gst_meta_api_type_get_tags (info->api);
  if (!tags || (g_strv_length ((gchar **) tags) == 1 &&
          gst_meta_api_type_has_tag (info->api, g_quark_from_string (GST_META_TAG_VIDEO_STR))))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->transform_meta (trans, outbuf, meta, inbuf);
}

/* ------------------------------------------------------------------ events, queries, state */

static gboolean
gst_cuda_smooth_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    gst_cuda_smooth_queue_drop (&PRIV (self)->queue);
    PRIV (self)->drain_flow = GST_FLOW_OK;
  } else if (GST_EVENT_IS_SERIALIZED (event)) {
    drain (self, GST_EVENT_TYPE (event) == GST_EVENT_EOS);   /* nothing overtakes a held frame */
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->sink_event (trans, event);
}

static gboolean
gst_cuda_smooth_filter_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  gboolean ret;

#ifdef HAVE_CUDA
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT && priv->gpu.ctx &&
      gst_cuda_handle_context_query (GST_ELEMENT (self), query, priv->gpu.ctx))
    return TRUE;
#endif
  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_smooth_filter_parent_class)->query (trans, direction, query);
  if (ret && direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    gboolean live;
    GstClockTime min, max;
    gst_query_parse_latency (query, &live, &min, &max);
    g_atomic_int_set (&priv->upstream_live, live ? 1 : 0);
    if (overlapping (self)) {
      GstVideoInfo info;
      GstCaps *caps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (self));
      const gboolean have_info = caps && gst_video_info_from_caps (&info, caps);
      const GstClockTime held = have_info && GST_VIDEO_INFO_FPS_N (&info) > 0 ?
          gst_util_uint64_scale_int (HELD_FRAMES * GST_SECOND, GST_VIDEO_INFO_FPS_D (&info),
          GST_VIDEO_INFO_FPS_N (&info)) : 0;
      gst_clear_caps (&caps);
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
    gst_cuda_handle_set_context (element, context, device_id, &priv->gpu.ctx);
#endif
  GST_ELEMENT_CLASS (gst_cuda_smooth_filter_parent_class)->set_context (element, context);
}

/* Chooses the backend: CUDA where asked and usable, else the CPU; every reason not to use
 * the GPU is said, as an error with backend=cuda and as a warning with backend=auto. */
static gboolean
gst_cuda_smooth_filter_start (GstBaseTransform * trans)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCudaSmoothBackend backend;
  gint device_id;

  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);
  priv->use_cuda = FALSE;
  g_atomic_int_set (&priv->upstream_live, -1);
  priv->drain_flow = GST_FLOW_OK;
  priv->have_cpu_params = FALSE;
  priv->refused_memory = FALSE;
  if (backend != GST_CUDA_SMOOTH_BACKEND_CPU) {
    gchar *why = NULL;
#ifdef HAVE_CUDA
    priv->use_cuda = gst_cuda_smooth_gpu_open (&priv->gpu, GST_ELEMENT (self), device_id, &why);
#else
    (void) device_id;
    why = g_strdup ("this build of the plugin has no CUDA backend");
#endif
    if (!priv->use_cuda && backend == GST_CUDA_SMOOTH_BACKEND_CUDA) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No usable CUDA device: %s", why), ("backend=cuda"));
      g_free (why);
      return FALSE;
    }
    if (!priv->use_cuda)
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND, ("Running on the CPU: %s", why),
          ("backend=auto; set backend=cpu to choose the CPU path without this warning"));
    g_free (why);
  }
  GST_INFO_OBJECT (self, "running on the %s", priv->use_cuda ? "GPU" : "CPU");
  priv->started = TRUE;
  set_active (self, priv->use_cuda ? GST_CUDA_SMOOTH_ACTIVE_CUDA : GST_CUDA_SMOOTH_ACTIVE_CPU);
  return TRUE;
}

static gboolean
gst_cuda_smooth_filter_stop (GstBaseTransform * trans)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (trans);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  gst_cuda_smooth_queue_drop (&priv->queue);
#ifdef HAVE_CUDA
  gst_cuda_smooth_gpu_close (&priv->gpu);
#endif
  gst_cuda_smooth_cpu_clear (&priv->cpu);
  priv->have_cpu_params = FALSE;
  priv->use_cuda = FALSE;
  priv->started = FALSE;
  set_active (self, GST_CUDA_SMOOTH_ACTIVE_NONE);
  return TRUE;
}

/* ------------------------------------------------------------------ properties, class */

static void
gst_cuda_smooth_filter_set_property (GObject * object, guint prop_id, const GValue * value, GParamSpec * pspec)
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
    case PROP_MEMORY_LIMIT:
      priv->memory_limit_mib = g_value_get_uint64 (value);
      break;
    case PROP_CHROMA:
      priv->chroma = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cuda_smooth_filter_get_property (GObject * object, guint prop_id, GValue * value, GParamSpec * pspec)
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
    case PROP_MEMORY_LIMIT:
      g_value_set_uint64 (value, priv->memory_limit_mib);
      break;
    case PROP_ACTIVE_BACKEND:
      g_value_set_enum (value, priv->active);
      break;
    case PROP_CHROMA:
      g_value_set_enum (value, priv->chroma);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cuda_smooth_filter_finalize (GObject * object)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (object);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  gst_cuda_smooth_queue_drop (&priv->queue);
#ifdef HAVE_CUDA
  gst_cuda_smooth_gpu_close (&priv->gpu);
  g_free (priv->gpu.params[0]);
  g_free (priv->gpu.params[1]);
#endif
  gst_cuda_smooth_cpu_clear (&priv->cpu);
  g_free (priv->params);
  g_free (priv->chroma_params);
  g_free (priv->cpu_params);
  G_OBJECT_CLASS (gst_cuda_smooth_filter_parent_class)->finalize (object);
}

static void gst_cuda_smooth_filter_constructed (GObject * object);

static void
gst_cuda_smooth_filter_class_init (GstCudaSmoothFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_smooth_filter_set_property;
  gobject_class->get_property = gst_cuda_smooth_filter_get_property;
  gobject_class->finalize = gst_cuda_smooth_filter_finalize;
  gobject_class->constructed = gst_cuda_smooth_filter_constructed;

  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where to filter: auto (CUDA if a usable device exists, else the CPU with a warning saying why), cuda, "
          "cpu; takes effect at the next start (READY->PAUSED)",
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
  g_object_class_install_property (gobject_class, PROP_MEMORY_LIMIT,
      g_param_spec_uint64 ("memory-limit", "Memory limit",
          "Most host memory the element may take for its frames and workspace, in MiB; caps that need more "
          "are refused with an error saying how much (0 = half of the physical memory or of the process's "
          "memory limit, the smaller)", 0, G_MAXUINT64 >> 20, DEFAULT_MEMORY_LIMIT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_ACTIVE_BACKEND,
      g_param_spec_enum ("active-backend", "Active backend",
          "What filters the frames now: none (not started), cuda or cpu",
          gst_cuda_smooth_active_backend_get_type (), GST_CUDA_SMOOTH_ACTIVE_NONE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_CHROMA,
      g_param_spec_enum ("chroma", "Chroma",
          "YUV formats: filter smooths U and V as one image at their own size (the spatial parameters "
          "scaled by the subsampling); copy filters luma only and copies U and V through (cheaper). "
          "No effect on RGB and GRAY8",
          gst_cuda_smooth_chroma_get_type (), DEFAULT_CHROMA,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

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
  gst_type_mark_as_plugin_api (gst_cuda_smooth_active_backend_get_type (), 0);
  gst_type_mark_as_plugin_api (gst_cuda_smooth_overlap_get_type (), 0);
  gst_type_mark_as_plugin_api (gst_cuda_smooth_chroma_get_type (), 0);
}

#ifdef HAVE_CUDA
/* A subclass without a GPU path: frames are copied */
static cudaError_t
copy_plan (gconstpointer params, int sx, int sy, int width, int height, const CsCudaDevice * dev, CsCudaPlan ** plan)
{
  (void) params;
  (void) sx;
  (void) sy;
  (void) dev;
  return cs_cuda_copy_plan_new (width, height, plan);
}
#endif

/* The executors and the parameter copies, once the subclass (and its parameters' size) is
 * known: instance_init runs with each ancestor's class in turn. */
static void
gst_cuda_smooth_filter_constructed (GObject * object)
{
  GstCudaSmoothFilter *self = GST_CUDA_SMOOTH_FILTER (object);
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  GstCudaSmoothFilterClass *klass = CLASS (self);
  const gsize size = MAX (klass->params_size, 1);
  priv->params = g_malloc0 (size);
  priv->chroma_params = g_malloc0 (size);
  priv->cpu_params = g_malloc0 (size);
  gst_cuda_smooth_cpu_init (&priv->cpu, klass->filter_cpu, klass->filter_cpu_views, klass->cpu_workspace_bytes);
#ifdef HAVE_CUDA
  gst_cuda_smooth_gpu_init (&priv->gpu, klass->cuda_plan_new ? klass->cuda_plan_new : copy_plan, size);
#endif
  G_OBJECT_CLASS (gst_cuda_smooth_filter_parent_class)->constructed (object);
}

static void
gst_cuda_smooth_filter_init (GstCudaSmoothFilter * self)
{
  GstCudaSmoothFilterPrivate *priv = PRIV (self);
  priv->backend = DEFAULT_BACKEND;
  priv->device_id = DEFAULT_DEVICE_ID;
  priv->overlap = DEFAULT_OVERLAP;
  priv->memory_limit_mib = DEFAULT_MEMORY_LIMIT;
  priv->chroma = DEFAULT_CHROMA;
  priv->active = GST_CUDA_SMOOTH_ACTIVE_NONE;
  priv->upstream_live = -1;
  gst_cuda_smooth_queue_init (&priv->queue, wait_for_slot, self);
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
}
