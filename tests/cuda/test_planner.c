/* The planners, without a GPU: for the limits of every architecture the default build
 * targets, every setting's plan fits them (shared memory per block, segments per line),
 * takes the path its settings call for and asks for working frames for views only where its
 * kernels do not take them; and what the plans choose on an H100 is what the
 * filters were measured with (docs/performance.md).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <check.h>
#include <stdio.h>

#include "cs_cuda.h"
#include "cs_cuda_testing.h"
#include "cs_test_check.h"

static const int sizes[][2] = { { 1, 1 }, { 2, 3 }, { 385, 289 }, { 4097, 7 }, { 7, 1023 }, { 1920, 1080 },
  { 3840, 2160 }, { 16384, 16384 } };
#define N_SIZES ((int) (sizeof sizes / sizeof sizes[0]))

static void check_plan (CsCudaPlan *plan, const CsCudaDevice *dev, const char *arch, int w, int h, const char *what)
{
  ck_assert_msg (plan != NULL, "%s %s %dx%d: no plan", arch, what, w, h);
  ck_assert_msg (cs_cuda_plan_shared_bytes (plan) <= (size_t) dev->max_shared_per_block,
      "%s %s %dx%d: %s takes %zu bytes of shared memory, the block may have %d", arch, what, w, h,
      cs_cuda_path_name (cs_cuda_plan_path (plan)), cs_cuda_plan_shared_bytes (plan), dev->max_shared_per_block);
  const int lengths[2] = { w, h };
  const CsCudaPath path = cs_cuda_plan_path (plan);
  const int cuts_lines = path != CS_CUDA_PATH_COPY &&
      !(path >= CS_CUDA_PATH_BILATERAL_HALF_STRIPS && path <= CS_CUDA_PATH_BILATERAL_SEPARABLE);
  for (int pass = 0; pass < 2; pass++) {
    const int seg = cs_cuda_plan_segments (plan, (CsPass) pass);
    ck_assert_msg (cuts_lines ? seg >= 1 && seg <= lengths[pass] : seg == 0, "%s %s %dx%d: %s, %d segments in pass %d",
        arch, what, w, h, cs_cuda_path_name (path), seg, pass);
  }
  /* working frames for GRAY8 and YUV views only where the plan's kernels do not take views */
  const int takes_views = path == CS_CUDA_PATH_RECURSIVE_TILES || path == CS_CUDA_PATH_BILATERAL_HALF_STRIPS ||
      path == CS_CUDA_PATH_BILATERAL_HALF_TILES;
  for (int c = 1; c <= 3; c++)
    ck_assert_msg (cs_cuda_plan_work_bytes (plan, c) == (takes_views && c < 3 ? 0 : cs_cuda_channels_work_bytes (w, h)),
        "%s %s %dx%d: %s, %zu bytes of working frames for %d channels", arch, what, w, h, cs_cuda_path_name (path),
        cs_cuda_plan_work_bytes (plan, c), c);
  ck_assert_uint_eq (cs_cuda_plan_work_bytes (NULL, 1), 0);
  cs_cuda_plan_free (plan);
}

/* Every architecture, size and a spread of settings of each filter. */
START_TEST (test_plans_fit_every_architecture)
{
  CsCudaDevice dev;
  const char *arch = cs_cuda_architecture (_i, &dev);
  ck_assert_ptr_nonnull (arch);
  const CsCudaPlanOverrides none = { 0 };
  for (int s = 0; s < N_SIZES; s++) {
    const int w = sizes[s][0], h = sizes[s][1];
    const double sigmas[] = { 0.5, 2, 5, 12, 20, 50, 250 };
    for (int k = 0; k < 7; k++)
      for (int variant = 0; variant < 4; variant++) {
        CsRecursiveParams r = cs_recursive_params_default ();
        r.sigma = sigmas[k];
        r.algorithm = variant == 3 ? CS_RECURSIVE_YOUNG_VAN_VLIET : CS_RECURSIVE_DERICHE;
        r.partition_start = variant == 1 ? CS_PARTITION_CARRY : variant == 2 ? CS_PARTITION_WARM_UP : CS_PARTITION_AUTO;
        CsCudaPlan *plan = NULL;
        ck_assert_int_eq (cs_cuda_recursive_plan_new_with (&r, w, h, &dev, &none, &plan), cudaSuccess);
        check_plan (plan, &dev, arch, w, h, "recursivegauss");
      }
    for (int k = 0; k < 4; k++) {
      CsEdgeAwareParams e = cs_edgeaware_params_default ();
      e.sigma = k < 2 ? 20 : 200;
      e.sigma_r = k % 2 ? 150 : 40;
      CsCudaPlan *plan = NULL;
      ck_assert_int_eq (cs_cuda_edgeaware_plan_new_with (&e, w, h, &dev, &none, &plan), cudaSuccess);
      check_plan (plan, &dev, arch, w, h, "edgeawaregauss");
    }
    const int radii[] = { 1, 2, 3, 5, 7, 8, 15, 64 };
    for (int k = 0; k < 8; k++)
      for (int mode = 0; mode < 2; mode++) {
        CsBilateralParams b = cs_bilateral_params_default ();
        b.radius = radii[k];
        b.sigma = radii[k] / 2.0;
        b.mode = mode ? CS_BILATERAL_SEPARABLE : CS_BILATERAL_EXACT;
        CsCudaPlan *plan = NULL;
        ck_assert_int_eq (cs_cuda_bilateral_plan_new_with (&b, w, h, &dev, &none, &plan), cudaSuccess);
        check_plan (plan, &dev, arch, w, h, "bilateral");
      }
  }
}
END_TEST

