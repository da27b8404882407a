/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_partition.h"

int cs_auto_partitions (int line_length, int n_lines, double warmup_samples,
    double saturating_sweeps, int min_partition, int max_blocks)
{
  return cs_auto_partitions_short (line_length, n_lines, warmup_samples, saturating_sweeps,
      min_partition, max_blocks, 0, 1.0);
}

int cs_auto_partitions_short (int line_length, int n_lines, double warmup_samples,
    double saturating_sweeps, int min_partition, int max_blocks, int short_length, double short_factor)
{
  const double n = line_length > 0 ? line_length : 1;
  const double w = warmup_samples < n ? warmup_samples : n;
  int best = 1;
  double best_cost = -1.0;
  if (min_partition < 1)
    min_partition = 1;
  if (max_blocks > line_length / min_partition)
    max_blocks = line_length / min_partition;
  for (int b = 1; b <= max_blocks; b++) {
    /* the steps that park (the partition proper) are the ones a short partition speeds up */
    const double own = n * ((line_length + b - 1) / b <= short_length ? short_factor : 1.0);
    const double warm = 2.0 * w * (b - 1);
    const double chain = own / b + warm / b;
    const double total = (double) n_lines * (own + warm) / saturating_sweeps;
    const double cost = chain + total;
    if (best_cost < 0.0 || cost < best_cost * 0.999) {
      best_cost = cost;
      best = b;
    }
  }
  return best;
}
