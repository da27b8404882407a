/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothframe.h"

/* The bytes of one row of a plane and its number of rows, at the size info gives: the
 * widest of the components the plane holds (4:2:2 packed rows round up to whole macropixels). */
void
gst_cuda_smooth_plane_extent (const GstVideoInfo * info, guint plane, guint64 * row_bytes, guint64 * rows)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint comps[GST_VIDEO_MAX_COMPONENTS];
  *row_bytes = *rows = 0;
  gst_video_format_info_component (finfo, plane, comps);
  for (guint i = 0; i < GST_VIDEO_MAX_COMPONENTS && comps[i] >= 0; i++) {
    const gint c = comps[i];
    const guint64 w = (guint64) GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, c, GST_VIDEO_INFO_WIDTH (info));
    const guint64 h = (guint64) GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, c, GST_VIDEO_INFO_HEIGHT (info));
    *row_bytes = MAX (*row_bytes, w * (guint64) GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c));
    *rows = MAX (*rows, h);
  }
}

/* NULL when every plane of the mapped frame lies inside its mapping, else why not. */
static gchar *
layout_problem (const GstVideoFrame * frame, const GstVideoInfo * info)
{
  for (guint i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    /* with a GstVideoMeta every plane maps the memory its offset falls in; without one
     * the whole buffer is map[0] */
    const GstMapInfo *map = frame->meta ? &frame->map[i] : &frame->map[0];
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, i);
    const guint8 *start = GST_VIDEO_FRAME_PLANE_DATA (frame, i);
    guint64 row_bytes, rows;
    gst_cuda_smooth_plane_extent (info, i, &row_bytes, &rows);
    if (stride < 0 || (guint64) stride < row_bytes)
      return g_strdup_printf ("plane %u: stride %d is smaller than a row of %" G_GUINT64_FORMAT
          " bytes", i, stride, row_bytes);
    if (start < map->data || start > map->data + map->size)
      return g_strdup_printf ("plane %u starts outside the memory it was mapped from", i);
    const guint64 offset = (guint64) (start - map->data);
    const guint64 end = offset + (rows - 1) * (guint64) stride + row_bytes;
    if (end > map->size)
      return g_strdup_printf ("plane %u: %" G_GUINT64_FORMAT " rows of stride %d from byte %"
          G_GUINT64_FORMAT " end at byte %" G_GUINT64_FORMAT ", past the %" G_GSIZE_FORMAT
          " bytes of its memory", i, rows, stride, offset, end, map->size);
  }
  return NULL;
}

gboolean
gst_cuda_smooth_frame_map (GstVideoFrame * frame, const GstVideoInfo * info, GstBuffer * buf,
    GstMapFlags flags, gchar ** why)
{
  if (!gst_video_frame_map (frame, (GstVideoInfo *) info, buf, flags)) {
    *why = g_strdup_printf ("a buffer of %" G_GSIZE_FORMAT " bytes cannot be mapped as a %dx%d %s frame",
        gst_buffer_get_size (buf), GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
        GST_VIDEO_INFO_NAME (info));
    return FALSE;
  }
  if ((*why = layout_problem (frame, info))) {
    gst_video_frame_unmap (frame);
    return FALSE;
  }
  return TRUE;
}

gint
gst_cuda_smooth_alpha_offset (const GstVideoInfo * info)
{
  switch (GST_VIDEO_INFO_FORMAT (info)) {
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_xRGB:
    case GST_VIDEO_FORMAT_xBGR:
      return 0;
    default:
      return 3;
  }
}

guint
gst_cuda_smooth_frame_pictures (const GstVideoFrame * frame, const GstVideoInfo * info,
    GstCudaSmoothPicture pictures[2])
{
  guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  const gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  if (!GST_VIDEO_FRAME_IS_INTERLACED (frame) || h < 2) {
    pictures[0] = (GstCudaSmoothPicture) { data, w, h, stride };
    return 1;
  }
  /* a field's neighbours are two rows apart: filtered as one picture the fields would be
   * blended, each field's pixels smoothed with the other field's, a moment apart */
  pictures[0] = (GstCudaSmoothPicture) { data, w, (h + 1) / 2, 2 * stride };
  pictures[1] = (GstCudaSmoothPicture) { data + stride, w, h / 2, 2 * stride };
  return 2;
}

void
gst_cuda_smooth_layout_of (const GstVideoInfo * info, GstCudaSmoothLayout * layout)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  layout->packed_rgb = GST_VIDEO_FORMAT_INFO_IS_RGB (finfo);
  layout->n_groups = GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) ? 2 : 1;
  layout->sub_x = 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, 1);
  layout->sub_y = 1 << GST_VIDEO_FORMAT_INFO_H_SUB (finfo, 1);
  if (layout->n_groups == 1)
    layout->sub_x = layout->sub_y = 1;
}

CsChannels
gst_cuda_smooth_group_view (const GstVideoInfo * info, guint8 * const planes[], const gint strides[], guint group,
    guint field, guint n_fields)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  /* components: R, G, B of RGB formats (their order does not matter to the filters), Y
   * alone, or U and V */
  const gint first = group == 0 ? 0 : 1;
  const gint count = GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) ? 3 : group == 0 ? 1 : 2;
  const gint h = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, first, GST_VIDEO_INFO_HEIGHT (info));
  CsChannels v = { 0 };
  v.width = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, first, GST_VIDEO_INFO_WIDTH (info));
  v.height = n_fields == 1 ? h : field == 0 ? (h + 1) / 2 : h / 2;
  v.channels = count;
  v.step = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, first);
  for (gint c = 0; c < count; c++) {
    const guint plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, first + c);
    v.data[c] = planes[plane] + GST_VIDEO_FORMAT_INFO_POFFSET (finfo, first + c) + (gsize) field * strides[plane];
    v.stride[c] = (ptrdiff_t) strides[plane] * n_fields;
  }
  return v;
}

guint
gst_cuda_smooth_frame_n_fields (const GstVideoFrame * frame, const GstVideoInfo * info)
{
  return GST_VIDEO_FRAME_IS_INTERLACED (frame) && GST_VIDEO_INFO_HEIGHT (info) >= 2 ? 2 : 1;
}

static gboolean
drop_layout_meta (GstBuffer * buf, GstMeta ** meta, gpointer user_data)
{
  (void) buf;
  (void) user_data;
  if ((*meta)->info->api == GST_VIDEO_META_API_TYPE)
    *meta = NULL;
  return TRUE;
}

GstBuffer *
gst_cuda_smooth_gap_buffer_for (GstBuffer * in)
{
  GstBuffer *gap = gst_buffer_new ();
  gst_buffer_copy_into (gap, in, GST_BUFFER_COPY_FLAGS | GST_BUFFER_COPY_TIMESTAMPS |
      GST_BUFFER_COPY_META, 0, -1);
  gst_buffer_foreach_meta (gap, drop_layout_meta, NULL);
  GST_BUFFER_FLAG_SET (gap, GST_BUFFER_FLAG_GAP);
  return gap;
}
