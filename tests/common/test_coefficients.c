/* Coefficient math: Deriche's fit, DC gain, impulse responses against a sampled
 * Gaussian, Young–van Vliet, Triggs–Sdika, iteration sigmas, the automatic partitioning,
 * the CPU bilateral's eight-lane exp2.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <check.h>
#include "cs_cmplx.h"
#include <math.h>
#include <stdlib.h>

#include "cs_coeffs.h"
#include "cs_params.h"
#include "cs_partition.h"
#include "cs_simd.h"
#include "cs_test_check.h"

/* Deriche's two-pole fit of exp(−x²/2) (x in units of σ). */
static double fit (const CsCx alpha[2], double x)
{
  double complex u = 0;
  for (int i = 0; i < 2; i++)
    u += CMPLX (alpha[i].re, alpha[i].im) *
        cexp (-CMPLX (cs_deriche_lambda[i].re, cs_deriche_lambda[i].im) * x);
  return creal (u);
}

START_TEST (test_deriche_fit_and_the_appendix_typo)
{
  double err = 0, err_typo = 0;
  const CsCx typo[2] = { cs_deriche_alpha[0], { cs_deriche_alpha[1].re, -cs_deriche_alpha[1].im } };
  for (double x = 0; x <= 8; x += 0.001) {
    err = fmax (err, fabs (cs_deriche_unit_gaussian (x) - exp (-x * x / 2)));
    err_typo = fmax (err_typo, fabs (fit (typo, x) - exp (-x * x / 2)));
  }
  ck_assert_msg (err < 6e-4, "fit error %g", err);
  /* the paper's appendix prints α1 = −0.6803 + 0.2598i: off by ~0.19 of the peak */
  ck_assert_msg (err_typo > 0.15, "typo'd fit error %g", err_typo);
}
END_TEST

/* Σ_k u[k] of the uniform filter equals 1 exactly when γ is real and is Re Σ α(1+b)/(1−b). */
START_TEST (test_deriche_dc_gain_is_one)
{
  for (double sigma = 0.3; sigma < 600; sigma *= 1.7) {
    CsDericheCoeffs c;
    cs_deriche_coeffs (sigma, &c);
    double complex gain = 0;
    for (int i = 0; i < 2; i++) {
      const double complex a = CMPLX (c.a[i].re, c.a[i].im), b = CMPLX (c.b[i].re, c.b[i].im);
      gain += a * (1.0 + b) / (1.0 - b);
    }
    ck_assert_msg (fabs (creal (gain) - 1.0) < 1e-12, "sigma %g: DC gain %.15f", sigma, creal (gain));
    /* steady states: causal + anticausal of a constant 1 sum to 1 */
    double s = 0;
    for (int i = 0; i < 2; i++)
      s += c.causal_init[i].re + c.anticausal_init[i].re;
    ck_assert (fabs (s - 1.0) < 1e-12);
  }
}
END_TEST

/* Impulse response of the uniform Deriche filter Σ_i Re(a_i b_i^|k|) vs the normalised
 * sampled Gaussian: the difference is the fit error, far under 1e−3 of the peak. */
START_TEST (test_deriche_impulse_matches_sampled_gaussian)
{
  const double sigmas[] = { 1, 2, 5, 20, 100 };
  for (int n = 0; n < 5; n++) {
    const double sigma = sigmas[n];
    const int r = (int) ceil (10 * sigma);
    CsDericheCoeffs c;
    cs_deriche_coeffs (sigma, &c);
    double norm = 0, peak = 0, maxdiff = 0, var = 0;
    for (int k = -r; k <= r; k++)
      norm += exp (-(double) k * k / (2 * sigma * sigma));
    for (int k = -r; k <= r; k++) {
      double complex h = 0;
      for (int i = 0; i < 2; i++)
        h += CMPLX (c.a[i].re, c.a[i].im) * cpow (CMPLX (c.b[i].re, c.b[i].im), abs (k));
      const double g = exp (-(double) k * k / (2 * sigma * sigma)) / norm;
      peak = fmax (peak, g);
      maxdiff = fmax (maxdiff, fabs (creal (h) - g));
      var += creal (h) * k * k;
    }
    ck_assert_msg (maxdiff < 1e-3 * peak, "sigma %g: max diff %g of peak %g", sigma, maxdiff, peak);
    ck_assert_msg (fabs (sqrt (var) / sigma - 1) < 0.01, "sigma %g: std %g", sigma, sqrt (var));
  }
}
END_TEST

