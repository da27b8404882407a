/* The elements on the GPU inside real pipelines: cudaupload/cudadownload interop (CUDA
 * memory in and out), mixed memory (CUDA in, system out and the reverse), GPU and CPU
 * backends against the double reference on the same frames, a frame too large for the
 * device, a device with room for fewer frames in flight than overlap asks for, shares of the
 * pinned output buffers, CUDA buffers whose video meta points outside their memory, three
 * elements chained in CUDA memory.
 * Skips (exit 77) with the reason where no usable CUDA device exists.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda_runtime.h>
#define GST_USE_UNSTABLE_API
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cs_metrics.h"
#include "cs_reference.h"
#include "cs_test_probe.h"
#include "cs_test_views.h"

#define W 193
#define H 131
#define FRAMES 4

static const char *const elements[] = {
  "edgeawaregauss sigma=12 sigma-r=30 blocks-per-stripe=1",
  "bilateral sigma=1.5 sigma-r=25 radius=3",
  "recursivegauss sigma=6 blocks-per-stripe=1",
};

/* Runs "videotestsrc ... ! <middle> ! appsink" and returns FRAMES RGBA frames (tightly
 * packed copies), or NULL with *error set. */
static guint8 **run (const char *middle, gchar **error)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%d pattern=smpte ! "
      "video/x-raw,format=RGBA,width=%d,height=%d,framerate=30/1 ! %s ! "
      "video/x-raw,format=RGBA ! appsink name=out sync=false", FRAMES, W, H, middle);
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!p || err) {   /* a missing element leaves a partial pipeline and an error */
    *error = g_strdup (err->message);
    g_clear_error (&err);
    gst_clear_object (&p);
    return NULL;
  }
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "out");
  guint8 **frames = g_new0 (guint8 *, FRAMES);
  GstMessage *failure = NULL;
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (int i = 0, waited = 0; i < FRAMES && waited < 30;) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), GST_SECOND);
    if (!s) {
      failure = gst_bus_pop_filtered (GST_ELEMENT_BUS (p), GST_MESSAGE_ERROR);
      if (failure || gst_app_sink_is_eos (GST_APP_SINK (sink)))
        break;
      waited++;
      continue;
    }
    GstVideoInfo info;
    GstVideoFrame f;
    gst_video_info_from_caps (&info, gst_sample_get_caps (s));
    gst_video_frame_map (&f, &info, gst_sample_get_buffer (s), GST_MAP_READ);
    frames[i] = g_malloc (W * H * 4);
    for (int y = 0; y < H; y++)
      memcpy (frames[i] + y * W * 4, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), W * 4);
    gst_video_frame_unmap (&f);
    gst_sample_unref (s);
    i++;
  }
  /* every error on the bus, in order (the first may be a source's not-linked) */
  GString *errors = g_string_new (NULL);
  for (GstMessage *m = failure ? failure : gst_bus_pop_filtered (GST_ELEMENT_BUS (p), GST_MESSAGE_ERROR);
      m; m = gst_bus_pop_filtered (GST_ELEMENT_BUS (p), GST_MESSAGE_ERROR)) {
    gchar *dbg = NULL;
    gst_message_parse_error (m, &err, &dbg);
    g_string_append_printf (errors, "%s%s: %s (%s)", errors->len ? "; " : "",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (m)), err->message, dbg);
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (m);
  }
  if (errors->len)
    *error = g_string_free (errors, FALSE);
  else
    g_string_free (errors, TRUE);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  if (!frames[FRAMES - 1] && !*error)
    *error = g_strdup ("not every frame came out");
  return frames;
}

static void free_frames (guint8 **f)
{
  for (int i = 0; f && i < FRAMES; i++)
    g_free (f[i]);
  g_free (f);
}

static CsImage view (guint8 *data)
{
  CsImage img = { data, W, H, W * 4, 3 };
  return img;
}

