/* The double references behave as the filters must: constants unchanged, the non-edge-
 * aware limit is a Gaussian, mirror symmetry, edges kept or blurred as they should be,
 * Algorithm C within its κ bound, recursive filters against the exact FIR Gaussian.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_metrics.h"
#include "cs_reference.h"
#include "cs_test_images.h"
#include "cs_test_check.h"

static CsImage photo (void)
{
  CsImage img = cs_test_image_load_ppm (cs_test_data_path ("coffee_301x203.ppm"), 8, 3);
  ck_assert_msg (img.width > 0, "cannot read tests/data/coffee_301x203.ppm");
  return img;
}

static CsImage like (const CsImage *src)
{
  return cs_test_image_new (src->width, src->height, 0, src->alpha_offset, 0);
}

START_TEST (test_constant_images_unchanged)
{
  CsImage src = cs_test_image_new (37, 23, 4, _i % 2 ? 0 : 3, 0);
  cs_test_fill_constant (&src, 17, 130, 250);
  CsImage out = like (&src);
  CsEdgeAwareParams e = cs_edgeaware_params_default ();
  CsBilateralParams b = cs_bilateral_params_default ();
  CsRecursiveParams r = cs_recursive_params_default ();
  e.blocks_per_stripe = 3;
  r.blocks_per_stripe = 3;
  for (int k = 0; k < 5; k++) {
    memset (out.data, 0, (size_t) out.stride * out.height);
    switch (k) {
      case 0: ck_assert_int_eq (cs_ref_edgeaware (&src, &out, &e), 0); break;
      case 1: ck_assert_int_eq (cs_ref_bilateral (&src, &out, &b), 0); break;
      case 2: b.mode = CS_BILATERAL_SEPARABLE; ck_assert_int_eq (cs_ref_bilateral (&src, &out, &b), 0); break;
      case 3: ck_assert_int_eq (cs_ref_recursive (&src, &out, &r), 0); break;
      default: r.algorithm = CS_RECURSIVE_YOUNG_VAN_VLIET; ck_assert_int_eq (cs_ref_recursive (&src, &out, &r), 0);
    }
    const CsErrorStats st = cs_compare_images (&src, &out);
    ck_assert_msg (st.differing == 0 && st.alpha_differing == 0, "filter %d changed a constant image", k);
  }
  cs_test_image_free (&src);
  cs_test_image_free (&out);
}
END_TEST

/* σr → ∞: the edge-aware filter is N iterations of a separable Deriche Gaussian whose
 * variances add up to σ² — a Gaussian of σ. Impulse response: unit mass, std σ in x and
 * y, and close to the sampled 2-D Gaussian. */
START_TEST (test_edgeaware_limit_is_gaussian)
{
  const double sigma = 6.0;
  const int n = 97, c = n / 2;
  CsImage src = cs_test_image_new (n, n, 0, 3, 0);
  cs_test_fill_constant (&src, 0, 0, 0);
  cs_image_pixel (&src, c, c)[0] = 255;
  CsEdgeAwareParams p = cs_edgeaware_params_default ();
  p.sigma = sigma;
  p.sigma_r = 1e6;
  p.blocks_per_stripe = 1;
  double *rgb = malloc ((size_t) n * n * 3 * sizeof (double));
  ck_assert_int_eq (cs_ref_edgeaware_rgb (&src, &p, 0, rgb), 0);
  double mass = 0, vx = 0, vy = 0, maxdiff = 0, norm = 0;
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++)
      norm += exp (-((x - c) * (x - c) + (y - c) * (y - c)) / (2 * sigma * sigma));
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) {
      const double v = rgb[3 * (y * n + x)] / 255.0;
      const double g = exp (-((x - c) * (x - c) + (y - c) * (y - c)) / (2 * sigma * sigma)) / norm;
      mass += v;
      vx += v * (x - c) * (x - c);
      vy += v * (y - c) * (y - c);
      maxdiff = fmax (maxdiff, fabs (v - g));
    }
  const double peak = 1.0 / norm;
  ck_assert_msg (fabs (mass - 1) < 1e-5, "mass %.12f", mass);   /* Δt − 1 ~ 1e−6 at σr = 1e6 */
  ck_assert_msg (fabs (sqrt (vx) / sigma - 1) < 0.01 && fabs (sqrt (vy) / sigma - 1) < 0.01,
      "std %g x %g", sqrt (vx), sqrt (vy));
  ck_assert_msg (maxdiff < 0.01 * peak, "max diff %g of peak %g", maxdiff, peak);
  free (rgb);
  cs_test_image_free (&src);
}
END_TEST

