/* Kernel benchmark: device-resident RGBA8 in and out, CUDA events around each launch,
 * median of >= 50 runs after warm-up, inputs rotated over more bytes than L2 holds.
 * Prints one machine-readable line per measurement and the floors it is measured against:
 *   bench filter=... path=device size=WxH params=... ms_median=... ms_min=... ms_batch=...
 *   floor_ms=... floor=...
 * and measured floors: `floor two_pass_copy` (the data movement of a rows-then-columns pass
 * pair), `floor edgeaware_no_warmup` (the edge-aware passes at kappa 0) and floor_on_chip_ms
 * on the exact half2 bilateral lines (the tile kernel without loads or stores).
 * ms_median and ms_min time each launch alone from an idle GPU, so they include the time
 * the launch takes to reach it (an empty kernel measures 5.6–7 µs this way on an H100);
 * ms_batch is the time per launch of the same launches queued back to back (the median of
 * three batches of 20), which is what a stream of frames costs the GPU. ms_queued times each
 * launch alone too, but queued behind a kernel that holds the GPU for 0.5 ms, so that the
 * launch and both events are waiting on the GPU before the first event is reached: the
 * kernels' own time on the GPU (and the gaps between the kernels of a chain), without the
 * host's launch latency and without the overlap of neighbouring launches that ms_batch
 * allows. Each queued run checks that the GPU had not yet reached its first event when the
 * host had queued the launch; runs where it had are counted (queued_uncovered=, normally 0).
 * ratio= is ms_queued (ms_median where it is not measured: pass sweeps, --profile) over the floor;
 * host_us= is the median host time of the launcher call in the unqueued runs.
 * Not part of the test suite. Usage:
 *   cs-bench-kernels [--image photo.png] [--runs N] [--only edgeaware|bilateral|recursive|
 *                    sweep|pass-sweep|pass-sweep-edgeaware] [--profile]
 * --profile: one launch per case, no warm-up (for ncu -k ... --launch-skip/--launch-count).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

extern "C" {
#include "cs_cuda.h"
#include "cs_png.h"
#include "cs_test_images.h"
}

#define CHECK(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName (e_)); \
      exit (1); \
    } \
  } while (0)

static CsCudaDevice dev;
static int g_runs = 60, g_warmups = 5;
static bool g_profile;        /* one launch per case: no batches */
static bool g_batches = true;   /* the pass sweeps print medians only and skip them */
static CsImage g_photo;   /* width 0: synthetic scene */

/* ---- the machine's ceilings, measured here ---- */

static double measure_bandwidth_gbs (void)
{
  const size_t bytes = (size_t) 1 << 30;
  void *a, *b;
  CHECK (cudaMalloc (&a, bytes));
  CHECK (cudaMalloc (&b, bytes));
  CHECK (cudaMemset (a, 1, bytes));
  cudaEvent_t e0, e1;
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  CHECK (cudaMemcpy (b, a, bytes, cudaMemcpyDeviceToDevice));
  std::vector<float> t;
  for (int i = 0; i < 10; i++) {
    CHECK (cudaEventRecord (e0));
    CHECK (cudaMemcpyAsync (b, a, bytes, cudaMemcpyDeviceToDevice));
    CHECK (cudaEventRecord (e1));
    CHECK (cudaEventSynchronize (e1));
    float ms;
    CHECK (cudaEventElapsedTime (&ms, e0, e1));
    t.push_back (ms);
  }
  std::sort (t.begin (), t.end ());
  CHECK (cudaFree (a));
  CHECK (cudaFree (b));
  return 2.0 * bytes / (t[t.size () / 2] * 1e-3) / 1e9;   /* read + write */
}

__global__ void fma_rate_kernel (float *out, float seed)
{
  float a[8];
  for (int i = 0; i < 8; i++)
    a[i] = seed + threadIdx.x + i;
  for (int it = 0; it < 512; it++)
#pragma unroll
    for (int i = 0; i < 8; i++)
      a[i] = fmaf (a[i], 0.9999f, 0.0001f);
  float s = 0;
  for (int i = 0; i < 8; i++)
    s += a[i];
  if (s == 12345.f)
    out[0] = s;
}

