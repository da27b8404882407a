/* The fast CPU path against the double references: max abs error <= 1 LSB on photo crops,
 * noise and odd sizes, padded strides, both alpha layouts, several thread counts, in place;
 * and the thread pool it runs on.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#include "cs_cpu.h"
#include "cs_metrics.h"
#include "cs_float_mode.h"
#include "cs_parallel.h"
#include "cs_reference.h"
#include "cs_test_images.h"
#include "cs_test_job.h"
#include "cs_test_layouts.h"
#include "cs_test_check.h"

#define POISON 0x5A


typedef struct {
  int w, h, pad, alpha, kind;   /* kind: 0 noise, 1 scene, 2 astronaut, 3 coffee */
} Input;

static const Input inputs[] = {
  { 1, 1, 0, 3, 0 }, { 2, 3, 12, 0, 0 }, { 385, 289, 36, 3, 1 }, { 4097, 7, 4, 0, 1 },
  { 7, 1023, 0, 3, 0 }, { 0, 0, 20, 3, 2 }, { 0, 0, 8, 0, 3 },
};
#define N_INPUTS ((int) (sizeof inputs / sizeof inputs[0]))

static CsImage make_input (const Input *in)
{
  if (in->kind >= 2) {
    CsImage img = cs_test_image_load_ppm (cs_test_data_path (in->kind == 2 ? "astronaut_256x256.ppm"
                                                                          : "coffee_301x203.ppm"),
        in->pad, in->alpha);
    ck_assert_msg (img.width > 0, "cannot read a shipped test image");
    return img;
  }
  CsImage img = cs_test_image_new (in->w, in->h, in->pad, in->alpha, 0);
  if (in->kind == 0)
    cs_test_fill_noise (&img, (uint32_t) (in->w * 3 + in->h));
  else
    cs_test_fill_scene (&img, 11);
  return img;
}

static int run_cpu (const CsTestJob *j, const CsImage *src, CsImage *dst, int threads, CsCpuWorkspace *ws)
{
  switch (j->filter) {
    case CS_TEST_EDGEAWARE: return cs_cpu_edgeaware (src, dst, &j->ea, threads, ws);
    case CS_TEST_BILATERAL: return cs_cpu_bilateral (src, dst, &j->bl, threads, ws);
    default: return cs_cpu_recursive (src, dst, &j->rc, threads, ws);
  }
}

/* CPU vs reference on one input, with 1 and 3 threads (which must agree exactly). */
static void check (const CsTestJob *j, const Input *in, const char *what)
{
  CsImage src = make_input (in);
  CsImage ref = cs_test_image_new (src.width, src.height, 0, in->alpha, 0);
  CsImage out1 = cs_test_image_new (src.width, src.height, in->pad + 4, in->alpha, POISON);
  CsImage out3 = cs_test_image_new (src.width, src.height, in->pad + 4, in->alpha, POISON);
  CsCpuWorkspace ws = { 0 };
  ck_assert_int_eq (cs_test_job_reference (j, &src, &ref), 0);
  ck_assert_int_eq (run_cpu (j, &src, &out1, 1, &ws), 0);
  ck_assert_int_eq (run_cpu (j, &src, &out3, 3, &ws), 0);
  const CsErrorStats st = cs_compare_images (&out1, &ref);
  const CsErrorStats threads = cs_compare_images (&out1, &out3);
  printf ("%-40s %5dx%-5d max %.0f psnr %.2f dB\n", what, src.width, src.height, st.max_abs, st.psnr);
  ck_assert_msg (st.max_abs <= 1, "%s %dx%d: max abs error %.0f", what, src.width, src.height, st.max_abs);
  ck_assert_msg (st.alpha_differing == 0, "%s: alpha changed", what);
  ck_assert_msg (threads.differing == 0 && threads.alpha_differing == 0, "%s: 1 and 3 threads differ", what);
  ck_assert_msg (cs_test_padding_intact (&out1, POISON) && cs_test_padding_intact (&out3, POISON),
      "%s: wrote into the row padding", what);
  cs_cpu_workspace_clear (&ws);
  cs_test_image_free (&src);
  cs_test_image_free (&ref);
  cs_test_image_free (&out1);
  cs_test_image_free (&out3);
}

START_TEST (test_edgeaware)
{
  CsTestJob j = { .filter = CS_TEST_EDGEAWARE, .ea = cs_edgeaware_params_default () };
  const int blocks[] = { 1, 1, 4 };
  j.ea.blocks_per_stripe = blocks[_i % 3];
  j.ea.sigma = _i % 3 == 1 ? 50 : 12;
  j.ea.sigma_r = _i % 3 == 1 ? 50 : 25;
  j.ea.iterations = 1 + _i % 3;
  check (&j, &inputs[(_i / 3) % N_INPUTS], "edgeaware");
}
END_TEST

