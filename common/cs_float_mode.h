/* gst-cudasmooth — the CPU's floating-point mode for the CPU filters (internal).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Recursions that decay over long runs of equal input (black borders, a flat background)
 * reach denormal values (below 2^−126 in float), and a CPU computes with those up to a
 * hundred times slower: a 1080p RGBA frame of videotestsrc's ball pattern (black around a
 * ball) took edgeawaregauss's CPU path 5.5 s instead of 0.4 s on two cores. Their passes run
 * with denormals flushed to zero (x86's FTZ and DAZ, arm64's FZ: cs_parallel_for_flushed),
 * which moves no result by more than 2^−126; the parameters' arithmetic before them runs in
 * the caller's mode, as the references' does (a σ of 5e−324 is not 0 there). The bilateral
 * needs none: its weights stay above 2^−125 and its sums do not decay.
 */
#ifndef CS_FLOAT_MODE_H
#define CS_FLOAT_MODE_H

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define CS_FLOAT_MODE_CONTROL 0xFFC0u   /* MXCSR without its exception flags */
#define CS_FLOAT_MODE_FLUSH 0x8040u     /* FTZ | DAZ */
static inline unsigned long cs_float_mode_get (void)
{
  return _mm_getcsr () & CS_FLOAT_MODE_CONTROL;
}

static inline void cs_float_mode_set (unsigned long mode)
{
  _mm_setcsr ((_mm_getcsr () & ~CS_FLOAT_MODE_CONTROL) | (unsigned int) mode);
}
#elif defined(__aarch64__)
#define CS_FLOAT_MODE_FLUSH (1ul << 24)   /* FPCR.FZ */
static inline unsigned long cs_float_mode_get (void)
{
  unsigned long fpcr;
  __asm__ __volatile__ ("mrs %0, fpcr" : "=r"(fpcr));
  return fpcr;
}

static inline void cs_float_mode_set (unsigned long mode)
{
  __asm__ __volatile__ ("msr fpcr, %0" : : "r"(mode));
}
#else
#define CS_FLOAT_MODE_FLUSH 0ul
static inline unsigned long cs_float_mode_get (void)
{
  return 0;
}

static inline void cs_float_mode_set (unsigned long mode)
{
  (void) mode;
}
#endif

/* Flushes denormals on this thread; returns the mode to restore. */
static inline unsigned long cs_float_mode_flush_denormals (void)
{
  const unsigned long before = cs_float_mode_get ();
  if ((before & CS_FLOAT_MODE_FLUSH) != CS_FLOAT_MODE_FLUSH)
    cs_float_mode_set (before | CS_FLOAT_MODE_FLUSH);
  return before;
}

static inline void cs_float_mode_restore (unsigned long before)
{
  if (cs_float_mode_get () != before)
    cs_float_mode_set (before);
}

#endif /* CS_FLOAT_MODE_H */
