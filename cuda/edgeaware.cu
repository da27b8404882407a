/* edgeawaregauss on the GPU: domain transform + Deriche complex poles on the non-uniform
 * grid, Algorithm C (lines cut into blocks that warm up over κ·σ_i of transformed
 * distance; Algorithm A at one block). common/cs_ref_edgeaware.c defines the result.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One thread sweeps one (line, block): causal from its warm-up start, parking the causal
 * sum in a half4 plane, then anticausal from its warm-up end, adding. Spacings Δt are
 * recomputed from the 8-bit input frame as the sweep goes (one 4-byte read per sample
 * instead of a precomputed float map per direction). b^δ and Φ's coefficients are computed
 * per sample in float: polar form, exp2 and sincos (DESIGN.md, "edgeawaregauss").
 * Mistakes of the published code this avoids, each covered by a test: complex γ, σ halved
 * per 1-D pass, f[n] for f[n+1] in the vertical anticausal pass, 8-bit intermediates,
 * atan for atan2, a block's last window writing into the next block, lines or rows left
 * out when sizes are not multiples of the block size.
 */
#include "cs_cuda.h"
#include "cs_cuda_complex.cuh"
#include "cs_cuda_px.cuh"
#include "cs_coeffs.h"
#include "cs_partition.h"

#include <math.h>

