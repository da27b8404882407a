/* A small application embedding a cudasmooth element: a test pattern through
 * edgeawaregauss whose sigma sweeps while it plays (properties are mutable in PLAYING and
 * take effect on the next frame), reporting the latency the element adds.
 *   GST_PLUGIN_PATH=build/gst ./build/examples/cudasmooth-app [fakesink|autovideosink]
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <stdio.h>

int main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  const char *sink = argc > 1 ? argv[1] : "fakesink";
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=120 pattern=ball ! "
      "video/x-raw,format=RGBA,width=640,height=480,framerate=30/1 ! "
      "edgeawaregauss name=f sigma=2 sigma-r=40 ! videoconvert ! %s", sink);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipeline) {
    fprintf (stderr, "%s\n", err->message);
    return 1;
  }
  GstElement *filter = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus (pipeline);
  int frame = 0, rc = 0;
  for (;;) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 33 * GST_MSECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (m) {
      if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
        gchar *dbg;
        gst_message_parse_error (m, &err, &dbg);
        fprintf (stderr, "error: %s (%s)\n", err->message, dbg);
        rc = 1;
      }
      gst_message_unref (m);
      break;
    }
    g_object_set (filter, "sigma", 2.0 + 30.0 * (frame % 60) / 60.0, NULL);   /* thread-safe */
    if (++frame == 10) {
      GstQuery *q = gst_query_new_latency ();
      if (gst_element_query (pipeline, q)) {
        GstClockTime min;
        gst_query_parse_latency (q, NULL, &min, NULL);
        printf ("pipeline latency: %" GST_TIME_FORMAT "\n", GST_TIME_ARGS (min));
      }
      gst_query_unref (q);
    }
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (filter);
  gst_object_unref (pipeline);
  return rc;
}
