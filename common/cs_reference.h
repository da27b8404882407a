/* gst-cudasmooth — exact references in double precision, written for clarity, not speed.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * These define what the filters compute (docs/algorithms.md, "What the filters compute"); the CPU
 * path and the CUDA kernels are tested against them. Every function reads src and writes
 * the colour channels of dst (quantised once, at the end) and copies alpha/x through;
 * src and dst must have the same size and layout and may be the same image.
 */
#ifndef CS_REFERENCE_H
#define CS_REFERENCE_H

#include "cs_channels.h"
#include "cs_image.h"
#include "cs_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Edge-aware Gaussian (domain transform + Deriche complex poles on a non-uniform grid).
 * blocks_per_stripe 1 is Algorithm A (one sweep per line); B > 1 is Algorithm C (each
 * line cut into B segments that warm up over κ·σ_i of transformed distance, Algorithm B);
 * 0 is treated as 1. segment_length > 0 overrides the cut: every line is cut into
 * ceil(n / segment_length) segments — the paper's Algorithm D (every block a boundary
 * block) with segment_length 24. rgb_out receives width*height*3 unquantised values. */
int cs_ref_edgeaware_rgb (const CsImage *src, const CsEdgeAwareParams *p,
    int segment_length, double *rgb_out);
int cs_ref_edgeaware (const CsImage *src, CsImage *dst, const CsEdgeAwareParams *p);

/* Bilateral filter, exact (full square window) or separable, clamp-to-edge borders. */
int cs_ref_bilateral (const CsImage *src, CsImage *dst, const CsBilateralParams *p);

/* Recursive Gaussian: Deriche (complex-pole parallel form) or Young–van Vliet (cascade
 * with Triggs–Sdika boundaries), lines cut into blocks_per_stripe partitions that warm up
 * over ceil(κσ) samples (0 = 1 partition). Rows, then columns. */
int cs_ref_recursive_rgb (const CsImage *src, const CsRecursiveParams *p, double *rgb_out);
int cs_ref_recursive (const CsImage *src, CsImage *dst, const CsRecursiveParams *p);

/* The accuracy yardstick: separable FIR Gaussian with normalised sampled weights over
 * ±ceil(8σ), clamp-to-edge borders. */
int cs_ref_fir_gaussian_rgb (const CsImage *src, double sigma, double *rgb_out);
int cs_ref_fir_gaussian (const CsImage *src, CsImage *dst, double sigma);

/* The same filters on a view of 1–3 channels whose samples lie sx and sy luma pixels apart
 * (1 or 2; docs/algorithms.md, "Formats"): p are the luma parameters, each axis takes its
 * own (cs_*_params_subsampled). RGBA is the 3-channel case at 1, 1; range distances are
 * Euclidean over the view's channels. src and dst have the same size and channel count
 * and may be the same view. */
int cs_ref_edgeaware_channels (const CsChannels *src, CsChannels *dst, const CsEdgeAwareParams *p, int sx, int sy);
int cs_ref_bilateral_channels (const CsChannels *src, CsChannels *dst, const CsBilateralParams *p, int sx, int sy);
int cs_ref_recursive_channels (const CsChannels *src, CsChannels *dst, const CsRecursiveParams *p, int sx, int sy);

#ifdef __cplusplus
}
#endif

#endif /* CS_REFERENCE_H */