/* Blocks of one or two samples (the coffee crop, 150 and 200 a line) at κ 0.5, σ 10, σr 30,
 * where the warm-up threshold κσ_2 = √5 equals the Δt of a colour step d² = 36: the search
 * must decide those exact ties as the reference does; and at κ 0, where no block warms up. */
START_TEST (test_edgeaware_short_blocks)
{
  CsTestJob j = { .filter = CS_TEST_EDGEAWARE, .ea = cs_edgeaware_params_default () };
  j.ea.blocks_per_stripe = _i % 2 ? 200 : 150;
  j.ea.kappa = _i / 2 ? 0.5 : 0.0;
  j.ea.sigma = 10;
  j.ea.sigma_r = 30;
  check (&j, &inputs[6], "edgeaware short blocks");
}
END_TEST

START_TEST (test_bilateral)
{
  CsTestJob j = { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () };
  const int radii[] = { 1, 3, 7 };
  j.bl.radius = radii[_i % 3];
  j.bl.sigma = j.bl.radius / 2.0 + 0.3;
  j.bl.range_kernel = (_i / 3) % 2 ? CS_RANGE_KERNEL_LORENTZIAN : CS_RANGE_KERNEL_GAUSSIAN;
  j.bl.mode = (_i / 6) % 2 ? CS_BILATERAL_SEPARABLE : CS_BILATERAL_EXACT;
  check (&j, &inputs[(_i / 2) % N_INPUTS], "bilateral");
}
END_TEST

START_TEST (test_bilateral_large_radius)
{
  CsTestJob j = { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () };
  j.bl.radius = _i ? 32 : 15;
  j.bl.sigma = j.bl.radius / 2.0;
  const Input in = { 45, 37, 4, 3, 1 };
  check (&j, &in, "bilateral large radius");
}
END_TEST

START_TEST (test_recursive)
{
  CsTestJob j = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
  const double sigmas[] = { 0.5, 3, 25, 120 };
  j.rc.sigma = sigmas[_i % 4];
  j.rc.blocks_per_stripe = (_i / 4) % 2 ? 5 : 1;
  j.rc.algorithm = (_i / 8) % 2 ? CS_RECURSIVE_YOUNG_VAN_VLIET : CS_RECURSIVE_DERICHE;
  check (&j, &inputs[(_i / 3) % N_INPUTS], "recursive");
}
END_TEST

/* src == dst: the CPU path reads all its input before it writes. */
START_TEST (test_in_place)
{
  const Input in = { 0, 0, 16, 3, 3 };
  for (int f = 0; f < 3; f++) {
    CsTestJob j = { .filter = (CsTestFilter) f, .ea = cs_edgeaware_params_default (),
      .bl = cs_bilateral_params_default (), .rc = cs_recursive_params_default () };
    CsImage src = make_input (&in), inplace = make_input (&in), out = make_input (&in);
    CsCpuWorkspace ws = { 0 };
    ck_assert_int_eq (run_cpu (&j, &src, &out, 2, &ws), 0);
    ck_assert_int_eq (run_cpu (&j, &inplace, &inplace, 2, &ws), 0);
    ck_assert_int_eq (cs_compare_images (&out, &inplace).differing, 0);
    cs_cpu_workspace_clear (&ws);
    cs_test_image_free (&src);
    cs_test_image_free (&inplace);
    cs_test_image_free (&out);
  }
}
END_TEST


/* σ down to the smallest positive double and partitions of one sample at κ = 0: the CPU
 * path agrees with the reference (which the references suite holds to the identity and to
 * the input's mean) in every mode. */
START_TEST (test_tiny_sigma_and_short_partitions)
{
  const Input in = { 64, 33, 8, 0, 1 };
  const double tiny[] = { 4.9406564584124654e-324, 1e-300, 0.05 };
  for (int k = 0; k < 3; k++) {
    CsTestJob j = { .filter = CS_TEST_BILATERAL, .bl = cs_bilateral_params_default () };
    j.bl.sigma = tiny[k];
    for (int mode = 0; mode < 4; mode++) {
      j.bl.mode = mode & 1 ? CS_BILATERAL_SEPARABLE : CS_BILATERAL_EXACT;
      j.bl.range_kernel = mode & 2 ? CS_RANGE_KERNEL_LORENTZIAN : CS_RANGE_KERNEL_GAUSSIAN;
      check (&j, &in, "bilateral tiny sigma");
    }
    CsTestJob e = { .filter = CS_TEST_EDGEAWARE, .ea = cs_edgeaware_params_default () };
    e.ea.sigma = tiny[k];
    check (&e, &in, "edgeaware tiny sigma");
    CsTestJob r = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
    r.rc.sigma = tiny[k];
    check (&r, &in, "recursive tiny sigma");
  }
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 4; b++) {
      CsTestJob r = { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () };
      const int blocks[] = { 64, 32, 21, 1 };   /* rows of 1, 2, 3 samples, whole */
      r.rc.algorithm = a ? CS_RECURSIVE_YOUNG_VAN_VLIET : CS_RECURSIVE_DERICHE;
      r.rc.partition_start = CS_PARTITION_WARM_UP;
      r.rc.kappa = 0;
      r.rc.sigma = 6;
      r.rc.blocks_per_stripe = blocks[b];
      check (&r, &in, "recursive kappa 0");
    }
}
END_TEST