/* filter(flip(x)) = flip(filter(x)): catches one-sided offsets such as reading f[n]
 * instead of f[n+1] in the anticausal pass. */
START_TEST (test_mirror_symmetry)
{
  CsImage src = photo (), flipped = like (&src), a = like (&src), b = like (&src), fb = like (&src);
  cs_test_flip_horizontal (&src, &flipped);
  CsEdgeAwareParams e = cs_edgeaware_params_default ();
  CsBilateralParams bl = cs_bilateral_params_default ();
  CsRecursiveParams r = cs_recursive_params_default ();
  e.blocks_per_stripe = 1;
  r.blocks_per_stripe = 1;
  bl.radius = 3;
  for (int k = 0; k < 3; k++) {
    if (k == 0) {
      cs_ref_edgeaware (&src, &a, &e);
      cs_ref_edgeaware (&flipped, &b, &e);
    } else if (k == 1) {
      cs_ref_bilateral (&src, &a, &bl);
      cs_ref_bilateral (&flipped, &b, &bl);
    } else {
      cs_ref_recursive (&src, &a, &r);
      cs_ref_recursive (&flipped, &b, &r);
    }
    cs_test_flip_horizontal (&b, &fb);
    const CsErrorStats st = cs_compare_images (&a, &fb);
    /* equal up to rounding ties in the last quantisation */
    ck_assert_msg (st.max_abs <= 1 && st.differing * 10000 < 3LL * a.width * a.height,
        "filter %d: %lld samples differ, max %g", k, st.differing, st.max_abs);
  }
  cs_test_image_free (&src);
  cs_test_image_free (&flipped);
  cs_test_image_free (&a);
  cs_test_image_free (&b);
  cs_test_image_free (&fb);
}
END_TEST

/* A vertical step from 30 to 220 (with mild noise): the edge-aware filters keep it, the
 * Gaussian blurs it. */
START_TEST (test_step_edge)
{
  const int w = 64, h = 16;
  CsImage src = cs_test_image_new (w, h, 0, 3, 0), out = like (&src);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint8_t *p = cs_image_pixel (&src, x, y);
      const int v = (x < w / 2 ? 30 : 220) + ((x * 7 + y * 13) % 5) - 2;
      p[0] = p[1] = p[2] = (uint8_t) v;
      p[3] = 255;
    }
  CsEdgeAwareParams e = cs_edgeaware_params_default ();
  e.sigma = 10;
  e.sigma_r = 20;
  CsBilateralParams b = cs_bilateral_params_default ();
  b.sigma = 3;
  b.sigma_r = 20;
  CsRecursiveParams r = cs_recursive_params_default ();
  r.sigma = 3;
  for (int k = 0; k < 3; k++) {
    if (k == 0)
      cs_ref_edgeaware (&src, &out, &e);
    else if (k == 1)
      cs_ref_bilateral (&src, &out, &b);
    else
      cs_ref_recursive (&src, &out, &r);
    const int left = cs_image_pixel (&out, w / 2 - 1, h / 2)[0];
    const int right = cs_image_pixel (&out, w / 2, h / 2)[0];
    if (k < 2)
      ck_assert_msg (left < 40 && right > 210, "filter %d blurred the edge: %d | %d", k, left, right);
    else
      ck_assert_msg (left > 80 && right < 170, "recursivegauss kept the edge: %d | %d", left, right);
  }
  cs_test_image_free (&src);
  cs_test_image_free (&out);
}
END_TEST

/* Algorithm C against Algorithm A: within 1 LSB at κ = 2, and the error grows as κ shrinks
 * (docs/algorithms.md, Algorithm C). */
