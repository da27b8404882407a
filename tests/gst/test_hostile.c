/* Hostile input and hard limits, through GstHarness: forged video metas (offsets, strides,
 * sizes, negative strides, several memories) on input and output buffers, GAP and
 * zero-size buffers, the memory limit, frame sizes past the caps' limit, σ down to the
 * smallest positive double, partitions of one sample at κ = 0, interlaced frames, a
 * downstream error while held frames drain at EOS. Built twice, like test_elements.c: with
 * CS_BACKEND "cpu" (suite gst) and "cuda" (suite gpu).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cs_metrics.h"
#include "cs_reference.h"
#include "cs_test_images.h"
#include "cs_test_sanitizer.h"
#include "cs_test_backend_main.h"

#ifndef CS_BACKEND
#define CS_BACKEND "cpu"
#endif

static const char *const elements[] = { "edgeawaregauss", "bilateral", "recursivegauss" };

typedef struct {
  GstHarness *h;
  GstBus *bus;
} Fixture;

static Fixture fixture (const char *element, const char *props)
{
  Fixture f;
  gchar *launch = g_strdup_printf ("%s backend=" CS_BACKEND " %s", element, props ? props : "");
  f.h = gst_harness_new_parse (launch);
  g_free (launch);
  f.bus = gst_bus_new ();
  gst_element_set_bus (f.h->element, f.bus);
  return f;
}

static void fixture_free (Fixture *f)
{
  gst_harness_teardown (f->h);
  gst_object_unref (f->bus);
}

/* Messages of a type on the fixture's bus so far, and the first one's text. */
static int count_messages (Fixture *f, GstMessageType type, gchar **first)
{
  int n = 0;
  GstMessage *m;
  while ((m = gst_bus_pop_filtered (f->bus, type))) {
    GError *err = NULL;
    gchar *dbg = NULL;
    if (type == GST_MESSAGE_ERROR)
      gst_message_parse_error (m, &err, &dbg);
    else
      gst_message_parse_warning (m, &err, &dbg);
    if (n++ == 0 && first)
      *first = g_strdup_printf ("%s (%s)", err->message, dbg);
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (m);
  }
  return n;
}

static void set_caps (GstHarness *h, int w, int hgt, const char *extra)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=RGBA,width=%d,height=%d,framerate=30/1%s", w, hgt,
      extra ? extra : "");
  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
}

/* A buffer of memories of the sizes in `sizes` (0-terminated) holding img's rows from byte
 * `offset` on, `stride` apart where they fit (0x5A elsewhere), with a video meta that says so. */
static GstBuffer *forged (const CsImage *img, const gsize *sizes, gsize offset, gint stride)
{
  gsize total = 0;
  for (int i = 0; sizes[i]; i++)
    total += sizes[i];
  guint8 *bytes = g_malloc (total);
  memset (bytes, 0x5A, total);
  for (int y = 0; y < img->height; y++) {
    const gssize at = (gssize) offset + (gssize) y * stride;
    if (at >= 0 && at + 4 * img->width <= (gssize) total)
      memcpy (bytes + at, cs_image_pixel (img, 0, y), 4 * (size_t) img->width);
  }
  GstBuffer *buf = gst_buffer_new ();
  gsize at = 0;
  for (int i = 0; sizes[i]; i++) {
    guint8 *copy = g_memdup2 (bytes + at, sizes[i]);
    gst_buffer_append_memory (buf, gst_memory_new_wrapped (0, copy, sizes[i], 0, sizes[i], copy, g_free));
    at += sizes[i];
  }
  g_free (bytes);
  gsize offsets[4] = { offset };
  gint strides[4] = { stride };
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_RGBA, img->width, img->height, 1,
      offsets, strides);
  return buf;
}

/* The element's output for `in` must be an empty GAP buffer carrying in's timestamps. */
static void expect_gap (GstBuffer *out, GstClockTime pts, const char *what)
{
  ck_assert_msg (out != NULL, "%s: nothing came out", what);
  ck_assert_msg (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP) && gst_buffer_get_size (out) == 0,
      "%s: %" G_GSIZE_FORMAT " bytes, GAP %d", what, gst_buffer_get_size (out), GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP));
  ck_assert_msg (GST_BUFFER_PTS (out) == pts && GST_BUFFER_DURATION (out) == GST_SECOND / 30, "%s: timestamps lost", what);
  ck_assert (gst_buffer_get_video_meta (out) == NULL);
}

