/* gst-cudasmooth — how many partitions to cut each line into, when the user says "auto".
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_PARTITION_H
#define CS_PARTITION_H

#ifdef __cplusplus
extern "C" {
#endif

/* A line-parallel recursive pass runs one sequential sweep per (line, partition). With B
 * partitions each sweep covers n/B samples plus up to 2·warmup samples of warm-up, and
 * n_lines·B sweeps run at once. Model: time ∝ (n/B + 2·min(warmup, n)) ·
 * max(1, n_lines·B / saturating_sweeps), where saturating_sweeps is how many concurrent
 * sweeps it takes to keep the machine busy (below it, more sweeps are free; above it they
 * queue). Partitions shorter than CS_MIN_PARTITION samples are not considered: their
 * warm-ups would cost more than they save and every cut adds approximation error.
 * Returns the B in 1..max_blocks with the least modelled time (the smallest on ties). */
#define CS_MIN_PARTITION 32
int cs_auto_partitions (int line_length, int n_lines, double warmup_samples,
    double saturating_sweeps, int max_blocks);

#ifdef __cplusplus
}
#endif

#endif /* CS_PARTITION_H */
