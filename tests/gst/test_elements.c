/* The three elements through GstHarness: every format, odd sizes, padded strides,
 * properties changed mid-stream and from another thread, passthrough, invalid values,
 * N buffers in = N out with timestamps and metas, caps renegotiation, held frames.
 * Built twice: with CS_BACKEND "cpu" (suite gst) and "cuda" (suite gpu, skipped with a
 * printed reason where no usable CUDA device exists).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <string.h>

#include "cs_metrics.h"
#include "cs_reference.h"
#include "cs_test_images.h"
#include "cs_test_backend_main.h"

#ifndef CS_BACKEND
#define CS_BACKEND "cpu"
#endif

static const char *const formats[] = { "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR" };
static const char *const elements[] = { "edgeawaregauss", "bilateral", "recursivegauss" };

static int alpha_offset_of (const char *format)
{
  return format[0] == 'A' || format[0] == 'x' ? 0 : 3;
}

/* A harness around one element with the backend under test and extra properties. */
static GstHarness *harness (const char *element, const char *props)
{
  gchar *launch = g_strdup_printf ("%s backend=" CS_BACKEND " %s", element, props ? props : "");
  /* the harness src pad answers latency queries as live; overlap is asked for explicitly */
  GstHarness *h = gst_harness_new_parse (launch);
  g_free (launch);
  return h;
}

static void set_caps (GstHarness *h, const char *format, int w, int hgt)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,framerate=30/1", format, w, hgt);
  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
}

/* A buffer holding img, with a GstVideoMeta giving its (possibly padded) stride. */
static GstBuffer *buffer_of (const CsImage *img, const char *format)
{
  const gsize size = (gsize) img->stride * img->height;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  gsize offset[4] = { 0 };
  gint stride[4] = { (gint) img->stride };
  gst_buffer_fill (buf, 0, img->data, size);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, gst_video_format_from_string (format),
      img->width, img->height, 1, offset, stride);
  return buf;
}

/* Compares an output buffer (laid out as info says) with an expected image: colour
 * within max_err, alpha exact. */
static void expect_frame_info (const GstVideoInfo *info, GstBuffer *out, const CsImage *expected,
    double max_err, const char *what)
{
  GstVideoFrame frame;
  ck_assert (gst_video_frame_map (&frame, (GstVideoInfo *) info, out, GST_MAP_READ));
  CsImage got = { GST_VIDEO_FRAME_PLANE_DATA (&frame, 0), GST_VIDEO_FRAME_WIDTH (&frame),
    GST_VIDEO_FRAME_HEIGHT (&frame), GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), expected->alpha_offset };
  ck_assert_int_eq (got.width, expected->width);
  ck_assert_int_eq (got.height, expected->height);
  const CsErrorStats st = cs_compare_images (&got, expected);
  ck_assert_msg (st.max_abs <= max_err && st.alpha_differing == 0,
      "%s: max abs error %.0f, %lld alpha bytes differ", what, st.max_abs, st.alpha_differing);
  gst_video_frame_unmap (&frame);
}

