/* gst-cudasmooth tests — the plugin registers its three elements.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run first and alone (meson priority): it also builds the suites' registry cache, so that
 * the system plugins are loaded once, here, and not inside a suite that forks a child per
 * test (in a sanitizer build some, OpenNI2's camera drivers among them, start threads when
 * loaded, which LeakSanitizer in the forked children then cannot suspend).
 */
#include <gst/gst.h>
#include <stdio.h>

int main (int argc, char **argv)
{
  static const char *const elements[] = { "edgeawaregauss", "bilateral", "recursivegauss" };
  int missing = 0;
  gst_init (&argc, &argv);
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (), "cudasmooth");
  if (!plugin) {
    const gchar *path = g_getenv ("GST_PLUGIN_PATH");
    printf ("the plugin cudasmooth is not in the registry (GST_PLUGIN_PATH=%s)\n", path ? path : "unset");
    return 1;
  }
  gst_object_unref (plugin);
  for (guint i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstElementFactory *f = gst_element_factory_find (elements[i]);
    if (!f) {
      printf ("element %s is not registered\n", elements[i]);
      missing++;
      continue;
    }
    printf ("%s: %s\n", elements[i], gst_element_factory_get_metadata (f, GST_ELEMENT_METADATA_LONGNAME));
    gst_object_unref (f);
  }
  return missing ? 1 : 0;
}
