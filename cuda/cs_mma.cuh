/* gst-cudasmooth — the tensor-core pieces the recursivegauss kernels share (recursive_tile.cu,
 * recursive_lines.cu; internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_MMA_CUH
#define CS_MMA_CUH

#include "cs_coeffs.h"
#include "cs_cuda_px.cuh"

namespace cs {

static __device__ __forceinline__ int cut (int j, int n, int segments)
{
  /* floor(j·n/segments) (cs_segment_bounds), in 32 bits where j·n fits: a 64-bit division
   * is a long subroutine */
  const unsigned long long p = (unsigned long long) j * (unsigned int) n;
  return p >> 32 ? (int) (p / (unsigned int) segments) : (int) ((unsigned int) p / (unsigned int) segments);
}

static __device__ __forceinline__ unsigned int shared_address (const void *p)
{
  return (unsigned int) __cvta_generic_to_shared (p);
}

static __device__ __forceinline__ void ldmatrix_x4 (unsigned int (&r)[4], unsigned int address)
{
  asm volatile ("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(address));
}

static __device__ __forceinline__ void ldmatrix_x2_trans (unsigned int (&r)[2], unsigned int address)
{
  asm volatile ("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
      : "=r"(r[0]), "=r"(r[1]) : "r"(address));
}

/* d += a·b, m16n8k16, fp16 operands, float sums. sm_75 has the m16n8k8 shape only: there
 * the product is its two halves along k, whose fragments are the k16 fragment's registers
 * (a0, a1 and b0 hold k 0..7, a2, a3 and b1 k 8..15), summed in the same float accumulator
 * in two steps instead of one (docs/algorithms.md, "Tensor cores before sm_80"). */
static __device__ __forceinline__ void mma (float (&d)[4], const unsigned int (&a)[4], unsigned int b0,
    unsigned int b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  asm ("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(b0));
  asm ("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[2]), "r"(a[3]), "r"(b1));
#else
  asm ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

static __device__ __forceinline__ unsigned int halves (float lo, float hi)
{
  const __half2 h = __floats2half2_rn (lo, hi);
  return *reinterpret_cast<const unsigned int *> (&h);
}

static __device__ __forceinline__ unsigned int hsub2 (unsigned int a, unsigned int b)
{
  const __half2 d = __hsub2 (*reinterpret_cast<const __half2 *> (&a), *reinterpret_cast<const __half2 *> (&b));
  return *reinterpret_cast<const unsigned int *> (&d);
}

static __device__ __forceinline__ float2 unhalves (unsigned int w)
{
  return __half22float2 (*reinterpret_cast<const __half2 *> (&w));
}

/* Channel byte `byte` of the pixels a and b as the half2 (1024 + a, 1024 + b): fp16 0x64vv
 * is 1024 + vv exactly, so differences of two such words are the byte differences. */
static __device__ __forceinline__ unsigned int biased_pair (unsigned int a, unsigned int b, unsigned int byte)
{
  const unsigned int picked = __byte_perm (a, b, byte | ((byte + 4) << 8));
  unsigned int biased;   /* (picked & 0x00FF00FF) | 0x64006400 in one LOP3 */
  asm ("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(biased) : "r"(picked), "r"(0x00FF00FFu), "r"(0x64006400u));
  return biased;
}

static __device__ __forceinline__ void ldmatrix_x4_trans (unsigned int (&r)[4], unsigned int address)
{
  asm volatile ("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(address));
}

static __host__ __device__ __forceinline__ unsigned int pack_halves (unsigned short lo, unsigned short hi)
{
  return (unsigned int) lo | (unsigned int) hi << 16;
}

/* The real-part recursions of Deriche's two poles as one of fourth order (the swept tile
 * kernel's RealPoles): with D_i(z) = 1 − 2Re b_i z⁻¹ + |b_i|²z⁻², N_i(z) = Re x_i −
 * Re(b̄_i x_i)z⁻¹, x = r1·b (cs_sweep.cuh's x(1)), Re Σ h = (N_0 D_1 + N_1 D_0)/(D_0 D_1)·Δf.
 * g[0..reach]: its output for Δf = δ[0], in double. */
static inline void deriche_step_response (const CsDericheCoeffs &c, int reach, double *g)
{
  double a1[2], a2[2], n0[2], n1[2];
  for (int i = 0; i < 2; i++) {
    const double br = c.b[i].re, bi = c.b[i].im;
    const double xr = c.r1[i].re * br - c.r1[i].im * bi, xi = c.r1[i].re * bi + c.r1[i].im * br;
    a1[i] = 2.0 * br;
    a2[i] = -(br * br + bi * bi);
    n0[i] = xr;
    n1[i] = -(br * xr + bi * xi);
  }
  const double a[4] = { a1[0] + a1[1], a2[0] + a2[1] - a1[0] * a1[1], -(a1[0] * a2[1] + a2[0] * a1[1]),
    -a2[0] * a2[1] };
  const double n[4] = { n0[0] + n0[1], n1[0] + n1[1] - n0[0] * a1[1] - n0[1] * a1[0],
    -(n0[0] * a2[1] + n1[0] * a1[1] + n0[1] * a2[0] + n1[1] * a1[0]), -(n1[0] * a2[1] + n1[1] * a2[0]) };
  for (int k = 0; k <= reach; k++) {
    double y = k < 4 ? n[k] : 0.0;
    for (int j = 1; j <= 4 && j <= k; j++)
      y += a[j - 1] * g[k - j];
    g[k] = y;
  }
}

/* c(d) from g (deriche_step_response): the causal sum's response g(d) for d >= 0, minus the
 * anticausal one's, −g(−d − 1), below (recursive_tile.cu derives it) */
static inline double folded_response (const double *g, int d)
{
  return d >= 0 ? g[d] : -g[-d - 1];
}

/* v rounded to fp16, as the bits an mma operand takes */
static inline unsigned short fp16_bits (double v)
{
  return __half_as_ushort (__float2half_rn ((float) v));
}

/* v as two fp16 operands, hi and lo = v − hi: hi·x + lo·x carries ~22 bits of v */
static inline void fp16_split (double v, unsigned short &hi, unsigned short &lo)
{
  hi = fp16_bits (v);
  lo = fp16_bits (v - (double) __half2float (__ushort_as_half (hi)));
}

}  // namespace cs

#endif /* CS_MMA_CUH */
