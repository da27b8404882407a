/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcudasmoothqueue.h"

void
gst_cuda_smooth_queue_init (GstCudaSmoothQueue * q, GstCudaSmoothWaitFunc wait, gpointer user_data)
{
  g_queue_init (&q->frames);
  q->wait = wait;
  q->user_data = user_data;
}

GstCudaSmoothPending *
gst_cuda_smooth_pending_new (GstBuffer * inbuf)
{
  GstCudaSmoothPending *p = g_new0 (GstCudaSmoothPending, 1);
  p->inbuf = inbuf;
  p->slot = -1;
  return p;
}

gboolean
gst_cuda_smooth_pending_complete (GstCudaSmoothQueue * q, GstCudaSmoothPending * p)
{
  gboolean ok = TRUE;
  if (p->slot >= 0) {
    ok = q->wait (q->user_data, p->slot);
    p->slot = -1;
  }
  if (p->in_mapped)
    gst_video_frame_unmap (&p->in_frame);
  if (p->out_mapped)
    gst_video_frame_unmap (&p->out_frame);
  p->in_mapped = p->out_mapped = FALSE;
  gst_clear_buffer (&p->inbuf);
  return ok;
}

void
gst_cuda_smooth_pending_discard (GstCudaSmoothQueue * q, GstCudaSmoothPending * p)
{
  gst_cuda_smooth_pending_complete (q, p);
  gst_clear_buffer (&p->outbuf);
  g_free (p);
}

void
gst_cuda_smooth_queue_push (GstCudaSmoothQueue * q, GstCudaSmoothPending * p)
{
  g_queue_push_tail (&q->frames, p);
}

guint
gst_cuda_smooth_queue_length (GstCudaSmoothQueue * q)
{
  return g_queue_get_length (&q->frames);
}

GstFlowReturn
gst_cuda_smooth_queue_pop (GstCudaSmoothQueue * q, guint depth, GstBuffer ** out)
{
  GstCudaSmoothPending *p = g_queue_peek_head (&q->frames);
  *out = NULL;
  if (!p || (p->slot >= 0 && g_queue_get_length (&q->frames) <= depth))
    return GST_FLOW_OK;
  g_queue_pop_head (&q->frames);
  if (!gst_cuda_smooth_pending_complete (q, p)) {
    gst_clear_buffer (&p->outbuf);
    g_free (p);
    return GST_FLOW_ERROR;
  }
  *out = p->outbuf;
  g_free (p);
  return GST_FLOW_OK;
}

GstFlowReturn
gst_cuda_smooth_queue_drain (GstCudaSmoothQueue * q, GstPad * srcpad)
{
  GstFlowReturn ret = GST_FLOW_OK;
  GstCudaSmoothPending *p;
  while ((p = g_queue_pop_head (&q->frames))) {
    GstBuffer *out = p->outbuf;
    const gboolean ok = gst_cuda_smooth_pending_complete (q, p);
    g_free (p);
    if (!ok && ret == GST_FLOW_OK)
      ret = GST_FLOW_ERROR;
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (out);
      continue;
    }
    ret = gst_pad_push (srcpad, out);
  }
  return ret;
}

void
gst_cuda_smooth_queue_drop (GstCudaSmoothQueue * q)
{
  GstCudaSmoothPending *p;
  while ((p = g_queue_pop_head (&q->frames)))
    gst_cuda_smooth_pending_discard (q, p);
}
