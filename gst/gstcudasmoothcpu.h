/* gst-cudasmooth — the CPU executor: the filter's multi-threaded CPU path and its workspace.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_SMOOTH_CPU_H__
#define __GST_CUDA_SMOOTH_CPU_H__

#include <gst/video/video.h>

#include "cs_cpu.h"
#include "gstcudasmoothframe.h"

G_BEGIN_DECLS

/* The filter on the CPU (common/cs_cpu.h): 0, or −1 when memory runs out. */
typedef int (*GstCudaSmoothCpuFunc) (gconstpointer params, const CsImage * src, CsImage * dst, int n_threads,
    CsCpuWorkspace * ws);
/* A view of 1–3 channels to filter (GRAY8, YUV luma or chroma, of a frame or a field): the
 * group's parameters, its samples' distance in luma pixels along x and y (1, or 2 for
 * chroma), its pictures. */
typedef struct
{
  gconstpointer params;
  int sx, sy;
  CsChannels src, dst;
} GstCudaSmoothCpuView;
/* The filter on a frame's n views (up to CS_CPU_MAX_VIEWS), all at once where the filter
 * can share its parallel loops among them: 0, or −1 when memory runs out. */
typedef int (*GstCudaSmoothCpuViewsFunc) (GstCudaSmoothCpuView * views, int n, int n_threads, CsCpuWorkspace * ws);
/* The workspace it takes for width x height pictures. */
typedef size_t (*GstCudaSmoothWorkspaceFunc) (gconstpointer params, int width, int height, int n_threads);

typedef struct
{
  GstCudaSmoothCpuFunc filter;
  GstCudaSmoothCpuViewsFunc filter_views;
  GstCudaSmoothWorkspaceFunc workspace_bytes;
  CsCpuWorkspace ws;
  int n_threads;
} GstCudaSmoothCpu;

void gst_cuda_smooth_cpu_init (GstCudaSmoothCpu * cpu, GstCudaSmoothCpuFunc filter,
    GstCudaSmoothCpuViewsFunc filter_views, GstCudaSmoothWorkspaceFunc workspace_bytes);

/* The workspace the groups' parameters take for frames of info (the largest of its pictures). */
size_t gst_cuda_smooth_cpu_workspace_bytes (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp,
    const GstVideoInfo * info);

/* Reserves that workspace now (caps or parameters changed), so that frames allocate
 * nothing; 0, or −1 when memory runs out. */
int gst_cuda_smooth_cpu_reserve (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp,
    const GstVideoInfo * info);

/* Filters (or, where identity or a group is not filtered, copies) every picture of a mapped
 * frame of info into out. */
int gst_cuda_smooth_cpu_run (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp, gboolean identity,
    const GstVideoFrame * in, const GstVideoFrame * out, const GstVideoInfo * info);

/* Frees the workspace. */
void gst_cuda_smooth_cpu_clear (GstCudaSmoothCpu * cpu);

G_END_DECLS

#endif