/* The element (given by index) on the CPU reference, frame by frame. */
static void reference (int e, guint8 **in, guint8 **out)
{
  for (int i = 0; i < FRAMES; i++) {
    CsImage s = view (in[i]);
    out[i] = g_malloc (W * H * 4);
    CsImage d = view (out[i]);
    if (e == 0) {
      CsEdgeAwareParams p = cs_edgeaware_params_default ();
      p.sigma = 12;
      p.sigma_r = 30;
      p.blocks_per_stripe = 1;
      cs_ref_edgeaware (&s, &d, &p);
    } else if (e == 1) {
      CsBilateralParams p = cs_bilateral_params_default ();
      p.sigma = 1.5;
      p.radius = 3;
      cs_ref_bilateral (&s, &d, &p);
    } else {
      CsRecursiveParams p = cs_recursive_params_default ();
      p.sigma = 6;
      p.blocks_per_stripe = 1;
      cs_ref_recursive (&s, &d, &p);
    }
  }
}

static const char *const routes[] = {
  "%s backend=cuda",                                                      /* system -> system */
  "cudaupload ! %s backend=cuda ! cudadownload",                          /* CUDA -> CUDA */
  "cudaupload ! %s backend=cuda ! capsfilter caps=video/x-raw",            /* CUDA -> system */
  "%s backend=cuda ! capsfilter caps=\"video/x-raw(memory:CUDAMemory)\" ! cudadownload", /* system -> CUDA */
  "%s backend=cuda overlap=on",                                           /* held frames */
  "cudaupload ! %s backend=cuda overlap=on ! cudadownload",
  "%s backend=cpu",                                                       /* the CPU path */
};

GST_START_TEST (test_routes_against_reference)
{
  const int e = __i__ % 3, r = __i__ / 3;
  gchar *error = NULL;
  guint8 **input = run ("identity", &error);
  ck_assert_msg (!error, "source: %s", error);
  guint8 *expected[FRAMES];
  reference (e, input, expected);
  gchar *middle = g_strdup_printf (routes[r], elements[e]);
  guint8 **got = run (middle, &error);
  ck_assert_msg (!error, "%s: %s", middle, error);
  for (int i = 0; i < FRAMES; i++) {
    CsImage a = view (got[i]), b = view (expected[i]);
    const CsErrorStats st = cs_compare_images (&a, &b);
    printf ("%-90s frame %d: max %.0f psnr %.2f\n", middle, i, st.max_abs, st.psnr);
    ck_assert_msg (st.max_abs <= 1 && st.alpha_differing == 0, "%s frame %d: max %.0f", middle, i, st.max_abs);
    g_free (expected[i]);
  }
  g_free (middle);
  free_frames (input);
  free_frames (got);
}
GST_END_TEST;

/* Frames no device can hold fail negotiation with a clear error, not a crash. GStreamer
 * 1.22 caps a frame at 4 GiB, so the test chains edgeawaregauss elements at 32000x32000,
 * each wanting ~23 GiB of device frames and scratch, enough of them to need half as much
 * again as the card has: one of them runs out, whatever the card. */
GST_START_TEST (test_frame_too_large)
{
  size_t free_bytes = 0, total = 0;
  ck_assert_int_eq (cudaMemGetInfo (&free_bytes, &total), cudaSuccess);
  GString *desc = g_string_new ("appsrc name=src format=time caps=video/x-raw,format=RGBA,width=32000,height=32000,"
      "framerate=1/1");
  for (size_t wanted = 0; wanted <= total + total / 2; wanted += (size_t) 20 << 30)
    g_string_append (desc, " ! edgeawaregauss backend=cuda");
  g_string_append (desc, " ! fakesink");
  GstElement *p = gst_parse_launch (desc->str, NULL);
  g_string_free (desc, TRUE);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src");
  gst_element_set_state (p, GST_STATE_PLAYING);
  GstBuffer *b = gst_buffer_new_allocate (NULL, 16, NULL);
  GstFlowReturn flow;
  g_signal_emit_by_name (src, "push-buffer", b, &flow);
  gst_buffer_unref (b);
  gboolean found = FALSE;
  GstMessage *m;
  while (!found && (m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 60 * GST_SECOND, GST_MESSAGE_ERROR))) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (m, &err, &dbg);
    printf ("32000x32000 x4: %s: %s (%s)\n", GST_OBJECT_NAME (GST_MESSAGE_SRC (m)), err->message, dbg);
    found = strstr (err->message, "Not enough GPU memory") != NULL && strstr (dbg, "cudaErrorMemoryAllocation");
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (m);
  }
  ck_assert_msg (found, "no 'Not enough GPU memory' error");
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (p);
}
GST_END_TEST;

