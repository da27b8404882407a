/* gst-cudasmooth — the tuning constants of the planners, per architecture (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * As CUB's dispatch policies: every figure a planner's automatic choice was fitted to lives
 * here, with the measurement it came from; everything else a planner needs comes from the
 * device's queried limits (CsCudaDevice). A device takes the entry for the newest
 * architecture at or below its own. Rates are per SM, so they scale with the SM count.
 */
#ifndef CS_POLICY_CUH
#define CS_POLICY_CUH

#include "cs_cuda.h"

namespace cs {

struct Policy {
  int cc;                /* 10·major + minor: this entry serves this architecture and newer */
  const char *evidence;  /* where its figures come from */

  /* A line-parallel pass's rate in concurrent sweeps per SM (cs_partition.h's
   * saturating_sweeps) and the shortest partition worth a warm-up. */
  double recursive_row_sweeps, recursive_column_sweeps;
  int recursive_min_partition;
  double edgeaware_row_sweeps, edgeaware_column_sweeps;
  int edgeaware_min_partition;
  /* edgeawaregauss: at most this many row blocks (32 rows, two warps) per SM */
  int edgeaware_row_blocks_per_sm;
  /* recursivegauss tiles: the three-block instance from this many waves of three blocks per SM
   * (below, where it takes fewer waves than two blocks per SM) */
  int recursive_tile_three_block_waves;
  /* bilateral radius 1: 16-row strips when the frame has strips to fill the GPU this many
   * halves over (at 8 rows: 3 = one and a half times) */
  int bilateral_tall_strip_fill;
};

const Policy &policy_for (const CsCudaDevice &dev);

}  // namespace cs

#endif /* CS_POLICY_CUH */
