/* gst-cudasmooth — the `cudasmooth` plugin: edgeawaregauss, bilateral, recursivegauss.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstbilateral.h"
#include "gstedgeawaregauss.h"
#include "gstrecursivegauss.h"

#ifdef HAVE_CUDA
#define GST_USE_UNSTABLE_API
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#endif

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = TRUE;
#ifdef HAVE_CUDA
  /* Without libcuda (no driver) the elements still register: the CPU path serves. */
  if (gst_cuda_load_library ())
    gst_cuda_memory_init_once ();
#endif
  ok &= GST_ELEMENT_REGISTER (edgeawaregauss, plugin);
  ok &= GST_ELEMENT_REGISTER (bilateral, plugin);
  ok &= GST_ELEMENT_REGISTER (recursivegauss, plugin);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudasmooth,
    "GPU smoothing filters: edge-aware Gaussian, bilateral, recursive Gaussian",
    plugin_init, PACKAGE_VERSION, "LGPL", GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
