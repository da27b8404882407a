/* GRAY8 and the YUV formats through the three elements (GstHarness): every format and
 * filter, chroma=filter and copy, odd sizes, padded strides and plane offsets from a
 * GstVideoMeta, interlaced fields, repeated frames, and a photo converted to each format.
 * Every output sample within 1 LSB of the double reference of its plane group
 * (cs_ref_*_channels: luma as a 1-channel image, U and V as one 2-channel image at chroma
 * size; docs/algorithms.md, "Formats"), with the reference's parameters read back from
 * the element under test. Built for both backends, like test_elements.c; with the CUDA
 * backend the frames also travel in CUDA memory (cudaupload ! element ! cudadownload).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cs_reference.h"
#include "cs_test_images.h"
#include "cs_test_backend_main.h"
#include "cs_test_views.h"

#ifndef CS_BACKEND
#define CS_BACKEND "cpu"
#endif

static const char *const formats[] = { "GRAY8", "NV12", "NV21", "I420", "YV12", "Y444", "YUY2", "UYVY" };
#define N_FORMATS G_N_ELEMENTS (formats)

/* The element's settings under test, one per filter and a few that take other paths. */
static const char *const settings[][2] = {
  { "edgeawaregauss", "sigma=6 sigma-r=30 blocks-per-stripe=1" },
  { "bilateral", "sigma=2 sigma-r=25" },
  { "recursivegauss", "sigma=4 blocks-per-stripe=1" },
  { "edgeawaregauss", "sigma=9 sigma-r=50 iterations=3 blocks-per-stripe=4 kappa=3" },
  { "bilateral", "sigma=3 sigma-r=40 radius=5 range-kernel=lorentzian" },
  { "bilateral", "sigma=2.5 sigma-r=20 mode=separable" },
  { "bilateral", "sigma=1 sigma-r=30 radius=1" },
  { "recursivegauss", "sigma=3 algorithm=young-van-vliet blocks-per-stripe=3" },
  { "recursivegauss", "sigma=30 partition-start=carry blocks-per-stripe=5" },
  { "recursivegauss", "sigma=0.15" },   /* luma filtered, chroma (σ/2) passed through */
};
#define N_SETTINGS G_N_ELEMENTS (settings)

typedef struct {
  const char *element;
  CsEdgeAwareParams edgeaware;
  CsBilateralParams bilateral;
  CsRecursiveParams recursive;
} Params;

/* The parameters of an element as its properties say. */
static Params params_of (GstElement *e, const char *element)
{
  Params p = { .element = element };
  if (!strcmp (element, "edgeawaregauss")) {
    p.edgeaware = cs_edgeaware_params_default ();
    g_object_get (e, "sigma", &p.edgeaware.sigma, "sigma-r", &p.edgeaware.sigma_r, "iterations",
        &p.edgeaware.iterations, "kappa", &p.edgeaware.kappa, "blocks-per-stripe", &p.edgeaware.blocks_per_stripe,
        NULL);
  } else if (!strcmp (element, "bilateral")) {
    gint kernel, mode;
    p.bilateral = cs_bilateral_params_default ();
    g_object_get (e, "sigma", &p.bilateral.sigma, "sigma-r", &p.bilateral.sigma_r, "radius", &p.bilateral.radius,
        "range-kernel", &kernel, "mode", &mode, NULL);
    p.bilateral.range_kernel = kernel;
    p.bilateral.mode = mode;
  } else {
    gint algorithm, start;
    p.recursive = cs_recursive_params_default ();
    g_object_get (e, "sigma", &p.recursive.sigma, "blocks-per-stripe", &p.recursive.blocks_per_stripe, "kappa",
        &p.recursive.kappa, "algorithm", &algorithm, "partition-start", &start, NULL);
    p.recursive.algorithm = algorithm;
    p.recursive.partition_start = start;
  }
  return p;
}

