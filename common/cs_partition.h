/* gst-cudasmooth — how many partitions to cut each line into, when the user says "auto".
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_PARTITION_H
#define CS_PARTITION_H

#ifdef __cplusplus
extern "C" {
#endif

/* A line-parallel recursive pass runs one sequential sweep per (line, partition). With B
 * partitions a line's sweeps cover n samples plus 2·w·(B−1) samples of warm-up (w on each
 * side of every inner cut). Modelled time, in sample steps:
 *     n/B + 2w(B−1)/B                               the longest chain of dependent steps
 *   + n_lines·(n + 2w(B−1)) / saturating_sweeps     all steps over the machine's rate,
 * where saturating_sweeps is how many sweeps the machine advances at the speed of one.
 * (A sum, not the larger of the two: measured times bend smoothly between the latency-
 * and the throughput-bound ends instead of meeting at a corner; docs/performance.md.)
 * Partitions shorter than min_partition samples are not considered: their warm-ups cost
 * more than they save and every cut adds approximation error.
 * Returns the B in 1..max_blocks with the least modelled time (the smallest on ties). */
int cs_auto_partitions (int line_length, int n_lines, double warmup_samples,
    double saturating_sweeps, int min_partition, int max_blocks);

/* The same for a pass whose partition steps (not warm-up steps) cost short_factor times
 * as much when no partition is longer than short_length samples (the column sweeps keep
 * such partitions' parked sums on chip). */
int cs_auto_partitions_short (int line_length, int n_lines, double warmup_samples,
    double saturating_sweeps, int min_partition, int max_blocks, int short_length, double short_factor);

#ifdef __cplusplus
}
#endif

#endif /* CS_PARTITION_H */