/* The chroma of 4:2:2 formats (rows with σ/2, columns with σ): every architecture's plans fit
 * it, on paths that take a filter per axis (the swept passes, the direct and separable
 * bilateral); alike axes give the plain planners' plans. */
START_TEST (test_axes_plans)
{
  CsCudaDevice dev;
  const char *arch = cs_cuda_architecture (_i, &dev);
  for (int s = 0; s < N_SIZES; s++) {
    const int w = (sizes[s][0] + 1) / 2, h = sizes[s][1];
    for (int variant = 0; variant < 4; variant++) {
      CsRecursiveParams r = cs_recursive_params_default ();
      r.sigma = variant == 2 ? 60 : 5;   /* 60: κσ/2 = 90 carries (auto), κσ/2 along x as well */
      r.algorithm = variant == 3 ? CS_RECURSIVE_YOUNG_VAN_VLIET : CS_RECURSIVE_DERICHE;
      r.partition_start = variant == 1 ? CS_PARTITION_CARRY : CS_PARTITION_AUTO;
      const CsRecursiveParams rx = cs_recursive_params_subsampled (&r, 2), ry = cs_recursive_params_subsampled (&r, 1);
      CsCudaPlan *plan = NULL;
      ck_assert_int_eq (cs_cuda_recursive_plan_new_axes (&rx, &ry, w, h, &dev, &plan), cudaSuccess);
      const CsCudaPath path = cs_cuda_plan_path (plan);
      ck_assert_msg (path == CS_CUDA_PATH_RECURSIVE_SWEPT || path == CS_CUDA_PATH_RECURSIVE_SWEPT_CARRIED ||
          path == CS_CUDA_PATH_RECURSIVE_YVV, "%s: %s", arch, cs_cuda_path_name (path));
      check_plan (plan, &dev, arch, w, h, "recursivegauss 4:2:2 chroma");
    }
    CsEdgeAwareParams e = cs_edgeaware_params_default ();
    const CsEdgeAwareParams ex = cs_edgeaware_params_subsampled (&e, 2), ey = cs_edgeaware_params_subsampled (&e, 1);
    CsCudaPlan *plan = NULL;
    ck_assert_int_eq (cs_cuda_edgeaware_plan_new_axes (&ex, &ey, w, h, &dev, &plan), cudaSuccess);
    check_plan (plan, &dev, arch, w, h, "edgeawaregauss 4:2:2 chroma");
    for (int mode = 0; mode < 2; mode++) {
      CsBilateralParams b = cs_bilateral_params_default ();
      b.mode = mode ? CS_BILATERAL_SEPARABLE : CS_BILATERAL_EXACT;
      const CsBilateralParams bx = cs_bilateral_params_subsampled (&b, 2), by = cs_bilateral_params_subsampled (&b, 1);
      ck_assert_int_eq (cs_cuda_bilateral_plan_new_axes (&bx, &by, w, h, &dev, &plan), cudaSuccess);
      ck_assert_int_eq (cs_cuda_plan_path (plan), mode ? CS_CUDA_PATH_BILATERAL_SEPARABLE : CS_CUDA_PATH_BILATERAL_DIRECT);
      check_plan (plan, &dev, arch, w, h, "bilateral 4:2:2 chroma");
    }
  }
  /* alike axes: the plain plan (the tiles for the default recursive Gaussian at 1080p) */
  CsRecursiveParams r = cs_recursive_params_default ();
  CsCudaPlan *a = NULL, *b = NULL;
  ck_assert_int_eq (cs_cuda_recursive_plan_new_axes (&r, &r, 1920, 1080, &dev, &a), cudaSuccess);
  ck_assert_int_eq (cs_cuda_recursive_plan_new (&r, 1920, 1080, &dev, &b), cudaSuccess);
  ck_assert_int_eq (cs_cuda_plan_path (a), cs_cuda_plan_path (b));
  ck_assert_int_eq (cs_cuda_plan_segments (a, CS_PASS_ROWS), cs_cuda_plan_segments (b, CS_PASS_ROWS));
  cs_cuda_plan_free (a);
  cs_cuda_plan_free (b);
}
END_TEST