/* Impulse response of the YvV cascade (forward then backward on an infinite line). */
static void yvv_impulse (double sigma, double *std, double *sum)
{
  CsYvvCoeffs q;
  cs_yvv_coeffs (sigma, &q);
  const int n = (int) (40 * sigma) + 201, c = n / 2;
  double *w = calloc (n, sizeof (double)), *y = calloc (n + 3, sizeof (double));
  for (int k = 0; k < n; k++)
    w[k] = q.B * (k == c) + q.a1 * (k > 0 ? w[k - 1] : 0) + q.a2 * (k > 1 ? w[k - 2] : 0) +
        q.a3 * (k > 2 ? w[k - 3] : 0);
  for (int k = n - 1; k >= 0; k--)
    y[k] = q.B * w[k] + q.a1 * y[k + 1] + q.a2 * y[k + 2] + q.a3 * y[k + 3];
  *sum = 0;
  double m2 = 0;
  for (int k = 0; k < n; k++) {
    *sum += y[k];
    m2 += y[k] * (k - c) * (k - c);
  }
  *std = sqrt (m2 / *sum);
  free (w);
  free (y);
}

START_TEST (test_yvv_impulse)
{
  for (double sigma = 2; sigma <= 64; sigma *= 2) {
    double std, sum;
    yvv_impulse (sigma, &std, &sum);
    ck_assert_msg (fabs (sum - 1) < 1e-9, "sigma %g: gain %g", sigma, sum);
    /* YvV 1995's known bias (docs/algorithms.md): its response is 4–14 % wider than σ (13 % at σ = 2) */
    ck_assert_msg (std / sigma > 1.04 && std / sigma < 1.14, "sigma %g: std %g", sigma, std);
  }
}
END_TEST

/* The closed-form Triggs–Sdika matrix (times B) against the backward outputs computed by
 * running the cascade on a line continued by its last value for thousands of samples. */
START_TEST (test_triggs_sdika_matches_the_continued_line)
{
  const double sigmas[] = { 0.7, 3, 17, 60 };
  for (int s = 0; s < 4; s++) {
    CsYvvCoeffs q;
    cs_yvv_coeffs (sigmas[s], &q);
    const int tail = (int) (200 * sigmas[s]) + 2000;
    for (int col = 0; col < 3; col++) {
      /* forward state deviation: w[N−1−col] − u = 1, others 0, input u = 0 continued */
      double *w = calloc (tail + 3, sizeof (double)), *y = calloc (tail + 6, sizeof (double));
      w[2 - col] = 1.0;   /* w[0..2] = w[N−3], w[N−2], w[N−1] */
      for (int k = 3; k < tail + 3; k++)
        w[k] = q.a1 * w[k - 1] + q.a2 * w[k - 2] + q.a3 * w[k - 3];
      for (int k = tail + 2; k >= 0; k--)
        y[k] = q.B * w[k] + q.a1 * y[k + 1] + q.a2 * y[k + 2] + q.a3 * y[k + 3];
      for (int row = 0; row < 3; row++)   /* y[2 + row] is the output at N−1+row */
        ck_assert_msg (fabs (y[2 + row] - q.M[row][col]) < 1e-9 * fmax (1, fabs (y[2 + row])),
            "sigma %g M[%d][%d] = %g, continued line %g", sigmas[s], row, col, q.M[row][col], y[2 + row]);
      free (w);
      free (y);
    }
  }
}
END_TEST

