/* Pipeline benchmark: frames per second through an element in a real pipeline.
 *   system memory:  poolsrc ! <element> ! fakesink   (source buffers from the pinned pool
 *                   the element proposes, written once, so the source costs nothing)
 *   CUDA memory:    poolsrc (CUDA caps, the element's CUDA pool) ! <element> ! fakesink
 * The floor is the PCIe time of one frame copied both ways at once (pinned, two streams),
 * measured in the same run. One line per measurement:
 *   bench filter=... path=system|cuda size=WxH params=... fps=... ms_per_frame=... floor_ms=...
 *   floor=pcie-both-ways ratio=... streamed_floor_ms=... streamed_ratio=...
 * (ratio = floor / time per frame; the streamed floor is the bus's rate with copies queued back to
 * back, which a pipeline can at best equal: streamed_ratio 1.0 is the bus limit)
 * With --against F2: each case in N rounds (default 3), F2 then F, and the median of the rounds'
 * frames/s ratios beside the ratio of the two formats' floors (what the bus allows):
 *   bench-against filter=... size=WxH format=F against=F2 rounds=N ratio=... bus_ratio=... streamed_bus_ratio=...
 * With --devices N (N GPUs): N such pipelines at once, pipeline i on cuda-device-id=i, and the
 * aggregate frames/s against one pipeline on one GPU, in the same run:
 *   bench-devices filter=... path=... size=WxH devices=N fps_total=... fps_one=... scaling=...
 * Usage: cs-bench-pipeline [--frames N] [--only FILTER] [--size WxH] [--path system|cuda] [--format F]
 *                          [--params "PROPERTIES"]   (with --only: that filter's properties)
 *                          [--against F2 [--rounds N]]
 *                          [--devices N]
 * With --decode CLIP.mp4 (H.264): frames/s of nvh264dec alone and with each filter after it in
 * CUDA memory (NV12), in one run:
 *   bench-decode clip=... element=... fps=... decoder_alone_fps=... ratio=...
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/base/gstpushsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

/* ---------------------------------------------------------------- a source that costs nothing */

typedef struct {
  GstPushSrc parent;
  GstCaps *caps;
  guint64 n;
} PoolSrc;

typedef struct {
  GstPushSrcClass parent_class;
} PoolSrcClass;

G_DEFINE_TYPE (PoolSrc, pool_src, GST_TYPE_PUSH_SRC);
static const char *format = "RGBA";   /* --format */
static GQuark written_quark;

static GstCaps *pool_src_get_caps (GstBaseSrc *src, GstCaps *filter)
{
  PoolSrc *self = (PoolSrc *) src;
  (void) filter;
  return gst_caps_ref (self->caps);
}

/* Writes a gradient into each pool buffer the first time it is seen. */
static GstFlowReturn pool_src_fill (GstPushSrc *src, GstBuffer *buf)
{
  PoolSrc *self = (PoolSrc *) src;
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  if (!gst_mini_object_get_qdata (GST_MINI_OBJECT (mem), written_quark)) {
    GstMapInfo map;
    if (gst_memory_map (mem, &map, GST_MAP_WRITE)) {
      for (gsize i = 0; i < map.size; i++)
        map.data[i] = (guint8) ((i * 7) ^ (i >> 12));
      gst_memory_unmap (mem, &map);
    }
    gst_mini_object_set_qdata (GST_MINI_OBJECT (mem), written_quark, GINT_TO_POINTER (1), NULL);
  }
  GST_BUFFER_PTS (buf) = self->n * GST_SECOND / 1000;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 1000;
  self->n++;
  return GST_FLOW_OK;
}

static void pool_src_finalize (GObject *o)
{
  gst_caps_replace (&((PoolSrc *) o)->caps, NULL);
  G_OBJECT_CLASS (pool_src_parent_class)->finalize (o);
}

static void pool_src_class_init (PoolSrcClass *klass)
{
  static GstStaticPadTemplate src_t = GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
  gst_element_class_add_static_pad_template (GST_ELEMENT_CLASS (klass), &src_t);
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass), "poolsrc", "Source/Video",
      "Pushes downstream-pool buffers without touching them", "bench");
  GST_BASE_SRC_CLASS (klass)->get_caps = pool_src_get_caps;
  GST_PUSH_SRC_CLASS (klass)->fill = pool_src_fill;
  G_OBJECT_CLASS (klass)->finalize = pool_src_finalize;
  written_quark = g_quark_from_static_string ("bench-written");
}