static CsCudaPlan *recursive_plan (double sigma, CsPartitionStart start, int w, int h, const CsCudaDevice *dev)
{
  CsRecursiveParams r = cs_recursive_params_default ();
  r.sigma = sigma;
  r.partition_start = start;
  CsCudaPlan *plan = NULL;
  ck_assert_int_eq (cs_cuda_recursive_plan_new (&r, w, h, dev, &plan), cudaSuccess);
  return plan;
}

static void expect (CsCudaPlan *plan, CsCudaPath path, int rows, int columns, const char *what)
{
  ck_assert_msg (cs_cuda_plan_path (plan) == path && cs_cuda_plan_segments (plan, CS_PASS_ROWS) == rows &&
      cs_cuda_plan_segments (plan, CS_PASS_COLUMNS) == columns, "%s: %s (%d, %d), expected %s (%d, %d)", what,
      cs_cuda_path_name (cs_cuda_plan_path (plan)), cs_cuda_plan_segments (plan, CS_PASS_ROWS),
      cs_cuda_plan_segments (plan, CS_PASS_COLUMNS), cs_cuda_path_name (path), rows, columns);
  cs_cuda_plan_free (plan);
}

/* What the H100's plans choose: the paths and automatic counts the benchmarks measured. */
START_TEST (test_h100_choices)
{
  CsCudaDevice h100;
  ck_assert_ptr_nonnull (cs_cuda_architecture (cs_cuda_architecture_count () - 1, &h100));
  ck_assert_int_eq (h100.cc_major, 9);
  /* recursivegauss: tiles up to σ 5 at κ 3, 64-sample tensor-core passes up to σ 21, carried beyond */
  expect (recursive_plan (5, CS_PARTITION_AUTO, 1920, 1080, &h100), CS_CUDA_PATH_RECURSIVE_TILES, 30, 17, "σ 5 1080p");
  expect (recursive_plan (2, CS_PARTITION_AUTO, 3840, 2160, &h100), CS_CUDA_PATH_RECURSIVE_TILES, 60, 34, "σ 2 4K");
  expect (recursive_plan (20, CS_PARTITION_AUTO, 1920, 1080, &h100), CS_CUDA_PATH_RECURSIVE_LINES, 30, 17, "σ 20 1080p");
  expect (recursive_plan (50, CS_PARTITION_AUTO, 3840, 2160, &h100), CS_CUDA_PATH_RECURSIVE_LINES_CARRIED, 60, 34,
      "σ 50 4K");
  /* 512²: 32-sample tiles, so that the frame has a tile per SM */
  expect (recursive_plan (5, CS_PARTITION_AUTO, 512, 512, &h100), CS_CUDA_PATH_RECURSIVE_TILES, 16, 16, "σ 5 512²");
  /* bilateral */
  const struct { int radius; double sigma_r; CsRangeKernel kernel; CsBilateralMode mode; CsCudaPath path; } b[] = {
    { 1, 30, CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_EXACT, CS_CUDA_PATH_BILATERAL_HALF_STRIPS },
    { 3, 30, CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_EXACT, CS_CUDA_PATH_BILATERAL_HALF_TILES },
    { 7, 64, CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_EXACT, CS_CUDA_PATH_BILATERAL_HALF_TILES },
    { 7, 65, CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_EXACT, CS_CUDA_PATH_BILATERAL_FLOAT_TILES },
    { 3, 30, CS_RANGE_KERNEL_LORENTZIAN, CS_BILATERAL_EXACT, CS_CUDA_PATH_BILATERAL_FLOAT_TILES },
    { 9, 30, CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_EXACT, CS_CUDA_PATH_BILATERAL_DIRECT },
    { 3, 30, CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_SEPARABLE, CS_CUDA_PATH_BILATERAL_SEPARABLE },
  };
  for (int k = 0; k < (int) (sizeof b / sizeof b[0]); k++) {
    CsBilateralParams p = cs_bilateral_params_default ();
    p.radius = b[k].radius;
    p.sigma_r = b[k].sigma_r;
    p.range_kernel = b[k].kernel;
    p.mode = b[k].mode;
    CsCudaPlan *plan = NULL;
    ck_assert_int_eq (cs_cuda_bilateral_plan_new (&p, 1920, 1080, &h100, &plan), cudaSuccess);
    expect (plan, b[k].path, 0, 0, "bilateral");
  }
  /* edgeawaregauss, σ 20 σr 40 */
  CsEdgeAwareParams e = cs_edgeaware_params_default ();
  CsCudaPlan *plan = NULL;
  ck_assert_int_eq (cs_cuda_edgeaware_plan_new (&e, 1920, 1080, &h100, &plan), cudaSuccess);
  printf ("edgeawaregauss 1080p on an H100: %d, %d segments\n", cs_cuda_plan_segments (plan, CS_PASS_ROWS),
      cs_cuda_plan_segments (plan, CS_PASS_COLUMNS));
  ck_assert_int_eq (cs_cuda_plan_path (plan), CS_CUDA_PATH_EDGEAWARE_SPLIT);
  cs_cuda_plan_free (plan);
  /* identity: a copy */
  e.sigma = 1e-300;
  ck_assert_int_eq (cs_cuda_edgeaware_plan_new (&e, 1920, 1080, &h100, &plan), cudaSuccess);
  expect (plan, CS_CUDA_PATH_COPY, 0, 0, "tiny sigma");
}
END_TEST

