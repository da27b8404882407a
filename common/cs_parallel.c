/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_parallel.h"
#include "cs_float_mode.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <threads.h>
#include <time.h>

#define CS_MAX_THREADS 64

/* How long a thread that has nothing to do polls before it sleeps: a frame's loops come
 * back to back (a YUV recursivegauss frame makes ten in ~2 ms), and waking a sleeping
 * thread costs more than the gap between them (docs/performance.md, "CPU path"). */
#define SPIN_NS 50000

/* Chunks a loop is cut into per thread: the threads that finish first take the rest, so a
 * loop whose items do not divide evenly, or a thread that starts late, costs a small chunk
 * rather than a thread's share (a 960x540 chroma plane's 68 row blocks among 16 threads). */
#define CHUNKS_PER_THREAD 4

/* One cs_parallel_for call, on its caller's stack while it waits. */
typedef struct {
  CsRangeFn fn;
  void *arg;
  unsigned long float_mode;   /* the caller's (cs_float_mode.h), for every chunk */
  int n_items, n_chunks;
  atomic_int next;            /* the first chunk no thread has claimed */
  atomic_int remaining;       /* chunks not yet finished */
} Batch;

/* A thread's first chunk, offered to one worker; its index is the thread's in the loop. */
typedef struct {
  Batch *batch;
  int chunk;
} Offer;

/* Each worker has a slot of its own, so that handing out chunks takes no shared lock: a
 * caller offers a chunk by storing its address into an empty slot, the worker takes it by
 * exchanging it for NULL, and a caller that finds its offer still there when its own chunk
 * is done takes it back and runs it itself (the worker was busy with another caller's
 * chunk, or asleep). A worker touches a batch only between taking an offer and counting its
 * chunk done, and the caller returns only once every chunk is counted. */
typedef struct {
  _Atomic (Offer *) offer;
  atomic_int sleeping;
  mtx_t lock;
  cnd_t wake;
} Slot;

/* The process's workers: started as calls ask for them (never more than CS_MAX_THREADS − 1)
 * and kept, so that a call costs a store per worker rather than creating and joining
 * threads (a frame of the CPU path makes several calls). */
static struct {
  once_flag once;
  bool ready;
  mtx_t lock;    /* starting workers; callers sleeping until their chunks are done */
  cnd_t done;
  atomic_int workers;
  atomic_uint next_slot;   /* where callers start looking for empty slots, spread */
  Slot slots[CS_MAX_THREADS - 1];
} pool = { .once = ONCE_FLAG_INIT };

static bool objects_init (void)
{
  if (mtx_init (&pool.lock, mtx_plain) != thrd_success || cnd_init (&pool.done) != thrd_success)
    return false;
  for (int i = 0; i < CS_MAX_THREADS - 1; i++) {
    Slot *s = &pool.slots[i];
    atomic_store (&s->offer, NULL);
    atomic_store (&s->sleeping, 0);
    if (mtx_init (&s->lock, mtx_plain) != thrd_success || cnd_init (&s->wake) != thrd_success)
      return false;
  }
  return true;
}

/* fork() copies only the calling thread: the child gets no workers and no other thread's
 * offers, and locks the parent's threads held. The pool's lock is taken around the fork (no
 * worker starts meanwhile), and the child starts afresh: its first parallel loops start its
 * own workers (with the parent's count it would have run every chunk on the calling thread). */
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
  atomic_store (&pool.workers, 0);
  pool.ready = objects_init ();
}

static void pool_init (void)
{
  pool.ready = objects_init () && pthread_atfork (before_fork, after_fork_parent, after_fork_child) == 0;
}

static inline void relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#elif defined(__aarch64__)
  __asm__ __volatile__ ("yield");
#endif
}

static long long elapsed_ns (const struct timespec *t0)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (t.tv_sec - t0->tv_sec) * 1000000000LL + (t.tv_nsec - t0->tv_nsec);
}

/* Counts a chunk done; the last one wakes a caller that sleeps on it. Touches no batch after. */
static void chunk_done (Batch *b)
{
  if (atomic_fetch_sub (&b->remaining, 1) == 1) {
    mtx_lock (&pool.lock);
    cnd_broadcast (&pool.done);
    mtx_unlock (&pool.lock);
  }
}

/* Runs chunk c as the loop's thread `thread`, then the chunks it claims after it. The next
 * is claimed before c is counted done, so that the batch outlives the claim. */
