/* bilateral on the GPU: the planner, and the float kernels (docs/algorithms.md, 6.1): exact
 * windows up to r = 8 in shared-memory tiles, larger ones one thread per output, the
 * separable mode through a float4 plane. Exact Gaussian windows up to r = 7 with σr <= 64
 * run in packed half (bilateral_half.cu). common/cs_ref_bilateral.c defines the result.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_bilateral_half.cuh"
#include "cs_cuda_px.cuh"
#include "cs_mufu.cuh"
#include "cs_plan.cuh"
#include "cs_policy.cuh"

#include <math.h>

#include <new>

namespace cs {

struct BilateralK {
  float c_r;        /* Gaussian: −log2(e)/(2σr²); Lorentzian: 1/(2σr²) */
  float c_s;        /* −log2(e)/(2σs²), along x */
  int lorentzian;
  int radius;       /* along x */
  float c_sy;       /* along y: the same but for the chroma of 4:2:2 formats */
  int radius_y;
};

/* Weight of one neighbour: spatial exponent e_s (log2 of the spatial weight), range
 * d2 = ‖I(p)−I(q)‖². */
__device__ __forceinline__ float weight (const BilateralK &k, float d2, float e_s)
{
  if (k.lorentzian)
    return __fdividef (ex2_ftz (e_s), fmaf (k.c_r, d2, 1.0f));
  return ex2_ftz (fmaf (k.c_r, d2, e_s));
}

/* Σ w·q (r, g, b) and Σ w of one window, and its normalised result with alpha. */
struct WindowSum {
  float r = 0.f, g = 0.f, b = 0.f, w = 0.f;

  __device__ __forceinline__ void add (float wt, float4 q)
  {
    r = fmaf (wt, q.x, r);
    g = fmaf (wt, q.y, g);
    b = fmaf (wt, q.z, b);
    w += wt;
  }
  __device__ __forceinline__ float4 result (float alpha) const
  {
    const float inv = 1.0f / w;
    return make_float4 (r * inv, g * inv, b * inv, alpha);
  }
};

static const int kTileW = 32, kRowsPerThread = 4, kBlockH = 8, kTileH = kBlockH * kRowsPerThread;

/* Exact filter, r <= 8. Per neighbour q and output p the Gaussian exponent is
 *   c_r‖p − q‖² + c_s|p − q|² = A(q, dx) + B(p, dy) + Σ_c m_c(p)·q_c
 * with A = c_r|q|² + c_s·dx² (once per loaded neighbour, shared by the thread's outputs),
 * B = c_r|p|² + c_s·dy² (once per output and window row), m = −2c_r·p (once per output):
 * one add and three FMAs, then one ex2 and four accumulations. The Lorentzian weight is
 * 2^(c_s|p−q|²) / (1 + c_r‖p−q‖²) with the spatial factor split the same way. */
