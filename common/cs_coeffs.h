/* gst-cudasmooth — recursive Gaussian coefficients: Deriche's complex-pole pair (used by
 * edgeawaregauss and by recursivegauss's default algorithm) and Young–van Vliet 1995.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_COEFFS_H
#define CS_COEFFS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  double re, im;
} CsCx;

/* Deriche 1993 fourth-order fit of a unit-height Gaussian for x >= 0:
 *   u(x) = Re{α0 e^{−λ0 x/σ} + α1 e^{−λ1 x/σ}}
 * α0 = 1.6800 + 3.7350i, λ0 = 1.783 + 0.6318i, α1 = −0.6803 − 0.2598i, λ1 = 1.723 + 1.9970i.
 * (The edge-aware paper's appendix prints α1 = −0.6803 + 0.2598i: a typo, see docs/algorithms.md.)
 * Filter constants, docs/algorithms.md / paper appendix with γ real:
 *   b_i = e^{−λ_i/σ}, γ = Re Σ α_i (1+b_i)/(1−b_i), a_i = α_i/γ,
 *   r_i0 = (b_i − 1)²/(a_i b_i), r_i1 = a_i/(b_i − 1). */
typedef struct {
  double sigma;
  double gamma;
  CsCx a[2];
  CsCx b[2];
  CsCx r0[2];
  CsCx r1[2];
  CsCx inv_r0[2];
  double b_log_abs[2];   /* ln|b_i| = −Re λ_i / σ: b^δ = e^{δ ln|b|}(cos δθ + i sin δθ) */
  double b_arg[2];       /* θ_i = atan2(Im b_i, Re b_i) */
  CsCx causal_init[2];   /* a_i/(1−b_i): g⁺ of a constant 1 (steady state) */
  CsCx anticausal_init[2]; /* a_i b_i/(1−b_i): g⁻ of a constant 1 */
} CsDericheCoeffs;

extern const CsCx cs_deriche_alpha[2];
extern const CsCx cs_deriche_lambda[2];

void cs_deriche_coeffs (double sigma, CsDericheCoeffs *c);

/* Deriche's fit itself, u(x) for x >= 0 (unit height at 0). */
double cs_deriche_unit_gaussian (double x_over_sigma);

/* Young & van Vliet 1995, in the two-way paper's notation:
 *   w[n] = B x[n] + a1 w[n−1] + a2 w[n−2] + a3 w[n−3]     (a_k = b_k/b0)
 *   y[n] = B w[n] + a1 y[n+1] + a2 y[n+2] + a3 y[n+3]
 * with q(σ) and b0..b3 from the paper. Boundaries: the forward pass starts from the
 * steady state of the constant extension (w = x[0]); the backward pass from Triggs & Sdika
 * 2006: with u = x[N−1] continued forever,
 *   y[N−1+j] − u = Σ_k M[j][k] (w[N−1−k] − u), j, k = 0..2
 * i.e. the closed-form matrix (times B) gives the backward outputs at N−1, N, N+1. */
typedef struct {
  double sigma, q;
  double B, a1, a2, a3;
  double M[3][3];
} CsYvvCoeffs;

void cs_yvv_coeffs (double sigma, CsYvvCoeffs *c);

#ifdef __cplusplus
}
#endif

#endif /* CS_COEFFS_H */