/* A device with room for one frame slot but not for the others that overlap asks for: the
 * element warns and runs fewer frames in flight, and every frame still comes out, the same
 * as the first (filtered before the memory ran short). 4K edgeawaregauss needs ~200 MB a
 * slot; the test takes all but ~100 MB of the free device memory after the first frame. */
#define BIG_W 3840
#define BIG_H 2160

static GstBuffer *big_frame (void)
{
  GstBuffer *b = gst_buffer_new_allocate (NULL, (gsize) BIG_W * BIG_H * 4, NULL);
  GstMapInfo m;
  gst_buffer_map (b, &m, GST_MAP_WRITE);
  for (gsize i = 0; i < m.size; i++)
    m.data[i] = (guint8) ((i * 2654435761u) >> 24);   /* noise: every spacing differs */
  gst_buffer_unmap (b, &m);
  return b;
}

static GstBuffer *pull (GstElement *sink)
{
  GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 20 * GST_SECOND);
  if (!s)
    return NULL;
  GstBuffer *b = gst_buffer_ref (gst_sample_get_buffer (s));
  gst_sample_unref (s);
  return b;
}

static gboolean same_frame (GstBuffer *a, GstBuffer *b)
{
  GstVideoInfo info;
  GstVideoFrame fa, fb;
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, BIG_W, BIG_H);
  gboolean same = gst_video_frame_map (&fa, &info, a, GST_MAP_READ);
  if (same && !gst_video_frame_map (&fb, &info, b, GST_MAP_READ)) {
    gst_video_frame_unmap (&fa);
    return FALSE;
  }
  for (int y = 0; same && y < BIG_H; y++)
    same = !memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, 0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, 0),
        (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, 0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, 0), BIG_W * 4);
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return same;
}

GST_START_TEST (test_fewer_frames_in_flight_when_memory_runs_short)
{
  const int frames = 6;
  GstElement *p = gst_parse_launch ("appsrc name=src format=time caps=video/x-raw,format=RGBA,"
      "width=3840,height=2160,framerate=30/1 ! edgeawaregauss name=f backend=cuda overlap=off "
      "! appsink name=out sync=false", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src"), *f = gst_bin_get_by_name (GST_BIN (p), "f");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "out");
  gst_element_set_state (p, GST_STATE_PLAYING);
  ck_assert_int_eq (gst_app_src_push_buffer (GST_APP_SRC (src), big_frame ()), GST_FLOW_OK);
  GstBuffer *first = pull (sink);
  ck_assert_msg (first != NULL, "the first frame did not come out");

  /* all but ~100 MB of what is free now: less than one more slot */
  size_t free_bytes = 0, total = 0;
  void *hog = NULL;
  ck_assert_int_eq (cudaMemGetInfo (&free_bytes, &total), cudaSuccess);
  for (size_t want = free_bytes - (100u << 20); !hog && want > (256u << 20); want -= 32u << 20)
    if (cudaMalloc (&hog, want) != cudaSuccess) {
      cudaGetLastError ();
      hog = NULL;
    }
  ck_assert_msg (hog != NULL, "could not take the device's free memory (%zu bytes free)", free_bytes);
  cudaMemGetInfo (&free_bytes, &total);
  printf ("device memory left free for the element: %zu MB\n", free_bytes >> 20);

  gst_util_set_object_arg (G_OBJECT (f), "overlap", "on");
  for (int i = 1; i < frames; i++)
    ck_assert_int_eq (gst_app_src_push_buffer (GST_APP_SRC (src), big_frame ()), GST_FLOW_OK);
  ck_assert_int_eq (gst_app_src_end_of_stream (GST_APP_SRC (src)), GST_FLOW_OK);
  for (int i = 1; i < frames; i++) {
    GstBuffer *b = pull (sink);
    ck_assert_msg (b != NULL, "frame %d did not come out", i);
    ck_assert_msg (same_frame (first, b), "frame %d differs from the first", i);
    gst_buffer_unref (b);
  }
  gboolean warned = FALSE;
  GstMessage *m;
  while (!warned && (m = gst_bus_pop_filtered (GST_ELEMENT_BUS (p), GST_MESSAGE_WARNING | GST_MESSAGE_ERROR))) {
    GError *err = NULL;
    gchar *dbg = NULL;
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR)
      gst_message_parse_error (m, &err, &dbg);
    else
      gst_message_parse_warning (m, &err, &dbg);
    printf ("%s: %s (%s)\n", GST_MESSAGE_TYPE_NAME (m), err->message, dbg);
    ck_assert_msg (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING, "error: %s", err->message);
    warned = strstr (err->message, "frames in flight") != NULL;
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (m);
  }
  ck_assert_msg (warned, "no warning about fewer frames in flight");
  gst_element_set_state (p, GST_STATE_NULL);
  cudaFree (hog);
  gst_buffer_unref (first);
  gst_object_unref (src);
  gst_object_unref (f);
  gst_object_unref (sink);
  gst_object_unref (p);
}
GST_END_TEST;