static void pool_src_init (PoolSrc *self)
{
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

/* ---------------------------------------------------------------- the PCIe floor */

static int compare_doubles (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorts v). */
static double median_of (double *v, int n)
{
  qsort (v, n, sizeof v[0], compare_doubles);
  return (v[(n - 1) / 2] + v[n / 2]) / 2;
}

/* Batches of `frames` frames up on one stream and as many down on another, queued at once:
 * the time a frame, median of `batches` batches after two to warm up. */
static double pcie_ms (size_t bytes, int frames, int batches)
{
  void *h[2] = { 0 }, *d[2] = { 0 };
  cudaStream_t s[2] = { 0 };
  cudaEvent_t e0 = NULL, e1 = NULL, done = NULL;
  double t[32] = { 0 };
  double ms = -1;
  batches = MIN (batches, 32);
  if (cudaHostAlloc (&h[0], bytes, cudaHostAllocPortable) || cudaHostAlloc (&h[1], bytes, cudaHostAllocPortable) ||
      cudaMalloc (&d[0], bytes) || cudaMalloc (&d[1], bytes) || cudaStreamCreate (&s[0]) ||
      cudaStreamCreate (&s[1]) || cudaEventCreate (&e0) || cudaEventCreate (&e1) || cudaEventCreate (&done))
    goto out;
  memset (h[0], 1, bytes);
  for (int b = -2; b < batches; b++) {
    cudaEventRecord (e0, s[0]);
    cudaStreamWaitEvent (s[1], e0, 0);
    for (int i = 0; i < frames; i++) {
      cudaMemcpyAsync (d[0], h[0], bytes, cudaMemcpyHostToDevice, s[0]);
      cudaMemcpyAsync (h[1], d[1], bytes, cudaMemcpyDeviceToHost, s[1]);
    }
    cudaEventRecord (done, s[1]);
    cudaStreamWaitEvent (s[0], done, 0);
    cudaEventRecord (e1, s[0]);
    cudaEventSynchronize (e1);
    float elapsed;
    if (b >= 0 && cudaEventElapsedTime (&elapsed, e0, e1) == cudaSuccess)
      t[b] = elapsed;
  }
  ms = median_of (t, batches) / frames;
out:
  cudaFreeHost (h[0]);
  cudaFreeHost (h[1]);
  cudaFree (d[0]);
  cudaFree (d[1]);
  for (int i = 0; i < 2; i++)
    if (s[i])
      cudaStreamDestroy (s[i]);
  cudaEvent_t events[] = { e0, e1, done };
  for (int i = 0; i < 3; i++)
    if (events[i])
      cudaEventDestroy (events[i]);
  return ms;
}

/* One frame up and one down at once. A pipeline with three frames in flight overlaps one
 * frame's copies with the next's set-up, so it can beat this, most for small frames. */
static double pcie_both_ways_ms (size_t bytes)
{
  return pcie_ms (bytes, 1, 20);
}

/* The bus's rate when it is never idle, 16 frames queued each way: no pipeline beats this. */
static double pcie_streamed_ms (size_t bytes)
{
  return pcie_ms (bytes, 16, 5);
}

/* ---------------------------------------------------------------- one measurement */

typedef struct {
  int count, warmup;
  gint64 t_start, t_end;
} Counter;

static void on_handoff (GstElement *sink, GstBuffer *buf, GstPad *pad, gpointer data)
{
  Counter *c = data;
  (void) sink; (void) buf; (void) pad;
  c->count++;
  if (c->count == c->warmup)
    c->t_start = g_get_monotonic_time ();
  c->t_end = g_get_monotonic_time ();
}

typedef struct {
  double both_ways_ms, streamed_ms;
} Floor;

static Floor floor_of (const char *fmt, int w, int h)
{
  GstVideoInfo vi;
  gst_video_info_set_format (&vi, gst_video_format_from_string (fmt), w, h);
  const size_t bytes = GST_VIDEO_INFO_SIZE (&vi);
  const Floor f = { pcie_both_ways_ms (bytes), pcie_streamed_ms (bytes) };
  printf ("floor format=%s size=%dx%d pcie_both_ways_ms=%.4f pcie_streamed_ms=%.4f (one frame of %zu bytes up and "
      "one down at once, pinned; then 16 of each queued)\n", fmt, w, h, f.both_ways_ms, f.streamed_ms, bytes);
  return f;
}

/* One pipeline's frames/s (printed), or -1 on error. */
static double run (const char *filter, const char *params, const char *path, const char *fmt, int w, int h,
    int frames, Floor floor)
{
  gchar *caps_str = g_strdup_printf ("video/x-raw%s,format=%s,width=%d,height=%d,framerate=0/1",
      !strcmp (path, "cuda") ? "(memory:CUDAMemory)" : "", fmt, w, h);
  gchar *desc = g_strdup_printf ("%s name=f %s ! %s ! fakesink name=sink sync=false signal-handoffs=true",
      filter, params, caps_str);
  GError *err = NULL;
  GstElement *bin = gst_parse_bin_from_description (desc, TRUE, &err);
  if (!bin || err) {
    fprintf (stderr, "%s: %s\n", desc, err ? err->message : "?");
    return -1;
  }
  GstElement *pipeline = gst_pipeline_new (NULL);
  PoolSrc *src = g_object_new (pool_src_get_type (), "num-buffers", frames, NULL);
  src->caps = gst_caps_from_string (caps_str);
  gst_bin_add_many (GST_BIN (pipeline), GST_ELEMENT (src), bin, NULL);
  gst_element_link (GST_ELEMENT (src), bin);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (bin), "sink");
  Counter c = { 0, frames / 10 > 5 ? frames / 10 : 5, 0, 0 };
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &c);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline), 300 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  double fps = -1;
  if (!m || GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;
    if (m)
      gst_message_parse_error (m, &err, &dbg);
    fprintf (stderr, "%s (%s): %s %s\n", desc, path, err ? err->message : "timeout", dbg ? dbg : "");
  } else {
    const double secs = (c.t_end - c.t_start) / 1e6;
    fps = (c.count - c.warmup) / secs;
    const double ms = 1000.0 / fps;
    const bool system = strcmp (path, "cuda") != 0;
    printf ("bench filter=%s path=%s format=%s size=%dx%d params=%s fps=%.1f ms_per_frame=%.4f floor_ms=%.4f "
        "floor=pcie-both-ways ratio=%.2f streamed_floor_ms=%.4f streamed_ratio=%.2f frames=%d\n", filter, path, fmt,
        w, h, params, fps, ms, system ? floor.both_ways_ms : 0.0, system ? floor.both_ways_ms / ms : 0.0,
        system ? floor.streamed_ms : 0.0, system ? floor.streamed_ms / ms : 0.0, c.count);
    fflush (stdout);
  }
  if (m)
    gst_message_unref (m);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (caps_str);
  return fps;
}

