/* cs-bench-kernels — probes of the machine and floors that are no filter: its bandwidth and
 * instruction rates, what one launch costs, and the data movement of a pair of passes.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_BENCH_PROBES_CUH
#define CS_BENCH_PROBES_CUH

#include "bench.cuh"

/* DRAM bandwidth, read + write, GB/s. */
double measure_bandwidth_gbs ();
/* Warp-instructions per second of FP32 FMA and of MUFU ex2. */
double measure_fma_rate (const Bench &b);
double measure_ex2_rate (const Bench &b);
/* __CUDA_ARCH__ of the kernels this build runs on the device (a PTX-only build runs the
 * architecture it was compiled for, through the driver's JIT). */
int kernels_arch ();

/* One launch as the filters are timed: an empty kernel (frame_bytes 0) or a copy of a frame
 * (8 B/px, inputs rotated as for the filters). */
Result time_one_launch (Bench &b, size_t frame_bytes);

/* The data movement of any rows-then-columns pair of passes with an fp16 plane between:
 * an RGBA frame widened to half4 by one launch, narrowed back by a second (24 B/px). */
Result time_two_pass_copy (Bench &b, int w, int h);

#endif
