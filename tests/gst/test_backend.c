/* Backend choice, and what it tells the application: backend=cuda without a usable device
 * fails in start with an error naming the reason; backend=auto falls back to the CPU path
 * with one warning on the bus naming it (which gst-launch-1.0 prints without GST_DEBUG);
 * backend=cpu runs on the CPU without one; active-backend says what runs.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <stdio.h>
#include <string.h>

#include "cs_test_sanitizer.h"

static const char *const elements[] = { "edgeawaregauss", "bilateral", "recursivegauss" };

typedef struct {
  gchar *error;           /* the error's message, or NULL */
  GQuark domain;
  gint code;
  int warnings;           /* "Running on the CPU" warnings */
  gchar *warning;         /* the first one's message */
  int active;             /* active-backend while playing: 0 none, 1 cuda, 2 cpu */
} Run;

static void run_clear (Run *r)
{
  g_free (r->error);
  g_free (r->warning);
}

/* Runs a short pipeline with the element named "f" and collects what its bus said. */
static Run run (const char *element, const char *backend)
{
  Run r = { 0 };
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,width=32,height=24 "
      "! %s name=f backend=%s ! fakesink", element, backend);
  GstElement *p = gst_parse_launch (desc, NULL);
  g_free (desc);
  GstElement *f = gst_bin_get_by_name (GST_BIN (p), "f");
  gint active = -1;
  g_object_get (f, "active-backend", &active, NULL);
  ck_assert_int_eq (active, 0);   /* none before start */
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (;;) {
    GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 30 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    ck_assert (m != NULL);
    GError *err = NULL;
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING) {
      gst_message_parse_warning (m, &err, NULL);
      if (strstr (err->message, "Running on the CPU") && r.warnings++ == 0)
        r.warning = g_strdup (err->message);
      g_clear_error (&err);
      gst_message_unref (m);
      continue;
    }
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (m, &err, NULL);
      r.domain = err->domain;
      r.code = err->code;
      r.error = g_strdup (err->message);
      g_clear_error (&err);
    } else {
      g_object_get (f, "active-backend", &r.active, NULL);
    }
    gst_message_unref (m);
    break;
  }
  gst_element_set_state (p, GST_STATE_NULL);
  g_object_get (f, "active-backend", &active, NULL);
  ck_assert_int_eq (active, 0);   /* none after stop */
  gst_object_unref (f);
  gst_object_unref (p);
  return r;
}

static gboolean device_present (void)
{
  Run r = run ("recursivegauss", "cuda");
  const gboolean present = r.error == NULL;
  run_clear (&r);
  return present;
}

GST_START_TEST (test_backend_cuda)
{
  Run r = run (elements[__i__], "cuda");
  if (device_present ()) {
    ck_assert_msg (r.error == NULL, "backend=cuda with a device: %s", r.error);
    ck_assert_int_eq (r.active, 1);
  } else {
    /* the error names the reason, e.g. "No usable CUDA device: the NVIDIA driver library ..." */
    ck_assert_msg (r.error && g_str_has_prefix (r.error, "No usable CUDA device: ") && strlen (r.error) > 30,
        "got: %s", r.error ? r.error : "no error");
    ck_assert (r.domain == GST_RESOURCE_ERROR && r.code == GST_RESOURCE_ERROR_NOT_FOUND);
  }
  run_clear (&r);
}
GST_END_TEST;

GST_START_TEST (test_backend_auto_and_cpu)
{
  const gboolean gpu = device_present ();
  Run r = run (elements[__i__], "auto");
  ck_assert_msg (r.error == NULL, "backend=auto: %s", r.error);
  /* one warning per start, with the reason, when it falls back; none when the GPU serves */
  ck_assert_int_eq (r.warnings, gpu ? 0 : 1);
  if (!gpu)
    ck_assert_msg (g_str_has_prefix (r.warning, "Running on the CPU: ") && strlen (r.warning) > 30, "%s", r.warning);
  ck_assert_int_eq (r.active, gpu ? 1 : 2);
  run_clear (&r);
  r = run (elements[__i__], "cpu");
  ck_assert_msg (r.error == NULL, "backend=cpu: %s", r.error);
  ck_assert_int_eq (r.warnings, 0);
  ck_assert_int_eq (r.active, 2);
  run_clear (&r);
}
GST_END_TEST;

/* What a new user sees: gst-launch-1.0 prints the fallback warning without GST_DEBUG. */
GST_START_TEST (test_gst_launch_prints_the_fallback)
{
  if (CS_TEST_UNDER_ASAN) {
    printf ("gst-launch-1.0 cannot load a plugin built with AddressSanitizer: not checked\n");
    return;
  }
  gchar *launch = g_find_program_in_path ("gst-launch-1.0");
  if (!launch) {
    printf ("gst-launch-1.0 not found: not checked\n");
    return;
  }
  const gboolean gpu = device_present ();
  gchar *argv[] = { launch, "videotestsrc", "num-buffers=2", "!", "bilateral", "!", "fakesink", NULL };
  gchar *out = NULL, *err = NULL;
  gint status = 0;
  g_unsetenv ("GST_DEBUG");
  ck_assert (g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
  ck_assert_msg (g_spawn_check_wait_status (status, NULL), "gst-launch-1.0 failed: %s %s", out, err);
  const gboolean printed = strstr (out, "WARNING") && strstr (out, "Running on the CPU");
  ck_assert_msg (printed == !gpu, "gst-launch-1.0 printed: %s", out);
  g_free (out);
  g_free (err);
  g_free (launch);
}
GST_END_TEST;

static Suite *backend_suite (void)
{
  Suite *s = suite_create ("backend");
  TCase *tc = tcase_create ("backend");
  tcase_set_timeout (tc, 120);
  tcase_add_loop_test (tc, test_backend_cuda, 0, 3);
  tcase_add_loop_test (tc, test_backend_auto_and_cpu, 0, 3);
  tcase_add_test (tc, test_gst_launch_prints_the_fallback);
  suite_add_tcase (s, tc);
  return s;
}

int main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (backend_suite (), "backend", __FILE__);
}