START_TEST (test_algorithm_c_within_kappa_bound)
{
  CsImage src = photo (), a = like (&src), c = like (&src);
  CsEdgeAwareParams p = cs_edgeaware_params_default ();
  p.blocks_per_stripe = 1;
  cs_ref_edgeaware (&src, &a, &p);
  double last_mse = 0;
  const double kappas[] = { 2.0, 0.5, 0.0 };
  for (int k = 0; k < 3; k++) {
    p.blocks_per_stripe = 8;
    p.kappa = kappas[k];
    cs_ref_edgeaware (&src, &c, &p);
    const CsErrorStats st = cs_compare_images (&a, &c);
    printf ("Algorithm C, 8 blocks, kappa %.1f vs A: %.2f dB, max %g\n", p.kappa, st.psnr, st.max_abs);
    if (k == 0)
      ck_assert_msg (st.psnr >= 60 && st.max_abs <= 1, "kappa 2: %.2f dB, max %g", st.psnr, st.max_abs);
    else
      ck_assert_msg (st.mse > last_mse, "error did not grow as kappa fell to %g", p.kappa);
    last_mse = st.mse;
  }
  cs_test_image_free (&src);
  cs_test_image_free (&a);
  cs_test_image_free (&c);
}
END_TEST

/* The recursive Gaussians against the exact FIR Gaussian, whole image with borders. */
START_TEST (test_recursive_against_fir)
{
  const double sigmas[] = { 0.5, 1.0, 1.5, 2.0, 5.0, 12.0, 40.0, 150.0 };
  CsImage src = cs_test_image_load_ppm (cs_test_data_path ("astronaut_256x256.ppm"), 0, 3);
  CsImage out = like (&src), fir = like (&src);
  CsRecursiveParams p = cs_recursive_params_default ();
  p.blocks_per_stripe = 1;
  for (int k = 0; k < 8; k++) {
    p.sigma = sigmas[k];
    cs_ref_fir_gaussian (&src, &fir, p.sigma);
    p.algorithm = CS_RECURSIVE_DERICHE;
    cs_ref_recursive (&src, &out, &p);
    const CsErrorStats d = cs_compare_images (&out, &fir);
    p.algorithm = CS_RECURSIVE_YOUNG_VAN_VLIET;
    cs_ref_recursive (&src, &out, &p);
    const CsErrorStats y = cs_compare_images (&out, &fir);
    printf ("sigma %6.1f  deriche %.2f dB (max %g)  young-van-vliet %.2f dB (max %g)\n", p.sigma,
        d.psnr, d.max_abs, y.psnr, y.max_abs);
    ck_assert_msg (d.psnr >= (p.sigma < 2 ? 45 : 50), "deriche sigma %g: %.2f dB", p.sigma, d.psnr);
  }
  cs_test_image_free (&src);
  cs_test_image_free (&out);
  cs_test_image_free (&fir);
}
END_TEST

/* Partitioned against unpartitioned: >= 60 dB at the default κ for the default
 * (Deriche) filter; Young–van Vliet decays more slowly and is held to it at κ 5. */
START_TEST (test_recursive_partitions)
{
  CsImage src = photo (), one = like (&src), many = like (&src);
  CsRecursiveParams p = cs_recursive_params_default ();
  const double sigmas[] = { 0.7, 3, 10, 30 };
  for (int k = 0; k < 8; k++) {
    p.sigma = sigmas[k % 4];
    p.algorithm = k < 4 ? CS_RECURSIVE_DERICHE : CS_RECURSIVE_YOUNG_VAN_VLIET;
    p.kappa = k < 4 ? CS_RECURSIVE_KAPPA_DEFAULT : 5.0;
    p.partition_start = CS_PARTITION_WARM_UP;
    p.blocks_per_stripe = 1;
    cs_ref_recursive (&src, &one, &p);
    p.blocks_per_stripe = 7;
    cs_ref_recursive (&src, &many, &p);
    const CsErrorStats st = cs_compare_images (&one, &many);
    ck_assert_msg (st.psnr >= 60, "alg %d sigma %g: partitioned %.2f dB", p.algorithm, p.sigma, st.psnr);
  }
  cs_test_image_free (&src);
  cs_test_image_free (&one);
  cs_test_image_free (&many);
}
END_TEST

/* Which partitions carry their start states, and that carried partitions are the whole
 * line (the GPU's carries are held to this reference in the GPU suite). */
