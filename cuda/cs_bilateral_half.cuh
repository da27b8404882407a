/* gst-cudasmooth — the packed-half exact Gaussian bilateral (bilateral_half.cu), for
 * bilateral.cu's dispatch (internal to cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_BILATERAL_HALF_CUH
#define CS_BILATERAL_HALF_CUH

#include "cs_cuda_px.cuh"

namespace cs {

/* Whether bilateral_gauss_half computes this window within 1 LSB: radius 1..7, σr <= 64
 * (fp16 sums) and a range constant fp16 can hold (σr >= about 0.08). */
bool bilateral_gauss_half_covers (int radius, double sigma_r);

/* sm_count: the GPU's, for the launch shape (0: a shape that suits any frame) */
cudaError_t bilateral_gauss_half (Lines in, Lines out, int width, int height, int radius,
    double sigma, double sigma_r, int sm_count, cudaStream_t stream);

/* The same kernel without its DRAM traffic (radius 2..7: the tile kernels): frame words
 * made on chip, outputs computed and not stored; `out` (pitched) is never written. */
cudaError_t bilateral_gauss_half_on_chip (Lines out, int width, int height, int radius, double sigma,
    double sigma_r, cudaStream_t stream);

}  // namespace cs

#endif /* CS_BILATERAL_HALF_CUH */