/* N pipelines at once, pipeline i on GPU i: frames per second through all of them
 * (from the last one's warm-up to the last frame), or a negative value on error. */
static double run_devices (const char *filter, const char *params, const char *path, int w, int h, int frames,
    int devices)
{
  gchar *caps_str = g_strdup_printf ("video/x-raw%s,format=%s,width=%d,height=%d,framerate=0/1",
      !strcmp (path, "cuda") ? "(memory:CUDAMemory)" : "", format, w, h);
  GstElement *pipelines[8];
  GstElement *sinks[8];
  Counter c[8];
  double result = -1;
  for (int d = 0; d < devices; d++) {
    gchar *desc = g_strdup_printf ("%s %s cuda-device-id=%d ! %s ! fakesink name=sink sync=false signal-handoffs=true",
        filter, params, d, caps_str);
    GError *err = NULL;
    GstElement *bin = gst_parse_bin_from_description (desc, TRUE, &err);
    g_free (desc);
    if (!bin || err) {
      fprintf (stderr, "%s\n", err ? err->message : "?");
      return -1;
    }
    pipelines[d] = gst_pipeline_new (NULL);
    PoolSrc *src = g_object_new (pool_src_get_type (), "num-buffers", frames, NULL);
    src->caps = gst_caps_from_string (caps_str);
    gst_bin_add_many (GST_BIN (pipelines[d]), GST_ELEMENT (src), bin, NULL);
    gst_element_link (GST_ELEMENT (src), bin);
    sinks[d] = gst_bin_get_by_name (GST_BIN (bin), "sink");
    c[d] = (Counter) { 0, frames / 10 > 5 ? frames / 10 : 5, 0, 0 };
    g_signal_connect (sinks[d], "handoff", G_CALLBACK (on_handoff), &c[d]);
  }
  for (int d = 0; d < devices; d++)
    gst_element_set_state (pipelines[d], GST_STATE_PLAYING);
  gboolean ok = TRUE;
  for (int d = 0; d < devices; d++) {
    GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipelines[d]), 300 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (!m || GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      if (m)
        gst_message_parse_error (m, &err, NULL);
      fprintf (stderr, "%s on device %d: %s\n", filter, d, err ? err->message : "timeout");
      g_clear_error (&err);
      ok = FALSE;
    }
    if (m)
      gst_message_unref (m);
  }
  if (ok) {
    gint64 start = 0, end = 0;
    int counted = 0;
    for (int d = 0; d < devices; d++) {
      start = MAX (start, c[d].t_start);
      end = MAX (end, c[d].t_end);
      counted += c[d].count - c[d].warmup;
    }
    result = counted / ((end - start) / 1e6);
  }
  for (int d = 0; d < devices; d++) {
    gst_element_set_state (pipelines[d], GST_STATE_NULL);
    gst_object_unref (sinks[d]);
    gst_object_unref (pipelines[d]);
  }
  g_free (caps_str);
  return result;
}