static void reference (const Params *p, const CsChannels *src, CsChannels *dst, int sx, int sy)
{
  int ret;
  if (!strcmp (p->element, "edgeawaregauss"))
    ret = cs_ref_edgeaware_channels (src, dst, &p->edgeaware, sx, sy);
  else if (!strcmp (p->element, "bilateral"))
    ret = cs_ref_bilateral_channels (src, dst, &p->bilateral, sx, sy);
  else
    ret = cs_ref_recursive_channels (src, dst, &p->recursive, sx, sy);
  ck_assert_int_eq (ret, 0);
}

/* A frame of info's format in a buffer of its own layout: each plane's rows `pad` bytes
 * longer than needed, planes `gap` bytes apart, described by a GstVideoMeta. */
typedef struct {
  GstVideoInfo info;
  GstBuffer *buf;
} Frame;

static Frame frame_new (const char *format, int w, int h, int pad, int gap, const char *interlace)
{
  Frame f;
  gchar *caps_str = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,framerate=30/1%s%s", format, w, h,
      interlace ? ",interlace-mode=" : "", interlace ? interlace : "");
  GstCaps *caps = gst_caps_from_string (caps_str);
  ck_assert (gst_video_info_from_caps (&f.info, caps));
  gst_caps_unref (caps);
  g_free (caps_str);
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 }, size = 0;
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&f.info); p++) {
    /* a row holds every component of the plane: 4:2:2 packed rows round up to whole
     * macropixels (an odd-width YUY2 row is 2·(w+1) bytes) */
    gint c[GST_VIDEO_MAX_COMPONENTS];
    gint row_bytes = 0, rows = 0;
    gst_video_format_info_component (f.info.finfo, p, c);
    for (int k = 0; k < GST_VIDEO_MAX_COMPONENTS && c[k] >= 0; k++) {
      row_bytes = MAX (row_bytes, GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (f.info.finfo, c[k], w) *
          GST_VIDEO_FORMAT_INFO_PSTRIDE (f.info.finfo, c[k]));
      rows = MAX (rows, GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (f.info.finfo, c[k], h));
    }
    stride[p] = row_bytes + pad;
    offset[p] = size + (p ? (gsize) gap : 0);
    size = offset[p] + (gsize) stride[p] * rows;
    f.info.stride[p] = stride[p];
    f.info.offset[p] = offset[p];
  }
  f.info.size = size;
  f.buf = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_memset (f.buf, 0, 0xA5, size);   /* padding and gaps: poison */
  gst_buffer_add_video_meta_full (f.buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (&f.info), w, h,
      GST_VIDEO_INFO_N_PLANES (&f.info), offset, stride);
  if (interlace)
    GST_BUFFER_FLAG_SET (f.buf, GST_VIDEO_BUFFER_FLAG_INTERLACED);
  return f;
}

/* Fills every sample of the frame: a scene (smooth shading, a step edge, a disc) with noise,
 * each component its own; or, where rgb is given, BT.601 YUV (or grey) of that picture,
 * chroma taken at each chroma sample's top-left luma pixel. */
static void fill (Frame *f, uint32_t seed, const CsImage *rgb)
{
  GstVideoFrame vf;
  ck_assert (gst_video_frame_map (&vf, &f->info, f->buf, GST_MAP_WRITE));
  for (guint g = 0; g < cs_test_n_groups (&f->info); g++) {
    CsChannels v = cs_test_view_of (&vf, g, 0, 1);
    int sx, sy;
    cs_test_subsampling (&vf, g, &sx, &sy);
    for (int c = 0; c < v.channels; c++)
      for (int y = 0; y < v.height; y++)
        for (int x = 0; x < v.width; x++) {
          double value;
          const int comp = g == 0 ? 0 : 1 + c;
          if (rgb) {
            const uint8_t *px = cs_image_pixel (rgb, x * sx, y * sy) + cs_colour_offset (rgb->alpha_offset);
            const double r = px[0], gr = px[1], b = px[2];
            value = comp == 0 ? 16 + (65.738 * r + 129.057 * gr + 25.064 * b) / 256
                : comp == 1 ? 128 + (-37.945 * r - 74.494 * gr + 112.439 * b) / 256
                : 128 + (112.439 * r - 94.154 * gr - 18.285 * b) / 256;
          } else {
            seed = seed * 1664525u + 1013904223u;
            const double dx = x - v.width * 0.4, dy = y - v.height * 0.6;
            value = 90 + 50 * sin (x * 0.21 + comp) * cos (y * 0.17) + (x > v.width / 2 ? 60 : 0) +
                (dx * dx + dy * dy < v.width * v.height / 20.0 ? -70 + 30 * comp : 0) + (double) (seed >> 28) - 8;
          }
          cs_channels_sample (&v, c, x, y)[0] = cs_quantise (value);
        }
  }
  gst_video_frame_unmap (&vf);
}