/* The output frame against the reference of the element at sigma 3 (blocks 1). */
static void expect_filtered (Fixture *f, const char *element, GstBuffer *out, const CsImage *src, const char *what)
{
  CsImage ref = cs_test_image_new (src->width, src->height, 0, 3, 0);
  if (!strcmp (element, "edgeawaregauss")) {
    CsEdgeAwareParams p = cs_edgeaware_params_default ();
    p.sigma = 3;
    p.blocks_per_stripe = 1;
    cs_ref_edgeaware (src, &ref, &p);
  } else if (!strcmp (element, "bilateral")) {
    CsBilateralParams p = cs_bilateral_params_default ();
    p.sigma = 3;
    cs_ref_bilateral (src, &ref, &p);
  } else {
    CsRecursiveParams p = cs_recursive_params_default ();
    p.sigma = 3;
    p.blocks_per_stripe = 1;
    cs_ref_recursive (src, &ref, &p);
  }
  GstVideoInfo info;
  GstCaps *caps = gst_pad_get_current_caps (f->h->sinkpad);
  gst_video_info_from_caps (&info, caps);
  gst_caps_unref (caps);
  GstVideoFrame frame;
  ck_assert (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  CsImage got = { GST_VIDEO_FRAME_PLANE_DATA (&frame, 0), src->width, src->height,
    GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), 3 };
  const CsErrorStats st = cs_compare_images (&got, &ref);
  ck_assert_msg (st.max_abs <= 1 && st.alpha_differing == 0, "%s: max %.0f", what, st.max_abs);
  gst_video_frame_unmap (&frame);
  cs_test_image_free (&ref);
}

#define PROPS "sigma=3 blocks-per-stripe=1"
#define BILATERAL_PROPS "sigma=3"

static const char *props_of (const char *element)
{
  return strcmp (element, "bilateral") ? PROPS : BILATERAL_PROPS;
}

/* A 64x48 RGBA frame is 12,288 bytes. Every buffer here holds less than its video meta says:
 * the element must read none of it, pass it on as an empty GAP buffer with its timestamps,
 * warn once, and filter the good buffers before and after. */
GST_START_TEST (test_forged_input_metas)
{
  const char *element = elements[__i__];
  Fixture f = fixture (element, props_of (element));
  const int w = 64, h = 48;
  CsImage src = cs_test_image_new (w, h, 0, 3, 0);
  cs_test_fill_scene (&src, 3);
  set_caps (f.h, w, h, NULL);
  const struct { gsize sizes[3]; gsize offset; gint stride; const char *what; } cases[] = {
    { { 12288 }, 6144, 256, "offset 6144, stride 256" },
    { { 12288 }, 0, 100, "a stride smaller than a row" },
    { { 12288 }, 0, 4096, "a big stride on a short buffer" },
    { { 12288 }, 47 * 256, -256, "a negative stride" },
    { { 6144, 6144 }, 0, 256, "a plane across two memories" },
    { { 12287 }, 0, 256, "one byte short" },
  };
  const int n = G_N_ELEMENTS (cases);
  const gsize whole[] = { 12288, 0 };
  for (int i = 0; i <= n; i++) {
    /* a good buffer between the bad ones, and one frame in the second of two memories */
    const gsize two[] = { 100, 12288, 0 };
    GstBuffer *bad = i < n ? forged (&src, cases[i].sizes, cases[i].offset, cases[i].stride) : NULL;
    GstBuffer *good = i % 2 ? forged (&src, two, 100, 256) : forged (&src, whole, 0, 256);
    if (bad) {
      GST_BUFFER_PTS (bad) = 2 * i * GST_SECOND / 30;
      GST_BUFFER_DURATION (bad) = GST_SECOND / 30;
      ck_assert_int_eq (gst_harness_push (f.h, bad), GST_FLOW_OK);
    }
    GST_BUFFER_PTS (good) = (2 * i + 1) * GST_SECOND / 30;
    GST_BUFFER_DURATION (good) = GST_SECOND / 30;
    ck_assert_int_eq (gst_harness_push (f.h, good), GST_FLOW_OK);
  }
  ck_assert (gst_harness_push_event (f.h, gst_event_new_eos ()));
  for (int i = 0; i <= n; i++) {
    if (i < n) {
      GstBuffer *out = gst_harness_pull (f.h);
      expect_gap (out, 2 * i * GST_SECOND / 30, cases[i].what);
      gst_buffer_unref (out);
    }
    GstBuffer *out = gst_harness_pull (f.h);
    expect_filtered (&f, element, out, &src, i % 2 ? "a frame in a second memory" : "a good buffer");
    gst_buffer_unref (out);
  }
  gchar *warning = NULL;
  ck_assert_int_eq (count_messages (&f, GST_MESSAGE_WARNING, &warning), 1);
  ck_assert_msg (strstr (warning, "passed on as a gap"), "%s", warning);
  ck_assert_int_eq (count_messages (&f, GST_MESSAGE_ERROR, NULL), 0);
  g_free (warning);
  cs_test_image_free (&src);
  fixture_free (&f);
}
GST_END_TEST;