static gint free_host_failures;

static void count_free_host_failures (GstDebugCategory *cat, GstDebugLevel level, const gchar *file,
    const gchar *function, gint line, GObject *object, GstDebugMessage *message, gpointer data)
{
  (void) cat; (void) file; (void) function; (void) line; (void) object; (void) data;
  if (level <= GST_LEVEL_WARNING && strstr (gst_debug_message_get (message), "cudaFreeHost"))
    g_atomic_int_inc (&free_host_failures);
}

/* Shares of a pinned output buffer (gst_buffer_copy_region, gst_memory_share) view their
 * parent's pages: freeing a share must not free them (it did, and the parent's own free
 * then failed in cudaFreeHost, after its frame had been read from freed memory). */
GST_START_TEST (test_pinned_shares)
{
  GstElement *p = gst_parse_launch ("videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=64,height=48 ! "
      "bilateral backend=cuda ! appsink name=out sync=false", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "out");
  gst_element_set_state (p, GST_STATE_PLAYING);
  GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 20 * GST_SECOND);
  ck_assert (sample != NULL);
  GstBuffer *buf = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  ck_assert_msg (gst_memory_is_type (mem, "CudaSmoothPinnedHost"), "not pinned: %s", mem->allocator->mem_type);
  g_atomic_int_set (&free_host_failures, 0);
  guint8 *before = g_malloc (gst_buffer_get_size (buf));
  gst_buffer_extract (buf, 0, before, gst_buffer_get_size (buf));
  for (int round = 0; round < 3; round++) {
    GstBuffer *region = gst_buffer_copy_region (buf, GST_BUFFER_COPY_ALL, 256, 1024);
    GstMemory *share = gst_memory_share (mem, 512, 2048);
    ck_assert (gst_buffer_get_size (region) == 1024 && share->size == 2048);
    gst_buffer_unref (region);
    gst_memory_unref (share);
  }
  GstMapInfo map;
  ck_assert (gst_buffer_map (buf, &map, GST_MAP_READ));
  ck_assert_msg (memcmp (map.data, before, map.size) == 0, "the frame changed when its shares were freed");
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (before);
  ck_assert_int_eq (g_atomic_int_get (&free_host_failures), 0);
}
GST_END_TEST;

/* A CUDA buffer whose video meta points past its memory, in the element's own context
 * (mapped for the kernels) and in another (mapped to host): passed on as an empty GAP
 * buffer with its timestamps, never read. */