/* A harness around `launch` (the element, or it between cudaupload and cudadownload). */
static GstHarness *harness_for (const char *element, const char *props, const char *chroma, gboolean cuda_memory,
    Params *p)
{
  gchar *launch = g_strdup_printf ("%s%s name=f backend=" CS_BACKEND " chroma=%s %s%s", cuda_memory ? "cudaupload ! " : "",
      element, chroma, props, cuda_memory ? " ! cudadownload" : "");
  GstHarness *h = gst_harness_new_parse (launch);
  g_free (launch);
  GstElement *e = gst_bin_get_by_name (GST_BIN (h->element), "f");
  if (!e)   /* a lone element is the harness's element itself */
    e = gst_object_ref (h->element);
  *p = params_of (e, element);
  gst_object_unref (e);
  return h;
}

/* Pushes `frames` copies of the frame, and checks every output against the reference and
 * the outputs against each other (bit-identical repeats). */
static void check_format (const char *element, const char *props, const char *format, int w, int h, int pad,
    int gap, const char *chroma, const char *interlace, const CsImage *photo, gboolean cuda_memory, int frames)
{
  Params p;
  GstHarness *harness = harness_for (element, props, chroma, cuda_memory, &p);
  Frame in = frame_new (format, w, h, pad, gap, interlace);
  fill (&in, (uint32_t) (w * 31 + h), photo);

  /* the expected frame: the input, each group filtered by the reference in place */
  GstBuffer *expected = gst_buffer_copy_deep (in.buf);
  GstVideoFrame ef;
  ck_assert (gst_video_frame_map (&ef, &in.info, expected, GST_MAP_READWRITE));
  const guint n = interlace ? 2 : 1;
  const gboolean copy_chroma = !strcmp (chroma, "copy");
  for (guint g = 0; g < cs_test_n_groups (&in.info); g++)
    for (guint f = 0; f < n && !(g == 1 && copy_chroma); f++) {
      CsChannels v = cs_test_view_of (&ef, g, f, n);
      int sx, sy;
      cs_test_subsampling (&ef, g, &sx, &sy);
      reference (&p, &v, &v, sx, sy);
    }

  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,framerate=30/1%s%s", format, w, h,
      interlace ? ",interlace-mode=" : "", interlace ? interlace : "");
  gst_harness_set_src_caps_str (harness, caps);
  g_free (caps);
  for (int i = 0; i < frames; i++) {
    GstBuffer *buf = i == 0 ? gst_buffer_ref (in.buf) : gst_buffer_copy_deep (in.buf);
    GST_BUFFER_PTS (buf) = i * GST_SECOND / 30;
    ck_assert_int_eq (gst_harness_push (harness, buf), GST_FLOW_OK);
  }
  ck_assert (gst_harness_push_event (harness, gst_event_new_eos ()));

  GstVideoInfo out_info;
  GstCaps *out_caps = gst_pad_get_current_caps (harness->sinkpad);
  ck_assert (gst_video_info_from_caps (&out_info, out_caps));
  gst_caps_unref (out_caps);
  GstBuffer *first = NULL;
  for (int i = 0; i < frames; i++) {
    GstBuffer *out = gst_harness_pull (harness);
    ck_assert_msg (out != NULL, "%s %s %dx%d: frame %d missing", element, format, w, h, i);
    ck_assert_uint_eq (GST_BUFFER_PTS (out), i * GST_SECOND / 30);
    GstVideoFrame of;
    ck_assert (gst_video_frame_map (&of, &out_info, out, GST_MAP_READ));
    for (guint g = 0; g < cs_test_n_groups (&in.info); g++)
      for (guint f = 0; f < n; f++) {
        const int d = cs_test_max_diff (&of, &ef, g, f, n);
        ck_assert_msg (d <= (g == 1 && copy_chroma ? 0 : 1), "%s %s, %s %dx%d pad %d, chroma=%s%s%s: group %u field %u "
            "differs from the reference by %d", element, props, format, w, h, pad, chroma,
            cuda_memory ? ", CUDA memory" : "", photo ? ", photo" : "", g, f, d);
      }
    if (first) {
      GstVideoFrame ff;
      ck_assert (gst_video_frame_map (&ff, &out_info, first, GST_MAP_READ));
      for (guint g = 0; g < cs_test_n_groups (&in.info); g++)
        ck_assert_msg (cs_test_max_diff (&of, &ff, g, 0, 1) == 0, "%s %s: frame %d differs from frame 0", element, format, i);
      gst_video_frame_unmap (&ff);
    }
    gst_video_frame_unmap (&of);
    if (!first)
      first = out;
    else
      gst_buffer_unref (out);
  }
  if (first)
    gst_buffer_unref (first);
  gst_video_frame_unmap (&ef);
  gst_buffer_unref (expected);
  gst_buffer_unref (in.buf);
  gst_harness_teardown (harness);
}

