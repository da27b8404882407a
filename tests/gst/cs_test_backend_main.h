/* gst-cudasmooth tests — main() of a suite built once per backend (CS_BACKEND, "cpu" or
 * "cuda"): the CUDA build needs a device, so it first runs a one-buffer pipeline in a child
 * process (cs_test_probe.h says why a child) and skips (77) with the reason where it fails.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_TEST_BACKEND_MAIN_H
#define CS_TEST_BACKEND_MAIN_H

#include <gst/check/gstcheck.h>
#include <stdio.h>

#include "cs_test_probe.h"

static gboolean cs_backend_usable (gchar **why)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch ("videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=8,height=8 "
      "! recursivegauss backend=" CS_BACKEND " ! fakesink", &err);
  if (!p) {
    *why = g_strdup (err ? err->message : "cannot build a pipeline");
    g_clear_error (&err);
    return FALSE;
  }
  gst_element_set_state (p, GST_STATE_PLAYING);
  GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  const gboolean ok = m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
  if (!ok) {
    gchar *dbg = NULL;
    if (m)
      gst_message_parse_error (m, &err, &dbg);
    *why = g_strdup_printf ("%s (%s)", err ? err->message : "timeout", dbg ? dbg : "");
    g_clear_error (&err);
    g_free (dbg);
  }
  if (m)
    gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  return ok;
}

static int cs_run_backend_suite (int *argc, char ***argv, Suite * (*make_suite) (void), const char *name,
    const char *file)
{
  gchar *why = NULL;
  gst_check_init (argc, argv);
  if (!cs_probe_in_child (cs_backend_usable, &why)) {
    printf ("SKIP: backend=%s unusable here: %s\n", CS_BACKEND, why);
    g_free (why);
    return 77;
  }
  return gst_check_run_suite (make_suite (), name, file);
}

#endif