/* the largest difference between two byte buffers */
static int max_byte_difference (const uint8_t *a, const uint8_t *b, size_t n)
{
  int worst = 0;
  for (size_t i = 0; i < n; i++) {
    const int d = abs ((int) a[i] - (int) b[i]);
    worst = d > worst ? d : worst;
  }
  return worst;
}

/* Channel views (GRAY8 and YUV) against the references: luma, NV12 / NV21 chroma, YUY2 luma and
 * YUY2 / UYVY chroma (rows with σ/2, columns with σ) inside one interleaved buffer of odd
 * pitch, I420 chroma as two planes of it; every byte off the view stays poison; the RGBA frame's workspace suffices. */
START_TEST (test_channel_views)
{
  const int filter = _i % 3, kind = (_i / 3) % CS_TEST_N_VIEW_KINDS, size = _i / (3 * CS_TEST_N_VIEW_KINDS);
  const int sizes[][2] = { { 37, 23 }, { 1, 1 }, { 130, 3 } };
  const CsTestViewKind *k = &cs_test_view_kinds[kind];
  const int w = sizes[size][0], h = sizes[size][1];
  const size_t pitch = cs_test_view_pitch (k, w), bytes = cs_test_view_bytes (k, h, pitch);
  uint8_t *in = malloc (bytes), *expected = malloc (bytes), *got = malloc (bytes);
  cs_test_fill_bytes (in, bytes, 777u + _i);
  memset (expected, 0xA5, bytes);
  memset (got, 0xA5, bytes);
  CsEdgeAwareParams e = cs_edgeaware_params_default ();
  CsBilateralParams b = cs_bilateral_params_default ();
  CsRecursiveParams r = cs_recursive_params_default ();
  e.sigma = 6;
  e.blocks_per_stripe = 3;
  r.sigma = 4;
  r.blocks_per_stripe = 2;
  const CsChannels src = cs_test_view_in (in, k, w, h, pitch);
  CsChannels ref = cs_test_view_in (expected, k, w, h, pitch), out = cs_test_view_in (got, k, w, h, pitch);
  CsCpuWorkspace ws = { 0 };
  int ret_ref, ret;
  if (filter == 0) {
    const CsEdgeAwareParams px = cs_edgeaware_params_subsampled (&e, k->sx), py = cs_edgeaware_params_subsampled (&e, k->sy);
    ret_ref = cs_ref_edgeaware_channels (&src, &ref, &e, k->sx, k->sy);
    ck_assert_int_eq (cs_cpu_workspace_reserve (&ws, cs_cpu_edgeaware_workspace_bytes (&e, w, h, 3)), 0);
    ret = cs_cpu_edgeaware_channels (&src, &out, &px, &py, 3, &ws);
  } else if (filter == 1) {
    const CsBilateralParams px = cs_bilateral_params_subsampled (&b, k->sx), py = cs_bilateral_params_subsampled (&b, k->sy);
    ret_ref = cs_ref_bilateral_channels (&src, &ref, &b, k->sx, k->sy);
    ck_assert_int_eq (cs_cpu_workspace_reserve (&ws, cs_cpu_bilateral_workspace_bytes (&b, w, h, 3)), 0);
    ret = cs_cpu_bilateral_channels (&src, &out, &px, &py, 3, &ws);
  } else {
    const CsRecursiveParams px = cs_recursive_params_subsampled (&r, k->sx), py = cs_recursive_params_subsampled (&r, k->sy);
    ret_ref = cs_ref_recursive_channels (&src, &ref, &r, k->sx, k->sy);
    ck_assert_int_eq (cs_cpu_workspace_reserve (&ws, cs_cpu_recursive_workspace_bytes (&r, w, h, 3)), 0);
    ret = cs_cpu_recursive_channels (&src, &out, &px, &py, 3, &ws);
  }
  const size_t reserved = ws.size;
  ck_assert_int_eq (ret_ref, 0);
  ck_assert_int_eq (ret, 0);
  ck_assert_uint_eq (ws.size, reserved);   /* nothing grown: the RGBA workspace served */
  const int worst = max_byte_difference (got, expected, bytes);
  ck_assert_msg (worst <= 1, "filter %d, %s %dx%d: max difference %d (or a byte off the view written)", filter,
      k->name, w, h, worst);
  cs_cpu_workspace_clear (&ws);
  free (in);
  free (expected);
  free (got);
}
END_TEST