/* The same, with the caps the harness's sink pad has now. */
static void expect_frame (GstHarness *h, GstBuffer *out, const CsImage *expected, double max_err,
    const char *what)
{
  GstVideoInfo info;
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  ck_assert (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  expect_frame_info (&info, out, expected, max_err, what);
}

static void reference (const char *element, const CsImage *src, CsImage *dst, double sigma)
{
  if (!strcmp (element, "edgeawaregauss")) {
    CsEdgeAwareParams p = cs_edgeaware_params_default ();
    p.sigma = sigma;
    p.blocks_per_stripe = 1;
    ck_assert_int_eq (cs_ref_edgeaware (src, dst, &p), 0);
  } else if (!strcmp (element, "bilateral")) {
    CsBilateralParams p = cs_bilateral_params_default ();
    p.sigma = sigma;
    ck_assert_int_eq (cs_ref_bilateral (src, dst, &p), 0);
  } else {
    CsRecursiveParams p = cs_recursive_params_default ();
    p.sigma = sigma;
    p.blocks_per_stripe = 1;
    ck_assert_int_eq (cs_ref_recursive (src, dst, &p), 0);
  }
}

/* Props that make the element match reference() with sigma. */
static gchar *props_for (const char *element, double sigma)
{
  if (!strcmp (element, "bilateral"))
    return g_strdup_printf ("sigma=%g", sigma);
  return g_strdup_printf ("sigma=%g blocks-per-stripe=1", sigma);
}

/* One frame through an element set up with `props` (NULL: props_for): output within
 * 1 LSB of reference(). */
static void one_frame_with (const char *element, const char *props_or_null, const char *format, int w, int hgt,
    int pad, double sigma)
{
  const int ao = alpha_offset_of (format);
  CsImage src = cs_test_image_new (w, hgt, pad, ao, 0), ref = cs_test_image_new (w, hgt, 0, ao, 0);
  cs_test_fill_scene (&src, (uint32_t) (w * 7 + hgt));
  reference (element, &src, &ref, sigma);
  gchar *props = props_or_null ? g_strdup (props_or_null) : props_for (element, sigma);
  GstHarness *h = harness (element, props);
  g_free (props);
  set_caps (h, format, w, hgt);
  ck_assert_int_eq (gst_harness_push (h, buffer_of (&src, format)), GST_FLOW_OK);
  ck_assert (gst_harness_push_event (h, gst_event_new_eos ()));
  GstBuffer *out = gst_harness_pull (h);
  ck_assert_msg (out != NULL, "%s %s %dx%d: no output", element, format, w, hgt);
  gchar *what = g_strdup_printf ("%s %s %dx%d pad %d", element, format, w, hgt, pad);
  expect_frame (h, out, &ref, 1, what);
  g_free (what);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  cs_test_image_free (&src);
  cs_test_image_free (&ref);
}

static void one_frame (const char *element, const char *format, int w, int hgt, int pad, double sigma)
{
  one_frame_with (element, NULL, format, w, hgt, pad, sigma);
}

/* Partitions that carry their start states (explicitly, and by auto past a warm-up of 64
 * samples) give the unpartitioned filter: the whole-line reference. */
GST_START_TEST (test_recursive_carried_partitions)
{
  const char *props[] = { "sigma=6 partition-start=carry", "sigma=30 partition-start=auto",
    "sigma=30 partition-start=carry blocks-per-stripe=9" };
  const double sigmas[] = { 6, 30, 30 };
  one_frame_with ("recursivegauss", props[__i__], __i__ ? "RGBA" : "xBGR", 641, 367, __i__ == 2 ? 12 : 0,
      sigmas[__i__]);
}
GST_END_TEST;

GST_START_TEST (test_every_format)
{
  one_frame (elements[__i__ % 3], formats[__i__ / 3], 33, 21, 0, 4);
}
GST_END_TEST;

GST_START_TEST (test_odd_sizes_and_padded_strides)
{
  const int sizes[][3] = { { 1, 1, 0 }, { 2, 3, 12 }, { 385, 289, 36 }, { 4097, 7, 4 }, { 7, 600, 100 } };
  const int *s = sizes[__i__ / 3];
  one_frame (elements[__i__ % 3], __i__ % 2 ? "BGRx" : "ARGB", s[0], s[1], s[2], 3);
}
GST_END_TEST;

/* Sizes whose rows are whole multiples of 64 bytes: the CUDA backend's device frames take the
 * caps' layout, and a frame in it moves in one copy each way; padded, row by row. */
GST_START_TEST (test_frames_in_the_caps_layout)
{
  one_frame (elements[__i__ % 3], "RGBA", 64, 30, __i__ < 3 ? 0 : 64, 3);
}
GST_END_TEST;

/* sigma 0: the input buffer itself comes out, untouched. */
GST_START_TEST (test_passthrough)
{
  GstHarness *h = harness (elements[__i__], "sigma=0");
  CsImage src = cs_test_image_new (16, 8, 0, 3, 0);
  cs_test_fill_noise (&src, 3);
  set_caps (h, "RGBA", 16, 8);
  GstBuffer *in = buffer_of (&src, "RGBA");
  gst_buffer_ref (in);
  ck_assert_int_eq (gst_harness_push (h, in), GST_FLOW_OK);
  ck_assert (gst_harness_push_event (h, gst_event_new_eos ()));
  GstBuffer *out = gst_harness_pull (h);
  ck_assert (out == in);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
  cs_test_image_free (&src);
}
GST_END_TEST;

/* Every filter property reads back what was written, and writing one leaves the others
 * alone (each lives in its own field): properties are changed one at a time to a value
 * other than their default, and all are read back after each change. */
static void
change_from_default (GParamSpec * ps, GValue * v)
{
  if (G_IS_PARAM_SPEC_DOUBLE (ps)) {
    const GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (ps);
    g_value_set_double (v, d->default_value != d->maximum ? d->maximum : d->minimum);
  } else if (G_IS_PARAM_SPEC_INT (ps)) {
    const GParamSpecInt *d = G_PARAM_SPEC_INT (ps);
    g_value_set_int (v, d->default_value != d->maximum ? d->maximum : d->minimum);
  } else {
    const GParamSpecEnum *d = G_PARAM_SPEC_ENUM (ps);
    const GEnumClass *c = d->enum_class;
    g_value_set_enum (v, c->values[0].value != d->default_value ? c->values[0].value : c->values[c->n_values - 1].value);
  }
}

GST_START_TEST (test_properties_round_trip)
{
  GstElement *e = gst_element_factory_make (elements[__i__], NULL);
  ck_assert (e != NULL);
  guint n_all, n = 0;
  GParamSpec **all = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n_all);
  GParamSpec *own[16];
  GValue expect[16] = { G_VALUE_INIT };
  for (guint i = 0; i < n_all; i++)
    if (all[i]->owner_type == G_OBJECT_TYPE (e)) {   /* not the base class's or GstObject's */
      ck_assert (n < G_N_ELEMENTS (own));
      own[n] = all[i];
      g_value_init (&expect[n], all[i]->value_type);
      g_object_get_property (G_OBJECT (e), all[i]->name, &expect[n]);
      n++;
    }
  ck_assert_uint_ge (n, 4);
  for (guint changed = 0; changed < n; changed++) {
    change_from_default (own[changed], &expect[changed]);
    g_object_set_property (G_OBJECT (e), own[changed]->name, &expect[changed]);
    for (guint k = 0; k < n; k++) {
      GValue got = G_VALUE_INIT;
      g_value_init (&got, own[k]->value_type);
      g_object_get_property (G_OBJECT (e), own[k]->name, &got);
      ck_assert_msg (g_param_values_cmp (own[k], &got, &expect[k]) == 0, "%s: %s reads back wrong after setting %s",
          elements[__i__], own[k]->name, own[changed]->name);
      g_value_unset (&got);
    }
  }
  for (guint k = 0; k < n; k++)
    g_value_unset (&expect[k]);
  g_free (all);
  gst_object_unref (e);
}
GST_END_TEST;

