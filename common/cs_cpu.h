/* gst-cudasmooth — the fast CPU path: float arithmetic, all cores.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Computes what the double references in cs_reference.h compute, within 1 LSB. The
 * elements use it where no GPU is. src and dst have the same size and layout and may be
 * the same image; alpha/x is copied through. Scratch memory lives in a workspace that the
 * caller keeps between frames, so steady-state frames allocate nothing.
 * Each function returns 0, or −1 when memory runs out.
 */
#ifndef CS_CPU_H
#define CS_CPU_H

#include <stddef.h>

#include "cs_channels.h"
#include "cs_image.h"
#include "cs_params.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  void *mem;
  size_t size;
} CsCpuWorkspace;

/* Grows ws to at least `bytes` (its own pages, returned to the system when cleared, so that
 * starting and stopping does not fragment the heap); 0, or −1 when memory runs out. */
int cs_cpu_workspace_reserve (CsCpuWorkspace *ws, size_t bytes);
void cs_cpu_workspace_clear (CsCpuWorkspace *ws);

/* The workspace each filter takes for a width x height frame on n_threads: what its call
 * grows ws to, so that reserving this much first means frames allocate nothing. */
size_t cs_cpu_edgeaware_workspace_bytes (const CsEdgeAwareParams *p, int width, int height, int n_threads);
size_t cs_cpu_bilateral_workspace_bytes (const CsBilateralParams *p, int width, int height, int n_threads);
size_t cs_cpu_recursive_workspace_bytes (const CsRecursiveParams *p, int width, int height, int n_threads);

int cs_cpu_edgeaware (const CsImage *src, CsImage *dst, const CsEdgeAwareParams *p,
    int n_threads, CsCpuWorkspace *ws);
int cs_cpu_bilateral (const CsImage *src, CsImage *dst, const CsBilateralParams *p,
    int n_threads, CsCpuWorkspace *ws);
int cs_cpu_recursive (const CsImage *src, CsImage *dst, const CsRecursiveParams *p,
    int n_threads, CsCpuWorkspace *ws);

/* The same on a view of 1–3 channels (GRAY8, YUV luma and chroma; common/cs_channels.h),
 * rows filtered with px and columns with py: the chroma of 4:2:2 formats has its samples two
 * luma pixels apart along x and one along y (docs/algorithms.md, "Formats";
 * cs_*_params_subsampled). The work is per channel; the workspace is at most that of the
 * RGBA frame of the view's size. */
int cs_cpu_edgeaware_channels (const CsChannels *src, CsChannels *dst, const CsEdgeAwareParams *px,
    const CsEdgeAwareParams *py, int n_threads, CsCpuWorkspace *ws);
int cs_cpu_bilateral_channels (const CsChannels *src, CsChannels *dst, const CsBilateralParams *px,
    const CsBilateralParams *py, int n_threads, CsCpuWorkspace *ws);
int cs_cpu_recursive_channels (const CsChannels *src, CsChannels *dst, const CsRecursiveParams *px,
    const CsRecursiveParams *py, int n_threads, CsCpuWorkspace *ws);

/* recursivegauss on n views at once (a frame's luma and chroma, its fields), view i rows
 * filtered with px[i] and columns with py[i], in the same parallel loops: a quarter-size
 * chroma plane alone divides unevenly among many threads, and each loop has a fixed cost.
 * Outputs are those of cs_cpu_recursive_channels on each view. The workspace is at most that
 * of the RGBA frame of the largest view's size, where the views hold at most three samples a
 * pixel of it (every video format's do); otherwise the views go one after another. */
#define CS_CPU_MAX_VIEWS 6
int cs_cpu_recursive_views (int n, const CsChannels *src, CsChannels *dst, const CsRecursiveParams *px,
    const CsRecursiveParams *py, int n_threads, CsCpuWorkspace *ws);

/* edgeawaregauss on n views at once, in the same parallel loops, each view with its own
 * coefficient table; outputs those of cs_cpu_edgeaware_channels on each view. The same
 * workspace bound as cs_cpu_recursive_views: views that need more than the RGBA frame of the
 * largest view's size go one after another. */
int cs_cpu_edgeaware_views (int n, const CsChannels *src, CsChannels *dst, const CsEdgeAwareParams *px,
    const CsEdgeAwareParams *py, int n_threads, CsCpuWorkspace *ws);

#ifdef __cplusplus
}
#endif

#endif /* CS_CPU_H */
