/* gst-cudasmooth — the packed-half exact Gaussian bilateral (bilateral_half.cu), for
 * bilateral.cu's planner (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_BILATERAL_HALF_CUH
#define CS_BILATERAL_HALF_CUH

#include <cuda_fp16.h>

#include "cs_cuda_px.cuh"

namespace cs {

static const int kMaxRadius = 7;
static const double kMaxSigmaR = 64.0;
/* Both halves of each half2 hold the same value; tables are indexed [d + kMaxRadius].
 * c_s = −log2(e)/(2σs²). */
struct HalfGaussK {
  /* exact colours (r <= 3) */
  __half2 neg_c;                       /* −c' */
  __half2 t_col[2 * kMaxRadius + 1];   /* c_s·dx² / −c' (>= 0; inf where the weight is 0) */
  __half2 c_s;                         /* the row term is c_s·dy² */
  /* scaled colours (r >= 4) */
  __half2 scale, offset;               /* Q = scale·(64 + v/16) + offset: a·(v/16 − 8) + o */
  __half2 s_col[2 * kMaxRadius + 1];   /* c_s·dx² */
  __half2 g_row[2 * kMaxRadius + 1];   /* 2^(c_s·dy²) */
  float out_scale;                     /* 16/a: a mean of D in LSB */
};

/* Whether the packed-half kernels compute this window within 1 LSB: radius 1..7, σr <= 64
 * (fp16 sums) and a range constant fp16 can hold (σr >= about 0.08). */
bool bilateral_gauss_half_covers (int radius, double sigma_r);

/* The kernels' constants for σs and σr, made once per plan. */
HalfGaussK half_gauss_constants (double sigma, double sigma_r);

/* Radius 1: whether a width x height frame runs in strips of 16 rows (else 8) on sm_count
 * SMs, with the policy's fill (cs_policy.cuh). */
bool half_gauss_tall_strips (int width, int height, int sm_count, int fill);

/* Launches the kernel of `radius` (1: strips, tall or not; 2..7: tiles). */
cudaError_t launch_gauss_half (Lines in, Lines out, int width, int height, int radius, const HalfGaussK &k,
    bool tall, cudaStream_t stream);

/* launch_gauss_half on a view's own channels (GRAY8, YUV planes), without a working frame;
 * views of one or two channels (cudaErrorNotSupported for three). */
cudaError_t launch_gauss_half_view (const CsChannels &in, const CsChannels &out, int radius, const HalfGaussK &k,
    bool tall, cudaStream_t stream);

}  // namespace cs

#endif /* CS_BILATERAL_HALF_CUH */
