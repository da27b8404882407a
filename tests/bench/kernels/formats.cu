/* cs-bench-kernels — NV12 against RGBA (cases.cuh).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An NV12 frame is luma (1 channel, w x h) and chroma (U and V, ceil(w/2) x ceil(h/2)), run
 * as the elements run them: cs_cuda_plan_run_views, chroma on a side stream beside luma.
 * edgeawaregauss packs each view into an RGBA working frame and sweeps the view's channels
 * of it (one or two, with half2 planes between the passes), its last pass writing the view.
 * Its work counted: the executed instructions of its eight sweep kernels (ncu, H200, one
 * frame of each plane): luma 0.68 and chroma 0.21 of the RGBA frame's at 4K and at 1080p
 * (the spacing and b^δ of a step are shared by its channels), plus the packing's bytes
 * (luma 1 read + 4 written; chroma 2 + 4 per sample pair): predicted ratio 0.89 +
 * (5 + 6/4) B/px at the device bandwidth over the RGBA time.
 * recursivegauss's tiles and the packed-half bilateral filter the views themselves.
 * recursivegauss: a tile block holds three planes of samples whatever the layout, so a view
 * of C channels takes C/3 of the blocks of an RGBA frame of its size: (1 + 2/4) / 3 = 0.50.
 * Bilateral: its kernels on C channels. Radius 1 (strips), per row and output pair: 6C to convert a row, 4 fresh
 * taps of 2C + 2, 3 taken of C + 2, 8 accumulations of C + 1, an epilogue of about 2C + 6
 * and the loads and stores (~8): 117 instructions at C = 3, 92 at 2, 63 at 1, so NV12
 * against RGBA is (63 + 92/4) / 117 = 0.74. Radius 4 (tiles, scaled colours), per tap:
 * C differences, C FMAs into the exponent, the EX2, C FMAs and one add into the sums:
 * 3C + 2, so (5 + 8/4) / 11 = 0.64. A filter that ran all its kernels on one and two channels would
 * do 1.5 samples a pixel against 3 (0.5, where the work scales with samples).
 * rgba_of_the_samples_ms: the RGBA kernels on a frame of w x ceil(h/2) pixels, the NV12
 * frame's samples, so that nv12_against_it is what the views cost against RGBA samples at
 * the same count (a kernel's time need not halve with its samples: docs/performance.md).
 */
#include "cases.cuh"

static CsCudaPlan *plan_for (Bench &b, int filter, int w, int h, int s)
{
  CsCudaPlan *plan = nullptr;
  if (filter == 0) {
    CsRecursiveParams p = cs_recursive_params_default ();
    const CsRecursiveParams q = cs_recursive_params_subsampled (&p, s);
    CHECK (cs_cuda_recursive_plan_new (&q, w, h, &b.dev, &plan));
  } else if (filter == 1 || filter == 2) {
    CsBilateralParams p = cs_bilateral_params_default ();
    if (filter == 1) {
      p.sigma = 1;
      p.radius = 1;
    }
    const CsBilateralParams q = cs_bilateral_params_subsampled (&p, s);
    CHECK (cs_cuda_bilateral_plan_new (&q, w, h, &b.dev, &plan));
  } else {
    CsEdgeAwareParams p = cs_edgeaware_params_default ();
    const CsEdgeAwareParams q = cs_edgeaware_params_subsampled (&p, s);
    CHECK (cs_cuda_edgeaware_plan_new (&q, w, h, &b.dev, &plan));
  }
  return plan;
}

/* The NV12 views of a frame buffer of pitch bytes a row: luma in bytes 0..w−1 of each row,
 * chroma (U, V interleaved) in the bytes after it of the first ceil(h/2) rows. */
static void nv12_views (void *base, int w, int h, size_t pitch, CsChannels *luma, CsChannels *chroma)
{
  unsigned char *p = (unsigned char *) base;
  *luma = CsChannels { w, h, 1, { p, nullptr, nullptr }, { (ptrdiff_t) pitch, 0, 0 }, 1 };
  *chroma = CsChannels { (w + 1) / 2, (h + 1) / 2, 2, { p + w, p + w + 1, nullptr }, { (ptrdiff_t) pitch, (ptrdiff_t) pitch, 0 }, 2 };
}

