/* gst-cudasmooth — the GPU executor: a CUDA context, its streams, the device frames and
 * scratch of each stream, and the filter's plans.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Like GstCudaBaseTransform with a GstCudaConverter: the context and streams are made in
 * start, the device buffers and plans when caps or parameters change, and a frame only
 * enqueues its upload, the plan's kernels and its download on one of N_SLOTS streams.
 * Three slots: while one frame is uploaded, the next one's kernels run and a third one is
 * downloaded (with two, a 4K edge-aware frame took (0.67 + 0.68 + 0.67) / 2 ms; with three
 * the copy engines and the kernels each stay busy, at the PCIe floor). Every slot has its
 * own device frames and scratch, and a side stream for a YUV frame's chroma; the plans are
 * shared, read-only, by all.
 */
#ifndef __GST_CUDA_SMOOTH_GPU_H__
#define __GST_CUDA_SMOOTH_GPU_H__

#include <gst/video/video.h>

#define GST_USE_UNSTABLE_API
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>

#include "cs_cuda.h"
#include "gstcudasmoothframe.h"
#include "gstcudasmoothqueue.h"

G_BEGIN_DECLS

#define GST_CUDA_SMOOTH_SLOTS 3

/* GStreamer 1.24 gave CUDA memory a stream of its own (GstCudaStream): a producer enqueues
 * its work on that stream and pushes at once, and a consumer orders its own work after it
 * (gst_cuda_memory_sync, or a stream wait). With it, frames in CUDA memory on both sides
 * need no host wait here (gst_cuda_smooth_gpu_submit); before 1.24 a buffer is pushed only
 * once its work has finished, which is the contract 1.22's CUDA elements keep. */
#define GST_CUDA_SMOOTH_MEMORY_STREAMS GST_CHECK_VERSION (1, 24, 0)

/* Makes a plan of the filter for params, width x height pictures whose samples lie sx and sy
 * luma pixels apart, and dev (cs_cuda.h). */
typedef cudaError_t (*GstCudaSmoothPlanFunc) (gconstpointer params, int sx, int sy, int width, int height,
    const CsCudaDevice * dev, CsCudaPlan ** plan);

typedef struct
{
  void *d_in, *d_out, *scratch;
  size_t scratch_bytes;
} GstCudaSmoothSlot;

typedef struct
{
  GstCudaContext *ctx;
  CsCudaDevice dev;
  cudaStream_t streams[GST_CUDA_SMOOTH_SLOTS];
  /* a slot's chroma views run on its side stream beside luma (cs_cuda_plan_run_views) */
  cudaStream_t side_streams[GST_CUDA_SMOOTH_SLOTS];
  cudaEvent_t forked[GST_CUDA_SMOOTH_SLOTS], joined[GST_CUDA_SMOOTH_SLOTS];
  gboolean have_streams;
#if GST_CUDA_SMOOTH_MEMORY_STREAMS
  GstCudaStream *pool_stream;   /* given to the CUDA buffer pools we configure */
  cudaEvent_t ready[GST_CUDA_SMOOTH_SLOTS];   /* a slot waits on its input's stream */
  cudaEvent_t done[GST_CUDA_SMOOTH_SLOTS];    /* the buffers' streams wait on a slot's frame */
  gboolean told_ordered;        /* logged that frames leave ordered by streams */
#endif

  /* set with the caps */
  GstVideoInfo info;
  GstCudaSmoothLayout layout;
  gboolean in_cuda, out_cuda;   /* caps in CUDA memory on either side */
  /* the upload and download frames: each plane's offset and pitch, and their bytes */
  size_t d_offset[GST_VIDEO_MAX_PLANES], d_pitch[GST_VIDEO_MAX_PLANES], d_bytes;
  GstCudaSmoothSlot slots[GST_CUDA_SMOOTH_SLOTS];
  gint n_slots;                 /* slots the device had memory for */
  guint64 frames;               /* submitted, for the round robin */

  /* the plans for the groups' parameters (params_size bytes each), by group (luma or
   * colour, chroma) and picture: whole frames, the top and the bottom field; NULL where a
   * group is copied */
  GstCudaSmoothPlanFunc plan_new;
  gpointer params[2];
  gboolean filter[2];
  gint sub_x[2], sub_y[2];
  gsize params_size;
  gboolean identity;
  gboolean have_params;
  CsCudaPlan *plans[2][3];
  /* a slot's scratch as the plans lay it out: group g's part from part_offset[g], its working
   * frames (GRAY8 and YUV, work_bytes[g] of them: none where its plans take views) from
   * work_offset[g]; part_offset[n_groups] is the whole */
  size_t part_offset[3], work_offset[2], work_bytes[2];
} GstCudaSmoothGpu;