GST_START_TEST (test_cuda_memory_forged_meta)
{
  const gboolean shared_context = __i__ == 1;
  ck_assert (gst_cuda_load_library ());
  gst_cuda_memory_init_once ();
  GstCudaContext *ctx = gst_cuda_context_new (0);
  ck_assert (ctx != NULL);
  GstVideoInfo info;
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  GstElement *p = gst_parse_launch ("appsrc name=src format=time caps=\"video/x-raw(memory:CUDAMemory),format=RGBA,"
      "width=64,height=48,framerate=30/1\" ! bilateral name=f backend=cuda ! appsink name=out sync=false", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src"), *sink = gst_bin_get_by_name (GST_BIN (p), "out");
  if (shared_context) {
    GstElement *f = gst_bin_get_by_name (GST_BIN (p), "f");
    GstContext *c = gst_context_new_cuda_context (ctx);
    gst_element_set_context (f, c);
    gst_context_unref (c);
    gst_object_unref (f);
  }
  gst_element_set_state (p, GST_STATE_PLAYING);
  /* a CUDA buffer of ctx from its pool, its video meta then moved half the memory on */
  GstBufferPool *pool = gst_cuda_buffer_pool_new (ctx);
  GstCaps *caps = gst_video_info_to_caps (&info);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), 1, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  ck_assert (gst_buffer_pool_set_config (pool, config) && gst_buffer_pool_set_active (pool, TRUE));
  gst_caps_unref (caps);
  GstBuffer *b = NULL;
  ck_assert_int_eq (gst_buffer_pool_acquire_buffer (pool, &b, NULL), GST_FLOW_OK);
  ck_assert (gst_is_cuda_memory (gst_buffer_peek_memory (b, 0)));
  GstVideoMeta *meta = gst_buffer_get_video_meta (b);
  ck_assert (meta != NULL);
  meta->offset[0] = gst_buffer_get_size (b) / 2;
  GST_BUFFER_PTS (b) = 7 * GST_SECOND;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  ck_assert_int_eq (gst_app_src_push_buffer (GST_APP_SRC (src), b), GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 20 * GST_SECOND);
  ck_assert_msg (sample != NULL, "nothing came out");
  GstBuffer *out = gst_sample_get_buffer (sample);
  ck_assert (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP) && gst_buffer_get_size (out) == 0);
  ck_assert (GST_BUFFER_PTS (out) == 7 * GST_SECOND);
  gst_sample_unref (sample);
  GstMessage *m = gst_bus_pop_filtered (GST_ELEMENT_BUS (p), GST_MESSAGE_ERROR);
  ck_assert_msg (m == NULL, "an error on the bus");
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (p);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_object_unref (ctx);
}
GST_END_TEST;

typedef struct {
  const char *middle;
  guint8 **frames;
  gchar *error;
} Job;

static gpointer run_job (gpointer data)
{
  Job *j = data;
  j->frames = run (j->middle, &j->error);
  return NULL;
}

static void expect_same (guint8 **a, guint8 **b, const char *what)
{
  for (int i = 0; i < FRAMES; i++)
    ck_assert_msg (memcmp (a[i], b[i], W * H * 4) == 0, "%s: frame %d differs from one GPU's", what, i);
}

/* Two GPUs (cuda-device-id): a pipeline with an element on each, and two pipelines at once
 * in one process, one per GPU: the frames the same elements give on one GPU, bit for bit. */
GST_START_TEST (test_two_gpus)
{
  int n = 0;
  ck_assert_int_eq (cudaGetDeviceCount (&n), cudaSuccess);
  if (n < 2) {
    printf ("%d GPU here: the two-GPU pipelines are not checked\n", n);
    return;
  }
  const char *chain = "bilateral backend=cuda sigma=1.5 radius=3 cuda-device-id=%d ! recursivegauss backend=cuda "
      "sigma=6 cuda-device-id=%d";
  gchar *on_one = g_strdup_printf (chain, 0, 0), *across = g_strdup_printf (chain, 0, 1);
  gchar *error = NULL;
  guint8 **one = run (on_one, &error);
  ck_assert_msg (!error, "%s: %s", on_one, error);
  guint8 **two = run (across, &error);
  ck_assert_msg (!error, "%s: %s", across, error);
  expect_same (one, two, "elements on GPUs 0 and 1");
  free_frames (two);
  /* two pipelines at once, on GPU 0 and on GPU 1 */
  gchar *second = g_strdup_printf (chain, 1, 1);
  Job jobs[2] = { { on_one, NULL, NULL }, { second, NULL, NULL } };
  GThread *t[2];
  for (int k = 0; k < 2; k++)
    t[k] = g_thread_new ("pipeline", run_job, &jobs[k]);
  for (int k = 0; k < 2; k++) {
    g_thread_join (t[k]);
    ck_assert_msg (!jobs[k].error, "%s: %s", jobs[k].middle, jobs[k].error);
    expect_same (one, jobs[k].frames, k ? "the pipeline on GPU 1" : "the pipeline on GPU 0");
    free_frames (jobs[k].frames);
  }
  free_frames (one);
  g_free (on_one);
  g_free (across);
  g_free (second);
}
GST_END_TEST;