/* recursivegauss and edgeawaregauss on a frame's views at once (shared parallel loops) give
 * each view what it gets alone, bit for bit, and write nothing else: luma + interleaved
 * chroma (NV12) as a frame and as two fields, three planes (I420) as two fields (six views),
 * and I420 with three more full-size planes (at 64x65 more samples than an RGBA frame holds:
 * one view at a time), in the workspace reserved for the RGBA frame of the size. */
typedef struct {
  CsRecursiveParams r;
  CsEdgeAwareParams e;
} ViewParams;

static int views_alone (int edgeaware, int n, const CsChannels *src, CsChannels *dst, const ViewParams *px,
    const ViewParams *py, CsCpuWorkspace *ws)
{
  for (int v = 0; v < n; v++) {
    const int ret = edgeaware ? cs_cpu_edgeaware_channels (&src[v], &dst[v], &px[v].e, &py[v].e, 3, ws)
                              : cs_cpu_recursive_channels (&src[v], &dst[v], &px[v].r, &py[v].r, 3, ws);
    if (ret != 0)
      return ret;
  }
  return 0;
}

static int views_together (int edgeaware, int n, const CsChannels *src, CsChannels *dst, const ViewParams *px,
    const ViewParams *py, CsCpuWorkspace *ws)
{
  CsRecursiveParams rx[CS_CPU_MAX_VIEWS + 1], ry[CS_CPU_MAX_VIEWS + 1];
  CsEdgeAwareParams ex[CS_CPU_MAX_VIEWS + 1], ey[CS_CPU_MAX_VIEWS + 1];
  for (int v = 0; v < n && v <= CS_CPU_MAX_VIEWS; v++) {
    rx[v] = px[v].r;
    ry[v] = py[v].r;
    ex[v] = px[v].e;
    ey[v] = py[v].e;
  }
  return edgeaware ? cs_cpu_edgeaware_views (n, src, dst, ex, ey, 3, ws) : cs_cpu_recursive_views (n, src, dst, rx, ry, 3, ws);
}