START_TEST (test_recursive_partition_start)
{
  CsRecursiveParams p = cs_recursive_params_default ();
  ck_assert_int_eq (p.partition_start, CS_PARTITION_AUTO);
  p.kappa = 3;
  p.sigma = CS_PARTITION_CARRY_FROM_WARMUP / 3.0;   /* a warm-up of exactly the limit */
  ck_assert (!cs_recursive_carries (&p));
  p.sigma += 0.5;
  ck_assert (cs_recursive_carries (&p));
  p.partition_start = CS_PARTITION_WARM_UP;
  ck_assert (!cs_recursive_carries (&p));
  p.partition_start = CS_PARTITION_CARRY;
  p.sigma = 0.5;
  ck_assert (cs_recursive_carries (&p));
  p.algorithm = CS_RECURSIVE_YOUNG_VAN_VLIET;
  ck_assert (!cs_recursive_carries (&p));
  p.partition_start = (CsPartitionStart) 7;
  ck_assert_ptr_nonnull (cs_recursive_params_check (&p));

  CsImage src = photo (), one = like (&src), many = like (&src);
  p = cs_recursive_params_default ();
  p.partition_start = CS_PARTITION_CARRY;
  p.sigma = 4;
  p.blocks_per_stripe = 1;
  cs_ref_recursive (&src, &one, &p);
  p.blocks_per_stripe = 7;
  cs_ref_recursive (&src, &many, &p);
  ck_assert (cs_compare_images (&one, &many).max_abs == 0);
  cs_test_image_free (&src);
  cs_test_image_free (&one);
  cs_test_image_free (&many);
}
END_TEST

START_TEST (test_bilateral_properties)
{
  CsImage src = photo (), a = like (&src), b = like (&src);
  CsBilateralParams p = cs_bilateral_params_default ();
  /* radius 0 means ceil(2σ) */
  p.sigma = 1.2;
  p.radius = 0;
  cs_ref_bilateral (&src, &a, &p);
  p.radius = 3;
  cs_ref_bilateral (&src, &b, &p);
  ck_assert_int_eq (cs_compare_images (&a, &b).differing, 0);
  /* the two range kernels differ; the separable approximation is close to exact */
  p.range_kernel = CS_RANGE_KERNEL_LORENTZIAN;
  cs_ref_bilateral (&src, &b, &p);
  ck_assert (cs_compare_images (&a, &b).differing > 0);
  p.range_kernel = CS_RANGE_KERNEL_GAUSSIAN;
  p.mode = CS_BILATERAL_SEPARABLE;
  cs_ref_bilateral (&src, &b, &p);
  const CsErrorStats st = cs_compare_images (&a, &b);
  ck_assert_msg (st.differing > 0 && st.psnr > 35, "separable vs exact %.2f dB", st.psnr);
  /* σ = 0 is the identity */
  p.sigma = 0;
  cs_ref_bilateral (&src, &b, &p);
  ck_assert_int_eq (cs_compare_images (&src, &b).differing, 0);
  cs_test_image_free (&src);
  cs_test_image_free (&a);
  cs_test_image_free (&b);
}
END_TEST


/* The mean of a frame stays where it was under partitioned lines at κ = 0, down to
 * partitions of one sample: Young–van Vliet's backward start took its three forward outputs
 * from a neighbour's forward pass, whose start was elsewhere, and brightened a scene by up to
 * 20 levels; a constant frame stays constant. Both algorithms, rows of 1, 2, 3 and 7 samples
 * and whole lines. */
static double mean_level (const CsImage *img)
{
  double sum = 0.0;
  const int co = cs_colour_offset (img->alpha_offset);
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      for (int c = 0; c < 3; c++)
        sum += cs_image_pixel (img, x, y)[co + c];
  return sum / (3.0 * img->width * img->height);
}

