/* Fidelity of the GPU filters on real photographs, against the double references:
 *   edgeaware   GPU Algorithm C (blocks 1..32, auto) vs CPU Algorithm A, 1080p/2048²/4K
 *   recursive   GPU vs the exact FIR Gaussian for σ 0.5..250; partitioned vs not
 *   bilateral   GPU exact vs the reference per radius and kernel; separable vs exact
 *   denoise     bilateral on photos with added Gaussian noise: PSNR against the clean photo
 * and every GPU result run twice (must be bit-identical). One line per measurement:
 *   quality filter=... photo=... size=WxH params=... psnr=... max=... identical=yes
 * Usage: cs-quality PHOTO_DIR [NOISY_OUT_DIR]   (needs a CUDA device)
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "cs_cuda.h"
#include "cs_metrics.h"
#include "cs_png.h"
#include "cs_reference.h"

static CsCudaDevice dev;
static const char *dir;

typedef enum { EDGEAWARE, BILATERAL, RECURSIVE, FIR } Kind;

typedef struct {
  Kind kind;
  CsEdgeAwareParams ea;
  CsBilateralParams bl;
  CsRecursiveParams rc;
  double fir_sigma;
} Filter;

static void die (const char *what, cudaError_t e)
{
  fprintf (stderr, "%s: %s\n", what, cudaGetErrorName (e));
  exit (1);
}

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) die (#call, e_); } while (0)

static CsImage blank_like (const CsImage *s)
{
  CsImage d = *s;
  d.stride = (ptrdiff_t) s->width * 4;
  d.data = calloc ((size_t) d.stride, s->height);
  return d;
}

/* The filter on the GPU; *identical says whether a second run gave the same bytes. */
static CsImage gpu (const Filter *f, const CsImage *src, int *identical)
{
  const int w = src->width, h = src->height;
  size_t pitch, bytes;
  void *ds, *dd, *scratch = NULL;
  CHECK (cudaMallocPitch (&ds, &pitch, (size_t) w * 4, h));
  CHECK (cudaMalloc (&dd, pitch * h));
  CsCudaPlan *plan = NULL;
  CHECK (f->kind == EDGEAWARE ? cs_cuda_edgeaware_plan_new (&f->ea, w, h, &dev, &plan)
      : f->kind == BILATERAL ? cs_cuda_bilateral_plan_new (&f->bl, w, h, &dev, &plan)
                             : cs_cuda_recursive_plan_new (&f->rc, w, h, &dev, &plan));
  bytes = cs_cuda_plan_scratch_bytes (plan);
  if (bytes)
    CHECK (cudaMalloc (&scratch, bytes));
  CHECK (cudaMemcpy2D (ds, pitch, src->data, src->stride, (size_t) w * 4, h, cudaMemcpyHostToDevice));
  const CsCudaImage s = { ds, w, h, pitch, src->alpha_offset }, d = { dd, w, h, pitch, src->alpha_offset };
  CsImage out[2];
  for (int run = 0; run < 2; run++) {
    CHECK (cudaMemset (dd, 0xCD, pitch * h));
    CHECK (cs_cuda_plan_run (plan, &s, &d, scratch, 0));
    CHECK (cudaDeviceSynchronize ());
    out[run] = blank_like (src);
    CHECK (cudaMemcpy2D (out[run].data, out[run].stride, dd, pitch, (size_t) w * 4, h, cudaMemcpyDeviceToHost));
  }
  *identical = memcmp (out[0].data, out[1].data, (size_t) out[0].stride * h) == 0;
  cs_cuda_plan_free (plan);
  free (out[1].data);
  CHECK (cudaFree (ds));
  CHECK (cudaFree (dd));
  if (scratch)
    CHECK (cudaFree (scratch));
  return out[0];
}

/* ---- references in parallel: one thread per (image, filter) ---- */

typedef struct {
  const CsImage *src;
  Filter f;
  CsImage out;
} RefJob;

