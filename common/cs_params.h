/* gst-cudasmooth — the one parameter struct of each filter, its ranges and defaults.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Defined once here and passed by pointer to the references, the CPU path, the CUDA
 * launchers and the elements. The GStreamer properties take their ranges and defaults
 * from these macros, so a value the element accepts is a value every backend handles.
 */
#ifndef CS_PARAMS_H
#define CS_PARAMS_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- edgeawaregauss: domain transform + complex-pole recursive Gaussian ---- */
typedef struct {
  double sigma;           /* spatial standard deviation σs, pixels; 0 = identity */
  double sigma_r;         /* range standard deviation σr, 0..255 colour units */
  int iterations;         /* N: horizontal+vertical pass pairs */
  double kappa;           /* warm-up length of a block, in units of σ_i (transformed domain) */
  int blocks_per_stripe;  /* segments per line; 0 = automatic, 1 = Algorithm A */
} CsEdgeAwareParams;

#define CS_EDGEAWARE_SIGMA_MIN 0.0
#define CS_EDGEAWARE_SIGMA_MAX 2000.0
#define CS_EDGEAWARE_SIGMA_DEFAULT 20.0
#define CS_EDGEAWARE_SIGMA_R_MIN 0.01
#define CS_EDGEAWARE_SIGMA_R_MAX 1.0e6
#define CS_EDGEAWARE_SIGMA_R_DEFAULT 40.0
#define CS_EDGEAWARE_ITERATIONS_MIN 1
#define CS_EDGEAWARE_ITERATIONS_MAX 8
#define CS_EDGEAWARE_ITERATIONS_DEFAULT 2
#define CS_EDGEAWARE_KAPPA_MIN 0.0
#define CS_EDGEAWARE_KAPPA_MAX 10.0
#define CS_EDGEAWARE_KAPPA_DEFAULT 2.0
#define CS_BLOCKS_PER_STRIPE_MAX 1024

/* ---- bilateral ---- */
typedef enum {
  CS_RANGE_KERNEL_GAUSSIAN = 0,   /* k(d²) = exp(−d²/(2σr²)) */
  CS_RANGE_KERNEL_LORENTZIAN = 1, /* k(d²) = 1/(1 + d²/(2σr²)) */
} CsRangeKernel;

typedef enum {
  CS_BILATERAL_EXACT = 0,         /* full (2r+1)² window */
  CS_BILATERAL_SEPARABLE = 1,     /* rows then columns: an approximation */
} CsBilateralMode;

typedef struct {
  double sigma;           /* spatial σs, pixels; 0 = identity */
  double sigma_r;         /* range σr, 0..255 colour units */
  int radius;             /* window half-width; 0 = ceil(2σs) */
  CsRangeKernel range_kernel;
  CsBilateralMode mode;
} CsBilateralParams;

#define CS_BILATERAL_SIGMA_MIN 0.0
#define CS_BILATERAL_SIGMA_MAX 32.0
#define CS_BILATERAL_SIGMA_DEFAULT 2.0
#define CS_BILATERAL_SIGMA_R_MIN 0.01
#define CS_BILATERAL_SIGMA_R_MAX 1.0e6
#define CS_BILATERAL_SIGMA_R_DEFAULT 25.0
#define CS_BILATERAL_RADIUS_MIN 0
#define CS_BILATERAL_RADIUS_MAX 64
#define CS_BILATERAL_RADIUS_DEFAULT 0

/* ---- recursivegauss ---- */
typedef enum {
  CS_RECURSIVE_DERICHE = 0,          /* 4th order, two complex poles, parallel form */
  CS_RECURSIVE_YOUNG_VAN_VLIET = 1,  /* 3rd order cascade, Young & van Vliet 1995 */
} CsRecursiveAlgorithm;

/* How a partition of a line gets the recursion's state at its start. */
typedef enum {
  CS_PARTITION_AUTO = 0,     /* carry when the warm-up would be longer than
                              * CS_PARTITION_CARRY_FROM_WARMUP samples, else warm up */
  CS_PARTITION_WARM_UP = 1,  /* the paper's way: run over the ceil(κσ) samples before it
                              * (after it, backward) from the border rule */
  CS_PARTITION_CARRY = 2,    /* exact: every partition's end state from a zero start, a scan
                              * along the line, then the true start states (Deriche only) */
} CsPartitionStart;

