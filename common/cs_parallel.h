/* gst-cudasmooth — split a loop over lines across threads (C11 threads).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_PARALLEL_H
#define CS_PARALLEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Runs fn(arg, begin, end, worker) over [0, n_items) in up to n_threads contiguous
 * chunks, the last on the calling thread, and returns when all are done. worker is the
 * chunk's index (0 <= worker < n_threads), for per-thread scratch. A chunk whose thread
 * cannot be started runs on the calling thread. */
typedef void (*CsRangeFn) (void *arg, int begin, int end, int worker);
void cs_parallel_for (int n_items, int n_threads, CsRangeFn fn, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* CS_PARALLEL_H */
