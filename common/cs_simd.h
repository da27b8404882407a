/* gst-cudasmooth — eight-lane float arithmetic for the CPU filters (internal), in GCC and
 * Clang vector extensions: the compiler maps it onto whatever the build targets (two SSE
 * registers on baseline x86-64, one AVX register in the functions cloned for x86-64-v3,
 * NEON on arm64). The lanes' arithmetic is the same in every mapping (no FMA contraction:
 * ISO C's default in GCC, the pragma below in Clang), so its results do not depend on the
 * CPU that computed them.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_SIMD_H
#define CS_SIMD_H

#include <stdint.h>
#include <string.h>

/* The helpers below are always inlined, so the ABI of passing vectors (which -Wpsabi warns
 * about where the build lacks AVX) never applies. */
#pragma GCC diagnostic ignored "-Wpsabi"
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

typedef float CsF8 __attribute__ ((vector_size (32)));
typedef int32_t CsI8 __attribute__ ((vector_size (32)));
typedef uint32_t CsU8 __attribute__ ((vector_size (32)));
typedef float CsF4 __attribute__ ((vector_size (16)));   /* four lanes: pairs of complex numbers, half a CsF8 */

/* Runs the functions it marks once per instruction set the CPU may have, picked at load
 * time (x86-64 with ifunc support); elsewhere, or built with CS_SIMD_BASELINE_ONLY (the CI's
 * sanitizer build, so that the code older CPUs run is tested too), the one baseline build. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__) && !defined(CS_SIMD_BASELINE_ONLY) && \
    (defined(__clang__) ? __clang_major__ >= 14 : __GNUC__ >= 12)
#define CS_SIMD_CLONES __attribute__ ((target_clones ("arch=x86-64-v3", "default")))
#define CS_SIMD_GATHER 1
#else
#define CS_SIMD_CLONES
#endif

static inline __attribute__ ((always_inline)) CsF8 cs_f8 (float v)
{
  const CsF8 zero = { 0.f };
  return zero + v;   /* a broadcast, where the initialiser of eight v took eight inserts */
}

/* The 8 × 8 block of rows r[0..7] transposed in place (r[i][j] ↔ r[j][i]): shuffles only,
 * bit for bit. */
static inline __attribute__ ((always_inline)) void cs_f8_transpose8 (CsF8 r[8])
{
  CsF8 t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = __builtin_shufflevector (r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[i + 1] = __builtin_shufflevector (r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  for (int i = 0; i < 8; i += 4)
    for (int k = 0; k < 2; k++) {
      u[i + 2 * k] = __builtin_shufflevector (t[i + k], t[i + k + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[i + 2 * k + 1] = __builtin_shufflevector (t[i + k], t[i + k + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  for (int k = 0; k < 4; k++) {
    r[k] = __builtin_shufflevector (u[k], u[k + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    r[k + 4] = __builtin_shufflevector (u[k], u[k + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

/* The same for a 4 × 4 block of pairs of floats (rows of four pairs, as 64-bit lanes). */
typedef int64_t CsL4 __attribute__ ((vector_size (32)));

static inline __attribute__ ((always_inline)) void cs_l4_transpose4 (CsL4 r[4])
{
  const CsL4 a0 = __builtin_shufflevector (r[0], r[1], 0, 4, 2, 6), a1 = __builtin_shufflevector (r[0], r[1], 1, 5, 3, 7);
  const CsL4 a2 = __builtin_shufflevector (r[2], r[3], 0, 4, 2, 6), a3 = __builtin_shufflevector (r[2], r[3], 1, 5, 3, 7);
  r[0] = __builtin_shufflevector (a0, a2, 0, 1, 4, 5);
  r[1] = __builtin_shufflevector (a1, a3, 0, 1, 4, 5);
  r[2] = __builtin_shufflevector (a0, a2, 2, 3, 6, 7);
  r[3] = __builtin_shufflevector (a1, a3, 2, 3, 6, 7);
}

/* eight floats from p, any alignment */
static inline __attribute__ ((always_inline)) CsF8 cs_f8_load (const float *p)
{
  CsF8 v;
  memcpy (&v, p, sizeof v);
  return v;
}

/* max (v, lo) lane by lane */
static inline __attribute__ ((always_inline)) CsF8 cs_f8_max (CsF8 v, CsF8 lo)
{
  const CsI8 below = v < lo;
  return (CsF8) (((CsI8) v & ~below) | ((CsI8) lo & below));
}

/* 2^t for t <= 0, relative error below 4·10⁻⁶, 0 < result; t below −125 counts as −125
 * (the result then ~10⁻³⁸, where callers need a weight of about 0): k = t rounded to an
 * integer, 2^(t − k) by its Taylor polynomial of degree 5 on [−0.5, 0.5] (the remainder
 * (ln 2 / 2)⁶/6!·√2 ≈ 3.4·10⁻⁶), times 2^k through the exponent bits. */
static inline __attribute__ ((always_inline)) CsF8 cs_f8_exp2_nonpositive (CsF8 t)
{
  t = cs_f8_max (t, cs_f8 (-125.f));
  const CsI8 k = __builtin_convertvector (t - 0.5f, CsI8);   /* toward zero: round(t), ties up */
  const CsF8 f = t - __builtin_convertvector (k, CsF8);
  CsF8 p = cs_f8 (1.3333558e-3f);
  p = p * f + 9.6181291e-3f;
  p = p * f + 5.5504109e-2f;
  p = p * f + 2.4022651e-1f;
  p = p * f + 6.9314718e-1f;
  p = p * f + 1.f;
  return (CsF8) ((CsU8) p + ((CsU8) k << 23));   /* unsigned: k < 0 shifted left is defined */
}

/* lane i: table[index[i]] */
static inline __attribute__ ((always_inline)) CsF8 cs_f8_lookup (const float *table, CsI8 index)
{
  CsF8 v;
  for (int i = 0; i < 8; i++)
    v[i] = table[index[i]];
  return v;
}

#ifdef CS_SIMD_GATHER
#include <immintrin.h>

/* Where the build clones (CS_SIMD_CLONES): functions for CPUs with AVX2 (the caller checks
 * __builtin_cpu_supports ("avx2")), and cs_f8_lookup as one gather instruction in them. The
 * vectors go by address and the function is not forced inline, so that a function built
 * without AVX may hold a call to it that it never makes (a vector argument there would
 * change the ABI, which Clang rejects; forced inlining there GCC rejects). */
#define CS_SIMD_AVX2 __attribute__ ((target ("avx2")))

static inline CS_SIMD_AVX2 void cs_f8_gather (const float *table, const CsI8 *index, CsF8 *out)
{
  *out = (CsF8) _mm256_i32gather_ps (table, (__m256i) *index, 4);
}
#endif

#endif /* CS_SIMD_H */
