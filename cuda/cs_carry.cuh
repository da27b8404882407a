/* gst-cudasmooth — exact partition starts for the uniform sweep (recursivegauss, internal):
 * each segment's end state from a zero start, then a scan along the line into every
 * segment's true start state (docs/algorithms.md, 5.2). The states of all segments live in
 * one array, [segment][component][line], component = direction·6 + pole·3 + channel; the
 * scan replaces each segment's zero-start end state, in place, by its start state.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_CARRY_CUH
#define CS_CARRY_CUH

#include "cs_cuda_complex.cuh"
#include "cs_cuda_px.cuh"
#include "cs_sweep.cuh"
#include "cs_launch.cuh"
#include "cs_coeffs.h"

#include <math.h>

namespace cs {

/* A segment's contributions from a zero start, both directions. */
struct CarrySums {
  float2 causal[2][3], anticausal[2][3];

  __device__ __forceinline__ void zero ()
  {
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
      for (int c = 0; c < 3; c++)
        causal[i][c] = anticausal[i][c] = make_float2 (0.f, 0.f);
  }

  /* w: W of the causal term (x·b^{en−1−k}); v: W of the anticausal one (x·b^{k−1−st}),
   * each (pole 0 re, im, pole 1 re, im); a zero weight where the sample has no term. */
  __device__ __forceinline__ void add (float4 w, float4 v, float4 d)
  {
    const float2 wc[2] = { make_float2 (w.x, w.y), make_float2 (w.z, w.w) };
    const float2 va[2] = { make_float2 (v.x, v.y), make_float2 (v.z, v.w) };
    const float dc[3] = { d.x, d.y, d.z };
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
      for (int c = 0; c < 3; c++) {
        causal[i][c].x = fmaf (wc[i].x, dc[c], causal[i][c].x);
        causal[i][c].y = fmaf (wc[i].y, dc[c], causal[i][c].y);
        anticausal[i][c].x = fmaf (-va[i].x, dc[c], anticausal[i][c].x);
        anticausal[i][c].y = fmaf (-va[i].y, dc[c], anticausal[i][c].y);
      }
  }

  __device__ __forceinline__ void store (const Carries &out, int seg, int line) const
  {
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
      for (int c = 0; c < 3; c++) {
        *out.at (seg, i * 3 + c, line) = causal[i][c];
        *out.at (seg, 6 + i * 3 + c, line) = anticausal[i][c];
      }
  }
};

/* x_i = x(1) = (b_i − 1)/r0_i = r1_i·b_i, the input coefficient of the uniform sweep */
static inline void uniform_x (const CsDericheCoeffs &c, int i, double &re, double &im)
{
  re = c.r1[i].re * c.b[i].re - c.r1[i].im * c.b[i].im;
  im = c.r1[i].re * c.b[i].im + c.r1[i].im * c.b[i].re;
}

/* W[m] = x_i·b_i^m, m < count, evaluated in double (|b|^m by exp, the angle by sincos:
 * no error grows with m). */
struct CarryPoles {
  double x_re[2], x_im[2], log_abs_b[2], arg_b[2];
};

static __global__ void carry_weights (float4 *w, int count, CarryPoles p)
{
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= count)
    return;
  float r[4];
  for (int i = 0; i < 2; i++) {
    double s, c;
    sincos (m * p.arg_b[i], &s, &c);
    const double mag = exp (m * p.log_abs_b[i]);
    r[2 * i] = (float) (mag * (p.x_re[i] * c - p.x_im[i] * s));
    r[2 * i + 1] = (float) (mag * (p.x_re[i] * s + p.x_im[i] * c));
  }
  w[m] = make_float4 (r[0], r[1], r[2], r[3]);
}

/* The terms of sample k (its difference D[k] = f[k] − f[k−1]) in segment [st, en). */
__device__ __forceinline__ void carry_sample (CarrySums &sums, const float4 *__restrict__ w, int k, int st,
    int en, float4 d)
{
  const float4 none = make_float4 (0.f, 0.f, 0.f, 0.f);
  const float4 wc = k < en ? __ldg (&w[en - 1 - k]) : none;
  const float4 wa = k > st ? __ldg (&w[k - 1 - st]) : none;
  sums.add (wc, wa, d);
}

/* Columns: one thread per (column, segment), adjacent threads on adjacent columns. Reads
 * f[st−1 .. en] (clamped to the line). */
template <class S>
__global__ void __launch_bounds__ (kColumnThreads)
carry_columns (Lines in, Segments geo, const float4 *__restrict__ w, Carries out)
{
  int line, seg, st, en;
  if (!geo.thread_segment (blockIdx.x * (long long) blockDim.x + threadIdx.x, line, seg, st, en))
    return;
  const int last = min (en, geo.n - 1);
  CarrySums sums;
  sums.zero ();
  float4 prev = load_px (S (), in, in.at (line, max (st - 1, 0)));
  int k = st;
  for (; k + kAhead - 1 <= last; k += kAhead) {
    float4 f[kAhead];
#pragma unroll
    for (int i = 0; i < kAhead; i++)
      f[i] = load_px (S (), in, in.at (line, k + i));
#pragma unroll
    for (int i = 0; i < kAhead; i++) {
      carry_sample (sums, w, k + i, st, en, make_float4 (f[i].x - prev.x, f[i].y - prev.y, f[i].z - prev.z, 0.f));
      prev = f[i];
    }
  }
  for (; k <= last; k++) {
    const float4 f = load_px (S (), in, in.at (line, k));
    carry_sample (sums, w, k, st, en, make_float4 (f.x - prev.x, f.y - prev.y, f.z - prev.z, 0.f));
    prev = f;
  }
  sums.store (out, seg, line);
}