template <int R, bool kLorentzian>
__global__ void __launch_bounds__ (kTileW * kBlockH, 4)   /* <= 64 registers: 32 warps per SM */
bilateral_tiled (Lines in, Lines out, int width, int height, BilateralK k)
{
  constexpr int SW = kTileW + 2 * R, SH = kTileH + 2 * R, K = kRowsPerThread;
  __shared__ float4 tile[SH][SW];
  const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;

  /* Gaussian: .w = c_r|q|²; Lorentzian: .w = |q|² */
  const float wscale = kLorentzian ? 1.0f : k.c_r;
  for (int i = threadIdx.y * kTileW + threadIdx.x; i < SW * SH; i += kTileW * kBlockH) {
    const int sy = i / SW, sx = i - sy * SW;
    const int gx = clampi (x0 + sx - R, 0, width - 1), gy = clampi (y0 + sy - R, 0, height - 1);
    const float4 v = load_px (U8 (), in, in.at (gy, gx));
    tile[sy][sx] = make_float4 (v.x, v.y, v.z, wscale * fmaf (v.x, v.x, fmaf (v.y, v.y, v.z * v.z)));
  }
  __syncthreads ();

  const int tx = threadIdx.x, ty0 = threadIdx.y * K;
  float4 m[K];          /* Gaussian: −2c_r·p and c_r|p|²; Lorentzian: −2p and |p|² */
  float acc[K][4];
  const float mscale = kLorentzian ? -2.0f : -2.0f * k.c_r;
#pragma unroll
  for (int j = 0; j < K; j++) {
    const float4 c = tile[ty0 + j + R][tx + R];
    m[j] = make_float4 (mscale * c.x, mscale * c.y, mscale * c.z, c.w);
    acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = 0.f;
  }
  /* Small windows unroll completely, so that which outputs a window row serves is known
   * at compile time; larger ones keep a runtime row loop (code size). The row offset is
   * carried as a float: an int-to-float conversion per row and output costs as much as
   * an ex2 (same pipe). */
  float row_offset = (float) -R;   /* r − R */
#pragma unroll (R <= (kLorentzian ? 1 : 3) ? K + 2 * R : 1)
  for (int r = 0; r < K + 2 * R; r++, row_offset += 1.0f) {
    float b[K];   /* per output: B (Gaussian) or the row's spatial factor (Lorentzian) */
#pragma unroll
    for (int j = 0; j < K; j++) {
      const float dy = row_offset - (float) j;
      b[j] = kLorentzian ? ex2_ftz (k.c_s * dy * dy) : fmaf (k.c_s, dy * dy, m[j].w);
    }
#pragma unroll
    for (int dx = -R; dx <= R; dx++) {
      const float4 q = tile[ty0 + r][tx + R + dx];
      const float sx = k.c_s * (float) (dx * dx);
      const float a = kLorentzian ? ex2_ftz (sx) : q.w + sx;
#pragma unroll
      for (int j = 0; j < K; j++) {
        const int dy = r - R - j;   /* window row of output j */
        if (dy < -R || dy > R)
          continue;
        float wt;
        if (kLorentzian) {
          const float d2 = fmaf (m[j].x, q.x, fmaf (m[j].y, q.y, fmaf (m[j].z, q.z, q.w + m[j].w)));
          wt = __fdividef (a * b[j], fmaf (k.c_r, d2, 1.0f));
        } else {
          wt = ex2_ftz (fmaf (m[j].x, q.x, fmaf (m[j].y, q.y, fmaf (m[j].z, q.z, a + b[j]))));
        }
        acc[j][0] = fmaf (wt, q.x, acc[j][0]);
        acc[j][1] = fmaf (wt, q.y, acc[j][1]);
        acc[j][2] = fmaf (wt, q.z, acc[j][2]);
        acc[j][3] += wt;
      }
    }
  }
  const int x = x0 + tx;
  if (x >= width)
    return;
#pragma unroll
  for (int j = 0; j < K; j++) {
    const int y = y0 + ty0 + j;
    if (y >= height)
      break;
    const unsigned int alpha = *reinterpret_cast<const unsigned int *> (in.at (y, x)) >> (in.alpha_first ? 0 : 24);
    const float inv = __fdividef (1.0f, acc[j][3]);   /* ~2 ulp: far inside the 1 LSB budget */
    const unsigned int r = quantise_mean (acc[j][0] * inv), g = quantise_mean (acc[j][1] * inv),
                       b = quantise_mean (acc[j][2] * inv);
    *reinterpret_cast<unsigned int *> (out.at (y, x)) = pack_pixel (r, g, b, alpha, out.alpha_first);
  }
}

__global__ void bilateral_direct (Lines in, Lines out, int width, int height, BilateralK k)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  const float4 p = load_px (U8 (), in, in.at (y, x));
  WindowSum sum;
  for (int dy = -k.radius_y; dy <= k.radius_y; dy++) {
    const int qy = clampi (y + dy, 0, height - 1);
    const float e_y = k.c_sy * (float) (dy * dy);
    for (int dx = -k.radius; dx <= k.radius; dx++) {
      const float4 q = load_px (U8 (), in, in.at (qy, clampi (x + dx, 0, width - 1)));
      sum.add (weight (k, colour_d2 (p, q), fmaf (k.c_s, (float) (dx * dx), e_y)), q);
    }
  }
  store_px (U8 (), out, out.at (y, x), sum.result (p.w));
}