/* A zero-size GAP buffer (what videoflip passes on) and a short buffer without a meta: each
 * passed on as an empty GAP buffer with its timestamps, one warning, the stream goes on. */
GST_START_TEST (test_gap_and_short_buffers)
{
  const char *element = elements[__i__];
  Fixture f = fixture (element, props_of (element));
  CsImage src = cs_test_image_new (40, 30, 0, 3, 0);
  cs_test_fill_scene (&src, 5);
  set_caps (f.h, 40, 30, NULL);
  GstBuffer *gap = gst_buffer_new ();
  GST_BUFFER_FLAG_SET (gap, GST_BUFFER_FLAG_GAP);
  GstBuffer *shortbuf = gst_buffer_new_allocate (NULL, 1000, NULL);
  const gsize whole[] = { 40 * 30 * 4, 0 };
  GstBuffer *good = forged (&src, whole, 0, 160);
  GstBuffer *in[3] = { gap, shortbuf, good };
  for (int i = 0; i < 3; i++) {
    GST_BUFFER_PTS (in[i]) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (in[i]) = GST_SECOND / 30;
    ck_assert_int_eq (gst_harness_push (f.h, in[i]), GST_FLOW_OK);
  }
  ck_assert (gst_harness_push_event (f.h, gst_event_new_eos ()));
  for (int i = 0; i < 3; i++) {
    GstBuffer *out = gst_harness_pull (f.h);
    if (i < 2)
      expect_gap (out, i * GST_SECOND / 30, i ? "a short buffer" : "a zero-size GAP buffer");
    else
      expect_filtered (&f, element, out, &src, "the buffer after them");
    gst_buffer_unref (out);
  }
  ck_assert_int_eq (count_messages (&f, GST_MESSAGE_WARNING, NULL), 1);
  ck_assert_int_eq (count_messages (&f, GST_MESSAGE_ERROR, NULL), 0);
  cs_test_image_free (&src);
  fixture_free (&f);
}
GST_END_TEST;

/* ---- an output pool whose buffers hold half of what their meta says ---- */

typedef struct {
  GstVideoBufferPool parent;
} ShortPool;
typedef GstVideoBufferPoolClass ShortPoolClass;
G_DEFINE_TYPE (ShortPool, short_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static GstFlowReturn
short_pool_alloc (GstBufferPool *pool, GstBuffer **buffer, GstBufferPoolAcquireParams *params)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps;
  guint size;
  GstVideoInfo info;
  (void) params;
  gst_buffer_pool_config_get_params (config, &caps, &size, NULL, NULL);
  gst_video_info_from_caps (&info, caps);
  gst_structure_free (config);
  *buffer = gst_buffer_new_allocate (NULL, size / 2, NULL);
  gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info), 1, info.offset, info.stride);
  return GST_FLOW_OK;
}

static void short_pool_class_init (ShortPoolClass *klass)
{
  GST_BUFFER_POOL_CLASS (klass)->alloc_buffer = short_pool_alloc;
}

static void short_pool_init (ShortPool *pool)
{
  (void) pool;
}

