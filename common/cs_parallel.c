/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_parallel.h"
#include "cs_float_mode.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <threads.h>

#define CS_MAX_THREADS 64

/* One cs_parallel_for call's chunks, on its caller's stack while it waits. */
typedef struct Batch {
  CsRangeFn fn;
  void *arg;
  unsigned long float_mode;   /* the caller's (cs_float_mode.h), for every chunk */
  int n_items, n_chunks;
  int next;        /* the first chunk no thread has taken */
  int remaining;   /* chunks not yet finished */
  struct Batch *later;
} Batch;

/* The process's workers: started as calls ask for them (never more than CS_MAX_THREADS − 1),
 * then waiting for batches, so that a call costs a wake-up rather than creating and joining
 * threads (a frame of the CPU path makes several calls: docs/performance.md, "CPU path"). */
static struct {
  once_flag once;
  bool ready;
  mtx_t lock;
  cnd_t work, done;
  Batch *first, *last;   /* batches with chunks not yet taken, oldest first */
  int workers;
} pool = { .once = ONCE_FLAG_INIT };

static bool pool_objects_init (void)
{
  return mtx_init (&pool.lock, mtx_plain) == thrd_success && cnd_init (&pool.work) == thrd_success &&
      cnd_init (&pool.done) == thrd_success;
}

/* fork() copies only the calling thread: the child gets no workers and no other thread's
 * batches, and a lock the parent held. The lock is taken around the fork, and the child
 * starts afresh: its first parallel loops start its own workers (with the parent's count it
 * would have run every chunk on the calling thread). */
static void before_fork (void)
{
  mtx_lock (&pool.lock);
}

static void after_fork_parent (void)
{
  mtx_unlock (&pool.lock);
}

static void after_fork_child (void)
{
  pool.first = pool.last = NULL;
  pool.workers = 0;
  pool.ready = pool_objects_init ();
}

static void pool_init (void)
{
  pool.ready = pool_objects_init () && pthread_atfork (before_fork, after_fork_parent, after_fork_child) == 0;
}

/* Under the lock: takes b's next chunk, unlinking b once all are taken. */
static int take_chunk (Batch *b)
{
  const int chunk = b->next++;
  if (b->next == b->n_chunks) {
    Batch **at = &pool.first;
    Batch *before = NULL;
    while (*at != b) {
      before = *at;
      at = &(*at)->later;
    }
    *at = b->later;
    if (pool.last == b)
      pool.last = before;
  }
  return chunk;
}

/* Runs chunk c of b without the lock, then counts it done. */
static void run_chunk (Batch *b, int c)
{
  mtx_unlock (&pool.lock);
  const int begin = (int) ((long long) c * b->n_items / b->n_chunks);
  const int end = (int) ((long long) (c + 1) * b->n_items / b->n_chunks);
  const unsigned long own = cs_float_mode_get ();
  if (own != b->float_mode)
    cs_float_mode_set (b->float_mode);
  b->fn (b->arg, begin, end, c);
  if (own != b->float_mode)
    cs_float_mode_set (own);
  mtx_lock (&pool.lock);
  if (--b->remaining == 0)
    cnd_broadcast (&pool.done);
}

static int worker_main (void *unused)
{
  (void) unused;
  mtx_lock (&pool.lock);
  for (;;) {
    while (!pool.first)
      cnd_wait (&pool.work, &pool.lock);
    Batch *b = pool.first;
    run_chunk (b, take_chunk (b));
  }
  return 0;
}

/* Under the lock: starts workers until there are `wanted` (fewer where threads cannot be
 * created: the callers then run more of their own chunks). */
static void grow_pool (int wanted)
{
  while (pool.workers < wanted) {
    thrd_t t;
    if (thrd_create (&t, worker_main, NULL) != thrd_success)
      return;
    thrd_detach (t);
    pool.workers++;
  }
}

void cs_parallel_for (int n_items, int n_threads, CsRangeFn fn, void *arg)
{
  if (n_threads > CS_MAX_THREADS)
    n_threads = CS_MAX_THREADS;
  if (n_threads > n_items)
    n_threads = n_items;
  if (n_threads > 1)
    call_once (&pool.once, pool_init);
  if (n_threads <= 1 || !pool.ready) {
    if (n_items > 0)
      fn (arg, 0, n_items, 0);
    return;
  }
  Batch b = { fn, arg, cs_float_mode_get (), n_items, n_threads, 0, n_threads, NULL };
  mtx_lock (&pool.lock);
  grow_pool (n_threads - 1);
  if (pool.last)
    pool.last->later = &b;
  else
    pool.first = &b;
  pool.last = &b;
  cnd_broadcast (&pool.work);
  /* the caller takes chunks too, so that its call finishes whatever the workers are doing */
  while (b.remaining > 0) {
    if (b.next < b.n_chunks)
      run_chunk (&b, take_chunk (&b));
    else
      cnd_wait (&pool.done, &pool.lock);
  }
  mtx_unlock (&pool.lock);
}

void cs_parallel_for_flushed (int n_items, int n_threads, CsRangeFn fn, void *arg)
{
  const unsigned long before = cs_float_mode_flush_denormals ();
  cs_parallel_for (n_items, n_threads, fn, arg);
  cs_float_mode_restore (before);
}