__global__ void ex2_rate_kernel (float *out, float seed)
{
  float a[8];
  for (int i = 0; i < 8; i++)
    a[i] = seed * (threadIdx.x + i) * 1e-9f;
  for (int it = 0; it < 256; it++)
#pragma unroll
    for (int i = 0; i < 8; i++) {
      float y;
      asm volatile ("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(a[i]));
      a[i] = y * -0.5f;
    }
  float s = 0;
  for (int i = 0; i < 8; i++)
    s += a[i];
  if (s == 12345.f)
    out[0] = s;
}

/* Warp-instructions per second of a unit: threads * ops / time / 32. */
template <class K>
static double measure_rate (K kernel, double ops_per_thread)
{
  float *o;
  CHECK (cudaMalloc (&o, 4));
  const int blocks = dev.sm_count * 16, threads = 256;
  kernel<<<blocks, threads>>> (o, 1.0f);
  CHECK (cudaDeviceSynchronize ());
  cudaEvent_t e0, e1;
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  CHECK (cudaEventRecord (e0));
  for (int i = 0; i < 10; i++)
    kernel<<<blocks, threads>>> (o, 1.0f);
  CHECK (cudaEventRecord (e1));
  CHECK (cudaEventSynchronize (e1));
  float ms;
  CHECK (cudaEventElapsedTime (&ms, e0, e1));
  CHECK (cudaFree (o));
  return 10.0 * blocks * threads * ops_per_thread / (ms * 1e-3);
}

static std::vector<float> g_host_us;   /* the host's time in each launch call of the last unqueued timed_runs() */
static int g_queued_uncovered;   /* runs of the last queued timed_runs() whose launch was not queued in time */
static const unsigned long long kHoldNs = 500000;   /* far above a launch's host time (host_us) */

/* Holds the stream until `ns` nanoseconds of the GPU's global timer have passed. */
__global__ void hold_kernel (unsigned long long ns)
{
  unsigned long long t0, t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do
    asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  while (t - t0 < ns);
}

/* Each of `runs` launches timed alone between two events, after `warmups` untimed ones;
 * launch (i) gets the run's index (inputs rotate by it). Sorted. Unqueued, each launch
 * starts from an idle GPU (and g_host_us gets the host's time in each launch call);
 * queued, the launch and its events wait behind hold_kernel, so that the host's launch
 * latency falls before the first event (g_queued_uncovered counts the runs where the GPU
 * had reached that event before the host had queued the second). */
template <class Launch>
static std::vector<float> timed_runs (Launch launch, int warmups, int runs, bool queued = false)
{
  cudaEvent_t e0, e1;
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  for (int i = 0; i < warmups; i++)
    launch (i);
  CHECK (cudaDeviceSynchronize ());
  std::vector<float> t;
  if (queued)
    g_queued_uncovered = 0;
  else
    g_host_us.clear ();
  for (int i = 0; i < runs; i++) {
    if (queued) {
      CHECK (cudaDeviceSynchronize ());
      hold_kernel<<<1, 1>>> (kHoldNs);
      CHECK (cudaGetLastError ());
    }
    CHECK (cudaEventRecord (e0));
    const auto h0 = std::chrono::steady_clock::now ();
    launch (i);
    if (!queued)
      g_host_us.push_back (std::chrono::duration<float, std::micro> (std::chrono::steady_clock::now () - h0).count ());
    CHECK (cudaEventRecord (e1));
    if (queued) {
      const cudaError_t reached = cudaEventQuery (e0);
      if (reached == cudaSuccess)
        g_queued_uncovered++;
      else if (reached != cudaErrorNotReady)
        CHECK (reached);
    }
    CHECK (cudaEventSynchronize (e1));
    float ms;
    CHECK (cudaEventElapsedTime (&ms, e0, e1));
    t.push_back (ms);
  }
  CHECK (cudaEventDestroy (e0));
  CHECK (cudaEventDestroy (e1));
  std::sort (t.begin (), t.end ());
  return t;
}

/* The median of `runs` queued launches (timed_runs); 0 when profiling or sweeping. */
template <class Launch>
static float queued_ms (Launch launch, int runs)
{
  g_queued_uncovered = 0;
  if (g_profile || !g_batches)
    return 0.0f;
  const std::vector<float> t = timed_runs (launch, 0, runs, true);
  return t[t.size () / 2];
}

static double median_host_us (void)
{
  std::vector<float> h = g_host_us;
  std::sort (h.begin (), h.end ());
  return h.empty () ? 0.0 : h[h.size () / 2];
}

/* The same launches queued back to back between two events: the time per launch, median
 * of three batches of `runs`; 0 when profiling. */
template <class Launch>
static float batch_ms (Launch launch, int runs)
{
  if (g_profile || !g_batches)
    return 0.0f;
  cudaEvent_t e0, e1;
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  std::vector<float> t;
  for (int b = 0; b < 3; b++) {
    CHECK (cudaDeviceSynchronize ());
    CHECK (cudaEventRecord (e0));
    for (int i = 0; i < runs; i++)
      launch (i);
    CHECK (cudaEventRecord (e1));
    CHECK (cudaEventSynchronize (e1));
    float ms;
    CHECK (cudaEventElapsedTime (&ms, e0, e1));
    t.push_back (ms / runs);
  }
  CHECK (cudaEventDestroy (e0));
  CHECK (cudaEventDestroy (e1));
  std::sort (t.begin (), t.end ());
  return t[1];
}

__global__ void empty_kernel (int *out)
{
  if (out && threadIdx.x == 1024)
    out[0] = 0;
}

__global__ void copy_kernel (const uint4 *in, uint4 *out, size_t n)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    out[i] = in[i];
}