/* Where two blocks' shared memory does not fit (sm_75: 64 KB a block; sm_86 and sm_89: 99 KB)
 * the tile kernel runs its three-block instance (64 KB at 96-sample windows): the tile path
 * stays; a frame of few tiles on an H100 takes the two-block instance, on an RTX 3090 the same
 * tiles in the three-block one. */
START_TEST (test_tiles_on_small_shared_memory)
{
  for (int i = 0; i < cs_cuda_architecture_count (); i++) {
    CsCudaDevice dev;
    const char *arch = cs_cuda_architecture (i, &dev);
    CsCudaPlan *plan = recursive_plan (5, CS_PARTITION_WARM_UP, 640, 480, &dev);
    ck_assert_msg (cs_cuda_plan_path (plan) == CS_CUDA_PATH_RECURSIVE_TILES, "%s: %s", arch,
        cs_cuda_path_name (cs_cuda_plan_path (plan)));
    ck_assert (cs_cuda_plan_shared_bytes (plan) <= (size_t) dev.max_shared_per_block);
    printf ("%-26s sigma 5 640x480: tiles, %zu bytes of shared memory a block\n", arch, cs_cuda_plan_shared_bytes (plan));
    cs_cuda_plan_free (plan);
  }
  /* a device whose blocks may not hold even the smallest instance plans the passes */
  CsCudaDevice tiny;
  cs_cuda_architecture (0, &tiny);
  tiny.max_shared_per_block = 48 * 1024;
  CsCudaPlan *plan = recursive_plan (5, CS_PARTITION_WARM_UP, 640, 480, &tiny);
  ck_assert_msg (cs_cuda_plan_path (plan) != CS_CUDA_PATH_RECURSIVE_TILES, "tiles on 48 KB");
  ck_assert (cs_cuda_plan_shared_bytes (plan) <= (size_t) tiny.max_shared_per_block);
  cs_cuda_plan_free (plan);
}
END_TEST

int main (void)
{
  Suite *s = suite_create ("planner");
  TCase *tc = tcase_create ("planner");
  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_plans_fit_every_architecture, 0, cs_cuda_architecture_count ());
  tcase_add_loop_test (tc, test_axes_plans, 0, cs_cuda_architecture_count ());
  tcase_add_test (tc, test_h100_choices);
  tcase_add_test (tc, test_tiles_on_small_shared_memory);
  suite_add_tcase (s, tc);
  return cs_test_run_suite (s);
}
