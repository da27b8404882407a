/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothcpu.h"


void
gst_cuda_smooth_cpu_init (GstCudaSmoothCpu * cpu, GstCudaSmoothCpuFunc filter, GstCudaSmoothCpuViewsFunc
    filter_views, GstCudaSmoothWorkspaceFunc workspace_bytes)
{
  cpu->filter = filter;
  cpu->filter_views = filter_views;
  cpu->workspace_bytes = workspace_bytes;
  cpu->ws.mem = NULL;
  cpu->ws.size = 0;
  cpu->n_threads = (int) g_get_num_processors ();
}

size_t
gst_cuda_smooth_cpu_workspace_bytes (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp,
    const GstVideoInfo * info)
{
  GstCudaSmoothLayout layout;
  const gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  size_t bytes = 0;
  gst_cuda_smooth_layout_of (info, &layout);
  /* fields are shorter than frames, chroma no larger than luma, views of fewer channels take
   * no more than RGBA: the RGBA frame's workspace serves all */
  for (guint g = 0; g < layout.n_groups; g++)
    if (gp->filter[g])
      bytes = MAX (bytes, cpu->workspace_bytes (gp->params[g], w, h, cpu->n_threads));
  return bytes;
}

int
gst_cuda_smooth_cpu_reserve (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp, const GstVideoInfo * info)
{
  return cs_cpu_workspace_reserve (&cpu->ws, gst_cuda_smooth_cpu_workspace_bytes (cpu, gp, info));
}

static CsImage
image_of (const GstCudaSmoothPicture * pic, int alpha_offset)
{
  CsImage img = { pic->data, pic->width, pic->height, pic->stride, alpha_offset };
  return img;
}

/* RGBA formats: the filter on the packed pictures, alpha copied by it. */
static int
run_packed (GstCudaSmoothCpu * cpu, gconstpointer params, gboolean identity, const GstVideoFrame * in,
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

/* GRAY8 and YUV: each group of each picture filtered as a view of its channels, all in one
 * call, or copied. */
static int
run_groups (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp, gboolean identity, const GstVideoFrame * in,
    const GstVideoFrame * out, const GstVideoInfo * info)
{
  GstCudaSmoothLayout layout;
  guint8 *in_planes[GST_VIDEO_MAX_PLANES], *out_planes[GST_VIDEO_MAX_PLANES];
  gint in_strides[GST_VIDEO_MAX_PLANES], out_strides[GST_VIDEO_MAX_PLANES];
  GstCudaSmoothCpuView views[CS_CPU_MAX_VIEWS];
  int n = 0;
  const guint n_fields = gst_cuda_smooth_frame_n_fields (in, info);
  gst_cuda_smooth_layout_of (info, &layout);
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    in_planes[p] = GST_VIDEO_FRAME_PLANE_DATA (in, p);
    in_strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE (in, p);
    out_planes[p] = GST_VIDEO_FRAME_PLANE_DATA (out, p);
    out_strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE (out, p);
  }
  for (guint g = 0; g < layout.n_groups; g++)
    for (guint f = 0; f < n_fields; f++) {
      const CsChannels src = gst_cuda_smooth_group_view (info, in_planes, in_strides, g, f, n_fields);
      CsChannels dst = gst_cuda_smooth_group_view (info, out_planes, out_strides, g, f, n_fields);
      if (src.width == 0 || src.height == 0)
        continue;   /* the bottom chroma field of a two-row 4:2:0 frame has no rows */
      if (identity || !gp->filter[g]) {
        cs_channels_copy (&src, &dst);
        continue;
      }
      g_assert (n < CS_CPU_MAX_VIEWS);   /* three groups, two fields */
      views[n++] = (GstCudaSmoothCpuView) { gp->params[g], gp->sub_x[g], gp->sub_y[g], src, dst };
    }
  return n > 0 ? cpu->filter_views (views, n, cpu->n_threads, &cpu->ws) : 0;
}

int
gst_cuda_smooth_cpu_run (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp, gboolean identity,
    const GstVideoFrame * in, const GstVideoFrame * out, const GstVideoInfo * info)
{
  GstCudaSmoothLayout layout;
  gst_cuda_smooth_layout_of (info, &layout);
  if (layout.packed_rgb)
    return run_packed (cpu, gp->params[0], identity, in, out, info);
  return run_groups (cpu, gp, identity, in, out, info);
}

void
gst_cuda_smooth_cpu_clear (GstCudaSmoothCpu * cpu)
{
  cs_cpu_workspace_clear (&cpu->ws);
}