/* Separable, pass 1: along rows of the 8-bit input into a float4 plane (alpha in .w). */
__global__ void bilateral_rows (Lines in, char *tmp, size_t tmp_pitch, int width, int height, BilateralK k)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  const int r = k.radius;
  const float4 p = load_px (U8 (), in, in.at (y, x));
  WindowSum sum;
  for (int d = -r; d <= r; d++) {
    const float4 q = load_px (U8 (), in, in.at (y, clampi (x + d, 0, width - 1)));
    sum.add (weight (k, colour_d2 (p, q), k.c_s * (float) (d * d)), q);
  }
  *reinterpret_cast<float4 *> (tmp + (size_t) y * tmp_pitch + (size_t) x * 16) = sum.result (p.w);
}

/* Separable, pass 2: along columns of the float4 plane, distances measured on it. */
__global__ void bilateral_columns (const char *tmp, size_t tmp_pitch, Lines out, int width,
    int height, BilateralK k)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  const int r = k.radius_y;
  const float4 p = *reinterpret_cast<const float4 *> (tmp + (size_t) y * tmp_pitch + (size_t) x * 16);
  WindowSum sum;
  for (int d = -r; d <= r; d++) {
    const float4 q = __ldg (reinterpret_cast<const float4 *> (
        tmp + (size_t) clampi (y + d, 0, height - 1) * tmp_pitch + (size_t) x * 16));
    sum.add (weight (k, colour_d2 (p, q), k.c_sy * (float) (d * d)), q);
  }
  store_px (U8 (), out, out.at (y, x), sum.result (p.w));
}

static size_t tmp_pitch (int width)
{
  return ((size_t) width * 16 + 255) / 256 * 256;
}

static bool uses_half (const CsBilateralParams &p)
{
  return p.mode == CS_BILATERAL_EXACT && p.range_kernel == CS_RANGE_KERNEL_GAUSSIAN &&
         bilateral_gauss_half_covers (cs_bilateral_effective_radius (&p), p.sigma_r);
}

namespace {

struct BilateralPlan : CsCudaPlan {
  BilateralK k;
  HalfGaussK half;   /* the packed-half paths */
  bool tall;         /* radius 1's strips */

  cudaError_t run (const CsCudaImage &src, const CsCudaImage &dst, void *scratch, cudaStream_t stream) const override
  {
    if (!frames_fit (*this, src, dst))
      return cudaErrorInvalidValue;
    const int w = width, h = height;
    const Lines in = make_lines (src.data, src.pitch, 4, true, src.alpha_offset == 0);
    const Lines out = make_lines (dst.data, dst.pitch, 4, true, dst.alpha_offset == 0);
    switch (path) {
      case CS_CUDA_PATH_BILATERAL_SEPARABLE: {
        const dim3 block (32, 8), grid (div_up (w, 32), div_up (h, 8));
        bilateral_rows<<<grid, block, 0, stream>>> (in, (char *) scratch, tmp_pitch (w), w, h, k);
        bilateral_columns<<<grid, block, 0, stream>>> ((const char *) scratch, tmp_pitch (w), out, w, h, k);
        break;
      }
      case CS_CUDA_PATH_BILATERAL_HALF_STRIPS:
      case CS_CUDA_PATH_BILATERAL_HALF_TILES:
        return launch_gauss_half (in, out, w, h, k.radius, half, tall, stream);
      case CS_CUDA_PATH_BILATERAL_FLOAT_TILES: {
        const dim3 block (kTileW, kBlockH), grid (div_up (w, kTileW), div_up (h, kTileH));
        switch (k.radius) {
#define CASE(R) \
  case R: \
    if (k.lorentzian) \
      bilateral_tiled<R, true><<<grid, block, 0, stream>>> (in, out, w, h, k); \
    else \
      bilateral_tiled<R, false><<<grid, block, 0, stream>>> (in, out, w, h, k); \
    break;
          CASE (1) CASE (2) CASE (3) CASE (4) CASE (5) CASE (6) CASE (7) CASE (8)
#undef CASE
        }
        break;
      }
      default: {
        const dim3 b (32, 8), g (div_up (w, 32), div_up (h, 8));
        bilateral_direct<<<g, b, 0, stream>>> (in, out, w, h, k);
      }
    }
    return cudaGetLastError ();
  }