/* Runs a pipeline ending in "appsink name=out" and returns up to max buffers with the caps
 * of the first, or NULL with *error set. */
static GstBuffer **pull_all (const char *desc, int max, int *n, GstVideoInfo *info, gchar **error)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  *n = 0;
  if (!p || err) {
    *error = g_strdup_printf ("%s: %s", desc, err ? err->message : "?");
    g_clear_error (&err);
    gst_clear_object (&p);
    return NULL;
  }
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "out");
  GstBuffer **bufs = g_new0 (GstBuffer *, max);
  gst_element_set_state (p, GST_STATE_PLAYING);
  while (*n < max) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 10 * GST_SECOND);
    if (!s)
      break;
    if (*n == 0)
      gst_video_info_from_caps (info, gst_sample_get_caps (s));
    bufs[(*n)++] = gst_buffer_ref (gst_sample_get_buffer (s));
    gst_sample_unref (s);
  }
  GstMessage *m = gst_bus_pop_filtered (GST_ELEMENT_BUS (p), GST_MESSAGE_ERROR);
  if (m) {
    gchar *dbg = NULL;
    gst_message_parse_error (m, &err, &dbg);
    *error = g_strdup_printf ("%s: %s (%s)", desc, err->message, dbg);
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (m);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  return bufs;
}

static gchar *missing_elements (const char *const *names)
{
  GString *missing = g_string_new (NULL);
  for (; *names; names++) {
    GstElementFactory *f = gst_element_factory_find (*names);
    if (f)
      gst_object_unref (f);
    else
      g_string_append_printf (missing, "%s%s", missing->len ? ", " : "", *names);
  }
  return missing->len ? g_string_free (missing, FALSE) : (g_string_free (missing, TRUE), NULL);
}

/* NVDEC's NV12 in CUDA memory straight into each element, no converter: an H.264 clip made
 * here (x264enc, 322x182: cropped from NVDEC's 336x192 surfaces), decoded once to system
 * memory for the reference and once through the element, every frame within 1 LSB of the
 * reference of the decoded frame's luma and chroma. */
