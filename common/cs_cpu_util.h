/* gst-cudasmooth — helpers shared by the CPU filters (internal).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_CPU_UTIL_H
#define CS_CPU_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "cs_cpu.h"

/* Carves `count` arrays of the given byte sizes out of one workspace allocation
 * (64-byte aligned each), growing it when needed. Returns −1 when memory runs out. */
int cs_workspace_carve (CsCpuWorkspace *ws, int count, const size_t *sizes, void **arrays);

/* The workspace bytes cs_workspace_carve takes for these sizes. */
size_t cs_workspace_total (int count, const size_t *sizes);

/* The threads a CPU filter runs on for a request of n_threads: 1..64. */
static inline int cs_cpu_threads (int n_threads)
{
  return n_threads < 1 ? 1 : (n_threads > 64 ? 64 : n_threads);
}

/* Unpacks the colour channels of rows [begin, end) into interleaved floats. */
void cs_cpu_unpack_rows (const CsImage *src, float *rgb, int begin, int end);

/* Quantises rows [begin, end) of interleaved floats into dst, copying alpha from src. */
void cs_cpu_pack_rows (const float *rgb, const CsImage *src, CsImage *dst, int begin, int end);

/* Transposes a width x height array of `elem`-byte elements (in parallel, cache blocked). */
void cs_cpu_transpose (const void *in, void *out, int width, int height, size_t elem, int n_threads);

#endif /* CS_CPU_UTIL_H */
