/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothcpu.h"

#include "gstcudasmoothframe.h"

void
gst_cuda_smooth_cpu_init (GstCudaSmoothCpu * cpu, GstCudaSmoothCpuFunc filter, GstCudaSmoothWorkspaceFunc workspace_bytes)
{
  cpu->filter = filter;
  cpu->workspace_bytes = workspace_bytes;
  cpu->ws.mem = NULL;
  cpu->ws.size = 0;
  cpu->n_threads = (int) g_get_num_processors ();
}

size_t
gst_cuda_smooth_cpu_workspace_bytes (GstCudaSmoothCpu * cpu, gconstpointer params, const GstVideoInfo * info)
{
  /* fields are shorter than frames: the frame's workspace serves both */
  return cpu->workspace_bytes (params, GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), cpu->n_threads);
}

int
gst_cuda_smooth_cpu_reserve (GstCudaSmoothCpu * cpu, gconstpointer params, const GstVideoInfo * info)
{
  return cs_cpu_workspace_reserve (&cpu->ws, gst_cuda_smooth_cpu_workspace_bytes (cpu, params, info));
}

static CsImage
image_of (const GstCudaSmoothPicture * pic, int alpha_offset)
{
  CsImage img = { pic->data, pic->width, pic->height, pic->stride, alpha_offset };
  return img;
}

int
gst_cuda_smooth_cpu_run (GstCudaSmoothCpu * cpu, gconstpointer params, gboolean identity, const GstVideoFrame * in,
    const GstVideoFrame * out, const GstVideoInfo * info)
{
  GstCudaSmoothPicture src[2], dst[2];
  const guint n = gst_cuda_smooth_frame_pictures (in, info, src);
  gst_cuda_smooth_frame_pictures (in, info, dst);
  /* the output frame's own rows (its stride may differ) */
  for (guint i = 0; i < n; i++) {
    dst[i].data = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (out, 0) + i * GST_VIDEO_FRAME_PLANE_STRIDE (out, 0);
    dst[i].stride = n * GST_VIDEO_FRAME_PLANE_STRIDE (out, 0);
  }
  const int alpha = gst_cuda_smooth_alpha_offset (info);
  for (guint i = 0; i < n; i++) {
    CsImage s = image_of (&src[i], alpha), d = image_of (&dst[i], alpha);
    if (identity)
      cs_image_copy (&s, &d);
    else if (cpu->filter (params, &s, &d, cpu->n_threads, &cpu->ws) != 0)
      return -1;
  }
  return 0;
}

void
gst_cuda_smooth_cpu_clear (GstCudaSmoothCpu * cpu)
{
  cs_cpu_workspace_clear (&cpu->ws);
}