/* every setting in every format */
GST_START_TEST (test_every_format_and_setting)
{
  const char *const *s = settings[__i__ % N_SETTINGS];
  check_format (s[0], s[1], formats[__i__ / N_SETTINGS], 37, 23, 0, 0, "filter", NULL, NULL, FALSE, 1);
}
GST_END_TEST;

/* chroma=copy: luma filtered, U and V bit-exact copies */
GST_START_TEST (test_chroma_copy)
{
  check_format (settings[__i__ % 3][0], settings[__i__ % 3][1], formats[1 + __i__ / 3], 41, 29, 0, 0, "copy", NULL,
      NULL, FALSE, 1);
}
GST_END_TEST;

/* odd sizes (chroma rounds up), padded strides, planes apart, two frames bit-identical */
GST_START_TEST (test_odd_sizes_padded_strides_and_repeats)
{
  const int sizes[][4] = { { 1, 1, 0, 0 }, { 3, 2, 5, 3 }, { 2, 5, 64, 100 }, { 129, 67, 13, 7 }, { 301, 3, 3, 0 } };
  const int *sz = sizes[__i__ % 5];
  /* (sizes and formats cycle together: each format meets three sizes, each size four formats) */
  const char *const *s = settings[__i__ % 3];
  check_format (s[0], s[1], formats[__i__ % N_FORMATS], sz[0], sz[1], sz[2], sz[3], "filter", NULL, NULL, FALSE, 2);
}
GST_END_TEST;

/* Sizes whose pitches are multiples of 64 bytes and planes 256-aligned in the caps' layout:
 * the CUDA backend's device frames take that layout, and a frame in it (no padding, an even
 * height) moves in one copy each way; an odd height, padded rows or planes apart go plane by
 * plane into it. */
GST_START_TEST (test_frames_in_the_caps_layout)
{
  const int sizes[][4] = { { 128, 48, 0, 0 }, { 128, 47, 0, 0 }, { 256, 32, 64, 256 } };
  const int *sz = sizes[__i__ % 3];
  const char *const *s = settings[(__i__ + __i__ / 3) % 3];   /* each size meets each filter */
  check_format (s[0], s[1], formats[__i__ / 3], sz[0], sz[1], sz[2], sz[3], "filter", NULL, NULL, FALSE, 3);
}
GST_END_TEST;