/* b^δ by the polar form: at δ = 1 it is b, and Φ vanishes (the uniform filter). */
START_TEST (test_polar_power_and_phi_at_unit_spacing)
{
  CsDericheCoeffs c;
  cs_deriche_coeffs (7.5, &c);
  for (int i = 0; i < 2; i++) {
    const double m = exp (c.b_log_abs[i]);
    const double complex bd = CMPLX (m * cos (c.b_arg[i]), m * sin (c.b_arg[i]));
    const double complex b = CMPLX (c.b[i].re, c.b[i].im);
    ck_assert (cabs (bd - b) < 1e-14);
    const double complex x = (bd - 1.0) * CMPLX (c.inv_r0[i].re, c.inv_r0[i].im);
    const double complex r1 = CMPLX (c.r1[i].re, c.r1[i].im);
    ck_assert (cabs (x - r1 * b) < 1e-14);   /* Φto = Φfrom = 0 */
    /* atan2, not atan: for σ small enough that Re b < 0 the angle is beyond ±π/2 */
  }
  cs_deriche_coeffs (0.5, &c);
  ck_assert_msg (c.b[1].re < 0 && fabs (c.b_arg[1]) > 1.5707963267948966,
      "σ = 0.5: b1 = %g%+gi, θ = %g", c.b[1].re, c.b[1].im, c.b_arg[1]);
}
END_TEST

START_TEST (test_iteration_sigmas)
{
  for (int n = 1; n <= 8; n++) {
    CsEdgeAwareParams p = cs_edgeaware_params_default ();
    p.iterations = n;
    p.sigma = 30;
    double var = 0;
    for (int i = 1; i <= n; i++) {
      var += pow (cs_edgeaware_iteration_sigma (&p, i), 2);
      if (i > 1)   /* halved from one iteration to the next */
        ck_assert (fabs (cs_edgeaware_iteration_sigma (&p, i) * 2 - cs_edgeaware_iteration_sigma (&p, i - 1)) < 1e-9);
    }
    ck_assert_msg (fabs (var - 900) < 1e-9, "N=%d: Σσ_i² = %g", n, var);
  }
}
END_TEST

START_TEST (test_auto_partitions)
{
  /* short lines are never cut; more machine, more cuts; long warm-ups, fewer cuts */
  ck_assert_int_eq (cs_auto_partitions (20, 10, 4, 1e5, 32, 256), 1);
  const int few_sms = cs_auto_partitions (1920, 1080, 20, 4 * 512, 32, 256);
  const int many_sms = cs_auto_partitions (1920, 1080, 20, 132 * 512, 32, 256);
  ck_assert_msg (many_sms > few_sms, "%d vs %d", many_sms, few_sms);
  ck_assert (cs_auto_partitions (1920, 1080, 800, 132 * 512, 32, 256) <
      cs_auto_partitions (1920, 1080, 8, 132 * 512, 32, 256));
  ck_assert_int_eq (cs_auto_partitions (1920, 1080, 5000, 132 * 512, 32, 256), 1);
  ck_assert (cs_auto_partitions (4096, 8, 8, 132 * 512, 32, 256) <= 4096 / 32);

  /* the choice minimises the documented cost, chain + total work / rate */
  const double n = 3840, lines = 2160, w = 15, rate = 132 * 500;
  const int chosen = cs_auto_partitions ((int) n, (int) lines, w, rate, 16, 256);
  double best = 1e300;
  for (int b = 1; b <= 240; b++) {
    const double cost = n / b + 2 * w * (b - 1) / b + lines * (n + 2 * w * (b - 1)) / rate;
    best = cost < best ? cost : best;
  }
  const double chosen_cost = n / chosen + 2 * w * (chosen - 1) / chosen + lines * (n + 2 * w * (chosen - 1)) / rate;
  ck_assert_msg (chosen_cost <= best * 1.001, "B=%d costs %g, best %g", chosen, chosen_cost, best);
  ck_assert_int_gt (chosen, 16);

  /* partitions short enough to run cheaper: a choice just above the length moves under
   * it; factor 1 changes nothing */
  const int plain = cs_auto_partitions (2160, 3840, 36, 132 * 1900, 32, 256);
  ck_assert_int_eq (cs_auto_partitions_short (2160, 3840, 36, 132 * 1900, 32, 256, 48, 1.0), plain);
  ck_assert_int_gt ((2160 + plain - 1) / plain, 48);
  const int shorter = cs_auto_partitions_short (2160, 3840, 36, 132 * 1900, 32, 256, 48, 0.8);
  ck_assert_int_le ((2160 + shorter - 1) / shorter, 48);
}
END_TEST

