/* cs-bench-kernels — the harness: how a launch is timed, the frames it runs on, the lines it
 * prints. Everything a case needs travels in one Bench (no globals).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Timing. ms_median and ms_min time each launch alone from an idle GPU, so they include the
 * time the launch takes to reach it (an empty kernel measures 5.6–7 µs this way on an H100);
 * ms_batch is the time per launch of the same launches queued back to back (the median of
 * three batches of 20), which is what a stream of frames costs the GPU. ms_queued times each
 * launch alone too, but queued behind a kernel that holds the GPU for 0.5 ms, so that the
 * launch and both events are waiting on the GPU before the first event is reached: the
 * kernels' own time on the GPU (and the gaps between the kernels of a chain), without the
 * host's launch latency and without the overlap of neighbouring launches that ms_batch
 * allows. Each queued run checks that the GPU had not yet reached its first event when the
 * host had queued the launch; runs where it had are counted (queued_uncovered=, normally 0).
 */
#ifndef CS_BENCH_CUH
#define CS_BENCH_CUH

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

extern "C" {
#include "cs_cuda.h"
#include "cs_cuda_testing.h"
#include "cs_image.h"
}

#define CHECK(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName (e_)); \
      exit (1); \
    } \
  } while (0)

/* The figures of one case. */
struct Result {
  double median, min, batch, queued;
  int queued_uncovered;
  double host_us;   /* median time of the launch call on the host */
};

/* The run's settings, the machine's measured ceilings, and the timer's last observations. */
struct Bench {
  CsCudaDevice dev;
  int runs = 60, warmups = 5;
  bool profile = false;   /* one launch per case: no batches, no queued runs */
  bool batches = true;    /* the pass sweeps print medians only and skip them */
  CsImage photo = {};     /* width 0: a synthetic scene */
  double bw_gbs = 0, fma_rate = 0, ex2_rate = 0;   /* probes.cu */
  std::vector<float> host_us;   /* host time of each launch call of the last unqueued timed_runs() */
  int queued_uncovered = 0;     /* runs of the last queued timed_runs() not queued in time */
};

static const unsigned long long kHoldNs = 500000;   /* far above a launch's host time (host_us) */

/* Holds the stream until `ns` nanoseconds of the GPU's global timer have passed. */
void hold_gpu (unsigned long long ns);

/* Each of `runs` launches timed alone between two events, after `warmups` untimed ones;
 * launch (i) gets the run's index (inputs rotate by it). Sorted. Unqueued, each launch
 * starts from an idle GPU (and b.host_us gets the host's time in each launch call);
 * queued, the launch and its events wait behind hold_gpu, so that the host's launch
 * latency falls before the first event (b.queued_uncovered counts the runs where the GPU
 * had reached that event before the host had queued the second). */
template <class Launch>
static std::vector<float> timed_runs (Bench &b, Launch launch, int warmups, int runs, bool queued = false)
{
  cudaEvent_t e0, e1;
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  for (int i = 0; i < warmups; i++)
    launch (i);
  CHECK (cudaDeviceSynchronize ());
  std::vector<float> t;
  if (queued)
    b.queued_uncovered = 0;
  else
    b.host_us.clear ();
  for (int i = 0; i < runs; i++) {
    if (queued) {
      CHECK (cudaDeviceSynchronize ());
      hold_gpu (kHoldNs);
    }
    CHECK (cudaEventRecord (e0));
    const auto h0 = std::chrono::steady_clock::now ();
    launch (i);
    if (!queued)
      b.host_us.push_back (std::chrono::duration<float, std::micro> (std::chrono::steady_clock::now () - h0).count ());
    CHECK (cudaEventRecord (e1));
    if (queued) {
      const cudaError_t reached = cudaEventQuery (e0);
      if (reached == cudaSuccess)
        b.queued_uncovered++;
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

/* The same launches queued back to back between two events: the time per launch, median
 * of three batches of `runs`; 0 when profiling. */
template <class Launch>
static float batch_ms (Bench &b, Launch launch, int runs)
{
  if (b.profile || !b.batches)
    return 0.0f;
  cudaEvent_t e0, e1;
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  std::vector<float> t;
  for (int k = 0; k < 3; k++) {
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

double median_of (std::vector<float> v);

/* Every figure of one case: `runs` single launches (after `warmups`), batches of
 * `batch_runs`, and `runs` queued launches (none when profiling or sweeping). */
template <class Launch>
static Result measure (Bench &b, Launch launch, int warmups, int runs, int batch_runs)
{
  const std::vector<float> t = timed_runs (b, launch, warmups, runs);
  const double host_us = median_of (b.host_us);
  const float batch = batch_ms (b, launch, batch_runs);
  float queued = 0.0f;
  b.queued_uncovered = 0;
  if (!b.profile && b.batches)
    queued = median_of (timed_runs (b, launch, 0, runs, true));
  return { t[t.size () / 2], t[0], batch, queued, b.queued_uncovered, host_us };
}

/* A device frame of w x h RGBA8 (a photo mirrored to size, or a synthetic scene), its copies
 * rotated over more bytes than L2 holds, and an output frame. */
struct Frame {
  int w, h;
  size_t pitch;
  std::vector<void *> inputs;
  void *output;
};

Frame make_frame (const Bench &b, int w, int h);
void free_frame (Frame &f);

/* One launch a run, the frame's inputs in rotation: launch (input) returns its error. */
template <class Launch>
static Result time_launches (Bench &b, Frame &f, Launch launch)
{
  const auto rotated = [&] (int i) { CHECK (launch (f.inputs[i % f.inputs.size ()])); };
  return measure (b, rotated, b.warmups, b.runs, 20);
}

/* A plan's runs on a frame (scratch allocated here). */
Result time_plan (Bench &b, Frame &f, const CsCudaPlan *plan);

/* Kernel time: ms_queued (the GPU's time, as the tables quote), ms_median where queued
 * timing is off (--profile, pass sweeps). */
static inline double kernel_ms (const Result &r)
{
  return r.queued > 0 ? r.queued : r.median;
}

std::string fmt (const char *f, ...);

/* bench filter=... path=device size=WxH params=... ms_median=... ... floor_ms=... floor=... */
void print_line (const char *filter, const Frame &f, const std::string &params, const Result &r, double floor_ms,
    const char *floor_what, const std::string &extra = "");

/* ms for `bytes` through DRAM at the measured bandwidth */
double memory_floor_ms (const Bench &b, double bytes);

#endif /* CS_BENCH_CUH */