START_TEST (test_recursive_no_dc_shift_at_kappa_0)
{
  const int w = 210, h = 84;
  CsImage scene = cs_test_image_new (w, h, 0, 3, 0), flat = cs_test_image_new (w, h, 0, 0, 0);
  CsImage out = cs_test_image_new (w, h, 0, 3, 0), out_flat = cs_test_image_new (w, h, 0, 0, 0);
  cs_test_fill_scene (&scene, 21);
  cs_test_fill_constant (&flat, 17, 130, 251);
  const double in_mean = mean_level (&scene);
  const int lengths[] = { 1, 2, 3, 7, 0 };   /* 0: the whole line */
  const double sigmas[] = { 2, 5, 20 };
  for (int a = 0; a < 2; a++)
    for (int l = 0; l < 5; l++)
      for (int k = 0; k < 3; k++) {
        CsRecursiveParams p = cs_recursive_params_default ();
        p.algorithm = a ? CS_RECURSIVE_YOUNG_VAN_VLIET : CS_RECURSIVE_DERICHE;
        p.partition_start = CS_PARTITION_WARM_UP;
        p.kappa = 0;
        p.sigma = sigmas[k];
        p.blocks_per_stripe = lengths[l] ? w / lengths[l] : 1;   /* columns: a little longer */
        ck_assert_int_eq (cs_ref_recursive (&scene, &out, &p), 0);
        const double shift = mean_level (&out) - in_mean;
        ck_assert_msg (fabs (shift) < 1.0, "algorithm %d, %d blocks, sigma %g: mean moved by %.2f levels",
            p.algorithm, p.blocks_per_stripe, p.sigma, shift);
        ck_assert_int_eq (cs_ref_recursive (&flat, &out_flat, &p), 0);
        ck_assert_msg (cs_compare_images (&flat, &out_flat).differing == 0,
            "algorithm %d, %d blocks: a constant frame changed", p.algorithm, p.blocks_per_stripe);
      }
  cs_test_image_free (&scene);
  cs_test_image_free (&flat);
  cs_test_image_free (&out);
  cs_test_image_free (&out_flat);
}
END_TEST

/* σ down to the smallest positive double, every filter and mode: no NaN, no black frame
 * (2σ² underflowed and the bilateral's centre weight became 0/0). Below
 * CS_SIGMA_IDENTITY_BELOW the filters are the identity (cs_params.h), and just above it they
 * are still within rounding of it, which is what makes the threshold safe. */
START_TEST (test_tiny_sigma_is_identity)
{
  CsImage src = cs_test_image_new (37, 23, 0, 3, 0), out = cs_test_image_new (37, 23, 0, 3, 0);
  cs_test_fill_binary (&src, CS_TEST_CHECKERBOARD);
  const double sigmas[] = { 4.9406564584124654e-324, 1e-300, 1e-150, 1e-20, 0.002, 0.0999,
    CS_SIGMA_IDENTITY_BELOW };
  for (int i = 0; i < 7; i++) {
    const double s = sigmas[i];
    for (int mode = 0; mode < 4; mode++) {
      CsBilateralParams b = cs_bilateral_params_default ();
      b.sigma = s;
      b.mode = mode & 1 ? CS_BILATERAL_SEPARABLE : CS_BILATERAL_EXACT;
      b.range_kernel = mode & 2 ? CS_RANGE_KERNEL_LORENTZIAN : CS_RANGE_KERNEL_GAUSSIAN;
      b.radius = 3;
      ck_assert_int_eq (cs_ref_bilateral (&src, &out, &b), 0);
      ck_assert_msg (cs_compare_images (&src, &out).differing == 0, "bilateral mode %d sigma %g", mode, s);
    }
    CsEdgeAwareParams e = cs_edgeaware_params_default ();
    e.sigma = s;
    e.sigma_r = 1e6;
    e.blocks_per_stripe = 4;
    ck_assert_int_eq (cs_ref_edgeaware (&src, &out, &e), 0);
    ck_assert_msg (cs_compare_images (&src, &out).differing == 0, "edgeawaregauss sigma %g", s);
    CsRecursiveParams r = cs_recursive_params_default ();
    r.sigma = s;
    r.blocks_per_stripe = 3;
    ck_assert_int_eq (cs_ref_recursive (&src, &out, &r), 0);
    ck_assert_msg (cs_compare_images (&src, &out).differing == 0, "recursivegauss sigma %g", s);
    /* Young–van Vliet holds q(0.5) below σ = 0.5: a blur at every σ > 0, never a NaN */
    r.algorithm = CS_RECURSIVE_YOUNG_VAN_VLIET;
    double *rgb = malloc (sizeof (double) * 37 * 23 * 3);
    ck_assert_int_eq (cs_ref_recursive_rgb (&src, &r, rgb), 0);
    for (int k = 0; k < 37 * 23 * 3; k++)
      ck_assert_msg (isfinite (rgb[k]) && rgb[k] > 0.0 && rgb[k] < 255.0, "young-van-vliet sigma %g: %g", s, rgb[k]);
    free (rgb);
  }
  cs_test_image_free (&src);
  cs_test_image_free (&out);
}
END_TEST