/* interlaced frames: each field of each group filtered apart */
GST_START_TEST (test_interlaced)
{
  /* 19 rows: fields of 10 and 9, chroma fields of 5 and 5; 2 rows: chroma has one row, the
   * bottom field's chroma none */
  const int h = __i__ < 3 ? 19 : 2;
  check_format (settings[__i__ % 3][0], settings[__i__ % 3][1], __i__ < 6 ? "NV12" : "I420", 31, h, 4, 0, "filter",
      "interleaved", NULL, FALSE, 1);
}
GST_END_TEST;

/* a photograph converted to each format */
GST_START_TEST (test_photo)
{
  CsImage photo = cs_test_image_load_ppm (cs_test_data_path ("coffee_301x203.ppm"), 0, 3);
  ck_assert_int_gt (photo.width, 0);
  const char *const *s = settings[__i__ % 3];
  check_format (s[0], s[1], formats[__i__ / 3], photo.width, photo.height, 0, 0, "filter", NULL, &photo, FALSE, 1);
  cs_test_image_free (&photo);
}
GST_END_TEST;

/* in CUDA memory: cudaupload ! element ! cudadownload (the CUDA backend only) */
GST_START_TEST (test_cuda_memory)
{
  static const char *const cuda_formats[] = { "NV12", "I420", "YV12", "Y444", "NV21", "YUY2", "UYVY" };
  const char *const *s = settings[__i__ % 3];
  const char *format = cuda_formats[__i__ / 3];
  /* GStreamer 1.22's CUDA memory copies a row of COMP_WIDTH(0)·PSTRIDE(0) bytes between host
   * and device: for an odd-width 4:2:2 frame one byte short, so the last macropixel's V never
   * reaches the device (measured: only that format and width differ, by up to 173). Even
   * widths there; odd ones are tested in system memory. */
  const int w = !strcmp (format, "YUY2") || !strcmp (format, "UYVY") ? 68 : 67;
  check_format (s[0], s[1], format, w, 35, 0, 0, "filter", NULL, NULL, TRUE, 2);
}
GST_END_TEST;

/* Planes that a GstVideoMeta puts outside the buffer: the element reads none of them, passes
 * the buffer on as an empty GAP buffer with its timestamp, warns once, and filters the good
 * frame after it. */
GST_START_TEST (test_forged_plane_metas)
{
  const char *format = __i__ < 3 ? "NV12" : "I420";
  const char *const *s = settings[__i__ % 3];
  Params p;
  GstHarness *harness = harness_for (s[0], s[1], "filter", FALSE, &p);
  GstBus *bus = gst_bus_new ();
  gst_element_set_bus (harness->element, bus);
  Frame good = frame_new (format, 64, 48, 0, 0, NULL);
  fill (&good, 5, NULL);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=64,height=48,framerate=30/1", format);
  gst_harness_set_src_caps_str (harness, caps);
  g_free (caps);
  /* the last plane starts 100 bytes before the buffer's end; then a chroma stride smaller
   * than a chroma row */
  const guint last = GST_VIDEO_INFO_N_PLANES (&good.info) - 1;
  for (int bad = 0; bad < 2; bad++) {
    GstBuffer *buf = gst_buffer_copy_deep (good.buf);
    GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
    if (bad == 0)
      meta->offset[last] = gst_buffer_get_size (buf) - 100;
    else
      meta->stride[1] = 10;
    GST_BUFFER_PTS (buf) = bad * GST_SECOND;
    ck_assert_int_eq (gst_harness_push (harness, buf), GST_FLOW_OK);
  }
  GstBuffer *ok = gst_buffer_ref (good.buf);
  GST_BUFFER_PTS (ok) = 2 * GST_SECOND;
  ck_assert_int_eq (gst_harness_push (harness, ok), GST_FLOW_OK);
  ck_assert (gst_harness_push_event (harness, gst_event_new_eos ()));
  for (int bad = 0; bad < 2; bad++) {
    GstBuffer *out = gst_harness_pull (harness);
    ck_assert (out != NULL);
    ck_assert_msg (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP) && gst_buffer_get_size (out) == 0,
        "%s %s: forged meta %d not passed on as an empty gap", s[0], format, bad);
    ck_assert_uint_eq (GST_BUFFER_PTS (out), bad * GST_SECOND);
    gst_buffer_unref (out);
  }
  GstBuffer *out = gst_harness_pull (harness);
  ck_assert (out != NULL && !GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP));
  ck_assert_uint_eq (GST_BUFFER_PTS (out), 2 * GST_SECOND);
  gst_buffer_unref (out);
  int warnings = 0;
  for (GstMessage *m; (m = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING | GST_MESSAGE_ERROR));) {
    ck_assert_int_eq (GST_MESSAGE_TYPE (m), GST_MESSAGE_WARNING);
    warnings++;
    gst_message_unref (m);
  }
  gst_object_unref (bus);
  ck_assert_int_eq (warnings, 1);
  gst_buffer_unref (good.buf);
  gst_harness_teardown (harness);
}
GST_END_TEST;

