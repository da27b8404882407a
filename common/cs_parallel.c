/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_parallel.h"

#include <threads.h>

#define CS_MAX_THREADS 64

typedef struct {
  CsRangeFn fn;
  void *arg;
  int begin, end, worker;
} Chunk;

static int run_chunk (void *p)
{
  Chunk *c = p;
  c->fn (c->arg, c->begin, c->end, c->worker);
  return 0;
}

void cs_parallel_for (int n_items, int n_threads, CsRangeFn fn, void *arg)
{
  Chunk chunks[CS_MAX_THREADS];
  thrd_t threads[CS_MAX_THREADS];
  int started[CS_MAX_THREADS] = { 0 };

  if (n_threads > CS_MAX_THREADS)
    n_threads = CS_MAX_THREADS;
  if (n_threads > n_items)
    n_threads = n_items;
  if (n_threads <= 1) {
    if (n_items > 0)
      fn (arg, 0, n_items, 0);
    return;
  }
  for (int t = 0; t < n_threads; t++) {
    chunks[t].fn = fn;
    chunks[t].arg = arg;
    chunks[t].worker = t;
    chunks[t].begin = (int) ((long long) t * n_items / n_threads);
    chunks[t].end = (int) ((long long) (t + 1) * n_items / n_threads);
  }
  for (int t = 0; t < n_threads - 1; t++)
    started[t] = thrd_create (&threads[t], run_chunk, &chunks[t]) == thrd_success;
  for (int t = 0; t < n_threads - 1; t++)
    if (!started[t])
      run_chunk (&chunks[t]);
  run_chunk (&chunks[n_threads - 1]);
  for (int t = 0; t < n_threads - 1; t++)
    if (started[t])
      thrd_join (threads[t], NULL);
}
