/* State changes: every element, NULL <-> PLAYING repeatedly with buffers flowing, and
 * NULL <-> READY <-> PAUSED without data, with no error on the bus.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <stdio.h>

#include "cs_test_sanitizer.h"

static const char *const elements[] = { "edgeawaregauss", "bilateral", "recursivegauss" };
static const char *const backends[] = { "auto", "cpu" };

static void expect_no_error (GstElement *pipeline)
{
  GstMessage *m = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline), GST_MESSAGE_ERROR);
  if (m) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (m, &err, &dbg);
    ck_abort_msg ("error on the bus: %s (%s)", err->message, dbg);
  }
}

GST_START_TEST (test_cycles_with_data)
{
  gchar *desc = g_strdup_printf ("videotestsrc is-live=%s ! video/x-raw,format=BGRx,width=64,height=48,framerate=300/1 "
      "! %s backend=%s ! fakesink sync=false", __i__ % 2 ? "true" : "false", elements[__i__ / 4 % 3],
      backends[__i__ / 2 % 2]);
  GstElement *p = gst_parse_launch (desc, NULL);
  ck_assert_msg (p != NULL, "cannot build %s", desc);
  for (int cycle = 0; cycle < 10; cycle++) {
    ck_assert (gst_element_set_state (p, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    ck_assert (gst_element_get_state (p, NULL, NULL, 10 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
    g_usleep (20000);
    expect_no_error (p);
    ck_assert (gst_element_set_state (p, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref (p);
  g_free (desc);
}
GST_END_TEST;

GST_START_TEST (test_cycles_without_data)
{
  GstElement *e = gst_element_factory_make (elements[__i__], NULL);
  const GstState states[] = { GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL };
  ck_assert (e != NULL);
  for (int cycle = 0; cycle < 5; cycle++)
    for (int s = 0; s < 4; s++)
      ck_assert (gst_element_set_state (e, states[s]) != GST_STATE_CHANGE_FAILURE);
  gst_object_unref (e);
}
GST_END_TEST;

static long rss_kib (void)
{
  long kib = -1;
  char line[256];
  FILE *f = fopen ("/proc/self/status", "r");
  while (f && fgets (line, sizeof line, f))
    if (sscanf (line, "VmRSS: %ld kB", &kib) == 1)
      break;
  if (f)
    fclose (f);
  return kib;
}

/* Start, a frame, stop, 80 times, at frame sizes that change every time: the memory the
 * process holds stays where it was after the first rounds. The CPU path's workspace (17 MB
 * of it a table) was freed and made again at every start, and the heap it came from grew
 * (random state changes: RSS 66 -> 240 MB). */
GST_START_TEST (test_memory_flat_under_restarts)
{
  if (CS_TEST_UNDER_ASAN) {
    printf ("AddressSanitizer keeps freed memory in quarantine: RSS not checked\n");
    return;
  }
  const int sizes[][2] = { { 640, 480 }, { 1280, 720 }, { 320, 240 }, { 960, 540 }, { 800, 600 } };
  long after_warmup = 0;
  for (int cycle = 0; cycle < 80; cycle++) {
    const int *sz = sizes[(cycle * 3) % 5];
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=%d,height=%d ! "
        "%s backend=cpu ! fakesink", sz[0], sz[1], elements[__i__]);
    GstElement *p = gst_parse_launch (desc, NULL);
    g_free (desc);
    gst_element_set_state (p, GST_STATE_PLAYING);
    GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    ck_assert (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
    gst_message_unref (m);
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (p);
    if (cycle == 9)
      after_warmup = rss_kib ();
  }
  const long growth = rss_kib () - after_warmup;
  printf ("%s: RSS grew by %ld KiB over 70 restarts\n", elements[__i__], growth);
  ck_assert_msg (growth < 24 * 1024, "%s: RSS grew by %ld KiB over 70 restarts", elements[__i__], growth);
}
GST_END_TEST;

static Suite *states_suite (void)
{
  Suite *s = suite_create ("states");
  TCase *tc = tcase_create ("states");
  tcase_set_timeout (tc, 120);
  tcase_add_loop_test (tc, test_cycles_with_data, 0, 12);
  tcase_add_loop_test (tc, test_cycles_without_data, 0, 3);
  tcase_add_loop_test (tc, test_memory_flat_under_restarts, 0, 3);
  suite_add_tcase (s, tc);
  return s;
}

GST_CHECK_MAIN (states);