static GstPadQueryFunction harness_query;

static gboolean offer_short_pool (GstPad *pad, GstObject *parent, GstQuery *query)
{
  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return harness_query (pad, parent, query);
  GstCaps *caps;
  gst_query_parse_allocation (query, &caps, NULL);
  GstVideoInfo info;
  gst_video_info_from_caps (&info, caps);
  GstBufferPool *pool = g_object_new (short_pool_get_type (), NULL);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), 2, 0);
  gst_buffer_pool_set_config (pool, config);
  gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), 2, 0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return TRUE;
}

/* Output buffers from a downstream pool that are shorter than their meta: the CPU path,
 * which writes into downstream's buffers, posts an error and writes nothing; the GPU path
 * takes its own pinned pool for system memory. */
GST_START_TEST (test_forged_output_pool)
{
  const char *element = elements[__i__];
  Fixture f = fixture (element, props_of (element));
  harness_query = GST_PAD_QUERYFUNC (f.h->sinkpad);
  gst_pad_set_query_function (f.h->sinkpad, offer_short_pool);
  CsImage src = cs_test_image_new (64, 48, 0, 3, 0);
  cs_test_fill_scene (&src, 9);
  set_caps (f.h, 64, 48, NULL);
  const gsize whole[] = { 12288, 0 };
  const GstFlowReturn ret = gst_harness_push (f.h, forged (&src, whole, 0, 256));
  gchar *error = NULL;
  const int errors = count_messages (&f, GST_MESSAGE_ERROR, &error);
  if (!strcmp (CS_BACKEND, "cpu")) {
    ck_assert_int_eq (ret, GST_FLOW_ERROR);
    ck_assert_msg (errors == 1 && strstr (error, "does not hold the frame"), "%s", error);
  } else {
    ck_assert_int_eq (ret, GST_FLOW_OK);
    ck_assert_int_eq (errors, 0);
  }
  g_free (error);
  cs_test_image_free (&src);
  fixture_free (&f);
}
GST_END_TEST;

/* Frames past 32768 pixels a side are refused by the caps (no int arithmetic on them can
 * overflow: a row of 536,870,911 pixels once did in the CPU bilateral's padding). */
GST_START_TEST (test_sizes_past_the_limit)
{
  const char *element = elements[__i__];
  Fixture f = fixture (element, props_of (element));
  gst_harness_set_src_caps_str (f.h, "video/x-raw,format=RGBA,width=536870911,height=1,framerate=30/1");
  GstCaps *ok = gst_caps_from_string ("video/x-raw,format=RGBA,width=32768,height=1,framerate=30/1");
  GstElement *e = gst_harness_find_element (f.h, element);
  GstCaps *template = gst_pad_get_pad_template_caps (GST_BASE_TRANSFORM_SINK_PAD (e));
  gst_object_unref (e);
  ck_assert (gst_caps_can_intersect (ok, template));
  GstCaps *big = gst_caps_from_string ("video/x-raw,format=RGBA,width=536870911,height=1");
  ck_assert (!gst_caps_can_intersect (big, template));
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 64, NULL);
  ck_assert_int_eq (gst_harness_push (f.h, buf), GST_FLOW_NOT_NEGOTIATED);
  gst_caps_unref (ok);
  gst_caps_unref (big);
  gst_caps_unref (template);
  fixture_free (&f);
}
GST_END_TEST;

/* memory-limit: caps whose frames and workspace need more are refused with an error that
 * names both figures; under the limit they run. */