GST_START_TEST (test_nvh264dec_zero_copy)
{
  static const char *const needed[] = { "x264enc", "mp4mux", "qtdemux", "h264parse", "nvh264dec", NULL };
  static const char *const filters[] = { "edgeawaregauss sigma=8 sigma-r=30 blocks-per-stripe=1",
    "bilateral sigma=2 sigma-r=25", "recursivegauss sigma=5 blocks-per-stripe=1" };
  gchar *missing = missing_elements (needed);
  if (missing) {
    printf ("SKIP test_nvh264dec_zero_copy: no %s here\n", missing);
    g_free (missing);
    return;
  }
  gchar *path = NULL;
  const gint fd = g_file_open_tmp ("cudasmooth-XXXXXX.mp4", &path, NULL);
  ck_assert_int_ge (fd, 0);
  close (fd);
  gchar *error = NULL;
  int n = 0;
  GstVideoInfo info;
  gchar *make = g_strdup_printf ("videotestsrc num-buffers=8 pattern=ball ! video/x-raw,format=I420,width=322,height=182,"
      "framerate=30/1 ! x264enc speed-preset=ultrafast ! h264parse ! mp4mux ! filesink location=%s", path);
  GError *err = NULL;
  GstElement *p = gst_parse_launch (make, &err);
  ck_assert_msg (p && !err, "%s", make);
  gst_element_set_state (p, GST_STATE_PLAYING);
  GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ck_assert_msg (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS, "making the clip failed");
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (make);

  gchar *plain = g_strdup_printf ("filesrc location=%s ! qtdemux ! h264parse ! nvh264dec ! cudadownload ! "
      "video/x-raw,format=NV12 ! appsink name=out sync=false", path);
  GstBuffer **decoded = pull_all (plain, 8, &n, &info, &error);
  ck_assert_msg (!error && n == 8, "%s (%d frames)", error, n);
  ck_assert_int_eq (GST_VIDEO_INFO_WIDTH (&info), 322);
  for (int e = 0; e < 3; e++) {
    gchar *filtered = g_strdup_printf ("filesrc location=%s ! qtdemux ! h264parse ! nvh264dec ! "
        "video/x-raw(memory:CUDAMemory),format=NV12 ! %s backend=cuda ! video/x-raw(memory:CUDAMemory),format=NV12 ! "
        "cudadownload ! video/x-raw,format=NV12 ! appsink name=out sync=false", path, filters[e]);
    int got_n = 0;
    GstVideoInfo got_info;
    GstBuffer **got = pull_all (filtered, 8, &got_n, &got_info, &error);
    ck_assert_msg (!error && got_n == 8, "%s (%d frames)", error, got_n);
    for (int i = 0; i < 8; i++) {
      GstBuffer *expected = gst_buffer_copy_deep (decoded[i]);
      GstVideoFrame ef, gf;
      ck_assert (gst_video_frame_map (&ef, &info, expected, GST_MAP_READWRITE));
      ck_assert (gst_video_frame_map (&gf, &got_info, got[i], GST_MAP_READ));
      for (guint g = 0; g < 2; g++) {
        CsChannels v = cs_test_view_of (&ef, g, 0, 1);
        int sx, sy;
        cs_test_subsampling (&ef, g, &sx, &sy);
        if (e == 0) {
          CsEdgeAwareParams q = cs_edgeaware_params_default ();
          q.sigma = 8;
          q.sigma_r = 30;
          q.blocks_per_stripe = 1;
          ck_assert_int_eq (cs_ref_edgeaware_channels (&v, &v, &q, sx, sy), 0);
        } else if (e == 1) {
          CsBilateralParams q = cs_bilateral_params_default ();
          q.sigma = 2;
          ck_assert_int_eq (cs_ref_bilateral_channels (&v, &v, &q, sx, sy), 0);
        } else {
          CsRecursiveParams q = cs_recursive_params_default ();
          q.sigma = 5;
          q.blocks_per_stripe = 1;
          ck_assert_int_eq (cs_ref_recursive_channels (&v, &v, &q, sx, sy), 0);
        }
        const int d = cs_test_max_diff (&gf, &ef, g, 0, 1);
        printf ("nvh264dec ! %s: frame %d group %u max %d\n", filters[e], i, g, d);
        ck_assert_msg (d <= 1, "%s frame %d group %u: max %d", filters[e], i, g, d);
      }
      gst_video_frame_unmap (&ef);
      gst_video_frame_unmap (&gf);
      gst_buffer_unref (expected);
      gst_buffer_unref (got[i]);
    }
    g_free (got);
    g_free (filtered);
  }
  for (int i = 0; i < n; i++)
    gst_buffer_unref (decoded[i]);
  g_free (decoded);
  g_free (plain);
  g_unlink (path);
  g_free (path);
}
GST_END_TEST;

/* Three elements chained in CUDA memory give, frame for frame, the bytes the same elements
 * give in system memory (where every frame is uploaded, filtered and downloaded, finished
 * before it moves on): no element reads a frame before the one upstream has written it,
 * and none writes a buffer that is still being read. 4K noise, so that every kernel runs
 * long enough for a missing wait to show. With GStreamer >= 1.24 the frames travel with
 * their streams, without a host wait: each frame comes out before the next goes in (1.22
 * holds frames to overlap them), and carries a stream. */
#define CUDA_CAPS "video/x-raw(memory:CUDAMemory)"

