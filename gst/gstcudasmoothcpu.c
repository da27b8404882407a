/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothcpu.h"

#include "cs_parallel.h"

void
gst_cuda_smooth_cpu_init (GstCudaSmoothCpu * cpu, GstCudaSmoothCpuFunc filter, GstCudaSmoothWorkspaceFunc workspace_bytes)
{
  cpu->filter = filter;
  cpu->workspace_bytes = workspace_bytes;
  cpu->ws.mem = cpu->work.mem = NULL;
  cpu->ws.size = cpu->work.size = 0;
  cpu->n_threads = (int) g_get_num_processors ();
}

static size_t
work_stride (gint width)
{
  return ((size_t) width * CS_BYTES_PER_PIXEL + 63) / 64 * 64;
}

size_t
gst_cuda_smooth_cpu_workspace_bytes (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp,
    const GstVideoInfo * info)
{
  GstCudaSmoothLayout layout;
  const gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  size_t bytes = 0;
  gst_cuda_smooth_layout_of (info, &layout);
  /* fields are shorter than frames, chroma no larger than luma: the frame's workspace serves all */
  for (guint g = 0; g < layout.n_groups; g++)
    if (gp->filter[g])
      bytes = MAX (bytes, cpu->workspace_bytes (gp->params[g], w, h, cpu->n_threads));
  if (!layout.packed_rgb)
    bytes += work_stride (w) * (size_t) h;
  return bytes;
}

int
gst_cuda_smooth_cpu_reserve (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp, const GstVideoInfo * info)
{
  GstCudaSmoothLayout layout;
  gst_cuda_smooth_layout_of (info, &layout);
  const size_t work = layout.packed_rgb ? 0 : work_stride (GST_VIDEO_INFO_WIDTH (info)) * GST_VIDEO_INFO_HEIGHT (info);
  if (cs_cpu_workspace_reserve (&cpu->work, work) != 0)
    return -1;
  return cs_cpu_workspace_reserve (&cpu->ws, gst_cuda_smooth_cpu_workspace_bytes (cpu, gp, info) - work);
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
    else if (cpu->filter (params, 1, 1, &s, &d, cpu->n_threads, &cpu->ws) != 0)
      return -1;
  }
  return 0;
}

typedef struct
{
  CsChannels *view;
  CsImage *work;
} PackJob;

static void
pack_rows (void *arg, int begin, int end, int worker)
{
  const PackJob *j = arg;
  (void) worker;
  cs_channels_pack_rows (j->view, j->work, begin, end);
}

static void
unpack_rows (void *arg, int begin, int end, int worker)
{
  const PackJob *j = arg;
  (void) worker;
  cs_channels_unpack_rows (j->work, j->view, begin, end);
}

/* GRAY8 and YUV: each group of each picture packed into the working frame, filtered there
 * (in place) and unpacked, or copied. */
static int
run_groups (GstCudaSmoothCpu * cpu, const GstCudaSmoothGroupParams * gp, gboolean identity, const GstVideoFrame * in,
    const GstVideoFrame * out, const GstVideoInfo * info)
{
  GstCudaSmoothLayout layout;
  guint8 *in_planes[GST_VIDEO_MAX_PLANES], *out_planes[GST_VIDEO_MAX_PLANES];
  gint in_strides[GST_VIDEO_MAX_PLANES], out_strides[GST_VIDEO_MAX_PLANES];
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
      if (identity || !gp->filter[g]) {
        cs_channels_copy (&src, &dst);
        continue;
      }
      CsImage work = { cpu->work.mem, src.width, src.height, (ptrdiff_t) work_stride (src.width), 3 };
      PackJob pack = { (CsChannels *) &src, &work }, unpack = { &dst, &work };
      if (!work.data || work_stride (src.width) * (size_t) src.height > cpu->work.size)
        return -1;
      cs_parallel_for (src.height, cpu->n_threads, pack_rows, &pack);
      if (cpu->filter (gp->params[g], gp->sub_x[g], gp->sub_y[g], &work, &work, cpu->n_threads, &cpu->ws) != 0)
        return -1;
      cs_parallel_for (src.height, cpu->n_threads, unpack_rows, &unpack);
    }
  return 0;
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
  cs_cpu_workspace_clear (&cpu->work);
}
