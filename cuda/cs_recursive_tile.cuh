/* gst-cudasmooth — recursivegauss in one kernel per tile (recursive_tile.cu), for
 * recursive.cu's planner (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_RECURSIVE_TILE_CUH
#define CS_RECURSIVE_TILE_CUH

#include "cs_coeffs.h"
#include "cs_cuda.h"
#include "cs_cuda_px.cuh"
#include "cs_policy.cuh"

namespace cs {

/* The longest segment a tile holds, in either direction. */
static constexpr int kTileMaxSegment = 64;

static constexpr int kTileThreads = 256, kTileWarps = kTileThreads / 32;
static constexpr int kTileMaxPad = 16;                               /* warm-ups up to 16 samples */
static constexpr int kTileMaxSteps = (kTileMaxSegment + 2 * kTileMaxPad) / 16;   /* k-steps of 16: 6 */
static constexpr int kTileMaxPairs = 16 * kTileMaxSteps + kTileMaxSegment - 2;

/* Column products take A fragments indexed by m-tile − k-step: this many per warp. */
__host__ __device__ constexpr int column_fragments (int steps) { return steps - 1 + kTileMaxSegment / 16; }

struct TileParams {
  int width, height, segments_x, segments_y, warmup, pad;
  /* (m(d), m(d − 1)) in fp16 as the low and high halves, d = pad − 16·steps + 2 .. pad + 63:
   * every fragment register is one of these words */
  unsigned int pairs[kTileMaxPairs];
  /* (−c(i + P), c(i + P − K)), i = 0..63, the window's end samples' coefficients, as fp16
   * hi and lo parts (lo = the rest of the value after hi) */
  unsigned int ends_hi[kTileMaxSegment], ends_lo[kTileMaxSegment];
};

/* A tile launch, made when the filter is planned. */
struct TileLaunch {
  TileParams p;
  int steps;           /* the kernel's instance: windows of 16·steps samples */
  /* by layout (the RGBA family's, one-channel views', two-channel views'): the kernel's
   * instance, 3 blocks per SM (T over its samples) or 2, and its shared memory */
  int blocks_per_sm[3], slot_bytes[3];
  int shared_bytes;    /* the most of slot_bytes */
  bool overlap;        /* the device has programmatic dependent launch (cs_plan.cuh's launches_overlap) */
  /* the kernels' shared-memory attributes, set at their first launch: the RGBA family's,
   * one-channel views', two-channel views' */
  mutable bool attributes_set[3];
  /* the shared memory set for launch_tiles_views's kernels with this plan's luma (by
   * instance: windows of 5 and 5, 6 and 5, 6 and 6 steps) */
  mutable int views_bytes_set[3];
};

/* Whether a frame of n_x x n_y cut into segments_x row segments and segments_y column
 * segments, each warming up over `warmup` samples, has tiles the kernel takes: every
 * segment at most kTileMaxSegment long and the warm-up at most 16 samples (the tile's
 * window of 64 + 2·16 samples is the longest its matrices take). */
bool recursive_tiles_cover (int n_x, int n_y, int segments_x, int segments_y, int warmup);

/* Whether a frame of `tiles` tiles warming up over `warmup` samples has a kernel instance
 * whose shared memory a block of dev may take. */
bool recursive_tiles_fit (int warmup, long long tiles, const CsCudaDevice &dev, const Policy &policy);

/* Plans Deriche's filter with warm-ups (the result cs_ref_recursive.c defines), rows then
 * columns, one tile per (row segment, column segment): false where the frame's tiles are not
 * covered or need more shared memory than a block of dev may take. */
bool plan_tiles (int width, int height, int segments_x, int segments_y, int warmup, const CsDericheCoeffs &c,
    const CsCudaDevice &dev, const Policy &policy, TileLaunch &t);

cudaError_t launch_tiles (Lines in, Lines out, const TileLaunch &t, cudaStream_t stream);

/* The same on views of one or two channels (common/cs_channels.h) of the planned size, on
 * the views themselves; cudaErrorNotSupported for three. beside: the kernel may start while
 * the stream's previous kernel finishes (where the device allows: cs_launch.cuh). */
cudaError_t launch_tiles_view (const CsChannels &in, const CsChannels &out, const TileLaunch &t, bool beside,
    cudaStream_t stream);

/* A frame's luma view (one channel, planned by t0) and chroma view (two channels, t1) in one
 * launch, where both take the two-block instance and chroma's windows are no longer than
 * luma's (what a frame's subsampled chroma gives); cudaErrorNotSupported otherwise, and the
 * caller launches them apart. */
cudaError_t launch_tiles_views (const CsChannels &in0, const CsChannels &out0, const TileLaunch &t0,
    const CsChannels &in1, const CsChannels &out1, const TileLaunch &t1, cudaStream_t stream);

}  // namespace cs

#endif /* CS_RECURSIVE_TILE_CUH */