/* frames/s of "filesrc ! qtdemux ! h264parse ! nvh264dec ! <middle> ! fakesink", timed between
 * fakesink's handoffs after a warm-up (-1 on failure) */
static double run_decode (const char *clip, const char *middle)
{
  gchar *desc = g_strdup_printf ("filesrc location=%s ! qtdemux ! h264parse ! nvh264dec ! "
      "video/x-raw(memory:CUDAMemory),format=NV12 ! %s%sfakesink name=sink sync=false signal-handoffs=true",
      clip, middle, *middle ? " ! " : "");
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  double fps = -1;
  if (!pipeline || err) {
    fprintf (stderr, "%s: %s\n", desc, err ? err->message : "?");
    g_clear_error (&err);
    g_free (desc);
    return -1;
  }
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  Counter c = { 0, 20, 0, 0 };
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &c);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline), 300 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS && c.count > c.warmup)
    fps = (c.count - c.warmup) / ((c.t_end - c.t_start) / 1e6);
  else
    fprintf (stderr, "%s: %s\n", desc, m ? "error" : "timeout");
  if (m)
    gst_message_unref (m);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  return fps;
}

/* --decode CLIP: the decoder alone, then each filter after it in CUDA memory (NV12, no
 * converter), in one run: the filters should cost the decoder nothing */
static int bench_decode (const char *clip)
{
  const char *middles[] = { "", "bilateral radius=1 sigma=0.5 sigma-r=30 backend=cuda overlap=on",
    "bilateral sigma=2 sigma-r=25 backend=cuda overlap=on", "recursivegauss sigma=5 backend=cuda overlap=on",
    "edgeawaregauss sigma=20 sigma-r=40 backend=cuda overlap=on",
    "recursivegauss sigma=5 chroma=copy backend=cuda overlap=on" };
  double alone = -1;
  int rc = 0;
  for (unsigned k = 0; k < sizeof middles / sizeof middles[0]; k++) {
    const double fps = run_decode (clip, middles[k]);
    rc |= fps < 0;
    if (k == 0)
      alone = fps;
    printf ("bench-decode clip=%s after=nvh264dec element=\"%s\" fps=%.1f decoder_alone_fps=%.1f ratio=%.3f\n", clip,
        k ? middles[k] : "(none)", fps, alone, fps / alone);
    fflush (stdout);
  }
  return rc;
}