static void run_chunks (Batch *b, int c, int thread)
{
  const unsigned long own = cs_float_mode_get ();
  if (own != b->float_mode)
    cs_float_mode_set (b->float_mode);
  for (;;) {
    const int begin = (int) ((long long) c * b->n_items / b->n_chunks);
    const int end = (int) ((long long) (c + 1) * b->n_items / b->n_chunks);
    b->fn (b->arg, begin, end, thread);
    const int next = atomic_fetch_add (&b->next, 1);
    if (next >= b->n_chunks)
      break;
    chunk_done (b);
    c = next;
  }
  if (own != b->float_mode)
    cs_float_mode_set (own);
  chunk_done (b);
}

/* The next offer in slot s: polled for SPIN_NS, then slept for. */
static Offer *next_offer (Slot *s)
{
  struct timespec t0;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  for (unsigned i = 1;; i++) {
    if (atomic_load_explicit (&s->offer, memory_order_relaxed)) {
      Offer *o = atomic_exchange (&s->offer, NULL);
      if (o)
        return o;   /* else taken back meanwhile */
    }
    relax ();
    if (i % 64 == 0 && elapsed_ns (&t0) > SPIN_NS)
      break;
  }
  Offer *o;
  mtx_lock (&s->lock);
  atomic_store (&s->sleeping, 1);
  while (!(o = atomic_exchange (&s->offer, NULL)))
    cnd_wait (&s->wake, &s->lock);
  atomic_store (&s->sleeping, 0);
  mtx_unlock (&s->lock);
  return o;
}

static int worker_main (void *slot)
{
  for (;;) {
    Offer *o = next_offer (slot);
    run_chunks (o->batch, o->chunk, o->chunk);
  }
  return 0;
}

/* Starts workers until there are `wanted` (fewer where threads cannot be created: the
 * callers then run more of their own chunks). */
static void grow_pool (int wanted)
{
  if (atomic_load (&pool.workers) >= wanted)
    return;
  mtx_lock (&pool.lock);
  for (int n = atomic_load (&pool.workers); n < wanted; n++) {
    thrd_t t;
    if (thrd_create (&t, worker_main, &pool.slots[n]) != thrd_success)
      break;
    thrd_detach (t);
    atomic_store (&pool.workers, n + 1);
  }
  mtx_unlock (&pool.lock);
}

/* Offers chunk c to an empty slot; the slot's index, or −1 where every slot is busy. */
static int offer (Offer *o, int workers)
{
  const unsigned start = atomic_fetch_add (&pool.next_slot, 1);
  for (int k = 0; k < workers; k++) {
    const int i = (int) ((start + (unsigned) k) % (unsigned) workers);
    Slot *s = &pool.slots[i];
    Offer *empty = NULL;
    if (!atomic_compare_exchange_strong (&s->offer, &empty, o))
      continue;
    if (atomic_load (&s->sleeping)) {
      mtx_lock (&s->lock);
      cnd_signal (&s->wake);
      mtx_unlock (&s->lock);
    }
    return i;
  }
  return -1;
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
  grow_pool (n_threads - 1);
  const int chunks = n_items / n_threads >= CHUNKS_PER_THREAD ? n_threads * CHUNKS_PER_THREAD : n_items;
  Batch b = { fn, arg, cs_float_mode_get (), n_items, chunks, n_threads, chunks };
  Offer offers[CS_MAX_THREADS];
  int slot_of[CS_MAX_THREADS];
  const int workers = atomic_load (&pool.workers);
  for (int c = 1; c < n_threads; c++) {
    offers[c] = (Offer) { &b, c };
    slot_of[c] = workers > 0 ? offer (&offers[c], workers) : -1;
  }
  /* the caller runs chunk 0 and what it claims after, then every offer no worker has taken */
  run_chunks (&b, 0, 0);
  for (int c = 1; c < n_threads; c++) {
    Offer *mine = &offers[c];
    if (slot_of[c] >= 0 && !atomic_compare_exchange_strong (&pool.slots[slot_of[c]].offer, &mine, NULL))
      continue;   /* a worker has it */
    run_chunks (&b, c, 0);
  }
  struct timespec t0;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  for (unsigned i = 1; atomic_load (&b.remaining) > 0; i++) {
    relax ();
    if (i % 64 == 0 && elapsed_ns (&t0) > SPIN_NS)
      break;
  }
  mtx_lock (&pool.lock);
  while (atomic_load (&b.remaining) > 0)
    cnd_wait (&pool.done, &pool.lock);
  mtx_unlock (&pool.lock);
}

void cs_parallel_for_flushed (int n_items, int n_threads, CsRangeFn fn, void *arg)
{
  const unsigned long before = cs_float_mode_flush_denormals ();
  cs_parallel_for (n_items, n_threads, fn, arg);
  cs_float_mode_restore (before);
}
