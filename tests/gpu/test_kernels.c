/* GPU kernels against the double-precision references: every filter, odd sizes, padded
 * and pitched strides, both alpha layouts, poisoned outputs, repeated runs.
 * Skips (exit 77) with the reason where no CUDA device is usable.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cs_cuda.h"
#include "cs_cuda_testing.h"
#include "cs_metrics.h"
#include "cs_reference.h"
#include "cs_test_images.h"
#include "cs_test_job.h"
#include "cs_test_layouts.h"

#define POISON 0xCD


/* The limits plans are made for: the test GPU's, or another architecture's */
static CsCudaDevice device;
/* choices forced on the planners by the test running */
static CsCudaPlanOverrides overrides;

#define CUDA_OK(call) \
  do { \
    cudaError_t e_ = (call); \
    ck_assert_msg (e_ == cudaSuccess, "%s: %s", #call, cudaGetErrorName (e_)); \
  } while (0)

static cudaError_t plan_new (const CsTestJob *j, int w, int h, CsCudaPlan **plan)
{
  switch (j->filter) {
    case CS_TEST_EDGEAWARE: return cs_cuda_edgeaware_plan_new_with (&j->ea, w, h, &device, &overrides, plan);
    case CS_TEST_BILATERAL: return cs_cuda_bilateral_plan_new_with (&j->bl, w, h, &device, &overrides, plan);
    default: return cs_cuda_recursive_plan_new_with (&j->rc, w, h, &device, &overrides, plan);
  }
}

/* The plan of a job for a width x height frame (the test fails where there is none). */
static CsCudaPlan *plan_of (const CsTestJob *j, int w, int h)
{
  CsCudaPlan *plan = NULL;
  CUDA_OK (plan_new (j, w, h, &plan));
  return plan;
}

/* The path a job's plan takes for a width x height frame. */
static CsCudaPath path_of (const CsTestJob *j, int w, int h)
{
  CsCudaPlan *plan = plan_of (j, w, h);
  const CsCudaPath path = cs_cuda_plan_path (plan);
  cs_cuda_plan_free (plan);
  return path;
}

static void reference (const CsTestJob *j, const CsImage *src, CsImage *dst)
{
  ck_assert_int_eq (cs_test_job_reference (j, src, dst), 0);
}

/* Runs the filter on the GPU: device frames with the given extra pitch bytes (or
 * cudaMallocPitch's pitch when pad < 0), output and its padding poisoned first. Copies the
 * whole pitched output back into out (which must have stride = the device pitch). */
static CsImage run_gpu (const CsTestJob *j, const CsImage *src, int pad, int runs)
{
  const int w = src->width, h = src->height;
  size_t pitch;
  void *d_src, *d_dst, *scratch = NULL;
  if (pad < 0) {
    CUDA_OK (cudaMallocPitch (&d_src, &pitch, (size_t) w * 4, h));
  } else {
    pitch = (size_t) w * 4 + (size_t) pad;
    CUDA_OK (cudaMalloc (&d_src, pitch * h));
  }
  CUDA_OK (cudaMalloc (&d_dst, pitch * h));
  CsCudaPlan *plan = plan_of (j, w, h);
  const size_t bytes = cs_cuda_plan_scratch_bytes (plan);
  if (bytes)
    CUDA_OK (cudaMalloc (&scratch, bytes));
  CUDA_OK (cudaMemset (scratch ? scratch : d_dst, 0x7F, bytes ? bytes : 1));
  CUDA_OK (cudaMemcpy2D (d_src, pitch, src->data, src->stride, (size_t) w * 4, h, cudaMemcpyHostToDevice));

  CsImage out = cs_test_image_new (w, h, (int) (pitch - (size_t) w * 4), src->alpha_offset, 0);
  cudaStream_t stream;
  CUDA_OK (cudaStreamCreate (&stream));
  const CsCudaImage s = { d_src, w, h, pitch, src->alpha_offset };
  const CsCudaImage d = { d_dst, w, h, pitch, src->alpha_offset };
  uint8_t *first = NULL;
  for (int run = 0; run < runs; run++) {
    CUDA_OK (cudaMemset (d_dst, POISON, pitch * h));
    CUDA_OK (cs_cuda_plan_run (plan, &s, &d, scratch, stream));
    CUDA_OK (cudaStreamSynchronize (stream));
    CUDA_OK (cudaMemcpy (out.data, d_dst, pitch * h, cudaMemcpyDeviceToHost));
    if (run == 0) {
      first = malloc (pitch * h);
      memcpy (first, out.data, pitch * h);
    } else {
      ck_assert_msg (memcmp (first, out.data, pitch * h) == 0, "run %d differs from run 0", run);
    }
  }
  free (first);
  cs_cuda_plan_free (plan);
  CUDA_OK (cudaStreamDestroy (stream));
  CUDA_OK (cudaFree (d_src));
  CUDA_OK (cudaFree (d_dst));
  if (scratch)
    CUDA_OK (cudaFree (scratch));
  ck_assert_msg (cs_test_padding_intact (&out, POISON), "a kernel wrote into the row padding");
  return out;
}

/* GPU vs the double reference: max abs error <= max_err, alpha copied exactly. */
static CsErrorStats check_against_reference (const CsTestJob *j, const CsImage *src, int pad,
    double max_err, const char *what)
{
  CsImage ref = cs_test_image_new (src->width, src->height, 0, src->alpha_offset, 0);
  reference (j, src, &ref);
  CsImage out = run_gpu (j, src, pad, 2);
  const CsErrorStats st = cs_compare_images (&out, &ref);
  printf ("%-48s %5dx%-5d max %.0f psnr %.2f dB (%lld samples differ)\n", what, src->width,
      src->height, st.max_abs, st.psnr, st.differing);
  ck_assert_msg (st.alpha_differing == 0, "%s: alpha changed at %lld pixels", what, st.alpha_differing);
  ck_assert_msg (st.max_abs <= max_err, "%s %dx%d: max abs error %.0f > %.0f (psnr %.2f)", what,
      src->width, src->height, st.max_abs, max_err, st.psnr);
  cs_test_image_free (&out);
  cs_test_image_free (&ref);
  return st;
}

typedef struct {
  int w, h, pad, alpha;
  int kind;   /* 0 noise, 1 scene, 2 astronaut, 3 coffee */
} Input;

static const Input inputs[] = {
  { 1, 1, 0, 3, 0 }, { 2, 3, 12, 0, 0 }, { 385, 289, 36, 3, 1 }, { 4097, 7, -1, 0, 1 },
  { 7, 1023, 4, 3, 0 }, { 0, 0, -1, 3, 2 }, { 0, 0, 20, 0, 3 },
};

static CsImage make_input (const Input *in)
{
  CsImage img;
  if (in->kind >= 2) {
    img = cs_test_image_load_ppm (cs_test_data_path (in->kind == 2 ? "astronaut_256x256.ppm"
                                                                    : "coffee_301x203.ppm"),
        0, in->alpha);
    ck_assert_msg (img.width > 0, "cannot read the shipped test image");
    return img;
  }
  img = cs_test_image_new (in->w, in->h, 0, in->alpha, 0);
  if (in->kind == 0)
    cs_test_fill_noise (&img, (uint32_t) (in->w * 31 + in->h));
  else
    cs_test_fill_scene (&img, (uint32_t) (in->w + in->h));
  return img;
}

static const int n_inputs = sizeof inputs / sizeof inputs[0];

/* The worst inputs for the fp16 matrices of the tensor-core kernels: 203x150 0/255
 * checkerboards, stripes along x and along y (CsTestBinaryPattern), and (3) the byte
 * extremes 0–2 / 253–255. Row padding 8. */
static const char *const pattern_names[] = { "checkerboard", "stripes x", "stripes y", "extremes" };

static CsImage make_pattern (int pattern, int alpha_offset)
{
  CsImage img = cs_test_image_new (203, 150, 0, alpha_offset, 0);
  if (pattern == 3)
    cs_test_fill_extremes (&img, 11);
  else
    cs_test_fill_binary (&img, (CsTestBinaryPattern) pattern);
  return img;
}

/* Case c of a loop over every input, then over the patterns: the image, its padding and
 * what it is. */
static CsImage input_or_pattern (int c, int *pad, const char **what)
{
  if (c < n_inputs) {
    *pad = inputs[c].pad;
    *what = "input";
    return make_input (&inputs[c]);
  }
  *pad = 8;
  *what = pattern_names[c - n_inputs];
  return make_pattern (c - n_inputs, 3);
}

/* The GPU's edge-aware filter with parameters p on an input, against the reference: 1 LSB. */
static void check_edgeaware (const CsEdgeAwareParams *p, const Input *in, const char *algorithm)
{
  const CsTestJob j = { .filter = CS_TEST_EDGEAWARE, .ea = *p };
  CsImage src = make_input (in);
  char what[96];
  snprintf (what, sizeof what, "edgeaware %s blocks %d sigma %g sigma-r %g kappa %g", algorithm,
      p->blocks_per_stripe, p->sigma, p->sigma_r, p->kappa);
  check_against_reference (&j, &src, in->pad, 1, what);
  cs_test_image_free (&src);
}

START_TEST (test_edgeaware_algorithm_a)
{
  const double sr[][2] = { { 20, 40 }, { 5, 20 }, { 50, 50 } };
  CsEdgeAwareParams p = cs_edgeaware_params_default ();
  p.blocks_per_stripe = 1;
  p.sigma = sr[_i % 3][0];
  p.sigma_r = sr[_i % 3][1];
  check_edgeaware (&p, &inputs[_i / 3], "A");
}
END_TEST

START_TEST (test_edgeaware_algorithm_c)
{
  const int blocks[] = { 2, 3, 8, 16, 64 };
  CsEdgeAwareParams p = cs_edgeaware_params_default ();
  p.blocks_per_stripe = blocks[_i % 5];
  p.sigma = _i % 2 ? 50 : 10;
  p.sigma_r = _i % 2 ? 50 : 30;
  check_edgeaware (&p, &inputs[2 + (_i / 5) % 2 * 4], "C");   /* the scene and the coffee crop */
}
END_TEST

/* The split sweeps' edge cases (cuda/cs_sweep.cuh): blocks of one or two samples, where the
 * two threads of a block meet at its first sample. κ = 0: every sweep starts at its own
 * block (a causal sweep that starts at the middle itself takes no step into it); κ = 0.5 at
 * σ 10, σr 30: the warm-up threshold κσ_2 = √5 equals the Δt of a colour step d² = 36, so
 * the searches must decide exact ties as the reference does (they once used the float Δt
 * of the steps and were 2–3 LSB off here); κ = 2, the default. The coffee crop, 301×203:
 * 150 and 200 blocks a line. */
START_TEST (test_edgeaware_short_blocks)
{
  const int blocks[] = { 150, 200 };
  const double kappas[] = { 0.0, 0.5, 2.0 };
  CsEdgeAwareParams p = cs_edgeaware_params_default ();
  p.blocks_per_stripe = blocks[_i % 2];
  p.kappa = kappas[_i / 2];
  p.sigma = 10;
  p.sigma_r = 30;
  check_edgeaware (&p, &inputs[6], "C");
}
END_TEST

START_TEST (test_edgeaware_auto_vs_algorithm_a)
{
  CsTestJob j = { .filter = CS_TEST_EDGEAWARE, .ea = cs_edgeaware_params_default () };
  const Input in = { 0, 0, -1, 3, 2 };
  CsImage src = make_input (&in);
  CsImage ref = cs_test_image_new (src.width, src.height, 0, 3, 0);
  j.ea.blocks_per_stripe = 1;
  reference (&j, &src, &ref);
  j.ea.blocks_per_stripe = 0;
  CsImage out = run_gpu (&j, &src, -1, 3);
  const CsErrorStats st = cs_compare_images (&out, &ref);
  CsCudaPlan *plan = plan_of (&j, src.width, src.height);
  printf ("edgeaware auto blocks (%d, %d) vs Algorithm A: max %.0f psnr %.2f\n",
      cs_cuda_plan_segments (plan, CS_PASS_ROWS), cs_cuda_plan_segments (plan, CS_PASS_COLUMNS), st.max_abs, st.psnr);
  cs_cuda_plan_free (plan);
  ck_assert (st.max_abs <= 2 && st.psnr >= 60.0);
  cs_test_image_free (&src);
  cs_test_image_free (&ref);
  cs_test_image_free (&out);
}
END_TEST

/* Deriche with carried partition starts (against the whole-line reference: they must be
 * exact), Deriche with warm-ups, and Young–van Vliet (always warm-ups). 13 blocks give
 * segments of two lengths; auto, the counts the element uses (up to 80 per line). */
START_TEST (test_recursive)
{
  const double sigmas[] = { 0.5, 2.0, 5.0, 20.0, 80.0 };
  const int kind = (_i / 20) % 3;
  /* auto (0) only where the reference is the whole line whatever the count */
  const int blocks[] = { 1, 4, 13, kind == 0 ? 0 : 2 };
  CsTestJob j = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
  j.rc.sigma = sigmas[_i % 5];
  j.rc.blocks_per_stripe = blocks[(_i / 5) % 4];
  j.rc.algorithm = kind == 2 ? CS_RECURSIVE_YOUNG_VAN_VLIET : CS_RECURSIVE_DERICHE;
  j.rc.partition_start = kind == 0 ? CS_PARTITION_CARRY : CS_PARTITION_WARM_UP;
  const int picks[] = { 0, 1, 2, 3, 6 };
  const Input *in = &inputs[picks[(_i / 60) % 5]];
  CsImage src = make_input (in);
  char what[96];
  snprintf (what, sizeof what, "recursive %s sigma %g blocks %d",
      kind == 2 ? "yvv" : kind == 1 ? "deriche warm-up" : "deriche carry", j.rc.sigma, j.rc.blocks_per_stripe);
  check_against_reference (&j, &src, in->pad, 1, what);
  cs_test_image_free (&src);
}
END_TEST

/* Deriche with warm-ups in one kernel per tile (recursive_tile.cu): segment counts that
 * make every segment at most 64 long, on every input (odd sizes, 1-pixel segments of a
 * 7-pixel side cut 65 ways, padded and cudaMallocPitch strides), warm-ups from 1 sample to
 * the longest a tile takes; and one count per input whose segments are too long, through
 * the two-pass path, on the same inputs. */
START_TEST (test_recursive_tiles)
{
  const double sigmas[] = { 0.5, 2.0, 5.0 }, kappas[] = { 3.0, 1.0 };
  const Input *in = &inputs[_i % 7];
  CsImage src = make_input (in);
  CsTestJob j = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
  j.rc.sigma = sigmas[(_i / 7) % 3];
  j.rc.kappa = kappas[(_i / 21) % 2];
  j.rc.partition_start = CS_PARTITION_WARM_UP;
  const int longest = src.width > src.height ? src.width : src.height;
  const bool long_segments = _i >= 42;
  j.rc.blocks_per_stripe = long_segments ? 1 : (longest + 63) / 64;
  const bool tiles = path_of (&j, src.width, src.height) == CS_CUDA_PATH_RECURSIVE_TILES;
  ck_assert_msg (tiles == (!long_segments || longest <= 64), "tile path %s for %dx%d, %d blocks",
      tiles ? "taken" : "not taken", src.width, src.height, j.rc.blocks_per_stripe);
  char what[96];
  snprintf (what, sizeof what, "recursive %s sigma %g kappa %g blocks %d", tiles ? "tiles" : "two-pass",
      j.rc.sigma, j.rc.kappa, j.rc.blocks_per_stripe);
  check_against_reference (&j, &src, in->pad, 1, what);
  cs_test_image_free (&src);
}
END_TEST

/* The tile kernel's three-blocks-per-SM instance (80 registers, channels one at a time),
 * which recursive_tile.cu takes where a frame has at least 12 tiles per SM or where two
 * blocks per SM would take more waves than three: with the device's SM count taken as 1,
 * the inputs of test_recursive_tiles cut into 64-sample tiles run it where they have three
 * tiles or more but four, the one-tile inputs (1x1, 2x3) the two-block instance. */
START_TEST (test_recursive_tiles_three_blocks)
{
  const double sigmas[] = { 0.5, 2.0, 5.0 };
  const Input *in = &inputs[_i % 7];
  CsImage src = make_input (in);
  CsTestJob j = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
  j.rc.sigma = sigmas[_i / 7];
  j.rc.partition_start = CS_PARTITION_WARM_UP;
  const int longest = src.width > src.height ? src.width : src.height;
  j.rc.blocks_per_stripe = (longest + 63) / 64;
  ck_assert (path_of (&j, src.width, src.height) == CS_CUDA_PATH_RECURSIVE_TILES);
  const int sm_count = device.sm_count, tiles = j.rc.blocks_per_stripe * j.rc.blocks_per_stripe;
  device.sm_count = 1;
  char what[96];
  snprintf (what, sizeof what, "recursive tiles, %s per SM, sigma %g blocks %d",
      tiles >= 12 || (tiles + 1) / 2 > (tiles + 2) / 3 ? "3" : "2", j.rc.sigma, j.rc.blocks_per_stripe);
  check_against_reference (&j, &src, in->pad, 1, what);
  device.sm_count = sm_count;
  cs_test_image_free (&src);
}
END_TEST

/* The tile kernel's matrices are fp16: the worst input for their rounding is one whose
 * differences are all ±255 (a pass's error bound is 0.024 LSB at σ = 5). 0/255
 * checkerboards, stripes along x and along y, and the extremes 0–2 / 253–255. */
START_TEST (test_recursive_tiles_extremes)
{
  const double sigmas[] = { 0.5, 2.0, 5.0 };
  const int pattern = _i / 3;
  CsImage src = make_pattern (pattern, _i % 2 ? 0 : 3);
  CsTestJob j = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
  j.rc.sigma = sigmas[_i % 3];
  j.rc.partition_start = CS_PARTITION_WARM_UP;
  j.rc.blocks_per_stripe = 4;
  ck_assert (path_of (&j, src.width, src.height) == CS_CUDA_PATH_RECURSIVE_TILES);
  char what[96];
  snprintf (what, sizeof what, "recursive tiles %s sigma %g", pattern_names[pattern], j.rc.sigma);
  check_against_reference (&j, &src, 8, 1, what);
  cs_test_image_free (&src);
}
END_TEST

/* Deriche with warm-ups of 17–64 samples as two tensor-core passes (recursive_lines.cu):
 * segment counts that make every segment at most 64 long, on every input (odd sizes, 1x1,
 * padded and pitched strides, photos); σ 6, 10, 20 at κ 3 and σ 20 at κ 1 (warm-ups 18,
 * 30, 60, 20); and 0/255 checkerboards and stripes, the worst case for its fp16 matrix. */
START_TEST (test_recursive_lines)
{
  const double sigmas[] = { 6.0, 10.0, 20.0, 20.0 };
  CsTestJob j = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
  j.rc.sigma = sigmas[_i % 4];
  j.rc.kappa = _i % 4 == 3 ? 1.0 : 3.0;
  j.rc.partition_start = CS_PARTITION_WARM_UP;
  int pad;
  const char *what_input;
  CsImage src = input_or_pattern (_i / 4, &pad, &what_input);   /* patterns 0–2 */
  const int longest = src.width > src.height ? src.width : src.height;
  j.rc.blocks_per_stripe = (longest + 63) / 64;
  ck_assert_msg (path_of (&j, src.width, src.height) == CS_CUDA_PATH_RECURSIVE_LINES,
      "two-pass tensor path not taken for %dx%d sigma %g", src.width, src.height, j.rc.sigma);
  char what[96];
  snprintf (what, sizeof what, "recursive lines %s sigma %g kappa %g blocks %d", what_input, j.rc.sigma, j.rc.kappa,
      j.rc.blocks_per_stripe);
  check_against_reference (&j, &src, pad, 1, what);
  cs_test_image_free (&src);
}
END_TEST

/* Deriche with carried starts as tensor-core passes (recursive_lines_carried): the segment
 * count that auto takes (64-sample segments) and a shorter one, on every input (odd sizes,
 * 1x1, padded and pitched strides, photos) at σ 30, 80 and 250 against the whole line; and
 * 0/255 checkerboards, stripes and the byte extremes, the largest states the scan carries. */
START_TEST (test_recursive_carried_lines)
{
  const double sigmas[] = { 30.0, 80.0, 250.0 };
  CsTestJob j = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
  j.rc.sigma = sigmas[_i % 3];
  j.rc.partition_start = CS_PARTITION_CARRY;
  int pad;
  const char *what_input;
  CsImage src = input_or_pattern (_i / 3, &pad, &what_input);
  const int longest = src.width > src.height ? src.width : src.height;
  j.rc.blocks_per_stripe = _i % 2 ? 0 : (longest + 31) / 32;
  ck_assert_msg (path_of (&j, src.width, src.height) == CS_CUDA_PATH_RECURSIVE_LINES_CARRIED,
      "carried tensor path not taken for %dx%d sigma %g blocks %d", src.width, src.height, j.rc.sigma,
      j.rc.blocks_per_stripe);
  char what[96];
  snprintf (what, sizeof what, "recursive carried lines %s sigma %g blocks %d", what_input, j.rc.sigma,
      j.rc.blocks_per_stripe);
  check_against_reference (&j, &src, pad, 1, what);
  cs_test_image_free (&src);
}
END_TEST

START_TEST (test_bilateral_exact)
{
  const int radii[] = { 1, 2, 3, 5, 7, 15, 32 };
  CsTestJob j = { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () };
  j.bl.radius = radii[_i % 7];
  j.bl.sigma = j.bl.radius / 2.0;
  j.bl.sigma_r = 30;
  j.bl.range_kernel = (_i / 7) % 2 ? CS_RANGE_KERNEL_LORENTZIAN : CS_RANGE_KERNEL_GAUSSIAN;
  /* big windows on the small inputs only: the double reference is O(r²) per pixel */
  const int small[] = { 0, 1, 4 }, all[] = { 0, 1, 2, 3, 4, 5, 6 };
  const int pick = j.bl.radius > 7 ? small[(_i / 14) % 3] : all[(_i / 14) % 7];
  CsImage src = make_input (&inputs[pick]);
  char what[96];
  snprintf (what, sizeof what, "bilateral exact %s r %d",
      j.bl.range_kernel ? "lorentzian" : "gaussian", j.bl.radius);
  check_against_reference (&j, &src, inputs[pick].pad, 1, what);
  cs_test_image_free (&src);
}
END_TEST

/* The float tile kernel, for the Gaussian windows the packed-half one normally takes. */
START_TEST (test_bilateral_exact_float)
{
  const int radii[] = { 1, 2, 3, 5, 7 };
  CsTestJob j = { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () };
  j.bl.radius = radii[_i % 5];
  j.bl.sigma = j.bl.radius / 2.0;
  j.bl.sigma_r = 30;
  const Input *in = &inputs[2 + (_i % 3) * 2];   /* 385x289 scene, 7x1023 noise, coffee */
  CsImage src = make_input (in);
  overrides.float_bilateral = 1;
  ck_assert (path_of (&j, src.width, src.height) == CS_CUDA_PATH_BILATERAL_FLOAT_TILES);
  check_against_reference (&j, &src, in->pad, 1, "bilateral exact float kernel");
  overrides.float_bilateral = 0;
  cs_test_image_free (&src);
}
END_TEST

/* The packed-half kernel over the range constants it covers: σr from 2 (sharp weights,
 * large exponents) to 64 (its limit: weights near 1 over larger colour distances, the
 * largest fp16 sums), narrow and wide spatial kernels (σs = 3r: every tap counts), on
 * noise, spikes and a photo, every radius it takes (exact colours up to 3, scaled ones
 * with row sums from 4); σr = 600 checks that the dispatch hands it to float, and
 * σs = 0.002 a spatial constant beyond fp16's range. */
START_TEST (test_bilateral_half_ranges)
{
  const int radii[] = { 1, 2, 3, 4, 5, 6, 7 };
  const double sigma_r[] = { 2, 10, 30, 64, 600 };
  CsTestJob j = { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () };
  j.bl.radius = radii[_i % 7];
  j.bl.sigma_r = sigma_r[(_i / 7) % 5];
  const double sigma[] = { j.bl.radius / 2.0, 3.0 * j.bl.radius, 0.002 };   /* 0.002: c_s past fp16 */
  j.bl.sigma = sigma[(_i / 35) % 3];
  const int kind = _i % 3;
  CsImage src;
  int pad = 16;
  if (kind == 0) {
    src = cs_test_image_new (193, 131, 0, 3, 0);
    cs_test_fill_noise (&src, (uint32_t) _i);
  } else if (kind == 1) {
    src = cs_test_image_new (130, 97, 0, 0, 0);
    /* at a spike every neighbour is 245 away, next to one the window mixes both: where
     * fp16 sums of w·(q − p) round most (bilateral_half.cu) */
    cs_test_fill_spikes (&src, (uint32_t) _i);
  } else {
    src = make_input (&inputs[6]);
    pad = inputs[6].pad;
  }
  char what[96];
  snprintf (what, sizeof what, "bilateral gaussian %s r %d sigma %g sigma-r %g",
      cs_cuda_path_name (path_of (&j, src.width, src.height)), j.bl.radius, j.bl.sigma, j.bl.sigma_r);
  check_against_reference (&j, &src, pad, 1, what);
  cs_test_image_free (&src);
}
END_TEST

/* The packed-half kernel's epilogue rounds in fp16 and takes the byte from the bits
 * (bilateral_half.cu): means at the ends of the byte range, from neighbours 0–2 and
 * 253–255, must neither wrap nor leave 1 LSB; both alpha layouts, a frame edge on every
 * side and interior blocks (293 is 4 x 64 columns and a partial fifth). */
START_TEST (test_bilateral_half_extremes)
{
  const int radii[] = { 1, 2, 3, 4, 5, 6, 7 };
  const double sigma_r[] = { 2, 30, 64 };
  CsTestJob j = { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () };
  j.bl.radius = radii[_i % 7];
  j.bl.sigma_r = sigma_r[(_i / 7) % 3];
  j.bl.sigma = 3.0 * j.bl.radius;
  CsImage src = cs_test_image_new (293, 131, 0, _i % 2 ? 0 : 3, 0);
  const CsCudaPath path = path_of (&j, src.width, src.height);
  ck_assert (path == CS_CUDA_PATH_BILATERAL_HALF_STRIPS || path == CS_CUDA_PATH_BILATERAL_HALF_TILES);
  cs_test_fill_extremes (&src, (uint32_t) _i);
  char what[96];
  snprintf (what, sizeof what, "bilateral half2 extremes r %d sigma-r %g", j.bl.radius, j.bl.sigma_r);
  check_against_reference (&j, &src, 12, 1, what);
  cs_test_image_free (&src);
}
END_TEST

/* Radius 1 runs in strips of 62 columns by 8 rows, one warp each (bilateral_half.cu):
 * widths around one and two strips, heights around one strip, a row alone; and a frame
 * large enough for strips of 16 rows (on GPUs of up to 132 SMs), whose height leaves a
 * partial last strip. */
START_TEST (test_bilateral_strips)
{
  const int widths[] = { 61, 62, 63, 64, 124, 125 }, heights[] = { 1, 7, 8, 9, 17 };
  CsTestJob j = { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () };
  j.bl.radius = 1;
  j.bl.sigma = 1.0;
  j.bl.sigma_r = 30;
  const bool large = _i == 30;
  CsImage src = cs_test_image_new (large ? 3841 : widths[_i % 6], large ? 1703 : heights[_i / 6], 0, _i % 2 ? 0 : 3, 0);
  cs_test_fill_noise (&src, (uint32_t) _i);
  check_against_reference (&j, &src, 8, 1, "bilateral half2 r 1 strips");
  cs_test_image_free (&src);
}
END_TEST

START_TEST (test_bilateral_separable)
{
  CsTestJob j = { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () };
  j.bl.mode = CS_BILATERAL_SEPARABLE;
  j.bl.radius = 1 + 3 * (_i % 3);
  j.bl.sigma = j.bl.radius / 2.0;
  j.bl.range_kernel = _i % 2 ? CS_RANGE_KERNEL_LORENTZIAN : CS_RANGE_KERNEL_GAUSSIAN;
  const Input *in = &inputs[(_i * 3) % n_inputs];
  CsImage src = make_input (in);
  check_against_reference (&j, &src, in->pad, 1, "bilateral separable");
  cs_test_image_free (&src);
}
END_TEST

START_TEST (test_identity_copies)
{
  const Input *in = &inputs[2];
  CsImage src = make_input (in);
  CsTestJob jobs[3] = { { .filter = CS_TEST_EDGEAWARE, .ea = cs_edgeaware_params_default () },
    { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () },
    { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () } };
  jobs[0].ea.sigma = 0;
  jobs[1].bl.sigma = 0;
  jobs[2].rc.sigma = 0;
  for (int k = 0; k < 3; k++) {
    CsImage out = run_gpu (&jobs[k], &src, in->pad, 1);
    const CsErrorStats st = cs_compare_images (&out, &src);
    ck_assert (st.differing == 0 && st.alpha_differing == 0);
    cs_test_image_free (&out);
  }
  cs_test_image_free (&src);
}
END_TEST

/* The benchmark's on-chip floor runs the packed-half tile kernels without their DRAM
 * traffic: it must run (radius 2..7) and leave the frame it is sized by untouched, and
 * refuse what those kernels do not run. */
START_TEST (test_bilateral_on_chip_floor_writes_nothing)
{
  const int w = 203, h = 77;
  const size_t pitch = (size_t) w * 4 + 52;
  uint8_t *d, *back = malloc (pitch * h);
  CUDA_OK (cudaMalloc ((void **) &d, pitch * h));
  const CsCudaImage img = { d, w, h, pitch, 3 };
  CsBilateralParams p = cs_bilateral_params_default ();
  p.sigma_r = 30;
  for (int r = 2; r <= 7; r++) {
    p.radius = r;
    p.sigma = r / 2.0;
    CUDA_OK (cudaMemset (d, POISON, pitch * h));
    CUDA_OK (cs_cuda_bilateral_on_chip_floor (&img, &p, 0));
    CUDA_OK (cudaDeviceSynchronize ());
    CUDA_OK (cudaMemcpy (back, d, pitch * h, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < pitch * h; i++)
      ck_assert_msg (back[i] == POISON, "radius %d: byte %zu written", r, i);
  }
  p.radius = 1;   /* strips, not a tile kernel */
  ck_assert_int_eq (cs_cuda_bilateral_on_chip_floor (&img, &p, 0), cudaErrorInvalidValue);
  p.radius = 3;
  p.range_kernel = CS_RANGE_KERNEL_LORENTZIAN;   /* the float kernel's */
  ck_assert_int_eq (cs_cuda_bilateral_on_chip_floor (&img, &p, 0), cudaErrorInvalidValue);
  CUDA_OK (cudaFree (d));
  free (back);
}
END_TEST

/* Plans refuse what they cannot run, once, when they are made; a frame of another size
 * than its plan's, or scratch that is not 16-byte aligned, is an error, not a launch. */
START_TEST (test_bad_arguments_are_errors)
{
  void *d;
  CUDA_OK (cudaMalloc (&d, 64 * 64 * 4));
  const CsCudaImage img = { d, 64, 64, 256, 3 };
  const CsCudaImage other = { d, 32, 64, 256, 3 };
  CsTestJob jobs[3] = { { .filter = CS_TEST_EDGEAWARE, .ea = cs_edgeaware_params_default () },
    { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () },
    { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () } };
  CsCudaPlan *plan = (CsCudaPlan *) &jobs;   /* must come back NULL */
  for (int k = 0; k < 3; k++) {
    ck_assert_int_eq (plan_new (&jobs[k], 0, 64, &plan), cudaErrorInvalidValue);
    ck_assert_ptr_null (plan);
    plan = plan_of (&jobs[k], 64, 64);
    ck_assert_int_eq (cs_cuda_plan_run (plan, &img, &other, NULL, 0), cudaErrorInvalidValue);
    ck_assert_int_eq (cs_cuda_plan_run (plan, &other, &img, NULL, 0), cudaErrorInvalidValue);
    cs_cuda_plan_free (plan);
  }
  jobs[0].ea.sigma_r = -1;
  jobs[1].bl.radius = 65;
  jobs[2].rc.kappa = 1e9;
  for (int k = 0; k < 3; k++)
    ck_assert_int_eq (plan_new (&jobs[k], 64, 64, &plan), cudaErrorInvalidValue);
  /* the tensor-core passes read their plane 16 bytes at a time */
  CsTestJob lines = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
  lines.rc.sigma = 10;
  lines.rc.partition_start = CS_PARTITION_WARM_UP;
  plan = plan_of (&lines, 64, 64);
  ck_assert_int_eq (cs_cuda_plan_path (plan), CS_CUDA_PATH_RECURSIVE_LINES);
  void *scratch;
  void *d2;
  CUDA_OK (cudaMalloc (&d2, 64 * 64 * 4));
  const CsCudaImage out = { d2, 64, 64, 256, 3 };
  CUDA_OK (cudaMalloc (&scratch, cs_cuda_plan_scratch_bytes (plan) + 16));
  ck_assert_int_eq (cs_cuda_plan_run (plan, &img, &out, (char *) scratch + 4, 0), cudaErrorInvalidValue);
  CUDA_OK (cs_cuda_plan_run (plan, &img, &out, scratch, 0));
  CUDA_OK (cudaDeviceSynchronize ());
  cs_cuda_plan_free (plan);
  CUDA_OK (cudaFree (scratch));
  CUDA_OK (cudaFree (d2));
  CUDA_OK (cudaFree (d));
}
END_TEST

/* Plans made for the limits of every architecture the default build targets (cs_cuda_testing.h:
 * T4, A100, RTX 3090, Orin, L4, H100), for the settings whose choices depend on them, run on
 * the test GPU: within 1 LSB of the reference, whatever the limits made the planner choose
 * (the tile kernel's instance where two blocks' shared memory does not fit, the passes where
 * no tile does, the segment counts of other SM counts). test_planner checks that every
 * choice fits the limits; this, that the choices compute the filter. */
START_TEST (test_plans_for_every_architecture)
{
  const CsCudaDevice own = device;
  const char *arch = cs_cuda_architecture (_i, &device);
  ck_assert_ptr_nonnull (arch);
  CsTestJob jobs[7] = { { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () },
    { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () },
    { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () },
    { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () },
    { .filter = CS_TEST_EDGEAWARE, .ea = cs_edgeaware_params_default () },
    { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () },
    { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () } };
  jobs[0].rc.sigma = 5;     /* tiles of warm-ups up to 16 samples: the largest tile instance */
  jobs[1].rc.sigma = 1;
  jobs[2].rc.sigma = 20;    /* the warm-up passes */
  jobs[3].rc.sigma = 80;    /* carried starts */
  jobs[6].bl.radius = 1;    /* strips */
  const Input *in = &inputs[2];   /* 385x289, 36 bytes of padding */
  CsImage src = make_input (in);
  for (int k = 0; k < 7; k++) {
    CsCudaPlan *plan = plan_of (&jobs[k], src.width, src.height);
    char what[128];
    snprintf (what, sizeof what, "%s: %s (%d, %d segments)", arch, cs_cuda_path_name (cs_cuda_plan_path (plan)),
        cs_cuda_plan_segments (plan, CS_PASS_ROWS), cs_cuda_plan_segments (plan, CS_PASS_COLUMNS));
    ck_assert_msg (cs_cuda_plan_shared_bytes (plan) <= (size_t) device.max_shared_per_block, "%s: %zu bytes shared",
        what, cs_cuda_plan_shared_bytes (plan));
    cs_cuda_plan_free (plan);
    check_against_reference (&jobs[k], &src, in->pad, 1, what);
  }
  cs_test_image_free (&src);
  device = own;
}
END_TEST

/* σ down to the smallest positive double: a copy plan, the frame unchanged (2σ² underflowed
 * and made the bilateral's centre weight 0/0). */
START_TEST (test_tiny_sigma_is_a_copy)
{
  const double sigmas[] = { 4.9406564584124654e-324, 1e-300, 0.05 };
  const Input *in = &inputs[2];
  CsImage src = make_input (in);
  for (int k = 0; k < 3; k++) {
    CsTestJob jobs[4] = { { .filter = CS_TEST_EDGEAWARE, .ea = cs_edgeaware_params_default () },
      { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () },
      { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () },
      { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () } };
    jobs[0].ea.sigma = jobs[1].bl.sigma = jobs[2].bl.sigma = jobs[3].rc.sigma = sigmas[k];
    jobs[2].bl.mode = CS_BILATERAL_SEPARABLE;
    for (int f = 0; f < 4; f++) {
      ck_assert (path_of (&jobs[f], src.width, src.height) == CS_CUDA_PATH_COPY);
      CsImage out = run_gpu (&jobs[f], &src, in->pad, 1);
      ck_assert_msg (cs_compare_images (&out, &src).differing == 0, "filter %d sigma %g changed the frame", f,
          sigmas[k]);
      cs_test_image_free (&out);
    }
  }
  cs_test_image_free (&src);
}
END_TEST

/* Partitions of 1, 2 and 3 samples and whole lines at κ = 0, both algorithms: the
 * reference's result (Young–van Vliet's backward starts from the partition's own forward
 * state; from a neighbour's it brightened frames by up to 20 levels). */
START_TEST (test_recursive_short_partitions_kappa_0)
{
  const Input in = { 90, 61, 8, 3, 1 };
  CsImage src = make_input (&in);
  CsTestJob j = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
  const int blocks[] = { 90, 45, 30, 1 };
  j.rc.algorithm = _i / 4 ? CS_RECURSIVE_YOUNG_VAN_VLIET : CS_RECURSIVE_DERICHE;
  j.rc.partition_start = CS_PARTITION_WARM_UP;
  j.rc.kappa = 0;
  j.rc.sigma = 6;
  j.rc.blocks_per_stripe = blocks[_i % 4];
  char what[96];
  snprintf (what, sizeof what, "recursive %s kappa 0 blocks %d", _i / 4 ? "yvv" : "deriche", j.rc.blocks_per_stripe);
  check_against_reference (&j, &src, in.pad, 1, what);
  cs_test_image_free (&src);
}
END_TEST

/* Channel views (cs_cuda_plan_run_channels, the GRAY8 and YUV formats) on the GPU against
 * the references: luma, NV12 / NV21 chroma, YUY2 luma and YUY2 / UYVY chroma (rows with σ/2,
 * columns with σ: the _axes plans) inside one interleaved buffer of odd pitch, I420 chroma as
 * two planes of it; every byte of the output that is not the view's still poison, a second
 * run bit-identical. Bilateral twice: its default window (radius 4, the tile kernel) and
 * radius 1 (the strips). recursivegauss twice: one segment a line (its tile kernel's rows at
 * the samples' own addresses, the odd pitch), and σ 5 in 7 x 7 tiles on rows of 64-byte
 * pitch, where its tile kernel takes word rows for samples a byte apart (luma, I420 chroma)
 * and, in the blocks whose tiles start at even columns, for samples two apart (NV12 chroma,
 * YUY2 luma; tiles 43 samples wide start at odd columns too), several tiles a block (one
 * channel) or a tile and a half (two), and a block's last planes past the row; and
 * 640 x 67 in 10 x 10 tiles, whose rows of 64 samples a byte apart the
 * tile kernel stores 16 bytes at a time from its stages; the tiled sizes again with the
 * device's SM count taken as 1, so that the tile kernel runs its three-blocks-per-SM
 * instance (its stages in the samples' rows, or over T). The tile kernels of
 * both filters run on the view itself where the axes are alike (the working frame is left
 * as it was). */
#define N_VIEW_VARIANTS 6
START_TEST (test_channel_views)
{
  const int variant = _i % N_VIEW_VARIANTS, kind = (_i / N_VIEW_VARIANTS) % CS_TEST_N_VIEW_KINDS;
  const int size = _i / (N_VIEW_VARIANTS * CS_TEST_N_VIEW_KINDS);
  const int tiled = variant >= 4, filter = variant == 3 ? 1 : tiled ? 2 : variant;
  const int sizes[][2] = { { 37, 23 }, { 1, 1 }, { 130, 3 } }, tiled_sizes[][2] = { { 301, 157 }, { 1, 1 }, { 640, 67 } };
  const CsTestViewKind *k = &cs_test_view_kinds[kind];
  const int w = tiled ? tiled_sizes[size][0] : sizes[size][0];
  const int h = tiled ? tiled_sizes[size][1] : sizes[size][1];
  const size_t pitch = tiled ? (cs_test_view_pitch (k, w) + 63) / 64 * 64 : cs_test_view_pitch (k, w);
  const size_t bytes = cs_test_view_bytes (k, h, pitch);
  uint8_t *in = malloc (bytes), *expected = malloc (bytes), *got = malloc (bytes), *again = malloc (bytes);
  cs_test_fill_bytes (in, bytes, 12345u + _i);
  CsTestJob job = { filter == 0 ? CS_TEST_EDGEAWARE : filter == 1 ? CS_TEST_BILATERAL : CS_TEST_RECURSIVE,
    cs_edgeaware_params_default (), cs_bilateral_params_default (), cs_recursive_params_default () };
  job.ea.blocks_per_stripe = 1;
  job.rc.blocks_per_stripe = 1;
  job.ea.sigma = 6;
  job.rc.sigma = 4;
  if (variant == 3) {
    job.bl.radius = 1;
    job.bl.sigma = 1;
  }
  if (tiled) {
    job.rc.sigma = 5;
    job.rc.blocks_per_stripe = size == 2 ? 10 : 7;
  }
  memset (expected, POISON, bytes);
  CsChannels src = cs_test_view_in (in, k, w, h, pitch), dst = cs_test_view_in (expected, k, w, h, pitch);
  int ret;
  if (filter == 0)
    ret = cs_ref_edgeaware_channels (&src, &dst, &job.ea, k->sx, k->sy);
  else if (filter == 1)
    ret = cs_ref_bilateral_channels (&src, &dst, &job.bl, k->sx, k->sy);
  else
    ret = cs_ref_recursive_channels (&src, &dst, &job.rc, k->sx, k->sy);
  ck_assert_int_eq (ret, 0);

  CsCudaPlan *plan = NULL;
  if (filter == 0) {
    const CsEdgeAwareParams px = cs_edgeaware_params_subsampled (&job.ea, k->sx), py = cs_edgeaware_params_subsampled (&job.ea, k->sy);
    CUDA_OK (cs_cuda_edgeaware_plan_new_axes (&px, &py, w, h, &device, &plan));
  } else if (filter == 1) {
    const CsBilateralParams px = cs_bilateral_params_subsampled (&job.bl, k->sx), py = cs_bilateral_params_subsampled (&job.bl, k->sy);
    CUDA_OK (cs_cuda_bilateral_plan_new_axes (&px, &py, w, h, &device, &plan));
  } else {
    const CsRecursiveParams px = cs_recursive_params_subsampled (&job.rc, k->sx), py = cs_recursive_params_subsampled (&job.rc, k->sy);
    CsCudaDevice one_sm = device;
    one_sm.sm_count = variant == 5 ? 1 : device.sm_count;
    CUDA_OK (cs_cuda_recursive_plan_new_axes (&px, &py, w, h, &one_sm, &plan));
  }
  uint8_t *d_in, *d_out;
  void *work, *scratch = NULL;
  CUDA_OK (cudaMalloc ((void **) &d_in, bytes));
  CUDA_OK (cudaMalloc ((void **) &d_out, bytes));
  CUDA_OK (cudaMalloc (&work, cs_cuda_channels_work_bytes (w, h)));
  if (cs_cuda_plan_scratch_bytes (plan))
    CUDA_OK (cudaMalloc (&scratch, cs_cuda_plan_scratch_bytes (plan)));
  CUDA_OK (cudaMemcpy (d_in, in, bytes, cudaMemcpyHostToDevice));
  uint8_t *outs[2] = { got, again };
  for (int run = 0; run < 2; run++) {
    CUDA_OK (cudaMemset (d_out, POISON, bytes));
    CUDA_OK (cudaMemset (work, 0x5A, cs_cuda_channels_work_bytes (w, h)));
    const CsChannels dv_in = cs_test_view_in (d_in, k, w, h, pitch), dv_out = cs_test_view_in (d_out, k, w, h, pitch);
    CUDA_OK (cs_cuda_plan_run_channels (plan, &dv_in, &dv_out, work, scratch, 0));
    CUDA_OK (cudaDeviceSynchronize ());
    CUDA_OK (cudaMemcpy (outs[run], d_out, bytes, cudaMemcpyDeviceToHost));
  }
  const CsCudaPath path = cs_cuda_plan_path (plan);
  if (tiled && k->sx == k->sy)
    ck_assert_msg (path == CS_CUDA_PATH_RECURSIVE_TILES, "%s %dx%d: %s, not the tiles", k->name, w, h,
        cs_cuda_path_name (path));
  if ((filter == 1 || path == CS_CUDA_PATH_RECURSIVE_TILES) && k->sx == k->sy && w * h > 0) {
    /* the packed-half bilateral and the recursive tiles with alike axes filter the view
     * itself: the working frame stays as it was */
    const size_t work_bytes = cs_cuda_channels_work_bytes (w, h);
    uint8_t *w_host = malloc (work_bytes);
    CUDA_OK (cudaMemcpy (w_host, work, work_bytes, cudaMemcpyDeviceToHost));
    for (size_t b = 0; b < work_bytes; b++)
      ck_assert_msg (w_host[b] == 0x5A, "%s %dx%d: %s went through the working frame", k->name, w, h,
          cs_cuda_path_name (path));
    free (w_host);
  }
  /* the plan asks for working frames exactly where it packs; without them such a view is an
   * error, and the others run as before */
  const bool packs = cs_cuda_plan_work_bytes (plan, k->channels) != 0;
  ck_assert_msg (!packs || cs_cuda_plan_work_bytes (plan, k->channels) == cs_cuda_channels_work_bytes (w, h),
      "%s %dx%d: %s asks for %zu bytes of working frames", k->name, w, h, cs_cuda_path_name (path),
      cs_cuda_plan_work_bytes (plan, k->channels));
  if (w * h > 0) {
    CUDA_OK (cudaMemset (d_out, POISON, bytes));
    const CsChannels dv_in = cs_test_view_in (d_in, k, w, h, pitch), dv_out = cs_test_view_in (d_out, k, w, h, pitch);
    const cudaError_t without = cs_cuda_plan_run_channels (plan, &dv_in, &dv_out, NULL, scratch, 0);
    ck_assert_msg (without == (packs ? cudaErrorInvalidValue : cudaSuccess), "%s %dx%d: %s without working frames: %s",
        k->name, w, h, cs_cuda_path_name (path), cudaGetErrorName (without));
    CUDA_OK (cudaDeviceSynchronize ());
    if (!packs) {
      CUDA_OK (cudaMemcpy (again, d_out, bytes, cudaMemcpyDeviceToHost));
      ck_assert_msg (!memcmp (got, again, bytes), "%s %dx%d: a run without working frames differs", k->name, w, h);
    }
  }
  int worst = 0;
  for (size_t b = 0; b < bytes; b++) {
    const int d = abs ((int) got[b] - (int) expected[b]);   /* poison against poison off the view */
    worst = d > worst ? d : worst;
  }
  ck_assert_msg (worst <= 1, "%s, %s %dx%d (%s): max difference %d from the reference (or a byte off the view "
      "written)", filter == 0 ? "edgeawaregauss" : filter == 1 ? "bilateral" : "recursivegauss", k->name, w, h,
      cs_cuda_path_name (path), worst);
  ck_assert_msg (!memcmp (got, again, bytes), "%s: repeated runs differ", k->name);
  cs_cuda_plan_free (plan);
  cudaFree (d_in);
  cudaFree (d_out);
  cudaFree (work);
  cudaFree (scratch);
  free (in);
  free (expected);
  free (got);
  free (again);
}
END_TEST

/* edgeawaregauss on a view of one or two channels sweeps only those channels (of the working
 * frame they are packed into), its last pass writing the view itself; its output must be the
 * three-channel sweeps' to the bit, run on the same pixels as an RGBA frame whose other
 * colour bytes and alpha are 0, also where two channels' planes have different strides (the
 * last pass's working frame unpacked). Every
 * sweep kernel: automatic segments (split rows and columns, warm-up searches), one segment
 * of columns parked on chip by a 32-thread block (23 x 250) and one parked in the plane
 * (17 x 700), and a frame three rows high. */
START_TEST (test_edgeaware_view_channels)
{
  const int channels = 1 + _i % 2, geometry = _i / 2;
  const int sizes[][3] = { { 301, 157, 0 }, { 23, 250, 1 }, { 17, 700, 1 }, { 130, 3, 0 } };
  const int w = sizes[geometry][0], h = sizes[geometry][1];
  CsEdgeAwareParams p = cs_edgeaware_params_default ();
  p.sigma = 12;
  p.sigma_r = 30;
  p.blocks_per_stripe = sizes[geometry][2];
  CsCudaPlan *plan = NULL;
  CUDA_OK (cs_cuda_edgeaware_plan_new (&p, w, h, &device, &plan));
  const size_t view_pitch = (size_t) w * channels + 7, rgba_pitch = (size_t) w * 4 + 12;
  uint8_t *view = malloc (view_pitch * h), *rgba = malloc (rgba_pitch * h);
  uint8_t *view_out = malloc (view_pitch * h), *rgba_out = malloc (rgba_pitch * h);
  cs_test_fill_bytes (view, view_pitch * h, 777u + _i);
  memset (rgba, 0, rgba_pitch * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < channels; c++)
        rgba[y * rgba_pitch + 4 * x + c] = view[y * view_pitch + (size_t) x * channels + c];
  uint8_t *d_view, *d_view_out, *d_rgba, *d_rgba_out;
  void *work, *scratch = NULL;
  CUDA_OK (cudaMalloc ((void **) &d_view, view_pitch * h));
  CUDA_OK (cudaMalloc ((void **) &d_view_out, view_pitch * h));
  CUDA_OK (cudaMalloc ((void **) &d_rgba, rgba_pitch * h));
  CUDA_OK (cudaMalloc ((void **) &d_rgba_out, rgba_pitch * h));
  CUDA_OK (cudaMalloc (&work, cs_cuda_channels_work_bytes (w, h)));
  if (cs_cuda_plan_scratch_bytes (plan))
    CUDA_OK (cudaMalloc (&scratch, cs_cuda_plan_scratch_bytes (plan)));
  CUDA_OK (cudaMemcpy (d_view, view, view_pitch * h, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemcpy (d_rgba, rgba, rgba_pitch * h, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemset (d_view_out, POISON, view_pitch * h));
  CUDA_OK (cudaMemset (d_rgba_out, POISON, rgba_pitch * h));
  CsChannels src = { w, h, channels, { d_view, d_view + 1, NULL }, { (ptrdiff_t) view_pitch, (ptrdiff_t) view_pitch, 0 },
    channels };
  CsChannels dst = src;
  dst.data[0] = d_view_out;
  dst.data[1] = d_view_out + 1;
  const CsCudaImage a = { d_rgba, w, h, rgba_pitch, 3 }, b = { d_rgba_out, w, h, rgba_pitch, 3 };
  CUDA_OK (cs_cuda_plan_run_channels (plan, &src, &dst, work, scratch, 0));
  CUDA_OK (cs_cuda_plan_run (plan, &a, &b, scratch, 0));
  CUDA_OK (cudaDeviceSynchronize ());
  CUDA_OK (cudaMemcpy (view_out, d_view_out, view_pitch * h, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (rgba_out, d_rgba_out, rgba_pitch * h, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 4; c++) {
        const int three = rgba_out[y * rgba_pitch + 4 * x + c];
        if (c >= channels) {
          ck_assert_msg (three == 0, "%dx%d: a zero channel filtered to %d at (%d, %d)", w, h, three, x, y);
          continue;
        }
        const int one = view_out[y * view_pitch + (size_t) x * channels + c];
        ck_assert_msg (one == three, "%dx%d, %d channel(s), segments (%d, %d): channel %d at (%d, %d) is %d, the "
            "three-channel sweeps give %d", w, h, channels, cs_cuda_plan_segments (plan, CS_PASS_ROWS),
            cs_cuda_plan_segments (plan, CS_PASS_COLUMNS), c, x, y, one, three);
      }
  if (channels == 2) {
    /* into two planes whose rows are apart by different strides: the last pass cannot write
     * them itself, so its working frame is unpacked into them; the same bytes */
    const size_t pitch_u = (size_t) w + 3, pitch_v = (size_t) w + 9, planes_bytes = (pitch_u + pitch_v) * h;
    uint8_t *d_planes, *planes = malloc (planes_bytes);
    CUDA_OK (cudaMalloc ((void **) &d_planes, planes_bytes));
    CUDA_OK (cudaMemset (d_planes, POISON, planes_bytes));
    const CsChannels split = { w, h, 2, { d_planes, d_planes + pitch_u * h, NULL }, { (ptrdiff_t) pitch_u,
      (ptrdiff_t) pitch_v, 0 }, 1 };
    CUDA_OK (cs_cuda_plan_run_channels (plan, &src, &split, work, scratch, 0));
    CUDA_OK (cudaMemcpy (planes, d_planes, planes_bytes, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        for (int c = 0; c < 2; c++) {
          const int got = planes[c * pitch_u * h + y * (c ? pitch_v : pitch_u) + x];
          const int three = rgba_out[y * rgba_pitch + 4 * x + c];
          ck_assert_msg (got == three, "%dx%d, two planes: channel %d at (%d, %d) is %d, the three-channel sweeps "
              "give %d", w, h, c, x, y, got, three);
        }
    cudaFree (d_planes);
    free (planes);
  }
  cs_cuda_plan_free (plan);
  cudaFree (d_view);
  cudaFree (d_view_out);
  cudaFree (d_rgba);
  cudaFree (d_rgba_out);
  cudaFree (work);
  cudaFree (scratch);
  free (view);
  free (rgba);
  free (view_out);
  free (rgba_out);
}
END_TEST

/* What a frame's two views ran with: their plans, the side stream and its events */
static void free_views_run (CsCudaPlan *luma, CsCudaPlan *chroma, cudaStream_t side, cudaEvent_t fork, cudaEvent_t join)
{
  CUDA_OK (cudaStreamDestroy (side));
  CUDA_OK (cudaEventDestroy (fork));
  CUDA_OK (cudaEventDestroy (join));
  cs_cuda_plan_free (luma);
  cs_cuda_plan_free (chroma);
}

/* An NV12 frame's luma and chroma queued the ways the elements run them, each frame copied
 * back on the frame's stream at once: (0) recursivegauss's tiles, chroma beside luma on one
 * stream (cs_cuda_plan_run_channels_beside: its kernel may start while luma's finishes);
 * (1) the same through cs_cuda_plan_run_views, which runs both in one launch (both views
 * take two blocks per SM), every other frame through cs_cuda_plan_run_views_together
 * directly; (2) edgeawaregauss (packed into working frames) and (3) recursivegauss planned as
 * for a GPU of one SM (three blocks per SM: not one launch), with chroma on a side stream
 * (cs_cuda_plan_run_views: fork and join events). Both planes must be the references';
 * frames are queued back to back, each its own input, so that a frame whose chroma finished
 * after its copy, or ran into the next frame's, would show. */
START_TEST (test_views_beside)
{
  const int mode = _i, w = 1283, h = 721, n_frames = mode == 2 ? 4 : 16, cw = (w + 1) / 2, ch = (h + 1) / 2;
  const int recursive = mode != 2;
  const size_t pitch = 1536, bytes = pitch * (h + ch);
  CsRecursiveParams rc = cs_recursive_params_default ();
  rc.sigma = 5;
  const CsRecursiveParams rc_chroma = cs_recursive_params_subsampled (&rc, 2);
  CsEdgeAwareParams ea = cs_edgeaware_params_default ();
  const CsEdgeAwareParams ea_chroma = cs_edgeaware_params_subsampled (&ea, 2);
  CsCudaPlan *luma = NULL, *chroma = NULL;
  if (recursive) {
    CsCudaDevice planned = device;
    planned.sm_count = mode == 3 ? 1 : device.sm_count;
    CUDA_OK (cs_cuda_recursive_plan_new (&rc, w, h, &planned, &luma));
    CUDA_OK (cs_cuda_recursive_plan_new (&rc_chroma, cw, ch, &planned, &chroma));
    ck_assert_int_eq (cs_cuda_plan_path (luma), CS_CUDA_PATH_RECURSIVE_TILES);
    ck_assert_int_eq (cs_cuda_plan_path (chroma), CS_CUDA_PATH_RECURSIVE_TILES);
  } else {
    CUDA_OK (cs_cuda_edgeaware_plan_new (&ea, w, h, &device, &luma));
    CUDA_OK (cs_cuda_edgeaware_plan_new (&ea_chroma, cw, ch, &device, &chroma));
  }
  uint8_t *in = malloc (bytes * n_frames), *expected = malloc (bytes), *got = malloc (bytes * n_frames);
  cs_test_fill_bytes (in, bytes * n_frames, 777u + mode);
  uint8_t *d_in, *d_out;
  void *work[2], *scratch[2] = { NULL, NULL };
  CUDA_OK (cudaMalloc ((void **) &d_in, bytes * n_frames));
  CUDA_OK (cudaMalloc ((void **) &d_out, bytes * n_frames));
  CUDA_OK (cudaMalloc (&work[0], cs_cuda_channels_work_bytes (w, h)));
  CUDA_OK (cudaMalloc (&work[1], cs_cuda_channels_work_bytes (cw, ch)));
  if (cs_cuda_plan_scratch_bytes (luma))
    CUDA_OK (cudaMalloc (&scratch[0], cs_cuda_plan_scratch_bytes (luma)));
  if (cs_cuda_plan_scratch_bytes (chroma))
    CUDA_OK (cudaMalloc (&scratch[1], cs_cuda_plan_scratch_bytes (chroma)));
  CUDA_OK (cudaMemcpy (d_in, in, bytes * n_frames, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemset (d_out, POISON, bytes * n_frames));
  cudaStream_t stream, side;
  cudaEvent_t fork, join;
  CUDA_OK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  CUDA_OK (cudaStreamCreateWithFlags (&side, cudaStreamNonBlocking));
  CUDA_OK (cudaEventCreateWithFlags (&fork, cudaEventDisableTiming));
  CUDA_OK (cudaEventCreateWithFlags (&join, cudaEventDisableTiming));
  const CsTestViewKind *y = &cs_test_view_kinds[0], *uv = &cs_test_view_kinds[1];
  for (int i = 0; i < n_frames; i++) {
    uint8_t *fi = d_in + bytes * i, *fo = d_out + bytes * i;
    const CsChannels sy = cs_test_view_in (fi, y, w, h, pitch), dy = cs_test_view_in (fo, y, w, h, pitch);
    const CsChannels sc = cs_test_view_in (fi + pitch * h, uv, cw, ch, pitch);
    const CsChannels dc = cs_test_view_in (fo + pitch * h, uv, cw, ch, pitch);
    if (mode == 0) {
      CUDA_OK (cs_cuda_plan_run_channels (luma, &sy, &dy, NULL, NULL, stream));
      CUDA_OK (cs_cuda_plan_run_channels_beside (chroma, &sc, &dc, NULL, NULL, stream));
    } else {
      const CsCudaViewRun views[2] = { { luma, sy, dy, work[0], scratch[0], 0 }, { chroma, sc, dc, work[1], scratch[1], 1 } };
      if (mode == 1 && i % 2 == 0) {
        CUDA_OK (cs_cuda_plan_run_views_together (views, 2, stream));
      } else {
        if (mode != 1)
          ck_assert_int_eq (cs_cuda_plan_run_views_together (views, 2, stream), cudaErrorNotSupported);
        CUDA_OK (cs_cuda_plan_run_views (views, 2, stream, side, fork, join));
      }
    }
    CUDA_OK (cudaMemcpyAsync (got + bytes * i, fo, bytes, cudaMemcpyDeviceToHost, stream));
  }
  CUDA_OK (cudaStreamSynchronize (stream));
  for (int i = 0; i < n_frames; i++) {
    memset (expected, POISON, bytes);
    uint8_t *fi = in + bytes * i;
    CsChannels sy = cs_test_view_in (fi, y, w, h, pitch), dy = cs_test_view_in (expected, y, w, h, pitch);
    CsChannels sc = cs_test_view_in (fi + pitch * h, uv, cw, ch, pitch);
    CsChannels dc = cs_test_view_in (expected + pitch * h, uv, cw, ch, pitch);
    if (recursive) {
      ck_assert_int_eq (cs_ref_recursive_channels (&sy, &dy, &rc, 1, 1), 0);
      ck_assert_int_eq (cs_ref_recursive_channels (&sc, &dc, &rc, 2, 2), 0);
    } else {
      ck_assert_int_eq (cs_ref_edgeaware_channels (&sy, &dy, &ea, 1, 1), 0);
      ck_assert_int_eq (cs_ref_edgeaware_channels (&sc, &dc, &ea, 2, 2), 0);
    }
    int worst = 0;
    for (size_t b = 0; b < bytes; b++) {
      const int d = abs ((int) got[bytes * i + b] - (int) expected[b]);
      worst = d > worst ? d : worst;
    }
    ck_assert_msg (worst <= 1, "mode %d, frame %d: max difference %d from the reference", mode, i, worst);
  }
  /* bad arguments: a side view without a side stream, the side stream the frame's own */
  const CsCudaViewRun bad = { chroma, {}, {}, work[1], scratch[1], 1 };
  ck_assert_int_eq (cs_cuda_plan_run_views (&bad, 1, stream, NULL, fork, join), cudaErrorInvalidValue);
  ck_assert_int_eq (cs_cuda_plan_run_views (&bad, 1, stream, stream, fork, join), cudaErrorInvalidValue);
  if (mode == 1 || mode == 3) {
    /* a side view that fails (its plan is luma's size) after luma was queued: the error
     * comes back, and the side stream is joined all the same, so once the frame's stream
     * is done nothing is left on it */
    const CsChannels sy = cs_test_view_in (d_in, y, w, h, pitch), dy = cs_test_view_in (d_out, y, w, h, pitch);
    const CsChannels sc = cs_test_view_in (d_in + pitch * h, uv, cw, ch, pitch);
    const CsChannels dc = cs_test_view_in (d_out + pitch * h, uv, cw, ch, pitch);
    const CsCudaViewRun mixed[2] = { { luma, sy, dy, work[0], scratch[0], 0 }, { luma, sc, dc, work[1], scratch[1], 1 } };
    ck_assert_int_eq (cs_cuda_plan_run_views (mixed, 2, stream, side, fork, join), cudaErrorInvalidValue);
    CUDA_OK (cudaStreamSynchronize (stream));
    CUDA_OK (cudaStreamQuery (side));
    CUDA_OK (cudaGetLastError ());
  }
  CUDA_OK (cudaStreamDestroy (stream));
  free_views_run (luma, chroma, side, fork, join);
  cudaFree (d_in);
  cudaFree (d_out);
  cudaFree (work[0]);
  cudaFree (work[1]);
  cudaFree (scratch[0]);
  cudaFree (scratch[1]);
  free (in);
  free (expected);
  free (got);
}
END_TEST

/* recursivegauss's one launch for a frame's luma and chroma (cs_cuda_plan_run_views_together)
 * in each of its instances, against the references: (0) σ 5 luma and NV12 chroma (σ 2.5:
 * windows of 6 and 5 steps), 301 x 157 in 7 x 7 tiles, so that chroma's rows of blocks are
 * wider than luma's; (1) σ 5 luma and 4:4:4 chroma in two planes (6 and 6), 640 x 67 in
 * 10 x 10 tiles; (2) σ 2 luma and NV21 chroma (5 and 5), 37 x 23; (3) YUY2 luma (samples two
 * bytes apart) and I420 chroma, 130 x 3, rows of odd pitch. Every byte off the views stays
 * poison; cs_cuda_plan_run_views gives the same bytes, and so does a second run. */
START_TEST (test_views_together)
{
  const int w = (int[]) { 301, 640, 37, 130 }[_i], h = (int[]) { 157, 67, 23, 3 }[_i];
  const int sub = _i == 1 ? 1 : 2, cw = (w + sub - 1) / sub, ch = (h + sub - 1) / sub;
  const CsTestViewKind *yk = &cs_test_view_kinds[_i == 3 ? 3 : 0];
  const CsTestViewKind chroma_444 = { "4:4:4 chroma", 2, 1, { 0, 0 }, 1, 1, 2 };
  const CsTestViewKind *ck = _i == 0 ? &cs_test_view_kinds[1] : _i == 1 ? &chroma_444 : _i == 2 ? &cs_test_view_kinds[2]
                                                                                        : &cs_test_view_kinds[6];
  CsRecursiveParams rc = cs_recursive_params_default ();
  rc.sigma = _i == 2 ? 2 : 5;
  rc.blocks_per_stripe = _i == 0 ? 7 : _i == 1 ? 10 : 0;
  const CsRecursiveParams rc_chroma = cs_recursive_params_subsampled (&rc, sub);
  const size_t y_pitch = _i == 3 ? cs_test_view_pitch (yk, w) : ((size_t) w * yk->step + 63) / 64 * 64;
  const size_t c_pitch = _i == 3 ? cs_test_view_pitch (ck, cw) : ((size_t) cw * ck->step + 63) / 64 * 64;
  const size_t y_bytes = cs_test_view_bytes (yk, h, y_pitch), c_bytes = cs_test_view_bytes (ck, ch, c_pitch);
  const size_t bytes = y_bytes + c_bytes;
  uint8_t *in = malloc (bytes), *expected = malloc (bytes), *got = malloc (bytes), *again = malloc (bytes);
  cs_test_fill_bytes (in, bytes, 4242u + _i);
  memset (expected, POISON, bytes);
  CsChannels sy = cs_test_view_in (in, yk, w, h, y_pitch), dy = cs_test_view_in (expected, yk, w, h, y_pitch);
  CsChannels sc = cs_test_view_in (in + y_bytes, ck, cw, ch, c_pitch);
  CsChannels dc = cs_test_view_in (expected + y_bytes, ck, cw, ch, c_pitch);
  ck_assert_int_eq (cs_ref_recursive_channels (&sy, &dy, &rc, 1, 1), 0);
  ck_assert_int_eq (cs_ref_recursive_channels (&sc, &dc, &rc, sub, sub), 0);
  CsCudaPlan *luma = NULL, *chroma = NULL;
  CUDA_OK (cs_cuda_recursive_plan_new (&rc, w, h, &device, &luma));
  CUDA_OK (cs_cuda_recursive_plan_new (&rc_chroma, cw, ch, &device, &chroma));
  ck_assert_int_eq (cs_cuda_plan_path (luma), CS_CUDA_PATH_RECURSIVE_TILES);
  ck_assert_int_eq (cs_cuda_plan_path (chroma), CS_CUDA_PATH_RECURSIVE_TILES);
  uint8_t *d_in, *d_out;
  CUDA_OK (cudaMalloc ((void **) &d_in, bytes));
  CUDA_OK (cudaMalloc ((void **) &d_out, bytes));
  CUDA_OK (cudaMemcpy (d_in, in, bytes, cudaMemcpyHostToDevice));
  cudaStream_t side;
  cudaEvent_t fork, join;
  CUDA_OK (cudaStreamCreateWithFlags (&side, cudaStreamNonBlocking));
  CUDA_OK (cudaEventCreateWithFlags (&fork, cudaEventDisableTiming));
  CUDA_OK (cudaEventCreateWithFlags (&join, cudaEventDisableTiming));
  const CsCudaViewRun views[2] = {
    { luma, cs_test_view_in (d_in, yk, w, h, y_pitch), cs_test_view_in (d_out, yk, w, h, y_pitch), NULL, NULL, 0 },
    { chroma, cs_test_view_in (d_in + y_bytes, ck, cw, ch, c_pitch), cs_test_view_in (d_out + y_bytes, ck, cw, ch, c_pitch),
        NULL, NULL, 1 } };
  uint8_t *outs[2] = { got, again };
  for (int run = 0; run < 2; run++) {
    CUDA_OK (cudaMemset (d_out, POISON, bytes));
    if (run == 0)
      CUDA_OK (cs_cuda_plan_run_views_together (views, 2, 0));
    else
      CUDA_OK (cs_cuda_plan_run_views (views, 2, 0, side, fork, join));
    CUDA_OK (cudaDeviceSynchronize ());
    CUDA_OK (cudaMemcpy (outs[run], d_out, bytes, cudaMemcpyDeviceToHost));
  }
  int worst = 0;
  for (size_t b = 0; b < bytes; b++) {
    const int d = abs ((int) got[b] - (int) expected[b]);   /* poison against poison off the views */
    worst = d > worst ? d : worst;
  }
  ck_assert_msg (worst <= 1, "%s and %s %dx%d: max difference %d from the reference (or a byte off the views written)",
      yk->name, ck->name, w, h, worst);
  ck_assert_msg (!memcmp (got, again, bytes), "%s and %s: cs_cuda_plan_run_views differs from the one launch", yk->name,
      ck->name);
  free_views_run (luma, chroma, side, fork, join);
  cudaFree (d_in);
  cudaFree (d_out);
  free (in);
  free (expected);
  free (got);
  free (again);
}
END_TEST

static Suite *suite (void)
{
  Suite *s = suite_create ("gpu-kernels");
  TCase *tc = tcase_create ("kernels");
  tcase_set_timeout (tc, 600);
  tcase_add_loop_test (tc, test_edgeaware_algorithm_a, 0, 3 * n_inputs);
  tcase_add_loop_test (tc, test_edgeaware_algorithm_c, 0, 10);
  tcase_add_loop_test (tc, test_edgeaware_short_blocks, 0, 2 * 3);
  tcase_add_test (tc, test_edgeaware_auto_vs_algorithm_a);
  tcase_add_loop_test (tc, test_recursive, 0, 60 * 5);
  tcase_add_loop_test (tc, test_recursive_tiles, 0, 42 + 7);
  tcase_add_loop_test (tc, test_recursive_tiles_three_blocks, 0, 7 * 3);
  tcase_add_loop_test (tc, test_recursive_tiles_extremes, 0, 12);
  tcase_add_loop_test (tc, test_recursive_lines, 0, 4 * (n_inputs + 3));   /* the binary patterns */
  tcase_add_loop_test (tc, test_recursive_carried_lines, 0, 3 * (n_inputs + 4));
  tcase_add_loop_test (tc, test_bilateral_exact, 0, 14 * 3);
  tcase_add_loop_test (tc, test_bilateral_exact_float, 0, 15);
  tcase_add_loop_test (tc, test_bilateral_half_ranges, 0, 7 * 5 * 3);
  tcase_add_loop_test (tc, test_bilateral_half_extremes, 0, 7 * 3);
  tcase_add_loop_test (tc, test_bilateral_strips, 0, 31);
  tcase_add_loop_test (tc, test_bilateral_separable, 0, 6);
  tcase_add_test (tc, test_identity_copies);
  tcase_add_test (tc, test_bilateral_on_chip_floor_writes_nothing);
  tcase_add_test (tc, test_bad_arguments_are_errors);
  tcase_add_loop_test (tc, test_plans_for_every_architecture, 0, cs_cuda_architecture_count ());
  tcase_add_test (tc, test_tiny_sigma_is_a_copy);
  tcase_add_loop_test (tc, test_recursive_short_partitions_kappa_0, 0, 8);
  suite_add_tcase (s, tc);
  /* a case of its own, for sanitizer runs of the format paths alone (CK_RUN_CASE=channels) */
  TCase *channels = tcase_create ("channels");
  tcase_set_timeout (channels, 600);
  tcase_add_loop_test (channels, test_channel_views, 0, N_VIEW_VARIANTS * CS_TEST_N_VIEW_KINDS * 3);
  tcase_add_loop_test (channels, test_views_beside, 0, 4);
  tcase_add_loop_test (channels, test_views_together, 0, 4);
  tcase_add_loop_test (channels, test_edgeaware_view_channels, 0, 2 * 4);
  suite_add_tcase (s, channels);
  return s;
}

int main (void)
{
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount (&n);
  if (err != cudaSuccess || n == 0) {
    printf ("SKIP: no usable CUDA device (cudaGetDeviceCount: %s, %d devices)\n",
        cudaGetErrorName (err), n);
    return 77;
  }
  if (cs_cuda_device_query (&device) != cudaSuccess) {
    printf ("SKIP: cannot query the CUDA device\n");
    return 77;
  }
  printf ("device: compute capability %d.%d, %d SMs, %d bytes of shared memory per block, L2 %zu bytes\n",
      device.cc_major, device.cc_minor, device.sm_count, device.max_shared_per_block, device.l2_bytes);
  SRunner *r = srunner_create (suite ());
  srunner_set_fork_status (r, CK_NOFORK);
  srunner_run_all (r, CK_NORMAL);
  const int failed = srunner_ntests_failed (r);
  srunner_free (r);
  return failed ? 1 : 0;
}