int main (int argc, char **argv)
{
  int frames = 400, only_w = 0, only_h = 0, devices = 0, rounds = 3;
  const char *only = NULL, *only_path = NULL, *only_params = NULL, *decode = NULL, *against = NULL;
  gst_init (&argc, &argv);
  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--frames") && i + 1 < argc)
      frames = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp (argv[i], "--path") && i + 1 < argc)
      only_path = argv[++i];
    else if (!strcmp (argv[i], "--size") && i + 1 < argc)
      sscanf (argv[++i], "%dx%d", &only_w, &only_h);
    else if (!strcmp (argv[i], "--params") && i + 1 < argc)
      only_params = argv[++i];
    else if (!strcmp (argv[i], "--decode") && i + 1 < argc)
      decode = argv[++i];
    else if (!strcmp (argv[i], "--format") && i + 1 < argc)
      format = argv[++i];
    else if (!strcmp (argv[i], "--against") && i + 1 < argc)
      against = argv[++i];
    else if (!strcmp (argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--devices") && i + 1 < argc)
      devices = atoi (argv[++i]);
    else {
      fprintf (stderr, "usage: %s [--frames N] [--only FILTER] [--size WxH] [--path system|cuda] [--params PROPS] "
          "[--format F [--against F2] [--rounds N]] [--devices N] [--decode CLIP.mp4]\n",
          argv[0]);
      return 2;
    }
  }
  rounds = CLAMP (rounds, 1, 16);
  if (only_params && !only) {
    fprintf (stderr, "--params needs --only FILTER\n");
    return 2;
  }
  int n = 0;
  if (cudaGetDeviceCount (&n) != cudaSuccess || n == 0) {
    printf ("SKIP: no CUDA device\n");
    return 77;
  }
  if (decode)
    return bench_decode (decode);
  if (devices > 0) {
    if (devices > n || devices > 8) {
      printf ("SKIP: %d GPUs asked for, %d here\n", devices, n);
      return 77;
    }
    const char *filters[][2] = { { "bilateral", "radius=1 sigma=0.5 sigma-r=30 backend=cuda overlap=on" },
      { "recursivegauss", "sigma=5 backend=cuda overlap=on" }, { "edgeawaregauss", "sigma=20 sigma-r=40 backend=cuda overlap=on" } };
    const int w = only_w ? only_w : 3840, h = only_h ? only_h : 2160;
    int rc = 0;
    for (int k = 0; k < 3; k++)
      for (int p = 0; p < 2; p++) {
        const char *path = p ? "cuda" : "system";
        if ((only && strcmp (only, filters[k][0])) || (only_path && strcmp (only_path, path)))
          continue;
        const double one = run_devices (filters[k][0], filters[k][1], path, w, h, frames, 1);
        const double all = run_devices (filters[k][0], filters[k][1], path, w, h, frames, devices);
        rc |= one < 0 || all < 0;
        printf ("bench-devices filter=%s path=%s size=%dx%d devices=%d fps_total=%.1f fps_one=%.1f scaling=%.2f\n",
            filters[k][0], path, w, h, devices, all, one, all / one);
        fflush (stdout);
      }
    return rc;
  }
  struct { const char *filter, *params; } cases[] = {
    { "recursivegauss", "sigma=5 backend=cuda overlap=on" },
    { "bilateral", "radius=1 sigma=0.5 sigma-r=30 backend=cuda overlap=on" },
    { "edgeawaregauss", "sigma=20 sigma-r=40 backend=cuda overlap=on" },
    { "recursivegauss", "sigma=5 backend=cuda overlap=off" },
  };
  const int sizes[][2] = { { 1920, 1080 }, { 3840, 2160 } };
  int rc = 0;
  for (int s = 0; s < 2; s++) {
    const int w = sizes[s][0], h = sizes[s][1];
    if (only_w && (w != only_w || h != only_h))
      continue;
    const Floor floor = floor_of (format, w, h);
    const Floor against_floor = against ? floor_of (against, w, h) : floor;
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
      if (only && strcmp (only, cases[k].filter))
        continue;
      bool seen = false;   /* with --params, one run per filter */
      for (unsigned j = 0; j < k; j++)
        seen |= !strcmp (cases[j].filter, cases[k].filter);
      if (only_params && seen)
        continue;
      const char *params = only_params ? only_params : cases[k].params;
      for (int p = 0; p < 2; p++) {
        const char *path = p ? "cuda" : "system";
        if (only_path && strcmp (only_path, path))
          continue;
        if (!against) {
          rc |= run (cases[k].filter, params, path, format, w, h, frames, floor) < 0;
          continue;
        }
        /* rounds alternating between the two formats, so that drift on a shared host falls
         * on both alike; the ratio is the median of the rounds' ratios */
        double fps[16], against_fps[16], ratio[16];
        for (int r = 0; r < rounds; r++) {
          against_fps[r] = run (cases[k].filter, params, path, against, w, h, frames, against_floor);
          fps[r] = run (cases[k].filter, params, path, format, w, h, frames, floor);
          rc |= fps[r] < 0 || against_fps[r] < 0;
          ratio[r] = fps[r] / against_fps[r];
        }
        const double median = median_of (ratio, rounds);   /* ratio[] now sorted */
        printf ("bench-against filter=%s path=%s size=%dx%d format=%s against=%s rounds=%d ratio=%.3f (%.3f-%.3f)",
            cases[k].filter, path, w, h, format, against, rounds, median, ratio[0], ratio[rounds - 1]);
        if (p == 0)
          printf (" bus_ratio=%.3f streamed_bus_ratio=%.3f", against_floor.both_ways_ms / floor.both_ways_ms,
              against_floor.streamed_ms / floor.streamed_ms);
        printf ("\n");
        fflush (stdout);
      }
    }
  }
  return rc;
}