/* What one launch costs as time_launches() sees it, alone (an empty kernel) and with the
 * least work a filter does (a copy of an RGBA frame, 8 B/px): where a kernel's memory or
 * arithmetic floor is a few microseconds, these are the floors it cannot go under. */
struct Result {
  double median, min, batch, queued;
  int queued_uncovered;
  double host_us;   /* median time of the launch call on the host */
};

/* Every figure of one case: `runs` single launches (after `warmups`), batches of
 * `batch_runs`, and `runs` queued launches. */
template <class Launch>
static Result measure (Launch launch, int warmups, int runs, int batch_runs)
{
  const std::vector<float> t = timed_runs (launch, warmups, runs);
  const double host_us = median_host_us ();
  const float batch = batch_ms (launch, batch_runs);
  const float queued = queued_ms (launch, runs);
  return { t[t.size () / 2], t[0], batch, queued, g_queued_uncovered, host_us };
}

/* Copies of a frame's bytes rotated over more than L2 holds, as the filters' inputs are
 * (make_frame); input (i) is the one launch i reads. */
struct RotatedInputs {
  std::vector<uint4 *> frames;
  explicit RotatedInputs (size_t frame_bytes)
      : frames (frame_bytes ? 1 + (3 * (size_t) dev.l2_bytes) / frame_bytes : 0)
  {
    for (auto &a : frames) {
      CHECK (cudaMalloc (&a, frame_bytes));
      CHECK (cudaMemset (a, 1, frame_bytes));
    }
  }
  ~RotatedInputs ()
  {
    for (auto a : frames)
      CHECK (cudaFree (a));
  }
  const uint4 *input (int i) const { return frames[i % frames.size ()]; }
};

static Result time_one_launch (size_t frame_bytes)
{
  const RotatedInputs inputs (frame_bytes);
  uint4 *b = nullptr;
  if (frame_bytes)
    CHECK (cudaMalloc (&b, frame_bytes));
  const size_t n = frame_bytes / sizeof (uint4);
  const auto launch = [&] (int i) {
    if (n)
      copy_kernel<<<dev.sm_count * 8, 256>>> (inputs.input (i), b, n);
    else
      empty_kernel<<<1, 32>>> (nullptr);
  };
  const Result r = measure (launch, 5, 60, 60);
  if (b)
    CHECK (cudaFree (b));
  return r;
}

/* The data movement of any rows-then-columns pair of passes with an fp16 plane between them
 * (recursivegauss's warm-up and carried paths): an RGBA frame widened to half4 (1024 + byte,
 * exact) by one launch, narrowed back by a second; 24 B/px through DRAM and nothing else.
 * What any such pair of passes costs at the least, measured as the filters are. */
__global__ void widen_kernel (const uint4 *in, uint4 *plane, size_t n)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x) {
    const uint4 v = in[i];
    const unsigned int w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
    for (int j = 0; j < 4; j += 2) {   /* two pixels into 16 bytes of halves */
      const uint4 h = make_uint4 (__byte_perm (w[j], 0x64, 0x4140), __byte_perm (w[j], 0x64, 0x4342),
          __byte_perm (w[j + 1], 0x64, 0x4140), __byte_perm (w[j + 1], 0x64, 0x4342));
      plane[2 * i + j / 2] = h;
    }
  }
}

__global__ void narrow_kernel (const uint4 *plane, uint4 *out, size_t n)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x) {
    const uint4 a = plane[2 * i], b = plane[2 * i + 1];
    out[i] = make_uint4 (__byte_perm (a.x, a.y, 0x6420), __byte_perm (a.z, a.w, 0x6420), __byte_perm (b.x, b.y, 0x6420),
        __byte_perm (b.z, b.w, 0x6420));
  }
}

static Result time_two_pass_copy (int w, int h)
{
  const size_t frame_bytes = (size_t) w * h * 4;
  const RotatedInputs inputs (frame_bytes);
  uint4 *plane, *out;
  CHECK (cudaMalloc (&plane, 2 * frame_bytes));
  CHECK (cudaMalloc (&out, frame_bytes));
  const size_t n = frame_bytes / sizeof (uint4);
  const auto launch = [&] (int i) {
    widen_kernel<<<dev.sm_count * 8, 256>>> (inputs.input (i), plane, n);
    narrow_kernel<<<dev.sm_count * 8, 256>>> (plane, out, n);
  };
  const Result r = measure (launch, 5, 60, 60);
  CHECK (cudaFree (plane));
  CHECK (cudaFree (out));
  return r;
}

/* ---- one measurement ---- */

struct Frame {
  int w, h;
  size_t pitch;
  std::vector<void *> inputs;   /* rotated */
  void *output;
};