/* GLib refuses an out-of-range property value with a warning, from 2.83 with a critical */
#if GLIB_CHECK_VERSION (2, 83, 0)
#define ASSERT_REFUSED(stmt) ASSERT_CRITICAL (stmt)
#else
#define ASSERT_REFUSED(stmt) ASSERT_WARNING (stmt)
#endif

/* Out-of-range values are refused by the property ranges; the old value stays. */
GST_START_TEST (test_invalid_values_rejected)
{
  GstElement *e = gst_element_factory_make (elements[__i__], NULL);
  gdouble sigma;
  ck_assert (e != NULL);
  g_object_set (e, "sigma", 3.0, NULL);
  ASSERT_REFUSED (g_object_set (e, "sigma", -1.0, NULL));
  ASSERT_REFUSED (g_object_set (e, "sigma", 1e9, NULL));
  g_object_get (e, "sigma", &sigma, NULL);
  ck_assert (sigma == 3.0);
  if (__i__ != 2) {
    ASSERT_REFUSED (g_object_set (e, "sigma-r", 0.0, NULL));
  }
  if (__i__ == 1) {
    ASSERT_REFUSED (g_object_set (e, "radius", 1000, NULL));
  } else {
    ASSERT_REFUSED (g_object_set (e, "blocks-per-stripe", -2, NULL));
    ASSERT_REFUSED (g_object_set (e, "kappa", -0.5, NULL));
  }
  ASSERT_REFUSED (g_object_set (e, "cuda-device-id", -7, NULL));
  gst_object_unref (e);
}
GST_END_TEST;

static GstMeta *add_marker_meta (GstBuffer *buf, guint64 n)
{
  static GstCaps *ref_caps;
  if (!ref_caps)
    ref_caps = gst_caps_new_empty_simple ("timestamp/x-test");
  return (GstMeta *) gst_buffer_add_reference_timestamp_meta (buf, ref_caps, n * 1000, GST_CLOCK_TIME_NONE);
}

/* 24 buffers in, 24 out, in order, with PTS, DTS, duration, offsets, flags and a
 * (tag-free) meta intact; overlap=on holds two frames, EOS drains them. */