static void count_handoff (GstElement *sink, GstBuffer *buf, GstPad *pad, gpointer frames)
{
  (void) sink;
  (void) buf;
  (void) pad;
  g_atomic_int_inc ((gint *) frames);
}

/* A live YUY2 source straight into each element, as a webcam's v4l2src gives it: no converter,
 * every frame out (test_elements checks that live sources get no frame held) */
GST_START_TEST (test_live_yuy2_source)
{
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=6 pattern=ball ! "
      "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1 ! %s backend=" CS_BACKEND " %s name=f ! "
      "video/x-raw,format=YUY2 ! fakesink name=sink sync=false signal-handoffs=true", settings[__i__][0], settings[__i__][1]);
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  ck_assert_msg (p && !err, "%s: %s", desc, err ? err->message : "");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gint frames = 0;
  g_signal_connect (sink, "handoff", G_CALLBACK (count_handoff), &frames);
  gst_element_set_state (p, GST_STATE_PLAYING);
  GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ck_assert_msg (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS, "%s: no EOS", desc);
  gst_message_unref (m);
  ck_assert_int_eq (g_atomic_int_get (&frames), 6);
  gst_object_unref (sink);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (desc);
}
GST_END_TEST;

static Suite *formats_suite (void)
{
  Suite *s = suite_create ("formats-" CS_BACKEND);
  TCase *tc = tcase_create ("general");
  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_loop_test (tc, test_every_format_and_setting, 0, N_FORMATS * N_SETTINGS);
  tcase_add_loop_test (tc, test_chroma_copy, 0, 3 * (N_FORMATS - 1));
  tcase_add_loop_test (tc, test_odd_sizes_padded_strides_and_repeats, 0, 40);
  tcase_add_loop_test (tc, test_frames_in_the_caps_layout, 0, 3 * N_FORMATS);
  tcase_add_loop_test (tc, test_interlaced, 0, 9);
  tcase_add_loop_test (tc, test_photo, 0, 3 * N_FORMATS);
  tcase_add_loop_test (tc, test_live_yuy2_source, 0, 3);
  tcase_add_loop_test (tc, test_forged_plane_metas, 0, 6);
  if (!strcmp (CS_BACKEND, "cuda")) {
    TCase *cuda = tcase_create ("cuda-memory");   /* CK_RUN_CASE=cuda-memory for sanitizer runs */
    tcase_set_timeout (cuda, 120);
    tcase_add_loop_test (cuda, test_cuda_memory, 0, 21);
    suite_add_tcase (s, cuda);
  }
  return s;
}

int main (int argc, char **argv)
{
  return cs_run_backend_suite (&argc, &argv, formats_suite, "formats-" CS_BACKEND, __FILE__);
}
