/* gst-cudasmooth — recursivegauss in one kernel per tile (recursive_tile.cu), for
 * recursive.cu's dispatch (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_RECURSIVE_TILE_CUH
#define CS_RECURSIVE_TILE_CUH

#include "cs_coeffs.h"
#include "cs_cuda.h"
#include "cs_cuda_px.cuh"

namespace cs {

/* The longest segment a tile holds, in either direction. */
static constexpr int kTileMaxSegment = 64;

/* Whether recursive_tiles runs a frame of n_x x n_y cut into segments_x row segments and
 * segments_y column segments, each warming up over `warmup` samples: every segment at most
 * kTileMaxSegment long and the warm-up at most 16 samples (the tile's window of 64 + 2·16
 * samples is the longest its matrices take). */
bool recursive_tiles_cover (int n_x, int n_y, int segments_x, int segments_y, int warmup);

/* Deriche's filter with warm-ups (the result cs_ref_recursive.c defines), rows then
 * columns, for one tile per (row segment, column segment). dev: its SM count chooses three
 * blocks per SM or two (recursive_tile.cu); null takes two. */
cudaError_t recursive_tiles (Lines in, Lines out, int width, int height, int segments_x, int segments_y,
    int warmup, const CsDericheCoeffs &c, const CsCudaDevice *dev, cudaStream_t stream);

}  // namespace cs

#endif /* CS_RECURSIVE_TILE_CUH */
