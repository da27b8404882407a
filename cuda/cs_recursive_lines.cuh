/* gst-cudasmooth — recursivegauss as two tensor-core passes (recursive_lines.cu): warm-ups of
 * 17–64 samples, or carried partition starts; for recursive.cu's dispatch (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_RECURSIVE_LINES_CUH
#define CS_RECURSIVE_LINES_CUH

#include "cs_coeffs.h"
#include "cs_cuda_px.cuh"

namespace cs {

/* Whether recursive_lines runs a frame of n_x x n_y cut into segments_x row segments and
 * segments_y column segments, each warming up over `warmup` samples: segments of at most
 * 64 samples and warm-ups of at most 64. */
bool recursive_lines_cover (int n_x, int n_y, int segments_x, int segments_y, int warmup);

/* Deriche's filter with warm-ups (the result cs_ref_recursive.c defines): rows from `in`
 * into t_plane (half4 rows, 16-byte aligned), then columns from it into `out`. */
cudaError_t recursive_lines (Lines in, Lines t_plane, Lines out, int width, int height, int segments_x,
    int segments_y, int warmup, const CsDericheCoeffs &c, cudaStream_t stream);

/* Carried starts (cs_carry.cuh) as tensor-core passes: segments of at most 64 samples and at
 * least 16 (the carries' scratch is sized for that), except single-segment lines. */
bool recursive_lines_carried_cover (int n_x, int n_y, int segments_x, int segments_y);

/* Device bytes recursive_lines_carried keeps its coefficient tables in. */
size_t recursive_lines_carried_table_bytes ();

/* Deriche with carried partition starts (the unpartitioned filter up to rounding): per pass
 * the segments' end states from zero starts (products), their scan (cs_carry.cuh) in
 * `states` ([segment][component][line], for the longer pass), and the pass's product with
 * the start states' terms; `tables`: recursive_lines_carried_table_bytes (), 16-byte aligned. */
cudaError_t recursive_lines_carried (Lines in, Lines t_plane, Lines out, int width, int height, int segments_x,
    int segments_y, const CsDericheCoeffs &c, float2 *states, void *tables, cudaStream_t stream);

}  // namespace cs

#endif /* CS_RECURSIVE_LINES_CUH */