/* The channel views (docs/algorithms.md, "Formats"). Each filter on one channel Y equals
 * it on the grey RGB image (Y, Y, Y) with σr·√3 (whose range distances are √3·|ΔY|), and
 * on two channels (U, V) it equals it on (U, V, 0): the 1- and 2-channel cases against the
 * 3-channel one, whose own tests are above. */
typedef struct {
  CsEdgeAwareParams e;
  CsBilateralParams b;
  CsRecursiveParams r;
} AllParams;

static int run_ref (int filter, const CsChannels *src, CsChannels *dst, const AllParams *p, int sx, int sy)
{
  switch (filter) {
    case 0: return cs_ref_edgeaware_channels (src, dst, &p->e, sx, sy);
    case 1: return cs_ref_bilateral_channels (src, dst, &p->b, sx, sy);
    default: return cs_ref_recursive_channels (src, dst, &p->r, sx, sy);
  }
}

static AllParams some_params (double sigma_r)
{
  AllParams p = { cs_edgeaware_params_default (), cs_bilateral_params_default (), cs_recursive_params_default () };
  p.e.sigma = 7;
  p.e.sigma_r = sigma_r;
  p.e.blocks_per_stripe = 3;
  p.b.sigma = 2.5;
  p.b.sigma_r = sigma_r;
  p.r.sigma = 4;
  p.r.blocks_per_stripe = 2;
  return p;
}

/* A view of the first `channels` colour bytes of an RGBA image (alpha last). */
static CsChannels first_channels (const CsImage *img, int channels)
{
  CsChannels c = cs_channels_of_image (img);
  c.channels = channels;
  return c;
}

START_TEST (test_channel_counts)
{
  const int filter = _i % 3, channels = 1 + _i / 3;
  CsImage src = photo (), grey = like (&src), out3 = like (&src), out = like (&src);
  const CsChannels full = cs_channels_of_image (&src);
  /* the view under test: the photo's first channels; the 3-channel image: (Y, Y, Y) or (U, V, 0) */
  for (int y = 0; y < src.height; y++)
    for (int x = 0; x < src.width; x++) {
      uint8_t *g = cs_image_pixel (&grey, x, y);
      for (int c = 0; c < 3; c++)
        g[c] = channels == 1 ? cs_channels_sample (&full, 0, x, y)[0] : c < 2 ? cs_channels_sample (&full, c, x, y)[0] : 0;
    }
  const double sigma_r = 30;
  const AllParams p = some_params (sigma_r), p3 = some_params (channels == 1 ? sigma_r * sqrt (3.0) : sigma_r);
  const CsChannels grey3 = cs_channels_of_image (&grey), view = first_channels (&src, channels);
  CsChannels o3 = cs_channels_of_image (&out3), o = first_channels (&out, channels);
  ck_assert_int_eq (run_ref (filter, &grey3, &o3, &p3, 1, 1), 0);
  ck_assert_int_eq (run_ref (filter, &view, &o, &p, 1, 1), 0);
  long long differing = 0;
  for (int y = 0; y < src.height; y++)
    for (int x = 0; x < src.width; x++)
      for (int c = 0; c < channels; c++) {
        const int d = abs ((int) cs_channels_sample (&o, c, x, y)[0] - (int) cs_channels_sample (&o3, c, x, y)[0]);
        ck_assert_msg (d <= 1, "filter %d, %d channels: (%d, %d) differs by %d", filter, channels, x, y, d);
        differing += d != 0;
      }
  /* the same sums in another order: at most a rounding tie apart */
  ck_assert_msg (differing <= 3, "filter %d, %d channels: %lld samples differ", filter, channels, differing);
  if (channels == 1)   /* and the filtered view really changed */
    ck_assert (cs_channels_sample (&o, 0, 150, 100)[0] != cs_channels_sample (&view, 0, 150, 100)[0] ||
        cs_channels_sample (&o, 0, 40, 40)[0] != cs_channels_sample (&view, 0, 40, 40)[0]);
  cs_test_image_free (&src);
  cs_test_image_free (&grey);
  cs_test_image_free (&out3);
  cs_test_image_free (&out);
}
END_TEST