GST_START_TEST (test_memory_limit)
{
  const char *element = elements[__i__];
  gchar *props = g_strdup_printf ("%s memory-limit=8", props_of (element));
  Fixture f = fixture (element, props);
  g_free (props);
  set_caps (f.h, 1024, 1024, NULL);   /* 4 MiB a frame */
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 1024 * 1024 * 4, NULL);
  ck_assert_int_eq (gst_harness_push (f.h, buf), GST_FLOW_NOT_NEGOTIATED);
  gchar *error = NULL;
  ck_assert_int_eq (count_messages (&f, GST_MESSAGE_ERROR, &error), 1);
  ck_assert_msg (strstr (error, "1024x1024 frames need") && strstr (error, "more than the limit of 8 MiB"), "%s", error);
  g_free (error);
  fixture_free (&f);

  f = fixture (element, props_of (element));
  GstElement *e = gst_harness_find_element (f.h, element);
  g_object_set (e, "memory-limit", (guint64) 256, NULL);
  gst_object_unref (e);
  CsImage src = cs_test_image_new (64, 48, 0, 3, 0);
  cs_test_fill_scene (&src, 1);
  set_caps (f.h, 64, 48, NULL);
  const gsize whole[] = { 12288, 0 };
  ck_assert_int_eq (gst_harness_push (f.h, forged (&src, whole, 0, 256)), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (f.h);
  expect_filtered (&f, element, out, &src, "under the limit");
  gst_buffer_unref (out);
  cs_test_image_free (&src);
  fixture_free (&f);
}
GST_END_TEST;

/* The reproduction: a 16384x16384 frame under an 8 GB address-space limit (ulimit -v) was a
 * GLib abort (SIGTRAP in g_malloc as the output pool filled); the automatic limit, half of
 * that, refuses the caps with an error instead. In a child process, on the CPU path. */
GST_START_TEST (test_address_space_limit_is_an_error)
{
  if (CS_TEST_UNDER_ASAN) {
    printf ("AddressSanitizer reserves more address space than the limit: not checked\n");
    return;
  }
  if (strcmp (CS_BACKEND, "cpu")) {
    printf ("the GPU path's driver needs more address space than the limit: checked on the CPU path\n");
    return;
  }
  const pid_t pid = fork ();
  if (pid == 0) {
    struct rlimit r = { 8000000ull * 1024, 8000000ull * 1024 };
    setrlimit (RLIMIT_AS, &r);
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=16384,height=16384 ! "
        "%s backend=cpu ! fakesink", elements[__i__]);
    GstElement *p = gst_parse_launch (desc, NULL);
    gst_element_set_state (p, GST_STATE_PLAYING);
    GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    int code = 3;
    if (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gst_message_parse_error (m, &err, NULL);
      code = strstr (err->message, "more than the limit") && GST_MESSAGE_SRC (m) != NULL ? 0 : 4;
      g_clear_error (&err);
    }
    _exit (code);
  }
  int status = 0;
  waitpid (pid, &status, 0);
  ck_assert_msg (WIFEXITED (status), "the pipeline died of signal %d", WIFSIGNALED (status) ? WTERMSIG (status) : 0);
  ck_assert_msg (WEXITSTATUS (status) == 0, "exit %d: not the memory-limit error", WEXITSTATUS (status));
}
GST_END_TEST;

/* σ down to the smallest positive double, every element and mode: the frame unchanged (2σ²
 * underflowed and the bilateral's centre weight became 0/0: black frames). */
