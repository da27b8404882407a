/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_coeffs.h"

#include "cs_cmplx.h"
#include <math.h>

const CsCx cs_deriche_alpha[2] = { { 1.6800, 3.7350 }, { -0.6803, -0.2598 } };
const CsCx cs_deriche_lambda[2] = { { 1.783, 0.6318 }, { 1.723, 1.9970 } };

static double complex to_c (CsCx z)
{
  return CMPLX (z.re, z.im);
}

static CsCx from_c (double complex z)
{
  CsCx r = { creal (z), cimag (z) };
  return r;
}

void cs_deriche_coeffs (double sigma, CsDericheCoeffs *c)
{
  double complex b[2], alpha[2];
  double gamma = 0.0;

  c->sigma = sigma;
  for (int i = 0; i < 2; i++) {
    alpha[i] = to_c (cs_deriche_alpha[i]);
    b[i] = cexp (-to_c (cs_deriche_lambda[i]) / sigma);
    gamma += creal (alpha[i] * (1.0 + b[i]) / (1.0 - b[i]));
  }
  c->gamma = gamma;
  for (int i = 0; i < 2; i++) {
    const double complex a = alpha[i] / gamma;
    c->a[i] = from_c (a);
    c->b[i] = from_c (b[i]);
    c->r0[i] = from_c ((b[i] - 1.0) * (b[i] - 1.0) / (a * b[i]));
    c->inv_r0[i] = from_c (a * b[i] / ((b[i] - 1.0) * (b[i] - 1.0)));
    c->r1[i] = from_c (a / (b[i] - 1.0));
    c->b_log_abs[i] = log (cabs (b[i]));
    c->b_arg[i] = atan2 (cimag (b[i]), creal (b[i]));
    c->causal_init[i] = from_c (a / (1.0 - b[i]));
    c->anticausal_init[i] = from_c (a * b[i] / (1.0 - b[i]));
  }
}

double cs_deriche_unit_gaussian (double x_over_sigma)
{
  double complex u = 0.0;
  for (int i = 0; i < 2; i++)
    u += to_c (cs_deriche_alpha[i]) * cexp (-to_c (cs_deriche_lambda[i]) * x_over_sigma);
  return creal (u);
}

/* Triggs & Sdika 2006, eq. (15), for x[n] = u[n] + a1 x[n−1] + a2 x[n−2] + a3 x[n−3]
 * (unit input gain); our filters scale the input by B, hence the factor B below. */
static void triggs_sdika (double a1, double a2, double a3, double B, double M[3][3])
{
  const double s = B / ((1.0 + a1 - a2 + a3) * (1.0 - a1 - a2 - a3) * (1.0 + a2 + (a1 - a3) * a3));
  M[0][0] = s * (-a3 * a1 + 1.0 - a3 * a3 - a2);
  M[0][1] = s * (a3 + a1) * (a2 + a3 * a1);
  M[0][2] = s * a3 * (a1 + a3 * a2);
  M[1][0] = s * (a1 + a3 * a2);
  M[1][1] = -s * (a2 - 1.0) * (a2 + a3 * a1);
  M[1][2] = -s * a3 * (a3 * a1 + a3 * a3 + a2 - 1.0);
  M[2][0] = s * (a3 * a1 + a2 + a1 * a1 - a2 * a2);
  M[2][1] = s * (a1 * a2 + a3 * a2 * a2 - a1 * a3 * a3 - a3 * a3 * a3 - a3 * a2 + a3);
  M[2][2] = s * a3 * (a1 + a3 * a2);
}

void cs_yvv_coeffs (double sigma, CsYvvCoeffs *c)
{
  /* Young & van Vliet 1995, eq. (11b), valid from σ = 0.5; below it the two-way paper
   * holds q at its value for σ = 0.5. */
  const double q = sigma >= 2.5 ? 0.98711 * sigma - 0.96330
      : sigma >= 0.5 ? 3.97156 - 4.14554 * sqrt (1.0 - 0.26891 * sigma)
                     : 0.1147705018520355224609375;
  const double q2 = q * q, q3 = q2 * q;
  const double b0 = 1.57825 + 2.44413 * q + 1.4281 * q2 + 0.422205 * q3;
  const double b1 = 2.44413 * q + 2.85619 * q2 + 1.26661 * q3;
  const double b2 = -(1.4281 * q2 + 1.26661 * q3);
  const double b3 = 0.422205 * q3;

  c->sigma = sigma;
  c->q = q;
  c->a1 = b1 / b0;
  c->a2 = b2 / b0;
  c->a3 = b3 / b0;
  c->B = 1.0 - (b1 + b2 + b3) / b0;
  triggs_sdika (c->a1, c->a2, c->a3, c->B, c->M);
}