START_TEST (test_views)
{
  const int layout = _i % 4, size = (_i / 4) % 4, edgeaware = _i / 16;
  const int sizes[][2] = { { 37, 23 }, { 1, 1 }, { 130, 3 }, { 64, 65 } };
  const int w = sizes[size][0], h = sizes[size][1], cw = (w + 1) / 2, ch = (h + 1) / 2;
  const size_t pitch = (size_t) w + 5, bytes = pitch * (size_t) h * 6;   /* six slots of a plane */
  uint8_t *in = malloc (bytes), *alone = malloc (bytes), *together = malloc (bytes);
  cs_test_fill_bytes (in, bytes, 9090u + _i);
  memset (alone, 0xA5, bytes);
  memset (together, 0xA5, bytes);
  CsChannels src[CS_CPU_MAX_VIEWS + 1], a[CS_CPU_MAX_VIEWS + 1], t[CS_CPU_MAX_VIEWS + 1];
  ViewParams px[CS_CPU_MAX_VIEWS + 1], py[CS_CPU_MAX_VIEWS + 1];
  CsRecursiveParams r = cs_recursive_params_default ();
  r.sigma = 3;
  CsEdgeAwareParams e = cs_edgeaware_params_default ();
  e.sigma = 6;
  e.iterations = 2;
  const int fields = layout == 1 || layout == 2 ? 2 : 1, planar = layout >= 2;
  int n = 0;
  size_t offset = 0;
  for (int f = 0; f < fields; f++) {
    const int lh = (h - f + fields - 1) / fields, chh = (ch - f + fields - 1) / fields;
    if (lh == 0)
      continue;
    /* luma, then chroma: interleaved, or two planes */
    const int planes = layout == 0 || layout == 1 ? 2 : 3;
    for (int p = 0; p < planes; p++) {
      const int chroma = p > 0, vw = chroma ? cw : w, vh = chroma ? chh : lh, nc = chroma && !planar ? 2 : 1;
      if (vh == 0)
        continue;
      const size_t at = offset + (size_t) f * pitch;
      CsChannels v = { vw, vh, nc, { in + at, in + at + 1 }, { (ptrdiff_t) (pitch * fields), (ptrdiff_t) (pitch * fields) }, nc };
      src[n] = v;
      a[n] = v;
      t[n] = v;
      for (int c = 0; c < nc; c++) {
        a[n].data[c] = alone + (v.data[c] - in);
        t[n].data[c] = together + (v.data[c] - in);
      }
      /* chroma 4:2:2-like (σ halved along x only) in the NV12 frame, so that its two passes
       * take tables of their own */
      px[n] = (ViewParams) { cs_recursive_params_subsampled (&r, chroma ? 2 : 1), cs_edgeaware_params_subsampled (&e, chroma ? 2 : 1) };
      py[n] = (ViewParams) { cs_recursive_params_subsampled (&r, chroma ? 2 : 1),
        cs_edgeaware_params_subsampled (&e, chroma && layout != 0 ? 2 : 1) };
      n++;
      offset += pitch * (size_t) h;
    }
    offset = 0;
  }
  for (int extra = 0; layout == 3 && extra < 3; extra++) {   /* full-size planes in slots 3..5 */
    const size_t at = (size_t) (3 + extra) * pitch * (size_t) h;
    CsChannels v = { w, h, 1, { in + at }, { (ptrdiff_t) pitch }, 1 };
    src[n] = a[n] = t[n] = v;
    a[n].data[0] = alone + at;
    t[n].data[0] = together + at;
    px[n] = py[n] = (ViewParams) { r, e };
    n++;
  }
  CsCpuWorkspace ws = { 0 };
  ck_assert_int_eq (cs_cpu_workspace_reserve (&ws, edgeaware ? cs_cpu_edgeaware_workspace_bytes (&e, w, h, 3)
                                                             : cs_cpu_recursive_workspace_bytes (&r, w, h, 3)), 0);
  const size_t reserved = ws.size;
  ck_assert_int_eq (views_alone (edgeaware, n, src, a, px, py, &ws), 0);
  ck_assert_int_eq (views_together (edgeaware, n, src, t, px, py, &ws), 0);
  ck_assert_uint_eq (ws.size, reserved);
  ck_assert_msg (memcmp (alone, together, bytes) == 0, "%s, layout %d, %dx%d: %d views together differ from alone",
      edgeaware ? "edgeawaregauss" : "recursivegauss", layout, w, h, n);
  ck_assert_int_eq (views_together (edgeaware, 0, src, t, px, py, &ws), -1);
  ck_assert_int_eq (views_together (edgeaware, CS_CPU_MAX_VIEWS + 1, src, t, px, py, &ws), -1);
  cs_cpu_workspace_clear (&ws);
  free (in);
  free (alone);
  free (together);
}
END_TEST

/* One channel of bytes takes its range weights from a table (a gather where the CPU has AVX2,
 * lane by lane elsewhere): GRAY8-like views against the reference in both modes, both range
 * kernels and σr from where most taps weigh 0 to where all weigh about 1, at odd sizes, in a
 * workspace of NaNs (the lanes past the width index the table too). */
START_TEST (test_one_channel_bilateral)
{
  const int mode = _i % 2, lorentz = (_i / 2) % 2, s = (_i / 4) % 3, size = _i / 12;
  const double sigmas_r[] = { 2, 25, 200 };
  const int sizes[][2] = { { 37, 23 }, { 1, 1 }, { 9, 70 } };
  const int w = sizes[size][0], h = sizes[size][1];
  const size_t pitch = (size_t) w + 3, bytes = pitch * h;
  uint8_t *in = malloc (bytes), *expected = malloc (bytes), *got = malloc (bytes);
  cs_test_fill_bytes (in, bytes, 4242u + _i);
  memset (expected, 0xA5, bytes);
  memset (got, 0xA5, bytes);
  CsBilateralParams b = cs_bilateral_params_default ();
  b.mode = mode ? CS_BILATERAL_SEPARABLE : CS_BILATERAL_EXACT;
  b.range_kernel = lorentz ? CS_RANGE_KERNEL_LORENTZIAN : CS_RANGE_KERNEL_GAUSSIAN;
  b.sigma_r = sigmas_r[s];
  const CsChannels src = { w, h, 1, { in }, { (ptrdiff_t) pitch }, 1 };
  CsChannels ref = { w, h, 1, { expected }, { (ptrdiff_t) pitch }, 1 }, out = { w, h, 1, { got }, { (ptrdiff_t) pitch }, 1 };
  /* a workspace holding what a frame before might have left: NaN everywhere */
  CsCpuWorkspace ws = { 0 };
  ck_assert_int_eq (cs_cpu_workspace_reserve (&ws, cs_cpu_bilateral_workspace_bytes (&b, w, h, 3)), 0);
  memset (ws.mem, 0xFF, ws.size);
  ck_assert_int_eq (cs_ref_bilateral_channels (&src, &ref, &b, 1, 1), 0);
  ck_assert_int_eq (cs_cpu_bilateral_channels (&src, &out, &b, &b, 3, &ws), 0);
  const int worst = max_byte_difference (got, expected, bytes);
  ck_assert_msg (worst <= 1, "%s, %s range, sigma-r %g, %dx%d: max difference %d (or a byte off the view written)",
      mode ? "separable" : "exact", lorentz ? "Lorentzian" : "Gaussian", b.sigma_r, w, h, worst);
  cs_cpu_workspace_clear (&ws);
  free (in);
  free (expected);
  free (got);
}
END_TEST