/* Rows: one warp per 32 rows and segment, the samples staged through 32x32 tiles so that
 * global reads stay coalesced (as sweep_rows does). */
template <class S>
__global__ void __launch_bounds__ (32 * kRowWarps)
carry_rows (Lines in, Segments geo, const float4 *__restrict__ w, Carries out)
{
  __shared__ typename Raw<S>::T tiles[kRowWarps][32][33];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = (blockIdx.x * kRowWarps + warp) * 32;
  if (row0 >= geo.n_lines)
    return;   /* the whole warp */
  typename Raw<S>::T (*tile)[33] = tiles[warp];
  const int row = row0 + lane;
  const bool valid = row < geo.n_lines;
  int st, en;
  geo.bounds (blockIdx.y, st, en);
  const int last = min (en, geo.n - 1);
  CarrySums sums;
  sums.zero ();
  float4 prev = valid ? load_px (S (), in, in.at (row, max (st - 1, 0))) : make_float4 (0.f, 0.f, 0.f, 0.f);
  for (int k0 = st; k0 <= last; k0 += 32) {
    const int count = min (32, last - k0 + 1);
    tile_load (tile, in, row0, geo.n_lines, k0, count, lane);
    __syncwarp ();
    for (int j = 0; j < count; j++) {
      const float4 f = decode<S> (in, tile[lane][j]);
      carry_sample (sums, w, k0 + j, st, en, make_float4 (f.x - prev.x, f.y - prev.y, f.z - prev.z, 0.f));
      prev = f;
    }
    __syncwarp ();
  }
  if (valid)
    sums.store (out, blockIdx.y, row);
}

/* One thread per (line, component): the first-order scan along the line, in place,
 * state_{s+1} = b^{L_s}·state_s + local_s from state_0 = 0 (the border rule), in segment
 * order for the causal components and in reverse for the anticausal ones; each slot
 * receives the state before its segment (in scan order). Cuts at floor(j·n/B) give
 * lengths n/B and n/B + 1: segment s is long when (s·(n mod B)) mod B + n mod B reaches
 * B, which the scan tracks without a division per step (a 64-bit division in the chain
 * cost more than the loads: 15–26 µs per scan at 1080p). The loads of a group of
 * segments are issued before its stores (the array is updated in place, so the compiler
 * may not move them): one memory latency per group. (Tried: a block per 32 lines with
 * the segments split over its threads and composed through shared memory — 6 µs slower
 * per frame at 1080p; docs/performance.md.) */
struct CarryJumps {
  float2 b_pow[2][2];   /* b_i^{n/B}, b_i^{n/B + 1} */
};

/* The jumps over segments of `shortest` = n/B and n/B + 1 samples, b_i^L in double */
static inline CarryJumps carry_jumps (const CsDericheCoeffs &c, int shortest)
{
  CarryJumps j;
  for (int i = 0; i < 2; i++)
    for (int l = 0; l < 2; l++) {
      const double mag = exp ((shortest + l) * c.b_log_abs[i]), arg = (shortest + l) * c.b_arg[i];
      j.b_pow[i][l] = make_float2 ((float) (mag * cos (arg)), (float) (mag * sin (arg)));
    }
  return j;
}

static constexpr int kScanGroup = 16;

__device__ __forceinline__ float2 cmad (float2 a, float2 x, float2 y)
{
  return make_float2 (fmaf (a.x, x.x, fmaf (-a.y, x.y, y.x)), fmaf (a.x, x.y, fmaf (a.y, x.x, y.y)));
}

static __global__ void scan_carries (Carries c, Segments geo, CarryJumps j)
{
  let_next_kernel_start ();
  wait_for_previous_kernel ();   /* the carries (when launched to overlap: cs_launch.cuh) */
  const long long t = blockIdx.x * (long long) blockDim.x + threadIdx.x;
  if (t >= (long long) geo.n_lines * kCarryComponents)
    return;
  const int line = (int) (t % geo.n_lines), component = (int) (t / geo.n_lines);
  const bool causal = component < 6;
  const int pole = (component % 6) / 3;
  const float2 jump_short = j.b_pow[pole][0], jump_long = j.b_pow[pole][1];
  const int segments = geo.segments, rem = geo.n % segments;
  int phase = causal ? 0 : (int) ((long long) (segments - 1) * rem % segments);   /* (s·rem) mod B */
  /* the segment visited k-th, in scan order */
  const auto segment = [&] (int k) { return causal ? k : segments - 1 - k; };
  float2 state = make_float2 (0.f, 0.f);
  for (int g = 0; g < segments; g += kScanGroup) {
    float2 local[kScanGroup];
#pragma unroll
    for (int i = 0; i < kScanGroup; i++)
      if (g + i < segments)
        local[i] = *c.at (segment (g + i), component, line);
#pragma unroll
    for (int i = 0; i < kScanGroup; i++)
      if (g + i < segments) {
        *c.at (segment (g + i), component, line) = state;
        state = cmad (phase + rem >= segments ? jump_long : jump_short, state, local[i]);
        phase += causal ? rem : segments - rem;
        if (phase >= segments)
          phase -= segments;
      }
  }
}

}  // namespace cs

#endif /* CS_CARRY_CUH */
