/* gst-cudasmooth — how much host memory an element may take.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each element computes, when its caps are set, what a frame of that size will hold (frames
 * in flight, pools, the CPU path's workspace) and refuses caps that need more than its
 * memory-limit, with an error naming both figures, instead of aborting in an allocation
 * later: GLib aborts when g_malloc fails, and a pool of 16384x16384 frames is 1 GiB a buffer.
 */
#ifndef __GST_CUDA_SMOOTH_MEMORY_H__
#define __GST_CUDA_SMOOTH_MEMORY_H__

#include <glib.h>

G_BEGIN_DECLS

/* The limit in bytes for a memory-limit property of `mib` MiB; 0 is automatic: half of the
 * smaller of the machine's physical memory and the process's address-space and data limits
 * (ulimit -v, -d). *source says which (static string). */
guint64 gst_cuda_smooth_memory_limit (guint64 mib, const gchar ** source);

G_END_DECLS

#endif