/* Subsampling is per axis: on an image constant along y, (sx, sy) = (2, 1) is the filter of
 * (2, 2) (the vertical pass has nothing to do), and on one constant along x it is that of
 * (1, 1); (2, 2) is the luma filter with σ/2 (and the window ceil(r/2)). */
START_TEST (test_subsampling_per_axis)
{
  const int filter = _i % 3, along_x = _i / 3;
  CsImage src = cs_test_image_new (61, 37, 0, 3, 0), a = like (&src), b = like (&src);
  for (int y = 0; y < src.height; y++)
    for (int x = 0; x < src.width; x++) {
      const int k = along_x ? x : y;   /* varies along one axis only */
      uint8_t *px = cs_image_pixel (&src, x, y);
      px[0] = (uint8_t) ((k * 37) % 251);
      px[1] = (uint8_t) (k > 20 ? 200 : 30);
      px[2] = 0;
    }
  const AllParams p = some_params (40);
  const CsChannels view = first_channels (&src, 2);
  CsChannels va = first_channels (&a, 2), vb = first_channels (&b, 2);
  ck_assert_int_eq (run_ref (filter, &view, &va, &p, 2, 1), 0);
  ck_assert_int_eq (run_ref (filter, &view, &vb, &p, along_x ? 2 : 1, along_x ? 2 : 1), 0);
  for (int y = 0; y < src.height; y++)
    for (int x = 0; x < src.width; x++)
      for (int c = 0; c < 2; c++)
        ck_assert_int_eq (cs_channels_sample (&va, c, x, y)[0], cs_channels_sample (&vb, c, x, y)[0]);
  /* (2, 2) = (1, 1) with the subsampled parameters */
  AllParams half = p;
  half.e = cs_edgeaware_params_subsampled (&p.e, 2);
  half.b = cs_bilateral_params_subsampled (&p.b, 2);
  half.r = cs_recursive_params_subsampled (&p.r, 2);
  ck_assert_double_eq (half.b.sigma, 1.25);
  ck_assert_int_eq (half.b.radius, 3);   /* ceil(ceil(2 * 2.5) / 2) */
  ck_assert_int_eq (run_ref (filter, &view, &va, &p, 2, 2), 0);
  ck_assert_int_eq (run_ref (filter, &view, &vb, &half, 1, 1), 0);
  for (int y = 0; y < src.height; y++)
    for (int x = 0; x < src.width; x++)
      for (int c = 0; c < 2; c++)
        ck_assert_int_eq (cs_channels_sample (&va, c, x, y)[0], cs_channels_sample (&vb, c, x, y)[0]);
  cs_test_image_free (&src);
  cs_test_image_free (&a);
  cs_test_image_free (&b);
}
END_TEST

int main (void)
{
  Suite *s = suite_create ("references");
  TCase *tc = tcase_create ("references");
  tcase_set_timeout (tc, 600);
  tcase_add_loop_test (tc, test_constant_images_unchanged, 0, 2);
  tcase_add_test (tc, test_edgeaware_limit_is_gaussian);
  tcase_add_test (tc, test_mirror_symmetry);
  tcase_add_test (tc, test_step_edge);
  tcase_add_test (tc, test_algorithm_c_within_kappa_bound);
  tcase_add_test (tc, test_recursive_against_fir);
  tcase_add_test (tc, test_recursive_partitions);
  tcase_add_test (tc, test_recursive_partition_start);
  tcase_add_test (tc, test_bilateral_properties);
  tcase_add_test (tc, test_recursive_no_dc_shift_at_kappa_0);
  tcase_add_test (tc, test_tiny_sigma_is_identity);
  tcase_add_loop_test (tc, test_channel_counts, 0, 6);
  tcase_add_loop_test (tc, test_subsampling_per_axis, 0, 6);
  suite_add_tcase (s, tc);
  return cs_test_run_suite (s);
}
