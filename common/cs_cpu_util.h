/* gst-cudasmooth — helpers shared by the CPU filters (internal).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_CPU_UTIL_H
#define CS_CPU_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "cs_channels.h"
#include "cs_cpu.h"
#include "cs_parallel.h"

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

/* Rows [begin, end) of a channel view as `channels` interleaved floats a sample, and back,
 * quantised. */
void cs_cpu_unpack_channels (const CsChannels *src, float *v, int begin, int end);
void cs_cpu_pack_channels (const float *v, CsChannels *dst, int begin, int end);

/* Copies the alpha/x byte of every pixel from src to dst (in parallel). */
void cs_cpu_copy_alpha (const CsImage *src, CsImage *dst, int n_threads);

/* A cs_parallel_for body `name` that calls name##_n (job, begin, end, worker, nc) with the
 * job's channel count as a constant: one specialisation per count, whose loops over channels
 * unroll. The job type has an int field nc. _WITH gives the function attributes (e.g.
 * CS_SIMD_CLONES). */
#define CS_CPU_BY_CHANNELS(name, JobType) CS_CPU_BY_CHANNELS_WITH (name, JobType, )
#define CS_CPU_BY_CHANNELS_WITH(name, JobType, attributes) \
  static attributes void name (void *arg, int begin, int end, int worker) \
  { \
    const JobType *job_ = (const JobType *) arg; \
    switch (job_->nc) { \
      case 1: name##_n (job_, begin, end, worker, 1); break; \
      case 2: name##_n (job_, begin, end, worker, 2); break; \
      default: name##_n (job_, begin, end, worker, 3); break; \
    } \
  }

/* Transposing a width x height array of `elem`-byte elements, cache blocked, as a job for a
 * parallel loop of cs_cpu_transpose_blocks items (blocks of rows; cs_cpu_for_views). */
typedef struct {
  const void *in;
  void *out;
  int width, height;
  size_t elem;
} CsCpuTransposeJob;
int cs_cpu_transpose_blocks (const CsCpuTransposeJob *job);
void cs_cpu_transpose_rows (void *job, int begin, int end, int worker);

/* One parallel loop over several views' items: fn over items[v] items of each of the n views'
 * jobs (jobs: n jobs of `size` bytes each), every view's work beside the others' (flushed:
 * as cs_parallel_for_flushed). */
void cs_cpu_for_views (int n, void *jobs, size_t size, const int *items, CsRangeFn fn, int flushed, int n_threads);

#endif /* CS_CPU_UTIL_H */
