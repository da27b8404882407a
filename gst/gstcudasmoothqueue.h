/* gst-cudasmooth — the frames an element holds between their submission and their push.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On the GPU a frame's upload, kernels and download are enqueued on one of the executor's
 * streams and the frame waits here, mapped, until it is pushed: up to `depth` frames
 * stay in flight so that the transfers of one overlap the kernels of the next (frames that
 * streams order, gstcudasmoothgpu.h, are complete at once). Frames leave in the order they
 * came; serialized events drain the queue first, a flush drops it.
 */
#ifndef __GST_CUDA_SMOOTH_QUEUE_H__
#define __GST_CUDA_SMOOTH_QUEUE_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

typedef struct
{
  GstBuffer *inbuf;        /* NULL once released */
  GstBuffer *outbuf;
  GstVideoFrame in_frame, out_frame;
  gboolean in_mapped, out_mapped;
  gint slot;               /* the GPU stream its work is on; −1: complete */
} GstCudaSmoothPending;

/* Waits for the work on `slot`; FALSE (after posting the error) when it failed. */
typedef gboolean (*GstCudaSmoothWaitFunc) (gpointer user_data, gint slot);

typedef struct
{
  GQueue frames;
  GstCudaSmoothWaitFunc wait;
  gpointer user_data;
} GstCudaSmoothQueue;

void gst_cuda_smooth_queue_init (GstCudaSmoothQueue * q, GstCudaSmoothWaitFunc wait, gpointer user_data);

/* A frame for inbuf (taking the reference), complete until a GPU slot is set. */
GstCudaSmoothPending *gst_cuda_smooth_pending_new (GstBuffer * inbuf);

/* Unmaps the frame's buffers and releases the input, after waiting for its GPU work;
 * FALSE when that failed. */
gboolean gst_cuda_smooth_pending_complete (GstCudaSmoothQueue * q, GstCudaSmoothPending * p);

/* Completes the frame and frees it with its output buffer. */
void gst_cuda_smooth_pending_discard (GstCudaSmoothQueue * q, GstCudaSmoothPending * p);

void gst_cuda_smooth_queue_push (GstCudaSmoothQueue * q, GstCudaSmoothPending * p);
guint gst_cuda_smooth_queue_length (GstCudaSmoothQueue * q);

/* The oldest frame's output once it is complete or more than `depth` frames are held
 * (*out NULL when none is due); GST_FLOW_ERROR when its GPU work failed. */
GstFlowReturn gst_cuda_smooth_queue_pop (GstCudaSmoothQueue * q, guint depth, GstBuffer ** out);

/* Pushes every held frame on srcpad, oldest first; the first flow return that is not OK
 * (the frames after it are dropped). */
GstFlowReturn gst_cuda_smooth_queue_drain (GstCudaSmoothQueue * q, GstPad * srcpad);

/* Drops every held frame (flush, stop). */
void gst_cuda_smooth_queue_drop (GstCudaSmoothQueue * q);

G_END_DECLS

#endif