  cudaError_t run_view (const CsChannels &src, const CsChannels &dst, void *, bool, cudaStream_t stream) const override
  {
    if (!takes_views (src.channels))
      return cudaErrorNotSupported;
    return launch_gauss_half_view (src, dst, k.radius, half, tall, stream);
  }

  bool takes_views (int channels) const override
  {
    return (path == CS_CUDA_PATH_BILATERAL_HALF_STRIPS || path == CS_CUDA_PATH_BILATERAL_HALF_TILES) &&
        (channels == 1 || channels == 2);
  }
};

}  // namespace

cudaError_t plan_bilateral (const CsBilateralParams &p, int w, int h, const CsCudaDevice &dev,
    const PlanOverrides &o, CsCudaPlan **out)
{
  return plan_bilateral_axes (p, p, w, h, dev, o, out);
}

cudaError_t plan_bilateral_axes (const CsBilateralParams &px, const CsBilateralParams &py, int w, int h,
    const CsCudaDevice &dev, const PlanOverrides &o, CsCudaPlan **out)
{
  *out = nullptr;
  if (w <= 0 || h <= 0 || cs_bilateral_params_check (&px) || cs_bilateral_params_check (&py) ||
      px.mode != py.mode || px.range_kernel != py.range_kernel || px.sigma_r != py.sigma_r)
    return cudaErrorInvalidValue;
  if (cs_bilateral_is_identity (&px) && cs_bilateral_is_identity (&py))
    return cs_cuda_copy_plan_new (w, h, out);
  BilateralPlan *plan = new (std::nothrow) BilateralPlan ();
  if (!plan)
    return cudaErrorMemoryAllocation;
  plan->width = w;
  plan->height = h;
  const double log2e = 1.4426950408889634;
  const bool isotropic = px.sigma == py.sigma && cs_bilateral_effective_radius (&px) == cs_bilateral_effective_radius (&py);
  BilateralK &k = plan->k;
  k.lorentzian = px.range_kernel == CS_RANGE_KERNEL_LORENTZIAN;
  k.c_r = (float) (k.lorentzian ? 1.0 / (2.0 * px.sigma_r * px.sigma_r) : -log2e / (2.0 * px.sigma_r * px.sigma_r));
  k.c_s = (float) (-log2e / (2.0 * px.sigma * px.sigma));
  k.radius = cs_bilateral_effective_radius (&px);
  k.c_sy = (float) (-log2e / (2.0 * py.sigma * py.sigma));
  k.radius_y = cs_bilateral_effective_radius (&py);
  if (px.mode == CS_BILATERAL_SEPARABLE) {
    plan->path = CS_CUDA_PATH_BILATERAL_SEPARABLE;
    plan->scratch_bytes = tmp_pitch (w) * h;
  } else if (!isotropic) {
    plan->path = CS_CUDA_PATH_BILATERAL_DIRECT;   /* the tiled kernels' windows are square */
  } else if (!o.float_bilateral && uses_half (px)) {
    plan->path = k.radius == 1 ? CS_CUDA_PATH_BILATERAL_HALF_STRIPS : CS_CUDA_PATH_BILATERAL_HALF_TILES;
    plan->half = half_gauss_constants (px.sigma, px.sigma_r);
    plan->tall = half_gauss_tall_strips (w, h, dev.sm_count, policy_for (dev).bilateral_tall_strip_fill);
  } else {
    plan->path = k.radius <= 8 ? CS_CUDA_PATH_BILATERAL_FLOAT_TILES : CS_CUDA_PATH_BILATERAL_DIRECT;
  }
  *out = plan;
  return cudaSuccess;
}

}  // namespace cs