namespace cs {

struct PoleK {
  float2 a, b, r1, inv_r0, r1b, ci, ai;
  float log2_abs_b, arg_b;
};

struct EdgeK {
  PoleK pole[2];
  float ratio2;    /* (σs/σr)² with the total σs */
  float warmup;    /* κ·σ_i */
};

struct EdgeGeometry {
  int n, n_lines, segments;
};

/* Δt between two frame pixels, eq. (2). */
__device__ __forceinline__ float spacing (const EdgeK &k, float4 a, float4 b)
{
  return sqrtf (fmaf (k.ratio2, colour_d2 (a, b), 1.0f));
}

/* Coefficients of one step at spacing δ for one pole:
 * causal      g = (a + Φto) f[k]   − Φfrom f[k−1] + b^δ g
 * anticausal  g = (a b^δ − Φfrom) f[k+1] + Φto f[k] + b^δ g
 * Φto = (b^δ−1)/(r0 δ) − r1 b, Φfrom = (b^δ−1)/(r0 δ) − r1 b^δ (eq. 4). */
struct StepK {
  float2 bd, phi_to, phi_from;
};

__device__ __forceinline__ StepK step_terms (const PoleK &p, float delta)
{
  StepK s;
  const float m = exp2f (delta * p.log2_abs_b);
  float sn, cs_;
  __sincosf (delta * p.arg_b, &sn, &cs_);
  s.bd = cx (m * cs_, m * sn);
  const float2 x = cscale (cmul (cx (s.bd.x - 1.0f, s.bd.y), p.inv_r0), __frcp_rn (delta));
  s.phi_to = csub (x, p.r1b);
  s.phi_from = csub (x, cmul (p.r1, s.bd));
  return s;
}

/* g = c_cur·f_cur + c_other·f_other + bd·g, per colour channel. */
__device__ __forceinline__ void advance (float2 g[3], float2 c_cur, float2 c_other, float2 bd,
    float4 f_cur, float4 f_other)
{
  const float fc[3] = { f_cur.x, f_cur.y, f_cur.z };
  const float fo[3] = { f_other.x, f_other.y, f_other.z };
#pragma unroll
  for (int c = 0; c < 3; c++) {
    const float2 t = cstep (c_cur, fc[c], bd, g[c]);
    g[c] = make_float2 (fmaf (c_other.x, fo[c], t.x), fmaf (c_other.y, fo[c], t.y));
  }
}

template <class S, class D>
__global__ void edgeaware_pass (Lines frame, Lines in, Lines out, Lines partial,
    EdgeGeometry geo, EdgeK k)
{
  const long long t = blockIdx.x * (long long) blockDim.x + threadIdx.x;
  if (t >= (long long) geo.n_lines * geo.segments)
    return;
  const int line = (int) (t % geo.n_lines), seg = (int) (t / geo.n_lines), n = geo.n;
  const int st = (int) ((long long) seg * n / geo.segments);
  const int en = (int) ((long long) (seg + 1) * n / geo.segments);
  if (en <= st)
    return;

  /* Causal warm-up start: the largest s <= st with Σ_{k=s+1..st} Δt_k >= κσ_i, else 0. */
  int s = st;
  float4 fr_s = load_px (U8 (), frame, frame.at (line, st));
  {
    float acc = 0.f;
    while (s > 0 && acc < k.warmup) {
      const float4 prev = load_px (U8 (), frame, frame.at (line, s - 1));
      acc += spacing (k, fr_s, prev);
      fr_s = prev;
      s--;
    }
  }

  float2 g[2][3];
  float4 f = load_px (S (), in, in.at (line, s));
  float4 fr = fr_s;
#pragma unroll
  for (int i = 0; i < 2; i++) {
    g[i][0] = cscale (k.pole[i].ci, f.x);
    g[i][1] = cscale (k.pole[i].ci, f.y);
    g[i][2] = cscale (k.pole[i].ci, f.z);
  }
  if (s >= st)
    store_px (H4 (), partial, partial.at (line, s),
        make_float4 (g[0][0].x + g[1][0].x, g[0][1].x + g[1][1].x, g[0][2].x + g[1][2].x, 0.f));
  for (int x = s + 1; x < en; x++) {
    const float4 fr_x = load_px (U8 (), frame, frame.at (line, x));
    const float4 f_x = load_px (S (), in, in.at (line, x));
    const float delta = spacing (k, fr_x, fr);
#pragma unroll
    for (int i = 0; i < 2; i++) {
      const StepK st_k = step_terms (k.pole[i], delta);
      advance (g[i], cadd (k.pole[i].a, st_k.phi_to), cscale (st_k.phi_from, -1.f), st_k.bd, f_x, f);
    }
    f = f_x;
    fr = fr_x;
    if (x >= st)
      store_px (H4 (), partial, partial.at (line, x),
          make_float4 (g[0][0].x + g[1][0].x, g[0][1].x + g[1][1].x, g[0][2].x + g[1][2].x, 0.f));
  }

  /* Anticausal warm-up end: the smallest e >= en−1 with Σ_{k=en..e} Δt_k >= κσ_i, else n−1. */
  int e = en - 1;
  float4 fr_e = load_px (U8 (), frame, frame.at (line, e));
  {
    float acc = 0.f;
    while (e < n - 1 && acc < k.warmup) {
      const float4 next = load_px (U8 (), frame, frame.at (line, e + 1));
      acc += spacing (k, next, fr_e);
      fr_e = next;
      e++;
    }
  }
  f = load_px (S (), in, in.at (line, e));
  fr = fr_e;
#pragma unroll
  for (int i = 0; i < 2; i++) {
    g[i][0] = cscale (k.pole[i].ai, f.x);
    g[i][1] = cscale (k.pole[i].ai, f.y);
    g[i][2] = cscale (k.pole[i].ai, f.z);
  }
  for (int x = e;; x--) {
    if (x < en) {
      const float4 p = load_px (H4 (), partial, partial.at (line, x));
      store_px (D (), out, out.at (line, x),
          make_float4 (p.x + g[0][0].x + g[1][0].x, p.y + g[0][1].x + g[1][1].x,
              p.z + g[0][2].x + g[1][2].x, f.w));
    }
    if (x == st)
      break;
    const float4 fr_x = load_px (U8 (), frame, frame.at (line, x - 1));
    const float4 f_x = load_px (S (), in, in.at (line, x - 1));
    const float delta = spacing (k, fr, fr_x);
#pragma unroll
    for (int i = 0; i < 2; i++) {
      const StepK st_k = step_terms (k.pole[i], delta);
      const float2 c_next = csub (cmul (k.pole[i].a, st_k.bd), st_k.phi_from);
      advance (g[i], st_k.phi_to, c_next, st_k.bd, f_x, f);
    }
    f = f_x;
    fr = fr_x;
  }
}

static const int kThreads = 128;

static size_t plane_pitch (int width)
{
  return ((size_t) width * 8 + 255) / 256 * 256;
}

static double saturating_sweeps (const CsCudaDevice *dev)
{
  return (double) dev->sm_count * 512.0;
}

static void pole_constants (double sigma_i, const CsEdgeAwareParams *p, EdgeK *k)
{
  CsDericheCoeffs c;
  cs_deriche_coeffs (sigma_i, &c);
  for (int i = 0; i < 2; i++) {
    PoleK &q = k->pole[i];
    q.a = cx ((float) c.a[i].re, (float) c.a[i].im);
    q.b = cx ((float) c.b[i].re, (float) c.b[i].im);
    q.r1 = cx ((float) c.r1[i].re, (float) c.r1[i].im);
    q.inv_r0 = cx ((float) c.inv_r0[i].re, (float) c.inv_r0[i].im);
    q.r1b = cx ((float) (c.r1[i].re * c.b[i].re - c.r1[i].im * c.b[i].im),
        (float) (c.r1[i].re * c.b[i].im + c.r1[i].im * c.b[i].re));
    q.ci = cx ((float) c.causal_init[i].re, (float) c.causal_init[i].im);
    q.ai = cx ((float) c.anticausal_init[i].re, (float) c.anticausal_init[i].im);
    q.log2_abs_b = (float) (c.b_log_abs[i] / log (2.0));
    q.arg_b = (float) c.b_arg[i];
  }
  const double ratio = p->sigma / p->sigma_r;
  k->ratio2 = (float) (ratio * ratio);
  k->warmup = (float) (p->kappa * sigma_i);
}

}  // namespace cs

