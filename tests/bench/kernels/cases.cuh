/* cs-bench-kernels — the filters' cases: each prints its bench lines and floors.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_BENCH_CASES_CUH
#define CS_BENCH_CASES_CUH

#include "bench.cuh"

void bench_recursive (Bench &b);
void bench_bilateral (Bench &b);
void bench_edgeaware (Bench &b);
/* blocks-per-stripe: one count for both passes over a grid of counts, against auto */
void bench_sweep (Bench &b);
/* each pass against its own segment count: the data the automatic choice is fitted to */
void bench_pass_sweep (Bench &b, bool edgeaware_only);
/* NV12 (luma and chroma through the channel views) against RGBA */
void bench_formats (Bench &b);
/* plans made for other architectures' limits (cs_cuda_testing.h), run on this GPU */
void bench_architectures (Bench &b);

#endif