static GstBuffer **run_chain (gboolean cuda_memory, int frames)
{
  const char *link = cuda_memory ? " ! " CUDA_CAPS " ! " : " ! video/x-raw ! ";
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps=video/x-raw,format=RGBA,width=%d,height=%d,"
      "framerate=30/1 ! %s edgeawaregauss backend=cuda sigma=6%sbilateral backend=cuda radius=2%s"
      "recursivegauss backend=cuda sigma=3%sappsink name=out sync=false", BIG_W, BIG_H,
      cuda_memory ? "cudaupload ! " CUDA_CAPS " !" : "", link, link, link);
  GstElement *p = gst_parse_launch (desc, NULL);
  g_free (desc);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src"), *sink = gst_bin_get_by_name (GST_BIN (p), "out");
  const gboolean one_by_one = cuda_memory && GST_CHECK_VERSION (1, 24, 0);
  GstBuffer **out = g_new0 (GstBuffer *, frames);
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (int i = 0; i < frames; i++) {
    GstBuffer *b = big_frame ();
    GstMapInfo m;
    gst_buffer_map (b, &m, GST_MAP_WRITE);
    m.data[i] ^= 0xFF;   /* each frame its own */
    gst_buffer_unmap (b, &m);
    ck_assert_int_eq (gst_app_src_push_buffer (GST_APP_SRC (src), b), GST_FLOW_OK);
    if (one_by_one)
      ck_assert_msg ((out[i] = pull (sink)) != NULL, "frame %d did not come out before the next went in", i);
  }
  ck_assert_int_eq (gst_app_src_end_of_stream (GST_APP_SRC (src)), GST_FLOW_OK);
  for (int i = 0; i < frames && !one_by_one; i++)
    ck_assert_msg ((out[i] = pull (sink)) != NULL, "frame %d did not come out (%s memory)", i,
        cuda_memory ? "CUDA" : "system");
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (p);
  return out;
}

GST_START_TEST (test_chain_in_cuda_memory)
{
  const int frames = 6;
  GstBuffer **system = run_chain (FALSE, frames), **device = run_chain (TRUE, frames);
  for (int i = 0; i < frames; i++) {
    GstMemory *mem = gst_buffer_peek_memory (device[i], 0);
    ck_assert_msg (gst_is_cuda_memory (mem), "frame %d is not in CUDA memory", i);
#if GST_CHECK_VERSION (1, 24, 0)
    ck_assert_msg (gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem)) != NULL,
        "frame %d carries no CUDA stream", i);
#endif
    ck_assert_msg (same_frame (system[i], device[i]), "frame %d differs between CUDA and system memory", i);
    gst_buffer_unref (system[i]);
    gst_buffer_unref (device[i]);
  }
  printf ("%d 4K frames through three elements in CUDA memory%s: the same bytes as in system memory\n", frames,
      GST_CHECK_VERSION (1, 24, 0) ? ", ordered by their streams" : "");
  g_free (system);
  g_free (device);
}
GST_END_TEST;

static Suite *gpu_suite (void)
{
  Suite *s = suite_create ("gpu-elements");
  TCase *tc = tcase_create ("pipelines");
  tcase_set_timeout (tc, 60);
  tcase_add_loop_test (tc, test_routes_against_reference, 0, 3 * 7);
  tcase_add_test (tc, test_frame_too_large);
  tcase_add_test (tc, test_fewer_frames_in_flight_when_memory_runs_short);
  tcase_add_test (tc, test_pinned_shares);
  tcase_add_loop_test (tc, test_cuda_memory_forged_meta, 0, 2);
  tcase_add_test (tc, test_two_gpus);
  tcase_add_test (tc, test_nvh264dec_zero_copy);
  tcase_add_test (tc, test_chain_in_cuda_memory);
  suite_add_tcase (s, tc);
  return s;
}

static gboolean gpu_usable (gchar **why)
{
  free_frames (run ("recursivegauss backend=cuda", why));
  return *why == NULL;
}

int main (int argc, char **argv)
{
  gchar *error = NULL;
  gst_check_init (&argc, &argv);
  if (!cs_probe_in_child (gpu_usable, &error)) {
    printf ("SKIP: no usable CUDA device for the elements: %s\n", error);
    g_free (error);
    return 77;
  }
  gst_debug_add_log_function (count_free_host_failures, NULL, NULL);
  gst_debug_set_threshold_for_name ("cudasmooth", GST_LEVEL_WARNING);
  return gst_check_run_suite (gpu_suite (), "gpu-elements", __FILE__);
}
