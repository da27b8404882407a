/* gst-cudasmooth — the CUDA kernels behind one small C header.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every launcher takes device pointers with their pitch, a const parameter struct from
 * common/cs_params.h, device scratch memory and a stream, enqueues its kernels on that
 * stream and returns the first CUDA error (launch or argument), without synchronising.
 * No globals, no printing, no exit(): the caller owns context, memory and streams, and
 * must have the CUDA context current on the calling thread.
 */
#ifndef CS_CUDA_H
#define CS_CUDA_H

#include <stddef.h>

#include <cuda_runtime_api.h>

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

/* What the launchers need to know about the device, read once per context. */
typedef struct {
  int sm_count;
  int max_threads_per_sm;
  size_t l2_bytes;
} CsCudaDevice;

cudaError_t cs_cuda_device_query (CsCudaDevice *dev);

/* Device scratch bytes the filter needs for a width x height frame. */
size_t cs_cuda_edgeaware_scratch_bytes (int width, int height);
size_t cs_cuda_bilateral_scratch_bytes (int width, int height, const CsBilateralParams *p);
size_t cs_cuda_recursive_scratch_bytes (int width, int height);

/* The two passes of the line filters: along rows (first), then along columns. */
typedef enum {
  CS_PASS_ROWS,
  CS_PASS_COLUMNS
} CsPass;

/* The segment count a pass of a width x height frame uses when blocks_per_stripe is 0
 * (automatic). */
int cs_cuda_edgeaware_auto_blocks (const CsCudaDevice *dev, int width, int height, CsPass pass,
    const CsEdgeAwareParams *p);
int cs_cuda_recursive_auto_blocks (const CsCudaDevice *dev, int width, int height, CsPass pass,
    const CsRecursiveParams *p);

cudaError_t cs_cuda_edgeaware (const CsCudaImage *src, const CsCudaImage *dst,
    const CsEdgeAwareParams *p, const CsCudaDevice *dev, void *scratch, size_t scratch_bytes,
    cudaStream_t stream);

cudaError_t cs_cuda_bilateral (const CsCudaImage *src, const CsCudaImage *dst,
    const CsBilateralParams *p, const CsCudaDevice *dev, void *scratch, size_t scratch_bytes,
    cudaStream_t stream);

/* Whether cs_cuda_bilateral runs these parameters on the packed-half kernel (exact mode,
 * Gaussian range kernel, radius 1..7, σr from about 0.08 to 64). */
int cs_cuda_bilateral_uses_half (const CsBilateralParams *p);

/* cs_cuda_bilateral without the packed-half kernel (exact Gaussian r <= 7 then runs the
 * float tile kernel, as it does for parameters outside fp16's range): for the tests, which
 * hold both to 1 LSB, and the benchmark's comparison. */
cudaError_t cs_cuda_bilateral_float (const CsCudaImage *src, const CsCudaImage *dst,
    const CsBilateralParams *p, const CsCudaDevice *dev, void *scratch, size_t scratch_bytes,
    cudaStream_t stream);

/* For the benchmark's floor: the packed-half tile kernel (radius 2..7 of
 * cs_cuda_bilateral_uses_half) for a dst-sized frame without its DRAM traffic — frame
 * words made from the pixel positions on chip instead of loaded, outputs computed and not
 * stored (dst is never written). What the taps, the tile in shared memory and the epilogue
 * cost by themselves. */
cudaError_t cs_cuda_bilateral_on_chip_floor (const CsCudaImage *dst, const CsBilateralParams *p,
    cudaStream_t stream);

cudaError_t cs_cuda_recursive (const CsCudaImage *src, const CsCudaImage *dst,
    const CsRecursiveParams *p, const CsCudaDevice *dev, void *scratch, size_t scratch_bytes,
    cudaStream_t stream);

/* Whether cs_cuda_recursive runs a width x height frame with these parameters in one
 * kernel per tile (Deriche with warm-ups, segments of at most 64 samples and warm-ups short
 * enough for the tile's shared memory) rather than in two passes. */
int cs_cuda_recursive_uses_tiles (const CsRecursiveParams *p, const CsCudaDevice *dev, int width, int height);

/* Whether it runs them as two tensor-core passes of at most 64-sample segments instead
 * (Deriche with warm-ups of 17–64 samples, or with carried starts and segments of 16–64
 * samples; scratch aligned to 16 bytes as cudaMalloc gives it; not taken where the tiles
 * are). */
int cs_cuda_recursive_uses_lines (const CsRecursiveParams *p, const CsCudaDevice *dev, int width, int height);

/* edgeawaregauss and recursivegauss with the segment counts of the row pass and of the
 * column pass given one by one (0: as blocks_per_stripe says, automatic when that is 0):
 * for benchmarks that measure each pass's response to its own count. */
cudaError_t cs_cuda_edgeaware_segments (const CsCudaImage *src, const CsCudaImage *dst,
    const CsEdgeAwareParams *p, const CsCudaDevice *dev, void *scratch, size_t scratch_bytes,
    cudaStream_t stream, int row_segments, int column_segments);
cudaError_t cs_cuda_recursive_segments (const CsCudaImage *src, const CsCudaImage *dst,
    const CsRecursiveParams *p, const CsCudaDevice *dev, void *scratch, size_t scratch_bytes,
    cudaStream_t stream, int row_segments, int column_segments);

/* cs_cuda_recursive_segments without the one-kernel tiles (the two passes run whatever the
 * segments): for the tests, which hold both to 1 LSB, and the benchmark's comparison. */
cudaError_t cs_cuda_recursive_two_pass (const CsCudaImage *src, const CsCudaImage *dst,
    const CsRecursiveParams *p, const CsCudaDevice *dev, void *scratch, size_t scratch_bytes,
    cudaStream_t stream, int row_segments, int column_segments);

/* Copies a frame device to device (colour and alpha), for identity settings when the
 * caps differ between input and output memory. */
cudaError_t cs_cuda_copy (const CsCudaImage *src, const CsCudaImage *dst, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* CS_CUDA_H */