void bench_formats (Bench &b)
{
  static const char *const names[] = { "recursivegauss sigma=5", "bilateral sigma=1 radius=1", "bilateral sigma=2",
    "edgeawaregauss sigma=20 sigma-r=40" };
  for (auto sz : { std::make_pair (1920, 1080), std::make_pair (3840, 2160) }) {
    Frame f = make_frame (b, sz.first, sz.second);
    /* an RGBA frame of the NV12 frame's samples (w x ceil(h/2) pixels of 3): what the views
     * would take if each sample cost what an RGBA frame's does at that size */
    Frame half = make_frame (b, sz.first, (sz.second + 1) / 2);
    const int cw = (f.w + 1) / 2, ch = (f.h + 1) / 2;
    void *work = nullptr, *chroma_work = nullptr;
    CHECK (cudaMalloc (&work, cs_cuda_channels_work_bytes (f.w, f.h)));
    CHECK (cudaMalloc (&chroma_work, cs_cuda_channels_work_bytes (cw, ch)));
    /* chroma on a stream of its own beside luma's, as the elements run a frame's views */
    cudaStream_t side;
    cudaEvent_t fork, join;
    CHECK (cudaStreamCreateWithFlags (&side, cudaStreamNonBlocking));
    CHECK (cudaEventCreateWithFlags (&fork, cudaEventDisableTiming));
    CHECK (cudaEventCreateWithFlags (&join, cudaEventDisableTiming));
    for (int filter = 0; filter < 4; filter++) {
      CsCudaPlan *rgba = plan_for (b, filter, f.w, f.h, 1);
      const double rgba_ms = kernel_ms (time_plan (b, f, rgba));
      CsCudaPlan *rgba_half = plan_for (b, filter, half.w, half.h, 1);
      const double same_samples_ms = kernel_ms (time_plan (b, half, rgba_half));
      cs_cuda_plan_free (rgba_half);
      CsCudaPlan *luma = plan_for (b, filter, f.w, f.h, 1), *chroma = plan_for (b, filter, cw, ch, 2);
      void *scratch = nullptr, *chroma_scratch = nullptr;
      if (cs_cuda_plan_scratch_bytes (luma))
        CHECK (cudaMalloc (&scratch, cs_cuda_plan_scratch_bytes (luma)));
      if (cs_cuda_plan_scratch_bytes (chroma))
        CHECK (cudaMalloc (&chroma_scratch, cs_cuda_plan_scratch_bytes (chroma)));
      /* both planes (first 0, count 2), or luma or chroma alone: what the two streams overlap */
      const auto planes_ms = [&] (int first, int count) {
        return kernel_ms (time_launches (b, f, [&] (void *in) {
          CsCudaViewRun v[2] = { { luma, {}, {}, work, scratch, 0 }, { chroma, {}, {}, chroma_work, chroma_scratch, 1 } };
          nv12_views (in, f.w, f.h, f.pitch, &v[0].src, &v[1].src);
          nv12_views (f.output, f.w, f.h, f.pitch, &v[0].dst, &v[1].dst);
          return cs_cuda_plan_run_views (v + first, count, 0, side, fork, join);
        }));
      };
      const double nv12_ms = planes_ms (0, 2), luma_ms = planes_ms (0, 1), chroma_ms = planes_ms (1, 1);
      const bool on_views = filter != 3;   /* recursivegauss's tiles and the packed-half bilateral take views */
      const double predicted = filter == 0 ? (1.0 + 2.0 / 4) / 3 : filter == 1 ? (63.0 + 92.0 / 4) / 117.0
          : filter == 2 ? (5.0 + 8.0 / 4) / 11.0 : 0.89 + memory_floor_ms (b, 6.5 * f.w * f.h) / rgba_ms;
      printf ("format %s size=%dx%d rgba_ms=%.4f nv12_ms=%.4f ratio=%.3f predicted=%.3f (%s) native_1_2_channel=%s "
          "alone: luma_ms=%.4f chroma_ms=%.4f rgba_of_the_samples_ms=%.4f nv12_against_it=%.3f\n",
          names[filter], f.w, f.h, rgba_ms, nv12_ms, nv12_ms / rgba_ms, predicted,
          filter == 0 ? "the tiles on the views: three planes a block, C/3 of the RGBA blocks"
          : on_views  ? "the kernels on the views: instructions at 1 and 2 channels against 3"
                      : "sweeps of 1 and 2 channels: 0.89 of the RGBA instructions + 6.5 B/px packing",
          filter == 0 ? "0.50 (1.5 samples/px against 3)" : "<=1.0 (per-tap weights shared by channels)", luma_ms,
          chroma_ms, same_samples_ms, nv12_ms / same_samples_ms);
      CHECK (cudaFree (scratch));
      CHECK (cudaFree (chroma_scratch));
      cs_cuda_plan_free (rgba);
      cs_cuda_plan_free (luma);
      cs_cuda_plan_free (chroma);
    }
    CHECK (cudaFree (work));
    CHECK (cudaFree (chroma_work));
    CHECK (cudaStreamDestroy (side));
    CHECK (cudaEventDestroy (fork));
    CHECK (cudaEventDestroy (join));
    free_frame (f);
    free_frame (half);
  }
}
