/* Backend choice: backend=cuda without a usable device fails in start with a clear
 * error; backend=auto falls back to the CPU path with one warning; with a device both run.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <string.h>

static const char *const elements[] = { "edgeawaregauss", "bilateral", "recursivegauss" };
static gint fallback_warnings;

static void count_warnings (GstDebugCategory *cat, GstDebugLevel level, const gchar *file,
    const gchar *function, gint line, GObject *object, GstDebugMessage *message, gpointer data)
{
  (void) file; (void) function; (void) line; (void) object; (void) data;
  if (level == GST_LEVEL_WARNING && !strcmp (gst_debug_category_get_name (cat), "cudasmooth") &&
      strstr (gst_debug_message_get (message), "using the CPU path"))
    g_atomic_int_inc (&fallback_warnings);
}

/* Runs a short pipeline; returns the error message or NULL. */
static gchar *run (const char *element, const char *backend, GQuark *domain, gint *code)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,width=32,height=24 "
      "! %s backend=%s ! fakesink", element, backend);
  GstElement *p = gst_parse_launch (desc, NULL);
  g_free (desc);
  gst_element_set_state (p, GST_STATE_PLAYING);
  GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gchar *result = NULL;
  ck_assert (m != NULL);
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gst_message_parse_error (m, &err, NULL);
    *domain = err->domain;
    *code = err->code;
    result = g_strdup (err->message);
    g_clear_error (&err);
  }
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  return result;
}

static gboolean device_present (void)
{
  GQuark d;
  gint c;
  gchar *e = run ("recursivegauss", "cuda", &d, &c);
  g_free (e);
  return e == NULL;
}

GST_START_TEST (test_backend_cuda)
{
  GQuark domain = 0;
  gint code = 0;
  gchar *err = run (elements[__i__], "cuda", &domain, &code);
  if (device_present ()) {
    ck_assert_msg (err == NULL, "backend=cuda with a device: %s", err);
  } else {
    ck_assert_msg (err && strstr (err, "No usable CUDA device"), "got: %s", err ? err : "no error");
    ck_assert (domain == GST_RESOURCE_ERROR && code == GST_RESOURCE_ERROR_NOT_FOUND);
  }
  g_free (err);
}
GST_END_TEST;

GST_START_TEST (test_backend_auto_and_cpu)
{
  GQuark domain;
  gint code;
  const gboolean gpu = device_present ();
  g_atomic_int_set (&fallback_warnings, 0);
  gchar *err = run (elements[__i__], "auto", &domain, &code);
  ck_assert_msg (err == NULL, "backend=auto: %s", err);
  /* one warning per start when it falls back, none when the GPU serves */
  ck_assert_int_eq (g_atomic_int_get (&fallback_warnings), gpu ? 0 : 1);
  err = run (elements[__i__], "cpu", &domain, &code);
  ck_assert_msg (err == NULL, "backend=cpu: %s", err);
  ck_assert_int_eq (g_atomic_int_get (&fallback_warnings), gpu ? 0 : 1);
}
GST_END_TEST;

static Suite *backend_suite (void)
{
  Suite *s = suite_create ("backend");
  TCase *tc = tcase_create ("backend");
  tcase_set_timeout (tc, 120);
  tcase_add_loop_test (tc, test_backend_cuda, 0, 3);
  tcase_add_loop_test (tc, test_backend_auto_and_cpu, 0, 3);
  suite_add_tcase (s, tc);
  return s;
}

int main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  gst_debug_set_threshold_for_name ("cudasmooth", GST_LEVEL_WARNING);
  gst_debug_add_log_function (count_warnings, NULL, NULL);
  return gst_check_run_suite (backend_suite (), "backend", __FILE__);
}