static CsImage make_host_frame (int w, int h)
{
  if (g_photo.width)
    return cs_image_resize_by_mirroring (&g_photo, w, h);
  CsImage img = cs_test_image_new (w, h, 0, 3, 0);
  cs_test_fill_scene (&img, 7);
  return img;
}

static Frame make_frame (int w, int h)
{
  Frame f;
  f.w = w;
  f.h = h;
  CsImage host = make_host_frame (w, h);
  void *first;
  CHECK (cudaMallocPitch (&first, &f.pitch, (size_t) w * 4, h));
  const size_t frame_bytes = f.pitch * h;
  const int n = (int) std::max<size_t> (2, (3 * dev.l2_bytes) / frame_bytes + 1);
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

static void free_frame (Frame &f)
{
  for (void *p : f.inputs)
    CHECK (cudaFree (p));
  CHECK (cudaFree (f.output));
}

template <class Launch>
static Result time_launches (Frame &f, Launch launch)
{
  const auto rotated = [&] (int i) { CHECK (launch (f.inputs[i % f.inputs.size ()])); };
  return measure (rotated, g_warmups, g_runs, 20);
}

static double g_bw_gbs, g_fma_rate, g_ex2_rate;

static void print_line (const char *filter, const Frame &f, const std::string &params, Result r,
    double floor_ms, const char *floor_what, const std::string &extra = "")
{
  printf ("bench filter=%s path=device size=%dx%d params=%s ms_median=%.4f ms_min=%.4f ms_batch=%.4f "
          "ms_queued=%.4f queued_uncovered=%d host_us=%.1f floor_ms=%.4f floor=%s ratio=%.2f%s\n",
      filter, f.w, f.h, params.c_str (), r.median, r.min, r.batch, r.queued, r.queued_uncovered, r.host_us, floor_ms,
      floor_what, (r.queued > 0 ? r.queued : r.median) / floor_ms, extra.c_str ());
  fflush (stdout);
}

static double memory_floor_ms (double bytes)
{
  return bytes / (g_bw_gbs * 1e9) * 1e3;
}

/* Either filter with the row and column passes' segment counts set one by one. */
static Result run_segments (Frame &f, const CsEdgeAwareParams *ea, const CsRecursiveParams *rc, int rows, int cols,
    bool two_pass = false)
{
  const size_t bytes = ea ? cs_cuda_edgeaware_scratch_bytes (f.w, f.h) : cs_cuda_recursive_scratch_bytes (f.w, f.h);
  void *scratch;
  CHECK (cudaMalloc (&scratch, bytes));
  Result r = time_launches (f, [&] (void *in) {
    const CsCudaImage s = { in, f.w, f.h, f.pitch, 3 }, d = { f.output, f.w, f.h, f.pitch, 3 };
    return ea ? cs_cuda_edgeaware_segments (&s, &d, ea, &dev, scratch, bytes, 0, rows, cols)
              : (two_pass ? cs_cuda_recursive_two_pass : cs_cuda_recursive_segments) (&s, &d, rc, &dev, scratch, bytes,
                    0, rows, cols);
  });
  CHECK (cudaFree (scratch));
  return r;
}

/* Automatic counts (0, 0) are exactly cs_cuda_edgeaware / cs_cuda_recursive. */
static Result run_edgeaware (Frame &f, const CsEdgeAwareParams &p)
{
  return run_segments (f, &p, NULL, 0, 0);
}

static Result run_recursive (Frame &f, const CsRecursiveParams &p, bool two_pass = false)
{
  return run_segments (f, NULL, &p, 0, 0, two_pass);
}

static Result run_bilateral (Frame &f, const CsBilateralParams &p, bool float_kernel = false)
{
  const size_t bytes = cs_cuda_bilateral_scratch_bytes (f.w, f.h, &p);
  void *scratch = NULL;
  if (bytes)
    CHECK (cudaMalloc (&scratch, bytes));
  Result r = time_launches (f, [&] (void *in) {
    const CsCudaImage s = { in, f.w, f.h, f.pitch, 3 }, d = { f.output, f.w, f.h, f.pitch, 3 };
    return (float_kernel ? cs_cuda_bilateral_float : cs_cuda_bilateral) (&s, &d, &p, &dev, scratch, bytes, 0);
  });
  if (scratch)
    CHECK (cudaFree (scratch));
  return r;
}

static std::string fmt (const char *f, ...)
{
  char buf[256];
  va_list ap;
  va_start (ap, f);
  vsnprintf (buf, sizeof buf, f, ap);
  va_end (ap);
  return buf;
}

/* Kernel time for the sweeps: ms_queued (the GPU's time, as the tables quote), ms_median
 * where queued timing is off (--profile). */
static double sweep_ms (const Result &r)
{
  return r.queued > 0 ? r.queued : r.median;
}

static void bench_edgeaware (void)
{
  struct { int w, h; double s, sr; } cases[] = {
    { 2048, 2048, 50, 50 }, { 2048, 2048, 200, 150 }, { 3840, 2160, 20, 40 }, { 1920, 1080, 20, 40 },
  };
  for (auto &c : cases) {
    Frame f = make_frame (c.w, c.h);
    CsEdgeAwareParams p = cs_edgeaware_params_default ();
    p.sigma = c.s;
    p.sigma_r = c.sr;
    const double floor_ms = memory_floor_ms (2.0 * p.iterations * 8.0 * c.w * c.h);
    for (int b : { 0, 1, 16 }) {
      p.blocks_per_stripe = b;
      Result r = run_edgeaware (f, p);
      print_line ("edgeawaregauss", f, fmt ("sigma=%g,sigma-r=%g,iterations=2,kappa=2,blocks-per-stripe=%d", c.s, c.sr, b),
          r, floor_ms, "memory(4 passes x 8 B/px)",
          b == 0 ? fmt (" auto_blocks=%d/%d", cs_cuda_edgeaware_auto_blocks (&dev, c.w, c.h, CS_PASS_ROWS, &p),
                           cs_cuda_edgeaware_auto_blocks (&dev, c.w, c.h, CS_PASS_COLUMNS, &p))
                 : std::string ());
    }
    /* The same four passes without warm-up (κ = 0: every segment starts from its border
     * state, no search, no warm-up steps; not the filter DESIGN.md defines at κ = 2), at
     * the best of a range of segment counts: what the passes' own steps cost once the
     * warm-up, the price of splitting lines, is gone. The κ = 2 time cannot go under it
     * without fewer instructions a step or more of them issued a cycle. */
    CsEdgeAwareParams p0 = p;
    p0.kappa = 0;
    double best = 1e9;
    int best_b = 0;
    for (int b : { 8, 16, 24, 32, 48, 64, 96, 128 }) {
      p0.blocks_per_stripe = b;
      const double ms = sweep_ms (run_edgeaware (f, p0));
      if (ms < best)
        best = ms, best_b = b;
    }
    printf ("floor edgeaware_no_warmup size=%dx%d sigma=%g sigma-r=%g ms_queued=%.4f blocks-per-stripe=%d (kappa=0, "
            "the best of 8..128 segments: the passes' steps without any warm-up)\n",
        c.w, c.h, c.s, c.sr, best, best_b);
    free_frame (f);
  }
}

static void bench_recursive (void)
{
  for (auto sz : { std::make_pair (1920, 1080), std::make_pair (3840, 2160) }) {
    Frame f = make_frame (sz.first, sz.second);
    const double floor_ms = memory_floor_ms (8.0 * f.w * f.h);
    /* what the tile and tensor-core kernels take is timed again through the swept passes, at the
     * same counts */
    const struct { CsRecursiveAlgorithm alg; CsPartitionStart start; bool two_pass; } cases[] = {
      { CS_RECURSIVE_DERICHE, CS_PARTITION_CARRY, false }, { CS_RECURSIVE_DERICHE, CS_PARTITION_WARM_UP, false },
      { CS_RECURSIVE_DERICHE, CS_PARTITION_WARM_UP, true }, { CS_RECURSIVE_DERICHE, CS_PARTITION_CARRY, true },
      { CS_RECURSIVE_YOUNG_VAN_VLIET, CS_PARTITION_WARM_UP, false },
    };
    for (double s : { 0.5, 2.0, 5.0, 20.0, 50.0, 200.0 })
      for (const auto &c : cases) {
        CsRecursiveParams p = cs_recursive_params_default ();
        p.sigma = s;
        p.algorithm = c.alg;
        p.partition_start = c.start;
        const bool tiles = cs_cuda_recursive_uses_tiles (&p, &dev, f.w, f.h),
                   lines = cs_cuda_recursive_uses_lines (&p, &dev, f.w, f.h);
        if (c.two_pass && !tiles && !lines)
          continue;
        Result r = run_recursive (f, p, c.two_pass);
        print_line (c.two_pass ? "recursivegauss(two-pass)"
                : tiles        ? "recursivegauss(tiles)"
                : lines        ? "recursivegauss(lines)"
                               : "recursivegauss",
            f,
            fmt ("sigma=%g,algorithm=%s,partition-start=%s,blocks-per-stripe=0,kappa=%g", s,
            c.alg ? "young-van-vliet" : "deriche", c.start == CS_PARTITION_CARRY ? "carry" : "warm-up", p.kappa),
            r, floor_ms, "memory(read+write 8 B/px)",
            fmt (" auto_blocks=%d/%d", cs_cuda_recursive_auto_blocks (&dev, f.w, f.h, CS_PASS_ROWS, &p),
                cs_cuda_recursive_auto_blocks (&dev, f.w, f.h, CS_PASS_COLUMNS, &p)));
      }
    free_frame (f);
  }
}

static void bench_bilateral (void)
{
  for (auto sz : { std::make_pair (1920, 1080), std::make_pair (3840, 2160) }) {
    Frame f = make_frame (sz.first, sz.second);
    const double mem_ms = memory_floor_ms (8.0 * f.w * f.h);
    /* the float tile kernel is timed beside the packed-half one it replaces */
    const struct { CsRangeKernel kernel; CsBilateralMode mode; bool float_kernel; } cases[] = {
      { CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_EXACT, false }, { CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_EXACT, true },
      { CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_SEPARABLE, false }, { CS_RANGE_KERNEL_LORENTZIAN, CS_BILATERAL_EXACT, false },
    };
    for (int r : { 1, 2, 3, 5, 7 })
      for (const auto &c : cases) {
        CsBilateralParams p = cs_bilateral_params_default ();
        p.radius = r;
        p.sigma = r / 2.0;
        p.sigma_r = 30;
        p.range_kernel = c.kernel;
        p.mode = c.mode;
        Result res = run_bilateral (f, p, c.float_kernel);
        /* Arithmetic floor of the exact Gaussian kernels, per window evaluation (output
         * and tap): one MUFU ex2 either way; float: 9 FP32 instructions (1 add + 3 FMA
         * for the exponent, 4 accumulations, the ex2's issue slot); packed half: 11
         * half2 instructions serve two evaluations (3 differences, 3 squares, the
         * exponent, 4 accumulations) plus the ex2 pair's pack — 6 issue slots per
         * evaluation, at the FMA pipe's rate; from r = 4 the scaled colours take the
         * exponent in 3 FMAs (bilateral_half.cu): 10 + 1, 5.5 slots. The slower pipe
         * bounds. */
        const bool half = !c.float_kernel && cs_cuda_bilateral_uses_half (&p);
        const bool separable = c.mode == CS_BILATERAL_SEPARABLE;
        const double evals = (double) (2 * r + 1) * (2 * r + 1) * f.w * f.h;
        const double fp_ms = evals * (half ? (r >= 4 ? 5.5 : 6.0) : 9.0) / g_fma_rate * 1e3;
        const double sfu_ms = evals / g_ex2_rate * 1e3;
        const double arith_ms = std::max (fp_ms, sfu_ms);
        const bool mem_bound = mem_ms > arith_ms || separable;
        /* The tile kernels (r >= 2) once more without their DRAM traffic: what the taps,
         * the tile in shared memory and the epilogue cost by themselves at this frame's grid */
        std::string on_chip;
        if (half && r >= 2 && c.kernel == CS_RANGE_KERNEL_GAUSSIAN && !separable) {
          const Result oc = time_launches (f, [&] (void *) {
            const CsCudaImage d = { f.output, f.w, f.h, f.pitch, 3 };
            return cs_cuda_bilateral_on_chip_floor (&d, &p, 0);
          });
          on_chip = fmt (" floor_on_chip_ms=%.4f (the kernel without loads or stores)", sweep_ms (oc));
        }
        print_line ("bilateral", f, fmt ("radius=%d,sigma=%g,sigma-r=30,range-kernel=%s,mode=%s,kernel=%s", r, p.sigma,
            c.kernel == CS_RANGE_KERNEL_LORENTZIAN ? "lorentzian" : "gaussian", separable ? "separable" : "exact",
            half ? "half2" : "float"), res,
            separable ? mem_ms : std::max (mem_ms, arith_ms),
            mem_bound ? "memory" : (fp_ms > sfu_ms ? "arithmetic(fp)" : "arithmetic(ex2)"),
            fmt (" floor_memory_ms=%.4f floor_arith_ms=%.4f (%s %.4f, ex2 %.4f)", mem_ms, arith_ms,
                half ? "half2" : "fp32", fp_ms, sfu_ms) + on_chip);
      }
    free_frame (f);
  }
}

/* blocks-per-stripe: one count for both passes over a grid of counts, against auto. The
 * best of a dozen noisy figures is biased low (the smallest of them wins), so the summary
 * times the winner and auto again, alternately, three rounds, and states their medians
 * besides the sweep's own ratio. */
static void bench_sweep (void)
{
  struct { int w, h; } sizes[] = { { 1920, 1080 }, { 2048, 2048 }, { 3840, 2160 }, { 512, 512 } };
  for (auto &sz : sizes) {
    Frame f = make_frame (sz.w, sz.h);
    CsEdgeAwareParams ea = cs_edgeaware_params_default ();
    CsRecursiveParams rc = cs_recursive_params_default ();
    if (sz.w == 2048)
      ea.sigma = ea.sigma_r = 50;
    for (int which = 0; which < 2; which++) {
      const char *name = which ? "recursivegauss" : "edgeawaregauss";
      const auto run = [&] (int b) {
        if (which == 0) {
          ea.blocks_per_stripe = b;
          return run_edgeaware (f, ea);
        }
        rc.blocks_per_stripe = b;
        return run_recursive (f, rc);
      };
      double best = 1e9;
      int best_b = 0;
      for (int b : { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 0 }) {
        const Result r = run (b);
        if (b && sweep_ms (r) < best) {
          best = sweep_ms (r);
          best_b = b;
        }
        printf ("sweep filter=%s size=%dx%d blocks-per-stripe=%d%s ms_queued=%.4f ms_median=%.4f\n", name, f.w, f.h, b,
            b ? "" : fmt (" (auto=%d/%d)",
                which ? cs_cuda_recursive_auto_blocks (&dev, f.w, f.h, CS_PASS_ROWS, &rc) : cs_cuda_edgeaware_auto_blocks (&dev, f.w, f.h, CS_PASS_ROWS, &ea),
                which ? cs_cuda_recursive_auto_blocks (&dev, f.w, f.h, CS_PASS_COLUMNS, &rc) : cs_cuda_edgeaware_auto_blocks (&dev, f.w, f.h, CS_PASS_COLUMNS, &ea)).c_str (),
            r.queued, r.median);
        if (b == 0) {
          const double auto_ms = sweep_ms (r);
          std::vector<double> again_best, again_auto;
          for (int round = 0; round < 3; round++) {
            again_best.push_back (sweep_ms (run (best_b)));
            again_auto.push_back (sweep_ms (run (0)));
          }
          std::sort (again_best.begin (), again_best.end ());
          std::sort (again_auto.begin (), again_auto.end ());
          printf ("sweep-summary filter=%s size=%dx%d best_fixed=%d best_ms=%.4f auto_ms=%.4f auto_vs_best=%.3f "
                  "retimed_best_ms=%.4f retimed_auto_ms=%.4f retimed_auto_vs_best=%.3f\n",
              name, f.w, f.h, best_b, best, auto_ms, auto_ms / best, again_best[1], again_auto[1], again_auto[1] / again_best[1]);
        }
      }
    }
    free_frame (f);
  }
}

/* Each pass's time against its own segment count, the other pass on auto: the data the
 * automatic choice is fitted to (NOTES.md). */
static void bench_pass_sweep (bool edgeaware_only)
{
  g_batches = false;
  struct { int w, h; bool edge; double s, sr; CsPartitionStart start; } cases[] = {
    { 1920, 1080, false, 5, 0, CS_PARTITION_CARRY }, { 3840, 2160, false, 5, 0, CS_PARTITION_CARRY },
    { 3840, 2160, false, 200, 0, CS_PARTITION_CARRY },
    { 1920, 1080, false, 5, 0, CS_PARTITION_WARM_UP }, { 3840, 2160, false, 5, 0, CS_PARTITION_WARM_UP },
    { 1920, 1080, false, 0.5, 0, CS_PARTITION_WARM_UP }, { 3840, 2160, false, 0.5, 0, CS_PARTITION_WARM_UP },
    { 3840, 2160, false, 50, 0, CS_PARTITION_WARM_UP },
    { 1920, 1080, true, 20, 40, CS_PARTITION_WARM_UP }, { 2048, 2048, true, 50, 50, CS_PARTITION_WARM_UP },
    { 3840, 2160, true, 20, 40, CS_PARTITION_WARM_UP }, { 2048, 2048, true, 200, 150, CS_PARTITION_WARM_UP },
  };
  const int counts[] = { 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 26, 28, 31, 32, 36, 40, 44, 48, 52, 56, 62, 64, 72, 80, 96,
    112, 120, 128 };
  for (auto &c : cases) {
    if (edgeaware_only && !c.edge)
      continue;
    Frame f = make_frame (c.w, c.h);
    CsEdgeAwareParams ea = cs_edgeaware_params_default ();
    CsRecursiveParams rc = cs_recursive_params_default ();
    ea.sigma = c.s;
    ea.sigma_r = c.sr;
    rc.sigma = c.s;
    rc.partition_start = c.start;
    const char *name = c.edge ? "edgeawaregauss" : rc.partition_start == CS_PARTITION_CARRY ? "recursivegauss(carry)" : "recursivegauss(warm-up)";
    const int auto_rows = c.edge ? cs_cuda_edgeaware_auto_blocks (&dev, f.w, f.h, CS_PASS_ROWS, &ea) : cs_cuda_recursive_auto_blocks (&dev, f.w, f.h, CS_PASS_ROWS, &rc);
    const int auto_cols = c.edge ? cs_cuda_edgeaware_auto_blocks (&dev, f.w, f.h, CS_PASS_COLUMNS, &ea) : cs_cuda_recursive_auto_blocks (&dev, f.w, f.h, CS_PASS_COLUMNS, &rc);
    Result a = run_segments (f, c.edge ? &ea : NULL, c.edge ? NULL : &rc, 0, 0);
    printf ("passsweep filter=%s size=%dx%d sigma=%g auto=%d/%d ms_median=%.4f\n", name, f.w, f.h, c.s, auto_rows, auto_cols, a.median);
    for (int pass = 0; pass < 2; pass++)
      for (int b : counts) {
        Result r = run_segments (f, c.edge ? &ea : NULL, c.edge ? NULL : &rc, pass ? auto_rows : b, pass ? b : auto_cols);
        printf ("passsweep filter=%s size=%dx%d sigma=%g pass=%s segments=%d ms_median=%.4f\n", name, f.w, f.h, c.s,
            pass ? "columns" : "rows", b, r.median);
      }
    fflush (stdout);
    free_frame (f);
  }
}

int main (int argc, char **argv)
{
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--image") && i + 1 < argc) {
      g_photo = cs_png_load (argv[++i]);
      if (!g_photo.width) {
        fprintf (stderr, "cannot read %s\n", argv[i]);
        return 1;
      }
    } else if (!strcmp (argv[i], "--runs") && i + 1 < argc) {
      g_runs = std::max (50, atoi (argv[++i]));
    } else if (!strcmp (argv[i], "--profile")) {
      g_runs = 1;
      g_warmups = 0;
      g_profile = true;
    } else if (!strcmp (argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else {
      fprintf (stderr, "usage: %s [--image photo.png] [--runs N>=50] [--only edgeaware|bilateral|recursive|sweep|pass-sweep|pass-sweep-edgeaware] [--profile]\n", argv[0]);
      return 2;
    }
  }
  int n = 0;
  if (cudaGetDeviceCount (&n) != cudaSuccess || n == 0) {
    printf ("SKIP: no CUDA device\n");
    return 77;
  }
  CHECK (cs_cuda_device_query (&dev));
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  g_bw_gbs = measure_bandwidth_gbs ();
  g_fma_rate = measure_rate (fma_rate_kernel, 512 * 8);
  g_ex2_rate = measure_rate (ex2_rate_kernel, 256 * 8);
  printf ("device name=\"%s\" sms=%d l2_mb=%.0f bandwidth_gbs=%.0f fp32_ginst=%.0f ex2_ginst=%.0f input=%s\n",
      prop.name, dev.sm_count, dev.l2_bytes / 1048576.0, g_bw_gbs, g_fma_rate / 1e9, g_ex2_rate / 1e9,
      g_photo.width ? "photo" : "synthetic");
  const Result empty = time_one_launch (0), copy_hd = time_one_launch ((size_t) 1920 * 1080 * 4),
               copy_4k = time_one_launch ((size_t) 3840 * 2160 * 4);
  printf ("launch empty_kernel_ms=%.4f copy_1080p_ms=%.4f copy_4k_ms=%.4f (one launch as the benchmark times it; "
          "copy = an RGBA frame read and written, 8 B/px, inputs rotated as for the filters) "
          "batch: empty_kernel_ms=%.4f copy_1080p_ms=%.4f copy_4k_ms=%.4f (per launch, queued back to back) "
          "queued: empty_kernel_ms=%.4f copy_1080p_ms=%.4f copy_4k_ms=%.4f (alone, queued behind a hold; uncovered %d/%d/%d)\n",
      empty.median, copy_hd.median, copy_4k.median, empty.batch, copy_hd.batch, copy_4k.batch, empty.queued,
      copy_hd.queued, copy_4k.queued, empty.queued_uncovered, copy_hd.queued_uncovered, copy_4k.queued_uncovered);
  const Result chain_hd = time_two_pass_copy (1920, 1080), chain_4k = time_two_pass_copy (3840, 2160);
  printf ("floor two_pass_copy_1080p_ms=%.4f two_pass_copy_4k_ms=%.4f (ms_queued; batch %.4f / %.4f: an RGBA frame to a "
          "half4 plane and back, two launches, 24 B/px: the data movement of any rows-then-columns pass pair with an fp16 "
          "plane between; 24 B/px at the device bandwidth %.4f / %.4f)\n",
      chain_hd.queued, chain_4k.queued, chain_hd.batch, chain_4k.batch, 24.0 * 1920 * 1080 / (g_bw_gbs * 1e6),
      24.0 * 3840 * 2160 / (g_bw_gbs * 1e6));
  if (!only || !strcmp (only, "recursive"))
    bench_recursive ();
  if (!only || !strcmp (only, "bilateral"))
    bench_bilateral ();
  if (!only || !strcmp (only, "edgeaware"))
    bench_edgeaware ();
  if (!only || !strcmp (only, "sweep"))
    bench_sweep ();
  if (only && (!strcmp (only, "pass-sweep") || !strcmp (only, "pass-sweep-edgeaware")))
    bench_pass_sweep (!strcmp (only, "pass-sweep-edgeaware"));
  return 0;
}
