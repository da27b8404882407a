/* gst-cudasmooth tests — the plane groups of a mapped GStreamer frame as the references
 * take them (docs/algorithms.md, "Formats"): luma as one channel, U and V together.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_TEST_VIEWS_H
#define CS_TEST_VIEWS_H

#include <gst/video/video.h>
#include <stdlib.h>

#include "cs_channels.h"

static inline guint cs_test_n_groups (const GstVideoInfo *info)
{
  return GST_VIDEO_INFO_IS_YUV (info) ? 2 : 1;
}

/* Group g (0: luma or grey, 1: U and V) of a mapped frame: field `field` of n. */
static inline CsChannels cs_test_view_of (GstVideoFrame *vf, guint g, guint field, guint n)
{
  const GstVideoFormatInfo *fi = vf->info.finfo;
  const gint first = g == 0 ? 0 : 1, count = GST_VIDEO_FORMAT_INFO_IS_YUV (fi) ? (g == 0 ? 1 : 2) : 1;
  const gint h = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (fi, first, GST_VIDEO_FRAME_HEIGHT (vf));
  CsChannels v = { .width = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (fi, first, GST_VIDEO_FRAME_WIDTH (vf)),
    .height = n == 1 ? h : field == 0 ? (h + 1) / 2 : h / 2, .channels = count,
    .step = GST_VIDEO_FRAME_COMP_PSTRIDE (vf, first) };
  for (gint c = 0; c < count; c++) {
    v.data[c] = (uint8_t *) GST_VIDEO_FRAME_COMP_DATA (vf, first + c) + field * GST_VIDEO_FRAME_COMP_STRIDE (vf, first + c);
    v.stride[c] = (ptrdiff_t) GST_VIDEO_FRAME_COMP_STRIDE (vf, first + c) * n;
  }
  return v;
}

/* The subsampling of group g of a frame: 2 along an axis where it is smaller than the frame. */
static inline void cs_test_subsampling (GstVideoFrame *vf, guint g, int *sx, int *sy)
{
  const CsChannels v = cs_test_view_of (vf, g, 0, 1);
  *sx = GST_VIDEO_FRAME_WIDTH (vf) > v.width ? 2 : 1;
  *sy = GST_VIDEO_FRAME_HEIGHT (vf) > v.height ? 2 : 1;
}

/* The largest difference between group g (field f of n) of two frames. */
static inline int cs_test_max_diff (GstVideoFrame *a, GstVideoFrame *b, guint g, guint field, guint n)
{
  const CsChannels va = cs_test_view_of (a, g, field, n), vb = cs_test_view_of (b, g, field, n);
  int worst = 0;
  for (int c = 0; c < va.channels; c++)
    for (int y = 0; y < va.height; y++)
      for (int x = 0; x < va.width; x++) {
        const int d = abs ((int) cs_channels_sample (&va, c, x, y)[0] - (int) cs_channels_sample (&vb, c, x, y)[0]);
        worst = d > worst ? d : worst;
      }
  return worst;
}

#endif /* CS_TEST_VIEWS_H */