/* What *_workspace_bytes says is what a call grows a fresh workspace to, for every filter
 * and mode, so that reserving it when caps are set leaves frames nothing to allocate. */
START_TEST (test_workspace_bytes)
{
  const Input in = { 97, 41, 4, 3, 1 };
  for (int f = 0; f < 5; f++) {
    CsTestJob j = { .filter = (CsTestFilter) (f < 3 ? f : CS_TEST_BILATERAL), .ea = cs_edgeaware_params_default (),
      .bl = cs_bilateral_params_default (), .rc = cs_recursive_params_default () };
    if (f == 3)
      j.bl.mode = CS_BILATERAL_SEPARABLE;
    if (f == 4)
      j.bl.radius = 40;
    CsImage src = make_input (&in), out = make_input (&in);
    for (int threads = 1; threads <= 3; threads += 2) {
      CsCpuWorkspace ws = { 0 };
      size_t expected;
      switch (j.filter) {
        case CS_TEST_EDGEAWARE: expected = cs_cpu_edgeaware_workspace_bytes (&j.ea, src.width, src.height, threads); break;
        case CS_TEST_BILATERAL: expected = cs_cpu_bilateral_workspace_bytes (&j.bl, src.width, src.height, threads); break;
        default: expected = cs_cpu_recursive_workspace_bytes (&j.rc, src.width, src.height, threads);
      }
      ck_assert_int_eq (run_cpu (&j, &src, &out, threads, &ws), 0);
      ck_assert_msg (ws.size == expected, "filter %d, %d threads: the call took %zu bytes, %zu announced", f,
          threads, ws.size, expected);
      /* reserved first, the call allocates nothing more */
      void *mem = ws.mem;
      ck_assert_int_eq (run_cpu (&j, &src, &out, threads, &ws), 0);
      ck_assert (ws.mem == mem);
      cs_cpu_workspace_clear (&ws);
    }
    cs_test_image_free (&src);
    cs_test_image_free (&out);
  }
}
END_TEST

/* cs_parallel_for: every item once, in non-empty chunks; a chunk's worker index below the
 * threads asked for, and never two chunks of one index at once (per-thread scratch); from
 * four threads at once (sharing the workers), with more threads asked for than items, and
 * nested in a chunk. */
typedef struct {
  int n_items, n_threads, nested;
  atomic_int *seen;
  atomic_int busy[64];   /* a chunk of this worker index is running */
  atomic_int bad;        /* a chunk out of range, two of one index at once, or a nested call that missed items */
} Visit;

static void visit (void *arg, int begin, int end, int worker)
{
  Visit *v = arg;
  if (worker < 0 || worker >= v->n_threads || begin >= end || begin < 0 || end > v->n_items ||
      atomic_exchange (&v->busy[worker], 1)) {
    atomic_store (&v->bad, 1);
    return;
  }
  for (int i = begin; i < end; i++)
    atomic_fetch_add (&v->seen[i], 1);
  if (v->nested && worker == 0) {
    Visit inner = { 100, 3, 0, calloc (100, sizeof (atomic_int)), { 0 }, 0 };
    cs_parallel_for (inner.n_items, inner.n_threads, visit, &inner);
    for (int i = 0; i < inner.n_items; i++)
      if (atomic_load (&inner.seen[i]) != 1 || atomic_load (&inner.bad))
        atomic_store (&v->bad, 1);
    free (inner.seen);
  }
  thrd_yield ();   /* let another thread reach this index while it is busy, were it to */
  atomic_store (&v->busy[worker], 0);
}

static int visit_all (void *arg)
{
  Visit *v = arg;
  for (int round = 0; round < 50; round++) {
    for (int i = 0; i < v->n_items; i++)
      atomic_store (&v->seen[i], 0);
    cs_parallel_for (v->n_items, v->n_threads, visit, v);
    if (atomic_load (&v->bad))
      return 4;
    for (int i = 0; i < v->n_items; i++)
      if (atomic_load (&v->seen[i]) != 1)
        return 1;
  }
  return 0;
}