GST_START_TEST (test_tiny_sigma)
{
  const char *props[] = { "edgeawaregauss", "", "bilateral", "", "bilateral", "mode=separable",
    "bilateral", "range-kernel=lorentzian", "recursivegauss", "", "recursivegauss", "algorithm=young-van-vliet blocks-per-stripe=1" };
  const char *sigmas[] = { "4.9406564584124654e-324", "1e-300", "0.05" };
  const int k = __i__ % 6;
  gchar *p = g_strdup_printf ("sigma=%s %s", sigmas[__i__ / 6], props[2 * k + 1]);
  Fixture f = fixture (props[2 * k], p);
  CsImage src = cs_test_image_new (41, 29, 0, 3, 0);
  cs_test_fill_binary (&src, CS_TEST_CHECKERBOARD);
  set_caps (f.h, 41, 29, NULL);
  const gsize whole[] = { 41 * 29 * 4, 0 };
  ck_assert_int_eq (gst_harness_push (f.h, forged (&src, whole, 0, 41 * 4)), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (f.h);
  GstMapInfo map;
  gst_buffer_map (out, &map, GST_MAP_READ);
  CsImage got = { map.data, 41, 29, 41 * 4, 3 };
  const CsErrorStats st = cs_compare_images (&got, &src);
  /* young-van-vliet holds q(0.5) below σ 0.5: a blur, never a NaN; the others are the identity */
  if (k == 5) {
    CsImage ref = cs_test_image_new (41, 29, 0, 3, 0);
    CsRecursiveParams r = cs_recursive_params_default ();
    r.algorithm = CS_RECURSIVE_YOUNG_VAN_VLIET;
    r.sigma = g_ascii_strtod (sigmas[__i__ / 6], NULL);
    cs_ref_recursive (&src, &ref, &r);
    ck_assert_msg (cs_compare_images (&got, &ref).max_abs <= 1, "%s %s", props[2 * k], p);
    cs_test_image_free (&ref);
  } else {
    ck_assert_msg (st.differing == 0, "%s %s: %lld samples changed (max %.0f)", props[2 * k], p, st.differing, st.max_abs);
  }
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  g_free (p);
  cs_test_image_free (&src);
  fixture_free (&f);
}
GST_END_TEST;

/* recursivegauss at κ = 0 with partitions of 1, 2 and 3 samples: the frame's mean stays
 * (Young–van Vliet brightened frames by +46 to +73 levels on the GPU path); a constant frame
 * stays constant. */
GST_START_TEST (test_kappa_0_short_partitions)
{
  const int blocks[] = { 120, 60, 40 };
  gchar *p = g_strdup_printf ("sigma=8 kappa=0 partition-start=warm-up blocks-per-stripe=%d algorithm=%s",
      blocks[__i__ % 3], __i__ / 3 ? "young-van-vliet" : "deriche");
  Fixture f = fixture ("recursivegauss", p);
  CsImage scene = cs_test_image_new (120, 90, 0, 3, 0), flat = cs_test_image_new (120, 90, 0, 3, 0);
  cs_test_fill_scene (&scene, 4);
  cs_test_fill_constant (&flat, 30, 128, 250);
  set_caps (f.h, 120, 90, NULL);
  const gsize whole[] = { 120 * 90 * 4, 0 };
  ck_assert_int_eq (gst_harness_push (f.h, forged (&scene, whole, 0, 480)), GST_FLOW_OK);
  ck_assert_int_eq (gst_harness_push (f.h, forged (&flat, whole, 0, 480)), GST_FLOW_OK);
  ck_assert (gst_harness_push_event (f.h, gst_event_new_eos ()));
  for (int i = 0; i < 2; i++) {
    GstBuffer *out = gst_harness_pull (f.h);
    GstMapInfo map;
    gst_buffer_map (out, &map, GST_MAP_READ);
    CsImage got = { map.data, 120, 90, 480, 3 };
    const CsImage *in = i ? &flat : &scene;
    double sum_in = 0, sum_out = 0;
    for (int y = 0; y < 90; y++)
      for (int x = 0; x < 120; x++)
        for (int c = 0; c < 3; c++) {
          sum_in += cs_image_pixel (in, x, y)[c];
          sum_out += cs_image_pixel (&got, x, y)[c];
        }
    const double shift = (sum_out - sum_in) / (120 * 90 * 3);
    ck_assert_msg (fabs (shift) < 1.0, "%s: mean moved by %.2f levels", p, shift);
    if (i)
      ck_assert_msg (cs_compare_images (&got, &flat).differing == 0, "%s: a constant frame changed", p);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
  }
  g_free (p);
  cs_test_image_free (&scene);
  cs_test_image_free (&flat);
  fixture_free (&f);
}
GST_END_TEST;

/* Interlaced frames (interleaved fields): each field filtered as its own picture, so that
 * the fields, a moment apart, are not blended. */
GST_START_TEST (test_interlaced_fields)
{
  const char *element = elements[__i__];
  Fixture f = fixture (element, props_of (element));
  const int w = 53, h = 41;
  CsImage src = cs_test_image_new (w, h, 0, 3, 0);
  cs_test_fill_scene (&src, 17);
  set_caps (f.h, w, h, ",interlace-mode=interleaved");
  const gsize whole[] = { (gsize) w * h * 4, 0 };
  ck_assert_int_eq (gst_harness_push (f.h, forged (&src, whole, 0, w * 4)), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (f.h);
  GstMapInfo map;
  gst_buffer_map (out, &map, GST_MAP_READ);
  for (int field = 0; field < 2; field++) {
    const int fh = field ? h / 2 : (h + 1) / 2;
    CsImage in = { src.data + field * src.stride, w, fh, 2 * src.stride, 3 };
    CsImage got = { map.data + field * w * 4, w, fh, 2 * w * 4, 3 };
    CsImage ref = cs_test_image_new (w, fh, 0, 3, 0);
    if (!strcmp (element, "edgeawaregauss")) {
      CsEdgeAwareParams p = cs_edgeaware_params_default ();
      p.sigma = 3;
      p.blocks_per_stripe = 1;
      cs_ref_edgeaware (&in, &ref, &p);
    } else if (!strcmp (element, "bilateral")) {
      CsBilateralParams p = cs_bilateral_params_default ();
      p.sigma = 3;
      cs_ref_bilateral (&in, &ref, &p);
    } else {
      CsRecursiveParams p = cs_recursive_params_default ();
      p.sigma = 3;
      p.blocks_per_stripe = 1;
      cs_ref_recursive (&in, &ref, &p);
    }
    const CsErrorStats st = cs_compare_images (&got, &ref);
    ck_assert_msg (st.max_abs <= 1, "%s field %d: max %.0f against the field filtered alone", element, field, st.max_abs);
    cs_test_image_free (&ref);
  }
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  cs_test_image_free (&src);
  fixture_free (&f);
}
GST_END_TEST;

static GstFlowReturn refuse (GstPad *pad, GstObject *parent, GstBuffer *buf)
{
  (void) pad;
  (void) parent;
  gst_buffer_unref (buf);
  return GST_FLOW_ERROR;
}

/* Held frames (overlap=on holds two on the GPU) drained at EOS into a downstream that
 * fails: the flow error is an error on the bus, not lost with the event. */
GST_START_TEST (test_drain_error_at_eos)
{
  if (strcmp (CS_BACKEND, "cuda")) {
    printf ("the CPU path holds no frames: nothing to drain\n");
    return;
  }
  const char *element = elements[__i__];
  gchar *p = g_strdup_printf ("%s overlap=on", props_of (element));
  Fixture f = fixture (element, p);
  g_free (p);
  CsImage src = cs_test_image_new (32, 24, 0, 3, 0);
  cs_test_fill_noise (&src, 2);
  set_caps (f.h, 32, 24, NULL);
  const gsize whole[] = { 32 * 24 * 4, 0 };
  for (int i = 0; i < 2; i++)
    ck_assert_int_eq (gst_harness_push (f.h, forged (&src, whole, 0, 128)), GST_FLOW_OK);
  ck_assert_int_eq (gst_harness_buffers_received (f.h), 0);   /* both held */
  gst_pad_set_chain_function (f.h->sinkpad, refuse);
  gst_harness_push_event (f.h, gst_event_new_eos ());
  gchar *error = NULL;
  ck_assert_int_eq (count_messages (&f, GST_MESSAGE_ERROR, &error), 1);
  g_free (error);
  cs_test_image_free (&src);
  fixture_free (&f);
}
GST_END_TEST;

static Suite *hostile_suite (void)
{
  Suite *s = suite_create ("hostile-" CS_BACKEND);
  TCase *tc = tcase_create ("hostile");
  tcase_set_timeout (tc, 120);
  tcase_add_loop_test (tc, test_forged_input_metas, 0, 3);
  tcase_add_loop_test (tc, test_gap_and_short_buffers, 0, 3);
  tcase_add_loop_test (tc, test_forged_output_pool, 0, 3);
  tcase_add_loop_test (tc, test_sizes_past_the_limit, 0, 3);
  tcase_add_loop_test (tc, test_memory_limit, 0, 3);
  tcase_add_loop_test (tc, test_address_space_limit_is_an_error, 0, 3);
  tcase_add_loop_test (tc, test_tiny_sigma, 0, 18);
  tcase_add_loop_test (tc, test_kappa_0_short_partitions, 0, 6);
  tcase_add_loop_test (tc, test_interlaced_fields, 0, 3);
  tcase_add_loop_test (tc, test_drain_error_at_eos, 0, 3);
  suite_add_tcase (s, tc);
  return s;
}

int main (int argc, char **argv)
{
  return cs_run_backend_suite (&argc, &argv, hostile_suite, "hostile", __FILE__);
}