GST_START_TEST (test_n_in_n_out_with_timestamps_and_metas)
{
  const int n = 24;
  GstHarness *h = harness (elements[__i__ % 3], __i__ >= 3 ? "overlap=on sigma=2" : "sigma=2");
  CsImage src = cs_test_image_new (40, 30, 8, 3, 0);
  set_caps (h, "RGBA", 40, 30);
  for (int i = 0; i < n; i++) {
    cs_test_fill_noise (&src, (uint32_t) i);
    GstBuffer *b = buffer_of (&src, "RGBA");
    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    GST_BUFFER_DTS (b) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    GST_BUFFER_OFFSET (b) = i;
    GST_BUFFER_OFFSET_END (b) = i + 1;
    if (i == 5)
      GST_BUFFER_FLAG_SET (b, GST_BUFFER_FLAG_DISCONT);
    add_marker_meta (b, i);
    ck_assert_int_eq (gst_harness_push (h, b), GST_FLOW_OK);
  }
  ck_assert (gst_harness_push_event (h, gst_event_new_eos ()));
  ck_assert_int_eq (gst_harness_buffers_received (h), n);
  for (int i = 0; i < n; i++) {
    GstBuffer *o = gst_harness_pull (h);
    ck_assert_uint_eq (GST_BUFFER_PTS (o), i * GST_SECOND / 30);
    ck_assert_uint_eq (GST_BUFFER_DTS (o), i * GST_SECOND / 30);
    ck_assert_uint_eq (GST_BUFFER_DURATION (o), GST_SECOND / 30);
    ck_assert_uint_eq (GST_BUFFER_OFFSET (o), i);
    ck_assert_uint_eq (GST_BUFFER_OFFSET_END (o), i + 1);
    ck_assert (!!GST_BUFFER_FLAG_IS_SET (o, GST_BUFFER_FLAG_DISCONT) == (i == 5));
    GstReferenceTimestampMeta *m = gst_buffer_get_reference_timestamp_meta (o, NULL);
    ck_assert_msg (m && m->timestamp == (GstClockTime) i * 1000, "buffer %d lost its meta", i);
    gst_buffer_unref (o);
  }
  gst_harness_teardown (h);
  cs_test_image_free (&src);
}
GST_END_TEST;

/* A property set between buffers applies from the next buffer on. */
GST_START_TEST (test_property_change_mid_stream)
{
  const char *element = elements[__i__];
  gchar *props = props_for (element, 2);
  GstHarness *h = harness (element, props);
  g_free (props);
  CsImage src = cs_test_image_new (48, 36, 0, 3, 0), ref = cs_test_image_new (48, 36, 0, 3, 0);
  cs_test_fill_scene (&src, 5);
  set_caps (h, "RGBA", 48, 36);
  const double sigmas[] = { 2, 5, 0, 1 };
  GstElement *el = gst_harness_find_element (h, element);
  for (int i = 0; i < 4; i++) {
    g_object_set (el, "sigma", sigmas[i], NULL);
    ck_assert_int_eq (gst_harness_push (h, buffer_of (&src, "RGBA")), GST_FLOW_OK);
  }
  gst_object_unref (el);
  ck_assert (gst_harness_push_event (h, gst_event_new_eos ()));
  for (int i = 0; i < 4; i++) {
    GstBuffer *o = gst_harness_pull (h);
    reference (element, &src, &ref, sigmas[i]);
    gchar *what = g_strdup_printf ("%s buffer %d sigma %g", element, i, sigmas[i]);
    expect_frame (h, o, &ref, 1, what);
    g_free (what);
    gst_buffer_unref (o);
  }
  gst_harness_teardown (h);
  cs_test_image_free (&src);
  cs_test_image_free (&ref);
}
GST_END_TEST;

typedef struct {
  GstElement *element;
  volatile gint stop;
  int flips;
} Flipper;

static gpointer flip_sigma (gpointer data)
{
  Flipper *f = data;
  while (!g_atomic_int_get (&f->stop)) {
    g_object_set (f->element, "sigma", f->flips % 2 ? 1.0 : 4.0, NULL);
    f->flips++;
    g_usleep (50);
  }
  return NULL;
}

/* Another thread flips sigma between two values while 200 buffers flow: every buffer
 * comes out, and each is the filter at one of the two values, never a mixture. */