/* 2^t within its stated 4·10⁻⁶ over every t from −125 to 0 in steps of 2⁻¹⁰ (the
 * polynomial's whole interval between the integers, every lane), and a positive weight of
 * about 0 below: what the bilateral's sums take from it (cs_simd.h). */
START_TEST (test_simd_exp2)
{
  double worst = 0.0;
  for (int i = -125 * 1024; i <= 0; i += 8) {
    CsF8 t;
    for (int l = 0; l < 8; l++)
      t[l] = (float) (i + l) / 1024.f;
    const CsF8 v = cs_f8_exp2_nonpositive (t);
    for (int l = 0; l < 8; l++) {
      const double rel = fabs (v[l] / exp2 ((double) t[l]) - 1.0);
      worst = rel > worst ? rel : worst;
    }
  }
  ck_assert_msg (worst < 4e-6, "exp2: relative error %g", worst);
  const CsF8 far = { -125.5f, -200.f, -1e30f, -INFINITY, -126.f, -125.f, 0.f, -1.f };
  const CsF8 v = cs_f8_exp2_nonpositive (far);
  for (int l = 0; l < 5; l++)
    ck_assert_msg (v[l] > 0.f && v[l] < 0x1p-124f, "exp2 (%g) = %g", far[l], v[l]);
  ck_assert (v[6] == 1.f);
  ck_assert (fabsf (v[7] - 0.5f) < 4e-6f);
}
END_TEST

START_TEST (test_parameter_checks)
{
  CsEdgeAwareParams e = cs_edgeaware_params_default ();
  CsBilateralParams b = cs_bilateral_params_default ();
  CsRecursiveParams r = cs_recursive_params_default ();
  ck_assert_ptr_null (cs_edgeaware_params_check (&e));
  ck_assert_ptr_null (cs_bilateral_params_check (&b));
  ck_assert_ptr_null (cs_recursive_params_check (&r));
  e.sigma_r = 0;
  ck_assert_ptr_nonnull (cs_edgeaware_params_check (&e));
  b.radius = CS_BILATERAL_RADIUS_MAX + 1;
  ck_assert_ptr_nonnull (cs_bilateral_params_check (&b));
  r.sigma = NAN;
  ck_assert_ptr_nonnull (cs_recursive_params_check (&r));
  b = cs_bilateral_params_default ();
  b.sigma = 3.2;
  ck_assert_int_eq (cs_bilateral_effective_radius (&b), 7);
  b.sigma = 32;
  ck_assert_int_eq (cs_bilateral_effective_radius (&b), CS_BILATERAL_RADIUS_MAX);
}
END_TEST

int main (void)
{
  Suite *s = suite_create ("coefficients");
  TCase *tc = tcase_create ("math");
  tcase_add_test (tc, test_deriche_fit_and_the_appendix_typo);
  tcase_add_test (tc, test_deriche_dc_gain_is_one);
  tcase_add_test (tc, test_deriche_impulse_matches_sampled_gaussian);
  tcase_add_test (tc, test_yvv_impulse);
  tcase_add_test (tc, test_triggs_sdika_matches_the_continued_line);
  tcase_add_test (tc, test_polar_power_and_phi_at_unit_spacing);
  tcase_add_test (tc, test_iteration_sigmas);
  tcase_add_test (tc, test_auto_partitions);
  tcase_add_test (tc, test_parameter_checks);
  tcase_add_test (tc, test_simd_exp2);
  suite_add_tcase (s, tc);
  return cs_test_run_suite (s);
}
