/* cs-bench-kernels — the harness (bench.cuh).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdarg>

#include "bench.cuh"

extern "C" {
#include "cs_png.h"
#include "cs_test_images.h"
}

__global__ void hold_kernel (unsigned long long ns)
{
  unsigned long long t0, t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do
    asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  while (t - t0 < ns);
}

void hold_gpu (unsigned long long ns)
{
  hold_kernel<<<1, 1>>> (ns);
  CHECK (cudaGetLastError ());
}

double median_of (std::vector<float> v)
{
  std::sort (v.begin (), v.end ());
  return v.empty () ? 0.0 : v[v.size () / 2];
}

static CsImage make_host_frame (const Bench &b, int w, int h)
{
  if (b.photo.width)
    return cs_image_resize_by_mirroring (&b.photo, w, h);
  CsImage img = cs_test_image_new (w, h, 0, 3, 0);
  cs_test_fill_scene (&img, 7);
  return img;
}

Frame make_frame (const Bench &b, int w, int h)
{
  Frame f;
  f.w = w;
  f.h = h;
  CsImage host = make_host_frame (b, w, h);
  void *first;
  CHECK (cudaMallocPitch (&first, &f.pitch, (size_t) w * 4, h));
  const size_t frame_bytes = f.pitch * h;
  const int n = (int) std::max<size_t> (2, (3 * b.dev.l2_bytes) / frame_bytes + 1);
  f.inputs.push_back (first);
  for (int i = 1; i < n; i++) {
    void *p;
    CHECK (cudaMalloc (&p, frame_bytes));
    f.inputs.push_back (p);
  }
  for (void *p : f.inputs)
    CHECK (cudaMemcpy2D (p, f.pitch, host.data, host.stride, (size_t) w * 4, h, cudaMemcpyHostToDevice));
  CHECK (cudaMalloc (&f.output, frame_bytes));
  cs_test_image_free (&host);
  return f;
}

void free_frame (Frame &f)
{
  for (void *p : f.inputs)
    CHECK (cudaFree (p));
  CHECK (cudaFree (f.output));
}

Result time_plan (Bench &b, Frame &f, const CsCudaPlan *plan)
{
  void *scratch = nullptr;
  if (cs_cuda_plan_scratch_bytes (plan))
    CHECK (cudaMalloc (&scratch, cs_cuda_plan_scratch_bytes (plan)));
  const Result r = time_launches (b, f, [&] (void *in) {
    const CsCudaImage s = { in, f.w, f.h, f.pitch, 3 }, d = { f.output, f.w, f.h, f.pitch, 3 };
    return cs_cuda_plan_run (plan, &s, &d, scratch, 0);
  });
  if (scratch)
    CHECK (cudaFree (scratch));
  return r;
}

std::string fmt (const char *f, ...)
{
  char buf[256];
  va_list ap;
  va_start (ap, f);
  vsnprintf (buf, sizeof buf, f, ap);
  va_end (ap);
  return buf;
}

void print_line (const char *filter, const Frame &f, const std::string &params, const Result &r, double floor_ms,
    const char *floor_what, const std::string &extra)
{
  printf ("bench filter=%s path=device size=%dx%d params=%s ms_median=%.4f ms_min=%.4f ms_batch=%.4f "
          "ms_queued=%.4f queued_uncovered=%d host_us=%.1f floor_ms=%.4f floor=%s ratio=%.2f%s\n",
      filter, f.w, f.h, params.c_str (), r.median, r.min, r.batch, r.queued, r.queued_uncovered, r.host_us, floor_ms,
      floor_what, kernel_ms (r) / floor_ms, extra.c_str ());
  fflush (stdout);
}

double memory_floor_ms (const Bench &b, double bytes)
{
  return bytes / (b.bw_gbs * 1e9) * 1e3;
}