static int ref_job (void *arg)
{
  RefJob *j = arg;
  j->out = blank_like (j->src);
  switch (j->f.kind) {
    case EDGEAWARE: return cs_ref_edgeaware (j->src, &j->out, &j->f.ea);
    case BILATERAL: return cs_ref_bilateral (j->src, &j->out, &j->f.bl);
    case RECURSIVE: return cs_ref_recursive (j->src, &j->out, &j->f.rc);
    default: return cs_ref_fir_gaussian (j->src, &j->out, j->f.fir_sigma);
  }
}

static void run_refs (RefJob *jobs, int n)
{
  const int cores = (int) sysconf (_SC_NPROCESSORS_ONLN);
  thrd_t *t = calloc (n, sizeof (thrd_t));
  for (int base = 0; base < n; base += cores) {
    const int end = base + cores < n ? base + cores : n;
    for (int i = base; i < end; i++)
      thrd_create (&t[i], ref_job, &jobs[i]);
    for (int i = base; i < end; i++)
      thrd_join (t[i], NULL);
  }
  free (t);
}

static CsImage load (const char *name, int w, int h)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  CsImage img = cs_png_load (path);
  if (!img.width) {
    fprintf (stderr, "cannot read %s\n", path);
    exit (1);
  }
  if (w && (w != img.width || h != img.height)) {
    CsImage m = cs_image_resize_by_mirroring (&img, w, h);
    free (img.data);
    return m;
  }
  return img;
}

static void report (const char *filter, const char *photo, const CsImage *img, const char *params,
    const CsImage *a, const CsImage *b, int identical)
{
  const CsErrorStats st = cs_compare_images (a, b);
  printf ("quality filter=%s photo=%s size=%dx%d params=%s psnr=%.2f max=%.0f identical=%s\n", filter,
      photo, img->width, img->height, params, st.psnr, st.max_abs, identical ? "yes" : "NO");
  fflush (stdout);
}

/* ---- the sections ---- */

static void edgeaware (void)
{
  const struct { const char *photo; int w, h; } imgs[] = {
    { "mate_twowings.png", 1920, 1080 }, { "plasma_path.png", 2048, 2048 }, { "mate_twowings.png", 3840, 2160 },
  };
  const double pairs[][2] = { { 5, 20 }, { 50, 50 }, { 200, 150 } };
  const int blocks[] = { 1, 2, 4, 8, 16, 32, 0 };
  CsImage src[3];
  RefJob jobs[9];
  for (int i = 0; i < 3; i++)
    src[i] = load (imgs[i].photo, imgs[i].w, imgs[i].h);
  for (int k = 0; k < 9; k++) {
    jobs[k].src = &src[k / 3];
    jobs[k].f.kind = EDGEAWARE;
    jobs[k].f.ea = cs_edgeaware_params_default ();
    jobs[k].f.ea.sigma = pairs[k % 3][0];
    jobs[k].f.ea.sigma_r = pairs[k % 3][1];
    jobs[k].f.ea.blocks_per_stripe = 1;
  }
  run_refs (jobs, 9);
  for (int k = 0; k < 9; k++)
    for (int b = 0; b < 7; b++) {
      Filter f = jobs[k].f;
      f.ea.blocks_per_stripe = blocks[b];
      int same;
      CsImage out = gpu (&f, jobs[k].src, &same);
      char params[128];
      snprintf (params, sizeof params, "sigma=%g,sigma-r=%g,kappa=2,blocks-per-stripe=%d%s", f.ea.sigma,
          f.ea.sigma_r, blocks[b], blocks[b] ? "" : "(auto)");
      report ("edgeawaregauss-vs-algorithm-a", imgs[k / 3].photo, jobs[k].src, params, &out, &jobs[k].out, same);
      free (out.data);
    }
  for (int k = 0; k < 9; k++)
    free (jobs[k].out.data);
  for (int i = 0; i < 3; i++)
    free (src[i].data);
}

