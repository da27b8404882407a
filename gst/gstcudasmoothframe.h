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

#include "cs_channels.h"

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

/* How a format's frames divide into the images the filters see (docs/algorithms.md,
 * "Formats"): RGBA-family frames are one packed image (its colour channels, alpha copied);
 * GRAY8 one 1-channel image; YUV formats luma (1 channel) and chroma (U and V, 2 channels,
 * subsampled by sub_x, sub_y). */
typedef struct
{
  gboolean packed_rgb;
  guint n_groups;
  gint sub_x, sub_y;            /* of group 1 (chroma) */
} GstCudaSmoothLayout;

void gst_cuda_smooth_layout_of (const GstVideoInfo * info, GstCudaSmoothLayout * layout);

/* What each group of a frame gets: the element's parameters at the group's subsampling
 * (the filters take cs_*_params_subsampled per axis), or a copy (filter FALSE: chroma=copy, or parameters
 * that change no byte of that group). */
typedef struct
{
  gconstpointer params[2];
  gboolean filter[2];
  gint sub_x[2], sub_y[2];      /* the groups' subsampling: 1, 1 and the chroma's */
} GstCudaSmoothGroupParams;

/* Group `group` of a frame of info whose planes start at planes[] with strides[] (a mapped
 * host frame, a mapped CUDA frame or a device frame alike): field `field` of n_fields (1, or
 * 2 for interlaced frames, as gst_cuda_smooth_frame_pictures () splits them). */
CsChannels gst_cuda_smooth_group_view (const GstVideoInfo * info, guint8 * const planes[],
    const gint strides[], guint group, guint field, guint n_fields);

/* 2 when a mapped frame's rows interleave two fields that are filtered apart, else 1. */
guint gst_cuda_smooth_frame_n_fields (const GstVideoFrame * frame, const GstVideoInfo * info);

/* The bytes of one row of plane `plane` and its number of rows, at the size info gives. */
void gst_cuda_smooth_plane_extent (const GstVideoInfo * info, guint plane, guint64 * row_bytes, guint64 * rows);

/* The byte of a pixel that holds alpha or x: 0 (ARGB, ABGR, xRGB, xBGR) or 3. */
gint gst_cuda_smooth_alpha_offset (const GstVideoInfo * info);

/* An empty buffer that stands for in downstream: the GAP flag, in's flags, timestamps,
 * offsets and metas (other than its video layout). What an element pushes for an input
 * buffer that holds no frame it can read. */
GstBuffer *gst_cuda_smooth_gap_buffer_for (GstBuffer * in);

G_END_DECLS

#endif