void gst_cuda_smooth_gpu_init (GstCudaSmoothGpu * gpu, GstCudaSmoothPlanFunc plan_new, gsize params_size);

/* Start: the element's CUDA context for device_id (shared with neighbours), its streams,
 * the device's limits, and whether this build has kernels for it. FALSE with *why set
 * (g_free) when the GPU cannot be used: no driver, no device, no kernel image. */
gboolean gst_cuda_smooth_gpu_open (GstCudaSmoothGpu * gpu, GstElement * element, gint device_id,
    gchar ** why);

/* Stop: waits for the streams and frees everything but the executor itself. */
void gst_cuda_smooth_gpu_close (GstCudaSmoothGpu * gpu);

/* Caps: frees the device buffers of earlier caps, then allocates the first slot's for
 * frames of info (upload and download frames where a side is in system memory, and the
 * scratch the current parameters' plan takes): a frame the device cannot hold fails here.
 * cudaSuccess, or the error with *what was being done. */
cudaError_t gst_cuda_smooth_gpu_configure (GstCudaSmoothGpu * gpu, const GstVideoInfo * info,
    gboolean in_cuda, gboolean out_cuda, const GstCudaSmoothGroupParams * gp, gboolean identity, const char **what);

/* Maps a buffer for the GPU: with its device pointer when it is CUDA memory of the
 * executor's context (*on_device), else as host memory; checked as
 * gst_cuda_smooth_frame_map () checks. */
gboolean gst_cuda_smooth_gpu_map (GstCudaSmoothGpu * gpu, GstVideoFrame * frame, GstBuffer * buf,
    GstMapFlags flags, gboolean * on_device, gchar ** why);

/* Configures a CUDA buffer pool's config for our output: with GStreamer >= 1.24 our
 * stream where the pool has none (downstream's stays, and our frames are ordered before it). */
void gst_cuda_smooth_gpu_configure_pool (GstCudaSmoothGpu * gpu, GstStructure * config);

/* Enqueues a mapped frame's upload, the plans' kernels (a copy where identity) and its
 * download on a slot (round robin over the slots when `overlap`, else slot 0); p->slot is
 * set to it. With GStreamer >= 1.24, a frame whose input and output are CUDA memory with
 * streams is ordered by those streams instead: the slot's work waits for the input's
 * stream, and both buffers' streams wait for the slot's work, so that p->slot is left −1
 * (complete: it can be pushed now, and its input released). Parameters that differ from the last frame's replace the plans, once the
 * streams are idle. On failure: the CUDA error and *what was being done; a slot whose
 * buffers the device has no memory for is given up (*slots_lost) and the frame runs on
 * slot 0. */
cudaError_t gst_cuda_smooth_gpu_submit (GstCudaSmoothGpu * gpu, GstCudaSmoothPending * p,
    gboolean in_dev, gboolean out_dev, const GstCudaSmoothGroupParams * gp, gboolean identity, gboolean overlap,
    const char **what, gboolean * slots_lost);

/* Waits for a slot's work. */
cudaError_t gst_cuda_smooth_gpu_wait (GstCudaSmoothGpu * gpu, gint slot);

G_END_DECLS

#endif