static void recursive (void)
{
  const char *photos[] = { "mate_twowings.png", "scipy_face.png", "opencv_graf1.png", "skimage_astronaut.png" };
  const double sigmas[] = { 0.5, 1, 1.5, 2, 5, 20, 50, 100, 200, 250 };
  enum { NP = 4, NS = 10 };
  CsImage src[NP];
  RefJob jobs[NP * NS];
  for (int i = 0; i < NP; i++)
    src[i] = load (photos[i], 0, 0);
  for (int k = 0; k < NP * NS; k++) {
    jobs[k].src = &src[k / NS];
    jobs[k].f.kind = FIR;
    jobs[k].f.fir_sigma = sigmas[k % NS];
  }
  run_refs (jobs, NP * NS);
  /* Deriche with carried starts (the default), Deriche with warm-ups, Young–van Vliet */
  for (int k = 0; k < NP * NS; k++)
    for (int kind = 0; kind < 3; kind++) {
      Filter f = { .kind = RECURSIVE, .rc = cs_recursive_params_default () };
      f.rc.sigma = sigmas[k % NS];
      f.rc.algorithm = kind == 2 ? CS_RECURSIVE_YOUNG_VAN_VLIET : CS_RECURSIVE_DERICHE;
      f.rc.partition_start = kind == 0 ? CS_PARTITION_CARRY : CS_PARTITION_WARM_UP;
      if (kind == 2)
        f.rc.kappa = 5;
      int same, same1;
      CsImage part = gpu (&f, jobs[k].src, &same);
      f.rc.blocks_per_stripe = 1;
      CsImage whole = gpu (&f, jobs[k].src, &same1);
      char params[160];
      snprintf (params, sizeof params, "sigma=%g,algorithm=%s,partition-start=%s,kappa=%g,blocks-per-stripe=0",
          f.rc.sigma, kind == 2 ? "young-van-vliet" : "deriche", kind == 0 ? "carry" : "warm-up", f.rc.kappa);
      report ("recursivegauss-vs-fir", photos[k / NS], jobs[k].src, params, &part, &jobs[k].out, same);
      report ("recursivegauss-partitioned-vs-not", photos[k / NS], jobs[k].src, params, &part, &whole, same && same1);
      free (part.data);
      free (whole.data);
    }
  for (int k = 0; k < NP * NS; k++)
    free (jobs[k].out.data);
  for (int i = 0; i < NP; i++)
    free (src[i].data);
}

static void bilateral (void)
{
  const char *photos[] = { "skimage_astronaut.png", "sklearn_china.png" };
  const int radii[] = { 1, 2, 3, 5, 7, 15, 32 };
  enum { NP = 2, NR = 7 };
  CsImage src[NP];
  RefJob jobs[NP * NR * 2];
  for (int i = 0; i < NP; i++)
    src[i] = load (photos[i], 0, 0);
  for (int k = 0; k < NP * NR * 2; k++) {
    jobs[k].src = &src[k / (NR * 2)];
    jobs[k].f.kind = BILATERAL;
    jobs[k].f.bl = cs_bilateral_params_default ();
    jobs[k].f.bl.radius = radii[(k / 2) % NR];
    jobs[k].f.bl.sigma = jobs[k].f.bl.radius / 2.0;
    jobs[k].f.bl.sigma_r = 30;
    jobs[k].f.bl.range_kernel = k % 2 ? CS_RANGE_KERNEL_LORENTZIAN : CS_RANGE_KERNEL_GAUSSIAN;
  }
  run_refs (jobs, NP * NR * 2);
  for (int k = 0; k < NP * NR * 2; k++) {
    int same, same_sep;
    Filter f = jobs[k].f;
    CsImage out = gpu (&f, jobs[k].src, &same);
    f.bl.mode = CS_BILATERAL_SEPARABLE;
    CsImage sep = gpu (&f, jobs[k].src, &same_sep);
    char params[128];
    snprintf (params, sizeof params, "radius=%d,sigma=%g,sigma-r=30,range-kernel=%s", f.bl.radius, f.bl.sigma,
        k % 2 ? "lorentzian" : "gaussian");
    report ("bilateral-exact-vs-reference", photos[k / (NR * 2)], jobs[k].src, params, &out, &jobs[k].out, same);
    report ("bilateral-separable-vs-exact", photos[k / (NR * 2)], jobs[k].src, params, &sep, &jobs[k].out, same_sep);
    free (out.data);
    free (sep.data);
    free (jobs[k].out.data);
  }
  for (int i = 0; i < NP; i++)
    free (src[i].data);
}

