/* gst-cudasmooth — recursivegauss as two tensor-core passes (recursive_lines.cu): warm-ups of
 * 17–64 samples, or carried partition starts; for recursive.cu's planner (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_RECURSIVE_LINES_CUH
#define CS_RECURSIVE_LINES_CUH

#include "cs_carry.cuh"
#include "cs_coeffs.h"
#include "cs_cuda_px.cuh"

namespace cs {

static constexpr int kSegment = 64, kLinesMaxPad = 64, kLinesPerBlock = 16, kLinesThreads = 128;
static constexpr int kLinesMaxSteps = 12;                        /* K <= 192 */
static constexpr int kLinesMaxPairs = 16 * kLinesMaxSteps + kSegment - 2;
static constexpr int kColumnsPerBlock = 32, kColumnStride = kColumnsPerBlock + 8;   /* 80 B rows: ldmatrix without bank conflicts */
/* the row pass's alpha rows, 33 words: no bank conflicts across rows */
static constexpr int kAlphaStride = kSegment + 2;

struct LinesParams {
  int width, height, segments, pad, warmup;
  /* (m(d), m(d − 1)) in fp16, d = P − 16·steps + 2 .. P + 63, as in recursive_tile.cu */
  unsigned int pairs[kLinesMaxPairs];
  /* (−c(i + P), c(i + P − K)) in fp16, i = 0..63: the end samples' coefficients */
  unsigned int ends[kSegment];
};

static constexpr int kCarriedSteps = 5;   /* K = 80: 64 + 2·4 rounded up */

struct CarriedTables {
  /* [pass][length − n/B][k-step][lane]: (hi of rows 2t, 2t + 1; hi of rows 2t + 8, 2t + 9;
   * lo of the same), column g of the coefficient matrix */
  uint4 carry[2][2][kCarriedSteps][32];
  uint2 powers[kSegment + 1][2];   /* CarriedStarts::powers */
  /* the passes' LinesParams::pairs and ::ends (the same for both) */
  unsigned int pairs[16 * kCarriedSteps + kSegment - 2], ends[kSegment];
};

/* The two passes with warm-ups, made when the filter is planned. */
struct LinesLaunch {
  LinesParams rows, columns;
  int steps;      /* the kernels' instance: windows of 16·steps samples */
  bool overlap;   /* the columns' launch overlaps the rows' (cs_launch.cuh) */
};

/* Whether the warm-up passes run a frame of n_x x n_y cut into segments_x row segments and
 * segments_y column segments, each warming up over `warmup` samples: segments of at most
 * 64 samples and warm-ups of at most 64. */
bool recursive_lines_cover (int n_x, int n_y, int segments_x, int segments_y, int warmup);

/* Plans Deriche's filter with warm-ups (the result cs_ref_recursive.c defines): rows from
 * the frame into a half4 plane, then columns from it into the output. */
void plan_lines (int width, int height, int segments_x, int segments_y, int warmup, const CsDericheCoeffs &c,
    bool overlap, LinesLaunch &l);

/* t_plane: half4 rows, 16-byte aligned. */
cudaError_t launch_lines (Lines in, Lines t_plane, Lines out, const LinesLaunch &l, cudaStream_t stream);

/* The two passes with carried starts, made when the filter is planned. */
struct CarriedLaunch {
  LinesParams rows, columns;
  CarriedTables tables;
  float unscale[2];      /* what each pass's carry sums are multiplied by */
  CarryJumps jumps[2];   /* each pass's scan */
  bool overlap;
};

/* Carried starts (cs_carry.cuh) as tensor-core passes: segments of at most 64 samples and at
 * least 16 (the carries' scratch is sized for that), except single-segment lines. */
bool recursive_lines_carried_cover (int n_x, int n_y, int segments_x, int segments_y);

/* Device bytes the carried passes keep their coefficient tables in. */
size_t recursive_lines_carried_table_bytes ();

/* Plans Deriche with carried partition starts (the unpartitioned filter up to rounding). */
void plan_lines_carried (int width, int height, int segments_x, int segments_y, const CsDericheCoeffs &c,
    bool overlap, CarriedLaunch &l);

/* Per pass the segments' end states from zero starts (products), their scan (cs_carry.cuh)
 * in `states` ([segment][component][line], for the longer pass), and the pass's product
 * with the start states' terms; `tables`: recursive_lines_carried_table_bytes (), 16-byte
 * aligned. */
cudaError_t launch_lines_carried (Lines in, Lines t_plane, Lines out, const CarriedLaunch &l, float2 *states,
    void *tables, cudaStream_t stream);

}  // namespace cs

#endif /* CS_RECURSIVE_LINES_CUH */
