/* gst-cudasmooth — split a loop over lines across threads (C11 threads, a pool of workers).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_PARALLEL_H
#define CS_PARALLEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Runs fn(arg, begin, end, worker) over [0, n_items) in contiguous chunks (up to four a
 * thread: the threads that finish first take the rest), on the calling thread and up to
 * n_threads − 1 of the process's workers (started by the first calls that need them, kept
 * for the next), and returns when all are done. Each chunk runs once; worker is the index
 * of the thread running it within this call (0 <= worker < n_threads), for per-thread
 * scratch: no two chunks with the same index run at once. Calls from several threads at
 * once, and calls from inside a chunk, share the workers: a first chunk no idle worker has
 * taken by the time the caller is done runs on the caller, as do all of them where threads
 * cannot be started. */
typedef void (*CsRangeFn) (void *arg, int begin, int end, int worker);
void cs_parallel_for (int n_items, int n_threads, CsRangeFn fn, void *arg);

/* The same with denormal floats flushed to zero in every chunk (cs_float_mode.h), for the
 * passes whose recursions decay; the calling thread's mode is restored after. Chunks run in
 * their caller's floating-point mode in either case, whichever thread runs them. */
void cs_parallel_for_flushed (int n_items, int n_threads, CsRangeFn fn, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* CS_PARALLEL_H */