/* Gaussian noise of standard deviation sn (Box–Muller, fixed seed), clamped to 0..255. */
static CsImage add_noise (const CsImage *clean, double sn, unsigned seed)
{
  CsImage n = blank_like (clean);
  cs_image_copy (clean, &n);
  srand (seed);
  for (int y = 0; y < n.height; y++)
    for (int x = 0; x < n.width; x++)
      for (int c = 0; c < 3; c++) {
        const double u1 = (rand () + 1.0) / (RAND_MAX + 2.0), u2 = (rand () + 1.0) / (RAND_MAX + 2.0);
        const double g = sqrt (-2 * log (u1)) * cos (6.283185307179586 * u2);
        uint8_t *p = cs_image_pixel (&n, x, y) + c;
        *p = cs_quantise (*p + sn * g);
      }
  return n;
}

static void denoise (const char *noisy_dir)
{
  const char *photos[] = { "skimage_astronaut.png", "skimage_coffee.png", "sklearn_china.png", "scipy_face.png" };
  const double noises[] = { 10, 20 };
  const double sigmas[] = { 1, 2, 3 }, sigma_rs[] = { 15, 25, 40, 60 };
  for (int i = 0; i < 4; i++) {
    CsImage clean = load (photos[i], 0, 0);
    for (int n = 0; n < 2; n++) {
      CsImage noisy = add_noise (&clean, noises[n], 1234 + i * 10 + n);
      const CsErrorStats before = cs_compare_images (&noisy, &clean);
      printf ("denoise photo=%s noise=%g params=none psnr=%.2f\n", photos[i], noises[n], before.psnr);
      if (noisy_dir) {
        char path[4096];
        snprintf (path, sizeof path, "%s/noisy-%g-%s", noisy_dir, noises[n], photos[i]);
        cs_png_save (&noisy, path);
      }
      for (int s = 0; s < 3; s++)
        for (int r = 0; r < 4; r++) {
          Filter f = { .kind = BILATERAL, .bl = cs_bilateral_params_default () };
          f.bl.sigma = sigmas[s];
          f.bl.sigma_r = sigma_rs[r];
          int same;
          CsImage out = gpu (&f, &noisy, &same);
          const CsErrorStats st = cs_compare_images (&out, &clean);
          printf ("denoise photo=%s noise=%g params=sigma=%g,sigma-r=%g,radius=%d psnr=%.2f\n", photos[i],
              noises[n], f.bl.sigma, f.bl.sigma_r, cs_bilateral_effective_radius (&f.bl), st.psnr);
          free (out.data);
        }
      fflush (stdout);
      free (noisy.data);
    }
    free (clean.data);
  }
}

int main (int argc, char **argv)
{
  if (argc < 2) {
    fprintf (stderr, "usage: %s PHOTO_DIR [NOISY_OUT_DIR] [SECTIONS]\n", argv[0]);
    return 2;
  }
  dir = argv[1];
  const char *sections = argc > 3 ? argv[3] : "edgeaware recursive bilateral denoise";
  int n = 0;
  if (cudaGetDeviceCount (&n) != cudaSuccess || n == 0) {
    printf ("SKIP: no CUDA device\n");
    return 77;
  }
  CHECK (cs_cuda_device_query (&dev));
  if (strstr (sections, "denoise"))
    denoise (argc > 2 ? argv[2] : NULL);
  if (strstr (sections, "bilateral"))
    bilateral ();
  if (strstr (sections, "recursive"))
    recursive ();
  if (strstr (sections, "edgeaware"))
    edgeaware ();
  return 0;
}