START_TEST (test_thread_pool)
{
  enum { N = 4 };
  const int items[N] = { 1000, 5, 1, 777 }, threads[N] = { 16, 16, 8, 3 };
  Visit v[N];
  thrd_t t[N];
  for (int i = 0; i < N; i++) {
    v[i] = (Visit) { items[i], threads[i], i == 3, calloc ((size_t) items[i], sizeof (atomic_int)), { 0 }, 0 };
    ck_assert_int_eq (thrd_create (&t[i], visit_all, &v[i]), thrd_success);
  }
  for (int i = 0; i < N; i++) {
    int rc = -1;
    thrd_join (t[i], &rc);
    ck_assert_msg (rc == 0, "caller %d: %s", i,
        rc == 1 ? "an item not visited once" : "a chunk out of range, two of one worker index at once, or a nested call's items");
    free (v[i].seen);
  }
}
END_TEST

/* Six callers at once, each making loops of random sizes whose chunks take random times
 * and sometimes make loops of their own, two deep: every item is visited once. Callers
 * outnumber the workers, so offers are taken back and chunks run on their callers. */
typedef struct {
  int n, depth;
  unsigned seed;
  atomic_int *seen;
  atomic_int bad;
} Random;

static void random_chunk (void *arg, int begin, int end, int worker)
{
  Random *r = arg;
  (void) worker;
  for (int i = begin; i < end; i++)
    atomic_fetch_add (&r->seen[i], 1);
  const unsigned h = r->seed * (unsigned) (begin + 1) * 2654435761u;
  for (volatile unsigned k = 0; k < h % 4000; k = k + 1)
    ;
  if (r->depth < 2 && h % 7 == 0) {
    Random inner = { (int) (1 + h % 50), r->depth + 1, h, calloc (50, sizeof (atomic_int)), 0 };
    cs_parallel_for (inner.n, (int) (2 + h % 15), random_chunk, &inner);
    for (int i = 0; i < inner.n; i++)
      if (atomic_load (&inner.seen[i]) != 1)
        atomic_store (&r->bad, 1);
    if (atomic_load (&inner.bad))
      atomic_store (&r->bad, 1);
    free (inner.seen);
  }
}

static int random_loops (void *arg)
{
  unsigned s = (unsigned) (size_t) arg;
  for (int round = 0; round < 400; round++) {
    s = s * 1103515245u + 12345u;
    Random r = { (int) (1 + (s >> 8) % 120), 0, s, calloc (120, sizeof (atomic_int)), 0 };
    cs_parallel_for (r.n, (int) (2 + (s >> 4) % 16), random_chunk, &r);
    int ok = !atomic_load (&r.bad);
    for (int i = 0; i < r.n; i++)
      ok &= atomic_load (&r.seen[i]) == 1;
    free (r.seen);
    if (!ok)
      return 1;
  }
  return 0;
}

START_TEST (test_thread_pool_random)
{
  thrd_t t[6];
  for (int i = 0; i < 6; i++)
    ck_assert_int_eq (thrd_create (&t[i], random_loops, (void *) (size_t) (i + 1)), thrd_success);
  for (int i = 0; i < 6; i++) {
    int rc = -1;
    thrd_join (t[i], &rc);
    ck_assert_msg (rc == 0, "caller %d: an item not visited once", i);
  }
}
END_TEST

/* After fork() the child's loops run on workers of its own (the parent's are not copied),
 * not all on the calling thread. */
typedef struct {
  pthread_t who[4];
  unsigned long mode[4];   /* the floating-point mode each chunk ran in */
} Who;

/* four items of four threads: a chunk an item, noted by its item */
static void note_thread (void *arg, int begin, int end, int worker)
{
  Who *w = arg;
  (void) end;
  (void) worker;
  w->who[begin] = pthread_self ();
  w->mode[begin] = cs_float_mode_get ();
  thrd_sleep (&(struct timespec) { .tv_nsec = 20 * 1000 * 1000 }, NULL);   /* time for the workers to take chunks */
}

static int threads_of (const Who *w)
{
  int n = 0;
  for (int i = 0; i < 4; i++) {
    int seen = 0;
    for (int k = 0; k < i; k++)
      seen |= pthread_equal (w->who[i], w->who[k]);
    n += !seen;
  }
  return n;
}

static int distinct_threads (void)
{
  Who w;
  cs_parallel_for (4, 4, note_thread, &w);
  return threads_of (&w);
}

START_TEST (test_thread_pool_after_fork)
{
  ck_assert_int_gt (distinct_threads (), 1);   /* the parent's workers exist */
  const pid_t child = fork ();
  ck_assert_int_ge (child, 0);
  if (child == 0)
    _exit (distinct_threads () > 1 ? 0 : 1);
  int status = 0;
  ck_assert_int_eq (waitpid (child, &status, 0), child);
  ck_assert_msg (WIFEXITED (status) && WEXITSTATUS (status) == 0, "after fork, the child's chunks all ran on one thread");
}
END_TEST