/* Where auto switches to carried starts: a warm-up longer than this costs the GPU more
 * than the carries' dot products and scan (H100, 1080p and 4K; docs/performance.md). */
#define CS_PARTITION_CARRY_FROM_WARMUP 64

typedef struct {
  double sigma;           /* pixels; 0 = identity */
  int blocks_per_stripe;  /* partitions per line; 0 = automatic */
  double kappa;           /* warm-up of a partition, in σ (samples) */
  CsRecursiveAlgorithm algorithm;
  CsPartitionStart partition_start;
} CsRecursiveParams;

#define CS_RECURSIVE_SIGMA_MIN 0.0
#define CS_RECURSIVE_SIGMA_MAX 500.0
#define CS_RECURSIVE_SIGMA_DEFAULT 5.0
#define CS_RECURSIVE_KAPPA_MIN 0.0
#define CS_RECURSIVE_KAPPA_MAX 20.0
#define CS_RECURSIVE_KAPPA_DEFAULT 3.0

/* Defaults, as a designated initialiser would give them. */
CsEdgeAwareParams cs_edgeaware_params_default (void);
CsBilateralParams cs_bilateral_params_default (void);
CsRecursiveParams cs_recursive_params_default (void);

/* NULL when the parameters are valid, else a sentence saying what is wrong. */
const char *cs_edgeaware_params_check (const CsEdgeAwareParams *p);
const char *cs_bilateral_params_check (const CsBilateralParams *p);
const char *cs_recursive_params_check (const CsRecursiveParams *p);

/* Below this σ the filters change no 8-bit frame: every weight off a pixel's own is under
 * 3.3e−8 (bilateral: e^−50), so an output differs from its integer input by under 1e−4 (a
 * 0/255 checkerboard at σ = 0.1: 1.6e−5) and rounds back to it (docs/algorithms.md, "Tiny σ"). They pass such frames through, which also
 * keeps 2σ² from underflowing (σ = 1e−300 made the bilateral's centre weight 0/0). Young–van
 * Vliet is the exception: its coefficients stop changing at σ = 0.5 (cs_coeffs.h). */
#define CS_SIGMA_IDENTITY_BELOW 0.1

/* True when the filter leaves every frame unchanged (the elements pass through). */
bool cs_edgeaware_is_identity (const CsEdgeAwareParams *p);
bool cs_bilateral_is_identity (const CsBilateralParams *p);
bool cs_recursive_is_identity (const CsRecursiveParams *p);

/* True when recursivegauss's partitions start from carried (exact) states: the Deriche
 * filter with partition-start carry, or auto and a warm-up of more than
 * CS_PARTITION_CARRY_FROM_WARMUP samples. Young–van Vliet, a cascade whose backward pass
 * runs on the forward pass's output, always warms up. Carried partitions give the
 * unpartitioned filter, so the references run such lines whole. */
bool cs_recursive_carries (const CsRecursiveParams *p);

/* σ_i = σs·sqrt(3)·2^(N−i)/sqrt(4^N − 1), i = 1..N: variances sum to σs² and halve
 * from one iteration to the next (Gastal & Oliveira 2011, eq. 14). */
double cs_edgeaware_iteration_sigma (const CsEdgeAwareParams *p, int i);

/* The window half-width actually used: radius, or ceil(2σ) when radius is 0, capped. */
int cs_bilateral_effective_radius (const CsBilateralParams *p);

/* The parameters along an axis of a plane whose samples lie s luma pixels apart (s = 1 or
 * 2; docs/algorithms.md, "Formats"): σ/s, and the bilateral's window ceil(r/s) of the luma
 * window r. σr, κ, iterations and partitions are unchanged. */
CsEdgeAwareParams cs_edgeaware_params_subsampled (const CsEdgeAwareParams *p, int s);
CsBilateralParams cs_bilateral_params_subsampled (const CsBilateralParams *p, int s);
CsRecursiveParams cs_recursive_params_subsampled (const CsRecursiveParams *p, int s);

/* Segment j of a line of n samples cut into b segments: [*start, *end). */
static inline void cs_segment_bounds (int n, int b, int j, int *start, int *end)
{
  *start = (int) ((long long) j * n / b);
  *end = (int) ((long long) (j + 1) * n / b);
}

#ifdef __cplusplus
}
#endif

#endif /* CS_PARAMS_H */
