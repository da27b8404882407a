/* libFuzzer harness of the elements' buffer, meta and caps surface, on the CPU path: one
 * input is one element, its properties, caps (format, size, interlacing) and one buffer
 * (size, memories, a video meta's offset and stride, flags, pixels), pushed through a
 * GstHarness. Whatever the input, AddressSanitizer and UBSan must stay quiet, nothing may
 * hang, and the buffer must come out once: as a filtered frame of the caps' size or as
 * an empty GAP buffer with its timestamp. Built with -Dfuzzing=true (clang); see
 * docs/gpu-testing.md, "Sanitizers and fuzzing".
 *   build-fuzz/tests/fuzz/cs-fuzz-elements -max_total_time=300 CORPUS_DIR
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The input, read front to back; past its end every field reads as 0. */
typedef struct {
  const uint8_t *data;
  size_t size, at;
} Reader;

static unsigned take (Reader *r, unsigned bytes)
{
  unsigned v = 0;
  for (unsigned i = 0; i < bytes; i++)
    v = v << 8 | (r->at < r->size ? r->data[r->at++] : 0);
  return v;
}

static const char *const elements[] = { "edgeawaregauss", "bilateral", "recursivegauss" };
static const char *const formats[] = { "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "GRAY8", "NV12",
  "NV21", "I420", "YV12", "Y444", "YUY2", "UYVY" };
static const char *const interlacing[] = { "progressive", "interleaved", "mixed" };
/* sigma values at the edges of the filters' arithmetic: 0, tiny, the identity threshold,
 * ordinary, large */
static const char *const sigmas[] = { "0", "4.9406564584124654e-324", "1e-300", "0.0999", "0.1", "0.5", "2", "7.5",
  "31", "200" };

static gchar *properties (Reader *r, int element)
{
  const char *sigma = sigmas[take (r, 1) % G_N_ELEMENTS (sigmas)];
  const unsigned a = take (r, 1), b = take (r, 1);
  switch (element) {
    case 0:
      return g_strdup_printf ("sigma=%s sigma-r=%g iterations=%u kappa=%g blocks-per-stripe=%u", sigma,
          0.01 + (a & 15) * 7.0, 1 + (a >> 4) % 4, (b & 7) * 0.75, (b >> 3) % 9);
    case 1:
      return g_strdup_printf ("sigma=%s sigma-r=%g radius=%u range-kernel=%s mode=%s", strcmp (sigma, "200") ? sigma : "32",
          0.01 + (a & 15) * 9.0, (a >> 4) % 9, b & 1 ? "lorentzian" : "gaussian", b & 2 ? "separable" : "exact");
    default:
      return g_strdup_printf ("sigma=%s blocks-per-stripe=%u kappa=%g algorithm=%s partition-start=%s", sigma, a % 70,
          (b & 7) * 0.8, b & 8 ? "young-van-vliet" : "deriche", b & 16 ? "carry" : b & 32 ? "warm-up" : "auto");
  }
}

int LLVMFuzzerInitialize (int *argc, char ***argv)
{
  gst_init (argc, argv);
  gst_debug_set_default_threshold (GST_LEVEL_NONE);
  return 0;
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  Reader r = { data, size, 0 };
  const int element = take (&r, 1) % 3;
  const char *format = formats[take (&r, 1) % G_N_ELEMENTS (formats)];
  const int w = 1 + take (&r, 1) % 70, h = 1 + take (&r, 1) % 50;
  const unsigned flags = take (&r, 1);
  const char *interlace = interlacing[flags % 3];
  const gboolean with_meta = flags & 4, gap = flags & 8;
  const int memories = 1 + (flags >> 4) % 3;
  GstVideoInfo info;
  gst_video_info_set_format (&info, gst_video_format_from_string (format), w, h);
  const int frame_bytes = (int) GST_VIDEO_INFO_SIZE (&info);
  /* each plane's offset and stride in the meta and the buffer's size: about right, or anything */
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p) + ((int) take (&r, 1) - 128);
    offsets[p] = p == 0 ? (gsize) (take (&r, 2) % (frame_bytes + 64))
                        : GST_VIDEO_INFO_PLANE_OFFSET (&info, p) + (gsize) (take (&r, 1) % 64);
  }
  const int buffer_bytes = frame_bytes + ((int) take (&r, 2) - 32768) % (frame_bytes + 1);
  gchar *props = properties (&r, element);
  gchar *launch = g_strdup_printf ("%s backend=cpu %s", elements[element], props);
  GstHarness *harness = gst_harness_new_parse (launch);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,framerate=30/1,interlace-mode=%s", format,
      w, h, interlace);
  gst_harness_set_src_caps_str (harness, caps);

  GstBuffer *buf = gst_buffer_new ();
  const int total = buffer_bytes > 0 ? buffer_bytes : 0;
  for (int m = 0, at = 0; m < memories; m++) {
    const int bytes = m == memories - 1 ? total - at : total / memories;
    guint8 *mem = g_malloc (bytes > 0 ? bytes : 1);
    for (int i = 0; i < bytes; i++)
      mem[i] = r.size ? r.data[(r.at + (size_t) (at + i)) % r.size] : 0;
    gst_buffer_append_memory (buf, gst_memory_new_wrapped (0, mem, bytes > 0 ? bytes : 0, 0, bytes > 0 ? bytes : 0, mem,
            g_free));
    at += bytes > 0 ? bytes : 0;
  }
  if (with_meta)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, gst_video_format_from_string (format), w, h,
        GST_VIDEO_INFO_N_PLANES (&info), offsets, strides);
  if (gap)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_GAP);
  GST_BUFFER_PTS (buf) = 40 * GST_MSECOND;
  const GstFlowReturn ret = gst_harness_push (harness, buf);
  gst_harness_push_event (harness, gst_event_new_eos ());
  if (ret == GST_FLOW_OK) {
    /* one buffer out: the frame, or a gap with the input's timestamp */
    GstBuffer *out = gst_harness_try_pull (harness);
    if (!out || GST_BUFFER_PTS (out) != 40 * GST_MSECOND ||
        !(gst_buffer_get_size (out) >= (gsize) frame_bytes ||
            (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP) && gst_buffer_get_size (out) == 0) ||
            (gst_buffer_get_size (out) == (gsize) total && total < frame_bytes))) {   /* passed through: sigma 0 */
      fprintf (stderr, "%s %s %dx%d %s: %s\n", launch, format, w, h, interlace, out ? "a wrong buffer" : "no buffer");
      abort ();
    }
    gst_buffer_unref (out);
    if (gst_harness_try_pull (harness))
      abort ();   /* more buffers out than in */
  }
  gst_harness_teardown (harness);
  g_free (caps);
  g_free (launch);
  g_free (props);
  return 0;
}
