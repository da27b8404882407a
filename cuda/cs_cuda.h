/* gst-cudasmooth — the CUDA kernels behind one small C header.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A filter runs from a plan, made once for its parameters, the frame size and the device's
 * limits (when caps or properties change): the plan decides the path, the segment counts and
 * the launch shapes, computes the coefficient tables, and says how much device scratch a frame
 * needs. Running it per frame only enqueues its kernels on a stream, without synchronising.
 * Like cuFFT's plans and GStreamer's GstCudaConverter. No globals, no printing, no exit(): the
 * caller owns context, memory and streams, and must have the CUDA context current on the
 * calling thread.
 */
#ifndef CS_CUDA_H
#define CS_CUDA_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cs_channels.h"
#include "cs_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A packed 4-bytes-per-pixel frame in device memory (see common/cs_image.h for layout). */
typedef struct {
  void *data;
  int width;
  int height;
  size_t pitch;        /* bytes between rows, >= 4 * width */
  int alpha_offset;    /* 0 (ARGB, ABGR, xRGB, xBGR) or 3 (RGBA, BGRA, RGBx, BGRx) */
} CsCudaImage;

/* What the planners need to know about a device, queried once per context. Tests write
 * other architectures' limits here to plan for GPUs they do not have. */
typedef struct {
  int cc_major, cc_minor;         /* compute capability */
  int sm_count;
  int max_threads_per_sm;
  int max_shared_per_block;       /* bytes a block may opt in to (cudaDevAttrMaxSharedMemoryPerBlockOptin) */
  int max_shared_per_sm;          /* bytes */
  int regs_per_sm;
  size_t l2_bytes;
} CsCudaDevice;

/* The current device's limits. */
cudaError_t cs_cuda_device_query (CsCudaDevice *dev);

/* cudaSuccess when this build holds kernels the current device can run; otherwise the
 * error asking for one gave (cudaErrorNoKernelImageForDevice where the build has neither
 * machine code for the device's architecture nor PTX the driver can compile for it). */
cudaError_t cs_cuda_check_kernels (void);

/* The two passes of the line filters: along rows (first), then along columns. */
typedef enum {
  CS_PASS_ROWS,
  CS_PASS_COLUMNS
} CsPass;

/* The kernels a plan runs (docs/performance.md describes each). */
typedef enum {
  CS_CUDA_PATH_COPY,                  /* identity settings: a device copy */
  CS_CUDA_PATH_EDGEAWARE_SPLIT,       /* split sweeps, rows then columns, per iteration */
  CS_CUDA_PATH_BILATERAL_HALF_STRIPS, /* radius 1, packed half, strips without shared memory */
  CS_CUDA_PATH_BILATERAL_HALF_TILES,  /* radius 2..7, packed half, shared tiles */
  CS_CUDA_PATH_BILATERAL_FLOAT_TILES, /* radius <= 8, float, shared tiles */
  CS_CUDA_PATH_BILATERAL_DIRECT,      /* radius > 8, one thread per output */
  CS_CUDA_PATH_BILATERAL_SEPARABLE,   /* rows then columns through a float plane */
  CS_CUDA_PATH_RECURSIVE_TILES,       /* one tensor-core kernel per tile */
  CS_CUDA_PATH_RECURSIVE_LINES,       /* two tensor-core passes, warm-ups */
  CS_CUDA_PATH_RECURSIVE_LINES_CARRIED, /* two tensor-core passes, carried starts */
  CS_CUDA_PATH_RECURSIVE_SWEPT,       /* two swept passes, warm-ups */
  CS_CUDA_PATH_RECURSIVE_SWEPT_CARRIED, /* two swept passes, carried starts */
  CS_CUDA_PATH_RECURSIVE_YVV,         /* Young–van Vliet, forward and backward kernels per pass */
} CsCudaPath;

/* The path's name, as logs and benchmarks print it. */
const char *cs_cuda_path_name (CsCudaPath path);

typedef struct CsCudaPlan CsCudaPlan;

/* Plans a filter for width x height frames on a device with dev's limits. Parameters are
 * checked here, once (cudaErrorInvalidValue with a sentence from cs_*_params_check); a plan
 * holds everything its frames need but device memory: the caller passes scratch of
 * cs_cuda_plan_scratch_bytes() to every run. */
cudaError_t cs_cuda_edgeaware_plan_new (const CsEdgeAwareParams *p, int width, int height,
    const CsCudaDevice *dev, CsCudaPlan **plan);
cudaError_t cs_cuda_bilateral_plan_new (const CsBilateralParams *p, int width, int height,
    const CsCudaDevice *dev, CsCudaPlan **plan);
cudaError_t cs_cuda_recursive_plan_new (const CsRecursiveParams *p, int width, int height,
    const CsCudaDevice *dev, CsCudaPlan **plan);
/* Plans whose rows are filtered with px and columns with py: the chroma of 4:2:2 formats,
 * whose samples lie two luma pixels apart along x and one along y (docs/algorithms.md,
 * "Formats"; cs_*_params_subsampled). Alike parameters give the plans above. */
cudaError_t cs_cuda_edgeaware_plan_new_axes (const CsEdgeAwareParams *px, const CsEdgeAwareParams *py, int width,
    int height, const CsCudaDevice *dev, CsCudaPlan **plan);