GST_START_TEST (test_property_change_from_another_thread)
{
  const char *element = elements[__i__];
  gchar *props = props_for (element, 1);
  GstHarness *h = harness (element, props);
  g_free (props);
  CsImage src = cs_test_image_new (24, 18, 0, 3, 0);
  CsImage ref1 = cs_test_image_new (24, 18, 0, 3, 0), ref4 = cs_test_image_new (24, 18, 0, 3, 0);
  cs_test_fill_scene (&src, 9);
  reference (element, &src, &ref1, 1.0);
  reference (element, &src, &ref4, 4.0);
  set_caps (h, "RGBA", 24, 18);
  Flipper f = { gst_harness_find_element (h, element), 0, 0 };
  GThread *t = g_thread_new ("flipper", flip_sigma, &f);
  const int n = 200;
  for (int i = 0; i < n; i++)
    ck_assert_int_eq (gst_harness_push (h, buffer_of (&src, "RGBA")), GST_FLOW_OK);
  g_atomic_int_set (&f.stop, 1);
  g_thread_join (t);
  gst_object_unref (f.element);
  ck_assert (gst_harness_push_event (h, gst_event_new_eos ()));
  ck_assert_int_eq (gst_harness_buffers_received (h), n);
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstVideoInfo info;
  gst_video_info_from_caps (&info, caps);
  gst_caps_unref (caps);
  int as1 = 0, as4 = 0;
  for (int i = 0; i < n; i++) {
    GstBuffer *o = gst_harness_pull (h);
    GstVideoFrame fr;
    ck_assert (gst_video_frame_map (&fr, &info, o, GST_MAP_READ));
    CsImage got = { GST_VIDEO_FRAME_PLANE_DATA (&fr, 0), 24, 18, GST_VIDEO_FRAME_PLANE_STRIDE (&fr, 0), 3 };
    const int is1 = cs_compare_images (&got, &ref1).max_abs <= 1;
    const int is4 = cs_compare_images (&got, &ref4).max_abs <= 1;
    ck_assert_msg (is1 || is4, "%s buffer %d matches neither sigma", element, i);
    as1 += is1;
    as4 += is4;
    gst_video_frame_unmap (&fr);
    gst_buffer_unref (o);
  }
  printf ("%s: %d flips, %d buffers at sigma 1, %d at sigma 4\n", element, f.flips, as1, as4);
  gst_harness_teardown (h);
  cs_test_image_free (&src);
  cs_test_image_free (&ref1);
  cs_test_image_free (&ref4);
}
GST_END_TEST;

/* New caps mid-stream (size and format): the frames before are drained with the old
 * caps before the new caps go downstream, the frames after are filtered at the new size. */
