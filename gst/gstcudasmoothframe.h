/* gst-cudasmooth — mapping a buffer as a frame, checked against the memory behind it.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst_video_frame_map() takes a GstVideoMeta's offsets and strides as they come: a meta that
 * says offset 6144 and stride 256 for a 12,288-byte 64×48 RGBA buffer maps "successfully",
 * and the filter would then read memory the buffer does not own. The elements map every
 * frame through gst_cuda_smooth_frame_map(), which also checks that every row of every
 * plane, at the size the caps give, lies inside the memory mapped for that plane.
 */
#ifndef __GST_CUDA_SMOOTH_FRAME_H__
#define __GST_CUDA_SMOOTH_FRAME_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

/* Maps buf as a frame of info (flags as for gst_video_frame_map()). FALSE with *why set
 * (free with g_free) when it cannot be mapped or its layout does not fit its memory: a
 * stride smaller than a row or negative, a plane that starts or ends outside the memory
 * it was mapped from (also across the memories of a multi-memory buffer). The frame is
 * unmapped again in that case. */
gboolean gst_cuda_smooth_frame_map (GstVideoFrame * frame, const GstVideoInfo * info,
    GstBuffer * buf, GstMapFlags flags, gchar ** why);

/* A picture the filters take: the frame itself, or, when its rows interleave two fields
 * (interlaced video), one field: every other row. Sizes are the caps'. */
typedef struct
{
  guint8 *data;
  gint width, height;
  gint stride;
} GstCudaSmoothPicture;

/* The pictures of plane 0 of a mapped frame of info: one, or its two fields (top first)
 * where the frame is interlaced. Returns how many. */
guint gst_cuda_smooth_frame_pictures (const GstVideoFrame * frame, const GstVideoInfo * info,
    GstCudaSmoothPicture pictures[2]);

/* The byte of a pixel that holds alpha or x: 0 (ARGB, ABGR, xRGB, xBGR) or 3. */
gint gst_cuda_smooth_alpha_offset (const GstVideoInfo * info);

/* An empty buffer that stands for in downstream: the GAP flag, in's flags, timestamps,
 * offsets and metas (other than its video layout). What an element pushes for an input
 * buffer that holds no frame it can read. */
GstBuffer *gst_cuda_smooth_gap_buffer_for (GstBuffer * in);

G_END_DECLS

#endif