cudaError_t cs_cuda_bilateral_plan_new_axes (const CsBilateralParams *px, const CsBilateralParams *py, int width,
    int height, const CsCudaDevice *dev, CsCudaPlan **plan);
cudaError_t cs_cuda_recursive_plan_new_axes (const CsRecursiveParams *px, const CsRecursiveParams *py, int width,
    int height, const CsCudaDevice *dev, CsCudaPlan **plan);
/* A plan that copies frames (identity settings where input and output differ). */
cudaError_t cs_cuda_copy_plan_new (int width, int height, CsCudaPlan **plan);

void cs_cuda_plan_free (CsCudaPlan *plan);

/* What the plan chose: its path, each pass's segments per line (0 where the path does not
 * cut lines), the device scratch and the most shared memory a block of its kernels takes. */
CsCudaPath cs_cuda_plan_path (const CsCudaPlan *plan);
int cs_cuda_plan_segments (const CsCudaPlan *plan, CsPass pass);
size_t cs_cuda_plan_scratch_bytes (const CsCudaPlan *plan);
size_t cs_cuda_plan_shared_bytes (const CsCudaPlan *plan);

/* Enqueues the plan's kernels for one frame: src and dst of the plan's size, in device
 * memory (they may be the same only for copy plans), scratch of cs_cuda_plan_scratch_bytes()
 * (16-byte aligned, as cudaMalloc gives it). Returns the first launch error. */
cudaError_t cs_cuda_plan_run (const CsCudaPlan *plan, const CsCudaImage *src, const CsCudaImage *dst,
    void *scratch, cudaStream_t stream);

/* The GRAY8 and YUV formats: a plan made for RGBA frames of a view's size run on a view of 1–3
 * channels in device memory (common/cs_channels.h, device pointers): filtered on the view itself where
 * the plan's kernels take views (the packed-half bilateral, recursivegauss's tiles), else packed into the colour bytes of a
 * working RGBA frame, filtered into a second one and unpacked into dst (channels.cu says why
 * that is exact). A NULL plan copies the channels. work holds the two working frames
 * (cs_cuda_plan_work_bytes, 16-byte aligned; NULL where that is 0); scratch is the plan's. */
size_t cs_cuda_channels_work_bytes (int width, int height);
/* The working frames cs_cuda_plan_run_channels needs for views of `channels` channels of the
 * plan's size: none where the plan's kernels take such views themselves (every GRAY8 and YUV
 * layout: steps of at most 4 bytes, channels within 2 GiB of each other), nor for a NULL
 * plan; else cs_cuda_channels_work_bytes. Given no work (NULL), a view the plan does not
 * take is cudaErrorInvalidValue. */
size_t cs_cuda_plan_work_bytes (const CsCudaPlan *plan, int channels);
cudaError_t cs_cuda_plan_run_channels (const CsCudaPlan *plan, const CsChannels *src, const CsChannels *dst,
    void *work, void *scratch, cudaStream_t stream);

/* The same for the second and later views of one frame (luma, then chroma; fields): views whose
 * samples are apart from those of the views run before them on the stream since the frame's
 * first. Where the plan filters the view itself in one kernel (recursivegauss's tiles), that
 * kernel may start while the previous view's last kernel finishes (programmatic dependent
 * launch, sm_90 and newer: the chroma plane's blocks fill the SMs luma's last wave leaves
 * idle) and finishes after it, so the frame is done when its last view's kernel is. */
cudaError_t cs_cuda_plan_run_channels_beside (const CsCudaPlan *plan, const CsChannels *src, const CsChannels *dst,
    void *work, void *scratch, cudaStream_t stream);

/* One view of a frame for cs_cuda_plan_run_views: its plan (NULL: a copy), source and
 * destination, the working frames and scratch only it uses, and the stream it runs on. */
typedef struct {
  const CsCudaPlan *plan;
  CsChannels src, dst;
  void *work, *scratch;
  int on_side;   /* 0: the frame's stream, 1: the side stream */
} CsCudaViewRun;

/* A frame's views on two streams at once: those with on_side 0 in order on `stream`, the
 * others in order on `side` (non-blocking, of the same context), which first waits for the
 * work queued on `stream` before this call (event `fork`); `stream` then waits for `side`'s
 * views (event `join`), so the frame is done when `stream`'s work is, and the next frame's
 * views on either stream come after it. A quarter-size chroma plane fills few SMs; beside
 * luma its kernels run on those luma's passes leave idle. Views on different streams must
 * share no samples, working frames or scratch. The join is recorded even after a launch
 * error (which is returned), so that no view is left running unordered. A luma view on
 * `stream` and a chroma view on `side` (n = 2) whose plans run both in one launch
 * (recursivegauss's tiles where both views take two blocks per SM) go in that launch on
 * `stream`, and `side` is left alone. */
cudaError_t cs_cuda_plan_run_views (const CsCudaViewRun *views, int n, cudaStream_t stream, cudaStream_t side,
    cudaEvent_t fork, cudaEvent_t join);

#ifdef __cplusplus
}
#endif

#endif /* CS_CUDA_H */