GST_START_TEST (test_caps_renegotiation)
{
  const char *element = elements[__i__ % 3];
  gchar *base = props_for (element, 3);
  gchar *props = g_strdup_printf ("%s overlap=%s", base, __i__ >= 3 ? "on" : "off");
  GstHarness *h = harness (element, props);
  g_free (base);
  g_free (props);
  const int sizes[][2] = { { 64, 48 }, { 33, 17 }, { 64, 48 } };
  const char *fmts[] = { "RGBA", "xBGR", "BGRA" };
  CsImage ref[3];
  GstVideoInfo info[3];
  for (int k = 0; k <= 3; k++) {
    if (k < 3) {
      const int ao = alpha_offset_of (fmts[k]);
      CsImage src = cs_test_image_new (sizes[k][0], sizes[k][1], 0, ao, 0);
      ref[k] = cs_test_image_new (sizes[k][0], sizes[k][1], 0, ao, 0);
      cs_test_fill_scene (&src, (uint32_t) k);
      reference (element, &src, &ref[k], 3);
      gst_video_info_set_format (&info[k], gst_video_format_from_string (fmts[k]), sizes[k][0], sizes[k][1]);
      set_caps (h, fmts[k], sizes[k][0], sizes[k][1]);
      for (int i = 0; i < 2; i++)
        ck_assert_int_eq (gst_harness_push (h, buffer_of (&src, fmts[k])), GST_FLOW_OK);
      cs_test_image_free (&src);
    } else {
      ck_assert (gst_harness_push_event (h, gst_event_new_eos ()));
    }
    if (k == 0)
      continue;
    /* the caps event (or EOS) drained every frame of the previous caps */
    for (int i = 0; i < 2; i++) {
      GstBuffer *o = gst_harness_try_pull (h);
      ck_assert_msg (o != NULL, "%s: frame %d of caps %d not out after the next event", element, i, k - 1);
      expect_frame_info (&info[k - 1], o, &ref[k - 1], 1, fmts[k - 1]);
      gst_buffer_unref (o);
    }
  }
  for (int k = 0; k < 3; k++)
    cs_test_image_free (&ref[k]);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Held frames are dropped by a flush, and the stream goes on afterwards. */
GST_START_TEST (test_flush_drops_held_frame)
{
  GstHarness *h = harness (elements[__i__], "overlap=on sigma=2");
  CsImage src = cs_test_image_new (20, 10, 0, 3, 0);
  cs_test_fill_noise (&src, 1);
  set_caps (h, "RGBA", 20, 10);
  for (int i = 0; i < 3; i++)
    ck_assert_int_eq (gst_harness_push (h, buffer_of (&src, "RGBA")), GST_FLOW_OK);
  const guint before = gst_harness_buffers_received (h);
  ck_assert (gst_harness_push_event (h, gst_event_new_flush_start ()));
  ck_assert (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  /* a new segment after the flush, then two more buffers and EOS */
  GstSegment seg;
  gst_segment_init (&seg, GST_FORMAT_TIME);
  ck_assert (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  for (int i = 0; i < 2; i++)
    ck_assert_int_eq (gst_harness_push (h, buffer_of (&src, "RGBA")), GST_FLOW_OK);
  ck_assert (gst_harness_push_event (h, gst_event_new_eos ()));
  const guint after = gst_harness_buffers_received (h);
  if (!strcmp (CS_BACKEND, "cuda"))   /* two of the three held, then dropped */
    ck_assert_msg (before == 1 && after == 3, "before flush %u, after %u", before, after);
  else   /* the CPU path holds nothing */
    ck_assert_msg (before == 3 && after == 5, "before flush %u, after %u", before, after);
  gst_harness_teardown (h);
  cs_test_image_free (&src);
}
GST_END_TEST;

/* The LATENCY query reports the two held frames only when frames are held. */
GST_START_TEST (test_latency_reports_held_frame)
{
  const char *modes[] = { "off", "on" };
  for (int m = 0; m < 2; m++) {
    gchar *props = g_strdup_printf ("sigma=2 overlap=%s", modes[m]);
    GstHarness *h = harness (elements[__i__], props);
    g_free (props);
    gst_harness_set_upstream_latency (h, 10 * GST_MSECOND);
    set_caps (h, "RGBA", 20, 10);
    GstQuery *q = gst_query_new_latency ();
    ck_assert (gst_pad_peer_query (h->sinkpad, q));
    gboolean live;
    GstClockTime min, max;
    gst_query_parse_latency (q, &live, &min, &max);
    gst_query_unref (q);
    const GstClockTime held = !strcmp (CS_BACKEND, "cuda") && m == 1 ? 2 * GST_SECOND / 30 : 0;
    ck_assert_msg (min == 10 * GST_MSECOND + held, "overlap=%s: min latency %" GST_TIME_FORMAT,
        modes[m], GST_TIME_ARGS (min));
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

static Suite *elements_suite (void)
{
  Suite *s = suite_create ("elements-" CS_BACKEND);
  TCase *tc = tcase_create ("general");
  tcase_set_timeout (tc, 60);
  tcase_add_loop_test (tc, test_every_format, 0, 3 * 8);
  tcase_add_loop_test (tc, test_recursive_carried_partitions, 0, 3);
  tcase_add_loop_test (tc, test_odd_sizes_and_padded_strides, 0, 15);
  tcase_add_loop_test (tc, test_frames_in_the_caps_layout, 0, 6);
  tcase_add_loop_test (tc, test_passthrough, 0, 3);
  tcase_add_loop_test (tc, test_invalid_values_rejected, 0, 3);
  tcase_add_loop_test (tc, test_properties_round_trip, 0, 3);
  tcase_add_loop_test (tc, test_n_in_n_out_with_timestamps_and_metas, 0, 6);
  tcase_add_loop_test (tc, test_property_change_mid_stream, 0, 3);
  tcase_add_loop_test (tc, test_property_change_from_another_thread, 0, 3);
  tcase_add_loop_test (tc, test_caps_renegotiation, 0, 6);
  tcase_add_loop_test (tc, test_flush_drops_held_frame, 0, 3);
  tcase_add_loop_test (tc, test_latency_reports_held_frame, 0, 3);
  suite_add_tcase (s, tc);
  return s;
}

int main (int argc, char **argv)
{
  return cs_run_backend_suite (&argc, &argv, elements_suite, "elements", __FILE__);
}