using namespace cs;

extern "C" size_t cs_cuda_edgeaware_scratch_bytes (int width, int height)
{
  return 2 * plane_pitch (width) * height;   /* two half4 planes, ping-pong */
}

extern "C" int cs_cuda_edgeaware_auto_blocks (const CsCudaDevice *dev, int line_length,
    int n_lines, const CsEdgeAwareParams *p)
{
  /* The first iteration has the largest σ_i and dominates; Δt >= 1, so κσ_1 transformed
   * units is at most κσ_1 samples. */
  const double warmup = p->kappa * cs_edgeaware_iteration_sigma (p, 1);
  return cs_auto_partitions (line_length, n_lines, warmup, saturating_sweeps (dev), 256);
}

extern "C" cudaError_t cs_cuda_edgeaware (const CsCudaImage *src, const CsCudaImage *dst,
    const CsEdgeAwareParams *p, const CsCudaDevice *dev, void *scratch, size_t scratch_bytes,
    cudaStream_t stream)
{
  const int w = src->width, h = src->height;
  if (w != dst->width || h != dst->height || w <= 0 || h <= 0 || cs_edgeaware_params_check (p))
    return cudaErrorInvalidValue;
  if (cs_edgeaware_is_identity (p))
    return cs_cuda_copy (src, dst, stream);
  if (scratch_bytes < cs_cuda_edgeaware_scratch_bytes (w, h))
    return cudaErrorInvalidValue;

  const size_t pitch_t = plane_pitch (w);
  char *planes[2] = { (char *) scratch, (char *) scratch + pitch_t * h };
  const int af = src->alpha_offset == 0, af_out = dst->alpha_offset == 0;
  EdgeGeometry rows = { w, h, p->blocks_per_stripe };
  EdgeGeometry cols = { h, w, p->blocks_per_stripe };
  if (rows.segments == 0)
    rows.segments = cs_cuda_edgeaware_auto_blocks (dev, w, h, p);
  if (cols.segments == 0)
    cols.segments = cs_cuda_edgeaware_auto_blocks (dev, h, w, p);
  const int grid_r = div_up ((long long) h * rows.segments, kThreads);
  const int grid_c = div_up ((long long) w * cols.segments, kThreads);
  const Lines frame_r = make_lines (src->data, src->pitch, 4, true, af);
  const Lines frame_c = make_lines (src->data, src->pitch, 4, false, af);

  /* Plane use per iteration: H reads (frame | A) and writes B; V reads B and writes A,
   * or, on the last iteration, the output with its causal sums parked in A. */
  for (int it = 1; it <= p->iterations; it++) {
    EdgeK k;
    pole_constants (cs_edgeaware_iteration_sigma (p, it), p, &k);
    const Lines a_r = make_lines (planes[0], pitch_t, 8, true, 0);
    const Lines b_r = make_lines (planes[1], pitch_t, 8, true, 0);
    const Lines a_c = make_lines (planes[0], pitch_t, 8, false, 0);
    const Lines b_c = make_lines (planes[1], pitch_t, 8, false, 0);
    if (it == 1)
      edgeaware_pass<U8, H4><<<grid_r, kThreads, 0, stream>>> (frame_r, frame_r, b_r, b_r, rows, k);
    else
      edgeaware_pass<H4, H4><<<grid_r, kThreads, 0, stream>>> (frame_r, a_r, b_r, b_r, rows, k);
    if (it < p->iterations) {
      edgeaware_pass<H4, H4><<<grid_c, kThreads, 0, stream>>> (frame_c, b_c, a_c, a_c, cols, k);
    } else {
      const Lines out_c = make_lines (dst->data, dst->pitch, 4, false, af_out);
      edgeaware_pass<H4, U8><<<grid_c, kThreads, 0, stream>>> (frame_c, b_c, out_c, a_c, cols, k);
    }
    const cudaError_t err = cudaGetLastError ();
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}