/* Chunks run in their caller's floating-point mode whichever thread takes them, and the
 * flushed loop flushes denormals in every chunk and restores the caller's mode after. */
static void check_modes (int flushed_loop, unsigned long caller)
{
  Who w;
  cs_float_mode_set (caller);
  if (flushed_loop)
    cs_parallel_for_flushed (4, 4, note_thread, &w);
  else
    cs_parallel_for (4, 4, note_thread, &w);
  ck_assert_uint_eq (cs_float_mode_get (), caller);
  ck_assert_int_gt (threads_of (&w), 1);
  for (int i = 0; i < 4; i++)
    ck_assert_uint_eq (w.mode[i], flushed_loop ? caller | CS_FLOAT_MODE_FLUSH : caller);
}

START_TEST (test_thread_pool_float_mode)
{
  const unsigned long own = cs_float_mode_get ();
  for (int flushed_loop = 0; flushed_loop < 2; flushed_loop++) {
    check_modes (flushed_loop, own & ~CS_FLOAT_MODE_FLUSH);
    check_modes (flushed_loop, own | CS_FLOAT_MODE_FLUSH);
  }
  cs_float_mode_set (own);
}
END_TEST

/* Lines of black after a white block, long enough for the recursions' tails to decay below
 * float's normal range: the passes that flush those denormals stay within 1 LSB of the
 * references (which keep them), and the caller's mode comes back unchanged. */
START_TEST (test_decay_into_black)
{
  CsImage src = cs_test_image_new (2048, 12, 8, 3, 0);
  for (int y = 2; y < 10; y++)
    for (int x = 4; x < 40; x++)
      memset (cs_image_pixel (&src, x, y), 255, 3);
  CsTestJob jobs[3] = { { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () },
    { .filter = CS_TEST_RECURSIVE, .rc = cs_recursive_params_default () },
    { .filter = CS_TEST_EDGEAWARE, .ea = cs_edgeaware_params_default () } };
  jobs[1].rc.algorithm = CS_RECURSIVE_YOUNG_VAN_VLIET;
  const unsigned long own = cs_float_mode_get () & ~CS_FLOAT_MODE_FLUSH;
  cs_float_mode_set (own);
  for (int k = 0; k < 3; k++) {
    CsImage ref = cs_test_image_new (src.width, src.height, 0, 3, 0);
    CsImage out = cs_test_image_new (src.width, src.height, 4, 3, POISON);
    CsCpuWorkspace ws = { 0 };
    ck_assert_int_eq (cs_test_job_reference (&jobs[k], &src, &ref), 0);
    ck_assert_int_eq (run_cpu (&jobs[k], &src, &out, 3, &ws), 0);
    ck_assert_uint_eq (cs_float_mode_get (), own);
    const CsErrorStats st = cs_compare_images (&out, &ref);
    ck_assert_msg (st.max_abs <= 1, "filter %d: max abs error %.0f", k, st.max_abs);
    cs_cpu_workspace_clear (&ws);
    cs_test_image_free (&ref);
    cs_test_image_free (&out);
  }
  cs_test_image_free (&src);
}
END_TEST

int main (void)
{
  Suite *s = suite_create ("cpu-path");
  TCase *tc = tcase_create ("cpu");
  tcase_set_timeout (tc, 600);
  tcase_add_loop_test (tc, test_edgeaware, 0, 3 * N_INPUTS);
  tcase_add_loop_test (tc, test_edgeaware_short_blocks, 0, 4);
  tcase_add_loop_test (tc, test_bilateral, 0, 12 + 2 * N_INPUTS);
  tcase_add_loop_test (tc, test_bilateral_large_radius, 0, 2);
  tcase_add_loop_test (tc, test_recursive, 0, 16 + 2 * N_INPUTS);
  tcase_add_loop_test (tc, test_views, 0, 32);
  tcase_add_test (tc, test_in_place);
  tcase_add_test (tc, test_tiny_sigma_and_short_partitions);
  tcase_add_test (tc, test_workspace_bytes);
  tcase_add_loop_test (tc, test_channel_views, 0, 3 * CS_TEST_N_VIEW_KINDS * 3);
  tcase_add_loop_test (tc, test_one_channel_bilateral, 0, 2 * 2 * 3 * 3);
  tcase_add_test (tc, test_thread_pool);
  tcase_add_test (tc, test_thread_pool_random);
  tcase_add_test (tc, test_thread_pool_after_fork);
  tcase_add_test (tc, test_thread_pool_float_mode);
  tcase_add_test (tc, test_decay_into_black);
  suite_add_tcase (s, tc);
  return cs_test_run_suite (s);
}
