/* gst-cudasmooth — the line sweep shared by edgeawaregauss and recursivegauss (internal):
 * Deriche's complex-pole pair in the h form, one thread per (column, segment) or one warp per
 * 32 rows and segment, the causal sums parked in fp16 (docs/algorithms.md, 4).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_SWEEP_CUH
#define CS_SWEEP_CUH

#include "cs_cuda_complex.cuh"
#include "cs_cuda_px.cuh"
#include "cs_mufu.cuh"

namespace cs {

/* The recursion's state, both poles of C channels: three for the RGBA family, one or two
 * for a view packed into a working frame (the channels past C are 0 there and stay 0). */
template <int C> struct SweepState {
  float2 h[2][C];
};

/* Start states handed to the segments of a line (cs_carry.cuh fills them):
 * [segment][component][line], component = direction·6 + pole·3 + channel, direction 0
 * the causal state before the segment (h⁺[st−1]), 1 the anticausal state after it (h⁻[en]). */
static constexpr int kCarryComponents = 12;

struct Carries {
  float2 *states;
  int n_lines, segments;

  __host__ __device__ __forceinline__ float2 *at (int seg, int component, int line) const
  {
    return states + ((long long) seg * kCarryComponents + component) * n_lines + line;
  }

  __device__ __forceinline__ void load (SweepState<3> &s, int seg, int direction, int line) const
  {
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
      for (int c = 0; c < 3; c++)
        s.h[i][c] = *at (seg, direction * 6 + i * 3 + c, line);
  }
};

template <int C>
__host__ __device__ __forceinline__ void sweep_zero (SweepState<C> &s)
{
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int c = 0; c < C; c++)
      s.h[i][c] = make_float2 (0.f, 0.f);
}

/* h = x·df + bd·h for both poles and the C channels. */
template <int C>
__host__ __device__ __forceinline__ void sweep_advance (SweepState<C> &s, const float2 bd[2],
    const float2 x[2], float4 f, float4 f_other)
{
  const float df[3] = { f.x - f_other.x, f.y - f_other.y, f.z - f_other.z };
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int c = 0; c < C; c++)
      s.h[i][c] = cstep (x[i], df[c], bd[i], s.h[i][c]);
}

/* Re Σ h per channel; 0 past the C channels. */
template <int C>
__host__ __device__ __forceinline__ float4 sweep_sum (const SweepState<C> &s)
{
  const auto re = [&] (int c) { return c < C ? s.h[0][c].x + s.h[1][c].x : 0.f; };
  return make_float4 (re (0), re (1), re (2), 0.f);
}

/* An output sample: the input plus both directions' sums, the C channels and the alpha slot;
 * past C channels (a packed view's zero channels and alpha) 0, as the three-channel sweep
 * computes them there. */
template <int C>
__host__ __device__ __forceinline__ float4 output_sum (float4 f, float4 p, float4 h)
{
  if (C == 3)
    return make_float4 (f.x + p.x + h.x, f.y + p.y + h.y, f.z + p.z + h.z, f.w);
  return make_float4 (f.x + p.x + h.x, C == 2 ? f.y + p.y + h.y : 0.f, 0.f, 0.f);
}

/* recursivegauss: uniform spacing, constant terms; segments start either after a warm-up
 * of a fixed sample count from a zero state, or (carried.states set) from the exact states
 * of cs_carry.cuh, one sample before the segment (after it, anticausal). */
struct UniformFilter {
  float2 b[2], x[2];
  int warmup;
  Carries carried;
  static constexpr int kChannels = 3;
  static constexpr bool kNeedsFrame = false;
  static constexpr bool kZeroStarts = false;   /* carried states */

  __host__ __device__ __forceinline__ void terms (float4, float4, float2 bd[2], float2 x_out[2]) const
  {
    bd[0] = b[0];
    bd[1] = b[1];
    x_out[0] = x[0];
    x_out[1] = x[1];
  }
  __device__ __forceinline__ int causal_start (const Lines &, int, int st) const
  {
    return max (st - (carried.states ? 1 : warmup), 0);
  }
  __device__ __forceinline__ int anticausal_end (const Lines &, int, int en, int n) const
  {
    return min (en - 1 + (carried.states ? 1 : warmup), n - 1);
  }
  /* The state at causal_start / anticausal_end: zero at a border or after a warm-up. */
  __device__ __forceinline__ void causal_state (SweepState<3> &s, int line, int seg, int st) const
  {
    if (carried.states && st > 0)
      carried.load (s, seg, 0, line);
    else
      sweep_zero (s);
  }
  __device__ __forceinline__ void anticausal_state (SweepState<3> &s, int line, int seg, int en, int n) const
  {
    if (carried.states && en < n)
      carried.load (s, seg, 1, line);
    else
      sweep_zero (s);
  }
};

/* edgeawaregauss's constants for one pass (edgeaware.cu computes them at plan time). */
struct EdgeAwareCoeffs {
  float2 inv_r0[2];
  float log2_abs_b[2], arg_b[2];
  float ratio2;    /* (σs/σr)², total σs */
  double search_ratio2, warmup;   /* the same ratio², and κσ_i, in double for the searches */
};

/* edgeawaregauss on C colour channels: spacings from the 8-bit frame, terms per sample,
 * warm-up of κσ_i of transformed distance (Algorithm B). */
template <int C>
struct EdgeAwareFilter : EdgeAwareCoeffs {
  static constexpr int kChannels = C;
  static constexpr bool kNeedsFrame = true;
  static constexpr bool kZeroStarts = true;   /* every sweep starts from h = 0 */

  /* δ = sqrt(1 + ratio²·‖ΔI‖²) between two frame pixels (eq. 2), returned with 1/δ. */
  __host__ __device__ __forceinline__ float inv_spacing (float4 a, float4 b, float &delta) const
  {
    const float v = fmaf (ratio2, colour_d2_of<C> (a, b), 1.0f);
#ifdef __CUDA_ARCH__
    const float r = rsqrt_ftz (v);   /* v >= 1 (cs_mufu.cuh) */
#else
    const float r = 1.0f / sqrtf (v);
#endif
    delta = v * r;
    return r;
  }

  /* b^δ by the polar form |b|^δ(cos δθ + i sin δθ) and x = (b^δ − 1)/(r0 δ). */
  __host__ __device__ __forceinline__ void terms (float4 fr, float4 fr_other, float2 bd[2], float2 x[2]) const
  {
    float delta;
    const float inv_delta = inv_spacing (fr, fr_other, delta);
#pragma unroll
    for (int i = 0; i < 2; i++) {
      float sn, cs_;
#ifdef __CUDA_ARCH__
      const float m = ex2_ftz (delta * log2_abs_b[i]);   /* flushes only where b^δ < 2^−126 */
      __sincosf (delta * arg_b[i], &sn, &cs_);
#else
      const float m = exp2f (delta * log2_abs_b[i]);
      sn = sinf (delta * arg_b[i]);
      cs_ = cosf (delta * arg_b[i]);
#endif
      bd[i] = make_float2 (m * cs_, m * sn);
      x[i] = cscale (cmul (make_float2 (bd[i].x - 1.0f, bd[i].y), inv_r0[i]), inv_delta);
    }
  }

  __device__ __forceinline__ void causal_state (SweepState<C> &s, int, int, int) const
  {
    sweep_zero (s);
  }
  __device__ __forceinline__ void anticausal_state (SweepState<C> &s, int, int, int, int) const
  {
    sweep_zero (s);
  }

  __host__ __device__ __forceinline__ float spacing (float4 a, float4 b) const
  {
    float delta;
    inv_spacing (a, b, delta);
    return delta;
  }

  /* Δt for the warm-up searches, in double as the reference computes it (eq. 2: 1 + ratio²·d²
   * without contraction, then a correctly rounded root; d² is an exact integer). */
  __device__ __forceinline__ double exact_spacing (float4 a, float4 b) const
  {
    return __dsqrt_rn (__dadd_rn (1.0, __dmul_rn (search_ratio2, (double) colour_d2_of<C> (a, b))));
  }

  /* Walks from sample k towards `limit` (dir = ±1) while the sum of Δt stays under the
   * threshold w; returns where it stopped, with the sum there and one step before. Pixels
   * are loaded in groups of four ahead of the test that ends the search (latency, not
   * bandwidth). */
  template <class T, class Spacing>
  __device__ __forceinline__ int warmup_walk (const Lines &frame, int line, int k, int dir, int limit, T w,
      Spacing spacing, T &acc, T &acc_before) const
  {
    acc = acc_before = 0;
    float4 cur = load_px (U8 (), frame, frame.at (line, k));
    while (k != limit && acc < w) {
      float4 q[4];
#pragma unroll
      for (int i = 0; i < 4; i++)
        q[i] = (limit - k) * dir >= i + 1 ? load_px (U8 (), frame, frame.at (line, k + dir * (i + 1))) : cur;
#pragma unroll
      for (int i = 0; i < 4; i++)
        if (k != limit && acc < w) {
          acc_before = acc;
          acc += spacing (cur, q[i]);
          cur = q[i];
          k += dir;
        }
    }
    return k;
  }

  /* Where the warm-up search from k stops: the first sample whose sum of Δt from k reaches
   * κσ_i, else `limit`. The searches decide integer block starts, and κσ_i can equal a sum
   * of Δt exactly (σ 10, σr 30, κ 0.5: κσ_2 = √5 = Δt of a colour step d² = 36), which
   * the reference decides in exact arithmetic; float sums of the steps' Δt (v·rsqrt.approx(v),
   * a few ulp off) decided it the other way and warmed blocks up a sample more or less (2–3
   * LSB at κ 0.5). A walk with the exact Δt throughout (a double root per sample) cost 3–8 %
   * of the filter, so the walk sums the float Δt in double (each within 2^−22.9 + 2^−23
   * relative of the exact one: rsqrt.approx, and the roundings of ratio² and v; the sum's own
   * roundings are negligible), and only a walk whose last two sums came within 2^−21
   * (relative) of the threshold is walked again with the exact Δt (~1 % of the filter's
   * time: a warp waits for any of its lanes that does). */
  __device__ __forceinline__ int warmup_end (const Lines &frame, int line, int k, int dir, int limit) const
  {
    double acc, acc_before;
    const int stop = warmup_walk (frame, line, k, dir, limit, warmup, [this] (float4 a, float4 b) {
      return (double) spacing (a, b);
    }, acc, acc_before);
    const double err = 0x1p-21 * fmax (acc, warmup);
    const bool certain = acc >= warmup ? acc - warmup > err && warmup - acc_before > err : warmup - acc > err;
    return certain ? stop : exact_warmup_end (frame, line, k, dir, limit);
  }

  /* Out of line: rarely taken, and kept out of the sweeps' register allocation. */
  __device__ __noinline__ int exact_warmup_end (const Lines &frame, int line, int k, int dir, int limit) const
  {
    double acc, acc_before;
    return warmup_walk (frame, line, k, dir, limit, warmup, [this] (float4 a, float4 b) {
      return exact_spacing (a, b);
    }, acc, acc_before);
  }

  /* The largest s <= st with Σ_{k=s+1..st} Δt_k >= κσ_i, else 0. */
  __device__ __forceinline__ int causal_start (const Lines &frame, int line, int st) const
  {
    return warmup_end (frame, line, st, -1, 0);
  }

  /* The smallest e >= en−1 with Σ_{k=en..e} Δt_k >= κσ_i, else n−1. */
  __device__ __forceinline__ int anticausal_end (const Lines &frame, int line, int en, int n) const
  {
    return warmup_end (frame, line, en - 1, 1, n - 1);
  }
};

struct Segments {
  int n, n_lines, segments;

  __device__ __forceinline__ void bounds (int seg, int &st, int &en) const
  {
    st = (int) ((long long) seg * n / segments);
    en = (int) ((long long) (seg + 1) * n / segments);
  }

  /* The (line, segment) of thread t of a launch with one thread per pair, adjacent
   * threads on adjacent lines; false past the last pair or for an empty segment. */
  __device__ __forceinline__ bool thread_segment (long long t, int &line, int &seg, int &st, int &en) const
  {
    if (t >= (long long) n_lines * segments)
      return false;
    line = (int) (t % n_lines);
    seg = (int) (t / n_lines);
    bounds (seg, st, en);
    return en > st;
  }
};

/* ---------------------------------------------------------------- columns: direct */

template <class S> struct Raw;
template <> struct Raw<U8> { typedef unsigned int T; };
template <> struct Raw<H4> { typedef uint2 T; };
template <> struct Raw<H2> { typedef unsigned int T; };

/* The intermediate element of a sweep of C channels, and of its parked sums: half4 for three,
 * half2 for a view's one or two (half the bytes through memory and in the row tiles). */
template <int C> struct PlaneOf { typedef H2 T; };
template <> struct PlaneOf<3> { typedef H4 T; };
template <class F> using ParkOf = typename PlaneOf<F::kChannels>::T;
template <class F> using ParkWord = typename Raw<ParkOf<F>>::T;

template <class S> __device__ __forceinline__ float4 decode (const Lines &l, typename Raw<S>::T v)
{
  return load_px (S (), l, reinterpret_cast<const char *> (&v));
}

/* Samples loaded ahead of the sweep, raw: a group of kAhead is fetched while the group
 * before it is swept. The stores of a step may alias later loads as far as the compiler
 * knows, so loads issued in program order after them would each wait a full memory
 * latency; the column sweeps run at low occupancy and were bound by exactly that
 * (docs/performance.md). */
static constexpr int kAhead = 4;

template <class S, class F> struct ColumnSample {
  typename Raw<S>::T f;
  unsigned int fr;      /* frame word, for filters whose spacing reads the frame */
  ParkWord<F> parked;   /* anticausal sweep: the causal sum parked at this sample */

  __device__ __forceinline__ void fetch (const Lines &frame, const Lines &in, int line, int k)
  {
    f = *reinterpret_cast<const typename Raw<S>::T *> (in.at (line, k));
    if (F::kNeedsFrame)
      fr = *reinterpret_cast<const unsigned int *> (frame.at (line, k));
  }
  __device__ __forceinline__ float4 value (const Lines &in) const
  {
    return decode<S> (in, f);
  }
  __device__ __forceinline__ float4 frame_value (const Lines &frame, const Lines &in) const
  {
    return F::kNeedsFrame ? decode<U8> (frame, fr) : value (in);
  }
};

/* Where a column sweep parks its causal sums until the anticausal sweep adds them: in
 * shared memory when the segment fits (no global traffic, and no store-to-load waits),
 * else in the partial plane. Each thread owns one column of the shared array. */
template <bool kOnChip, int C> struct Parking;

extern __shared__ __half2 parked_tile[];

template <int C> struct Parking<true, C> {
  /* parked_tile holds (r, g) as [sample − st][thread], then b as [sample − st][thread] in
   * halves (alpha is not parked): 6 bytes a sample, b's left unused below three channels.
   * Indices, not pointers, keep the addressing in 32-bit shared space. */
  int rg, b, st;
  __device__ __forceinline__ Parking (const Lines &, int, int st_, int samples)
  {
    rg = threadIdx.x;
    b = 2 * samples * blockDim.x + threadIdx.x;
    st = st_;
  }
  __device__ __forceinline__ void park (int k, float4 v)
  {
    const int i = (k - st) * blockDim.x;
    parked_tile[rg + i] = __floats2half2_rn (v.x, v.y);
    if (C == 3)
      reinterpret_cast<__half *> (parked_tile)[b + i] = __float2half_rn (v.z);
  }
  __device__ __forceinline__ bool fetched_ahead () const { return false; }
  template <class W>
  __device__ __forceinline__ float4 take (int k, W) const
  {
    const int i = (k - st) * blockDim.x;
    const float2 v = __half22float2 (parked_tile[rg + i]);
    return make_float4 (v.x, v.y, C == 3 ? __half2float (reinterpret_cast<const __half *> (parked_tile)[b + i]) : 0.f, 0.f);
  }
};

template <int C> struct Parking<false, C> {
  Lines plane;
  int line;
  __device__ __forceinline__ Parking (const Lines &partial, int line_, int, int)
  {
    plane = partial;
    line = line_;
  }
  typedef typename PlaneOf<C>::T P;
  __device__ __forceinline__ void park (int k, float4 v)
  {
    store_px (P (), plane, plane.at (line, k), v);
  }
  __device__ __forceinline__ bool fetched_ahead () const { return true; }
  __device__ __forceinline__ float4 take (int, typename Raw<P>::T fetched) const
  {
    return load_px (P (), plane, reinterpret_cast<const char *> (&fetched));
  }
};

/* Shared memory per thread and sample when a segment's sums are parked on chip, and the
 * most a launch takes that way (the default dynamic limit: no opt-in needed). */
static constexpr int kColumnThreads = 128, kParkBytesPerSample = 6, kParkOnChipMaxBytes = 48 * 1024;
static constexpr int kParkOnChipMaxSamples = kParkOnChipMaxBytes / (kColumnThreads * kParkBytesPerSample);
/* What parking on chip saves a column pass per step, for the automatic segment count:
 * about a fifth (H100: recursivegauss 4K σ=5 −13 % overall, edgeawaregauss 1080p −10 %). */
static constexpr double kParkOnChipStepCost = 0.8;

template <class S, class D, class F, bool kOnChip>
__global__ void __launch_bounds__ (kColumnThreads)
sweep_columns (Lines frame, Lines in, Lines out, Lines partial, Segments geo, F filt)
{
  int line, seg, st, en;
  if (!geo.thread_segment (blockIdx.x * (long long) blockDim.x + threadIdx.x, line, seg, st, en))
    return;
  constexpr int C = F::kChannels;
  SweepState<C> state;
  float2 bd[2], x[2];
  ColumnSample<S, F> cur[kAhead], next[kAhead], edge;
  Parking<kOnChip, C> parking (partial, line, st, (geo.n + geo.segments - 1) / geo.segments);

  /* causal: samples s+1 .. en−1 step from their predecessor */
  const int s = filt.causal_start (frame, line, st);
  edge.fetch (frame, in, line, s);
  float4 f_prev = edge.value (in), fr_prev = edge.frame_value (frame, in);
  filt.causal_state (state, line, seg, st);
  if (s >= st)
    parking.park (s, sweep_sum (state));
  /* Fetches past the sweep's end are clamped to its last sample, and the steps past en (the
   * last group's tail) run on those copies with only their stores guarded: each group stays
   * one basic block, whose steps' terms the compiler overlaps with the recursion (the state
   * is not read after the loop). */
#pragma unroll
  for (int i = 0; i < kAhead; i++)
    cur[i].fetch (frame, in, line, min (s + 1 + i, en - 1));
  for (int k0 = s + 1; k0 < en; k0 += kAhead) {
#pragma unroll
    for (int i = 0; i < kAhead; i++)
      next[i].fetch (frame, in, line, min (k0 + kAhead + i, en - 1));
#pragma unroll
    for (int i = 0; i < kAhead; i++) {
      const int k = k0 + i;
      const float4 f = cur[i].value (in), fr = cur[i].frame_value (frame, in);
      filt.terms (fr, fr_prev, bd, x);
      sweep_advance (state, bd, x, f, f_prev);
      f_prev = f;
      fr_prev = fr;
      if (k >= st && k < en)
        parking.park (k, sweep_sum (state));
    }
#pragma unroll
    for (int i = 0; i < kAhead; i++)
      cur[i] = next[i];
  }

  /* anticausal: from e down; samples below en are written with their parked sums */
  const int e = filt.anticausal_end (frame, line, en, geo.n);
  edge.fetch (frame, in, line, e);
  f_prev = edge.value (in);
  fr_prev = edge.frame_value (frame, in);
  filt.anticausal_state (state, line, seg, en, geo.n);
  if (e < en) {
    const float4 p = parking.fetched_ahead () ? load_px (ParkOf<F> (), partial, partial.at (line, e))
                                              : parking.take (e, ParkWord<F> ());
    store_px (D (), out, out.at (line, e), output_sum<C> (f_prev, p, sweep_sum (state)));
  }
  const auto fetch_back = [&] (ColumnSample<S, F> &c, int k) {
    c.fetch (frame, in, line, k);
    if (k < en && parking.fetched_ahead ())
      c.parked = *reinterpret_cast<const ParkWord<F> *> (partial.at (line, k));
  };
  /* as the causal sweep, clamped at st */
#pragma unroll
  for (int i = 0; i < kAhead; i++)
    fetch_back (cur[i], max (e - 1 - i, st));
  for (int k0 = e - 1; k0 >= st; k0 -= kAhead) {
#pragma unroll
    for (int i = 0; i < kAhead; i++)
      fetch_back (next[i], max (k0 - kAhead - i, st));
#pragma unroll
    for (int i = 0; i < kAhead; i++) {
      const int k = k0 - i;
      const float4 f = cur[i].value (in), fr = cur[i].frame_value (frame, in);
      filt.terms (fr_prev, fr, bd, x);
      sweep_advance (state, bd, x, f, f_prev);
      f_prev = f;
      fr_prev = fr;
      if (k >= st && k < en) {
        const float4 p = parking.take (k, cur[i].parked);
        store_px (D (), out, out.at (line, k), output_sum<C> (f, p, sweep_sum (state)));
      }
    }
#pragma unroll
    for (int i = 0; i < kAhead; i++)
      cur[i] = next[i];
  }
}

/* Columns of filters whose sweeps start from zero, each (column, segment) on two threads
 * that meet at the segment's middle, as sweep_rows_split does for rows: thread 0 of the pair
 * sweeps causally up to mid − 1 and thread 1 anticausally down to mid, each parking its
 * half's sums on chip; they trade states, and each sweeps the other half in its other
 * direction, writing the outputs. A block is kSplitColumns columns by the two roles (so
 * that each warp holds 32 adjacent columns of one role). */
static constexpr int kSplitColumns = 64;
/* Per column of a block, after the parked sums: the two traded states and the causal start */
static constexpr int kSplitColumnTradeBytes = 2 * (int) sizeof (SweepState<3>) + 4;   /* at most */

/* Each thread of a pair parks at most half a segment plus one sample. */
__host__ __device__ constexpr int split_column_park_samples (int segment)
{
  return segment / 2 + 1;
}

/* A block's dynamic shared memory: the parked sums (rounded up to 16 bytes), then the
 * traded states and starts, so that a block of 32 columns holds only its own (a static
 * array for 64 had cost the 32-column blocks a fifth block per SM: σ=200 +7 %). */
__host__ __device__ constexpr int split_columns_park_bytes (int segment, int columns)
{
  return (split_column_park_samples (segment) * kParkBytesPerSample * 2 * columns + 15) / 16 * 16;
}
__host__ __device__ constexpr int split_columns_bytes (int segment, int columns)
{
  return split_columns_park_bytes (segment, columns) + columns * kSplitColumnTradeBytes;
}

/* The longest segment whose halves a block of `columns` column pairs parks on chip (64
 * columns: 109 samples, 32: 237). */
__host__ __device__ constexpr int split_columns_max_samples (int columns)
{
  int segment = 1;
  while (split_columns_bytes (segment + 1, columns) <= kParkOnChipMaxBytes)
    segment++;
  return segment;
}

/* Steps k = first, first + dir, ..., last of a column sweep (dir = ±1), from the state and
 * previous sample given; samples fetched kAhead ahead (clamped to the range), `emit (k, f)`
 * after each step. Full groups run without branches; the last few steps one by one. The
 * direction is a run-time value: a step's terms are symmetric in its two samples (δ depends
 * on ‖ΔI‖² only), so both directions are one loop, and a block whose warps sweep in
 * opposite directions runs one hot loop, not two. With the direction as a template
 * parameter the split kernel held four copies of this loop, two of them hot at once: its
 * warps waited ~1 cycle per issued instruction for instructions (ncu, docs/performance.md). */
template <class S, class F, class Emit>
__device__ __forceinline__ void column_steps (const Lines &frame, const Lines &in, int line, int first, int last,
    int dir, const F &filt, SweepState<F::kChannels> &state, float4 &f_prev, float4 &fr_prev, Emit emit)
{
  const int n = (last - first) * dir + 1;
  if (n <= 0)
    return;
  float2 bd[2], x[2];
  ColumnSample<S, F> cur[kAhead], next[kAhead];
  const auto k_of = [&] (int i) { return first + dir * i; };
  const auto step = [&] (const ColumnSample<S, F> &c, int k) {
    const float4 f = c.value (in), fr = c.frame_value (frame, in);
    filt.terms (fr, fr_prev, bd, x);
    sweep_advance (state, bd, x, f, f_prev);
    f_prev = f;
    fr_prev = fr;
    emit (k, f);
  };
#pragma unroll
  for (int i = 0; i < kAhead; i++)
    cur[i].fetch (frame, in, line, k_of (min (i, n - 1)));
  int i0 = 0;
  for (; i0 + kAhead <= n; i0 += kAhead) {
#pragma unroll
    for (int i = 0; i < kAhead; i++)
      next[i].fetch (frame, in, line, k_of (min (i0 + kAhead + i, n - 1)));
#pragma unroll
    for (int i = 0; i < kAhead; i++)
      step (cur[i], k_of (i0 + i));
#pragma unroll
    for (int i = 0; i < kAhead; i++)
      cur[i] = next[i];
  }
#pragma unroll
  for (int i = 0; i < kAhead - 1; i++)
    if (i0 + i < n)
      step (cur[i], k_of (i0 + i));
}

template <class S, class D, class F>
__global__ void __launch_bounds__ (2 * kSplitColumns, 4)
sweep_columns_split (Lines frame, Lines in, Lines out, Segments geo, F filt)
{
  static_assert (F::kZeroStarts, "the states traded at the middle are the only start states");
  const int columns = blockDim.x / 2, role = threadIdx.x / columns, c = threadIdx.x % columns;
  const int line = blockIdx.x * columns + c;
  const bool valid = line < geo.n_lines;
  int st, en;
  geo.bounds (blockIdx.y, st, en);
  if (en <= st)
    return;   /* the whole block */
  const int mid = st + (en - st) / 2;   /* role 0 writes st..mid−1, role 1 mid..en−1 */
  /* each role parks its own half: role 0 st..mid−1, role 1 mid..en−1 */
  const int segment = (geo.n + geo.segments - 1) / geo.segments;
  constexpr int C = F::kChannels;
  Parking<true, C> parking (in, line, role ? mid : st, split_column_park_samples (segment));
  /* after the parked sums: traded[direction·columns + c] = h⁺[mid − 1], h⁻[mid]; then the
   * causal starts */
  SweepState<C> *traded = reinterpret_cast<SweepState<C> *> (
      reinterpret_cast<char *> (parked_tile) + split_columns_park_bytes (segment, columns));
  int *causal_starts = reinterpret_cast<int *> (traded + 2 * columns);
  SweepState<C> state;
  sweep_zero (state);
  ColumnSample<S, F> edge;
  float4 f_prev, fr_prev;
  const auto start_at = [&] (int k) {
    edge.fetch (frame, in, line, k);
    f_prev = edge.value (in);
    fr_prev = edge.frame_value (frame, in);
  };
  const auto output = [&] (int k, float4 f) {
    store_px (D (), out, out.at (line, k), output_sum<C> (f, parking.take (k, ParkWord<F> ()), sweep_sum (state)));
  };

  if (valid) {
    /* role 0 causal from its warm-up start s up to mid − 1, role 1 anticausal from its
     * warm-up end e down to mid; each parks the sums of its own half (the samples of the
     * sweep inside st..en−1) */
    const int dir = role ? -1 : 1;
    const int from = role ? filt.anticausal_end (frame, line, en, geo.n) : filt.causal_start (frame, line, st);
    start_at (from);
    if (from >= st && from < en)
      parking.park (from, sweep_sum (state));
    column_steps<S> (frame, in, line, from + dir, role ? mid : mid - 1, dir, filt, state, f_prev, fr_prev,
        [&] (int k, float4) {
          if (k >= st && k < en)
            parking.park (k, sweep_sum (state));
        });
    if (role == 0)
      causal_starts[c] = from;
    traded[role * columns + c] = state;
  }
  __syncthreads ();
  if (!valid)
    return;
  /* role 0: anticausal from h⁻[mid] down to st; role 1: causal from h⁺[mid − 1] up to en − 1
   * (a causal sweep that starts at mid itself, s = st = mid, has no step into mid, and its
   * sum there is 0) */
  const int s = causal_starts[c];
  const bool starts_at_mid = role == 1 && s >= mid;
  state = traded[(1 - role) * columns + c];
  start_at (role == 0 || starts_at_mid ? mid : mid - 1);
  if (starts_at_mid)
    output (mid, f_prev);
  column_steps<S> (frame, in, line, role == 0 ? mid - 1 : starts_at_mid ? mid + 1 : mid, role == 0 ? st : en - 1,
      role ? 1 : -1, filt, state, f_prev, fr_prev, output);
}

/* ---------------------------------------------------------------- rows: staged */

static constexpr int kRowWarps = 2;   /* warps per block; each owns 32 rows */

template <class S, class F> struct RowTiles {
  typename Raw<S>::T in[32][33];
  unsigned int frame[F::kNeedsFrame ? 32 : 1][33];
  ParkWord<F> park[32][33];   /* parked sums (ParkOf), then the output of the chunk */
};

/* Copies a 32-row x `count`-sample window [k0, k0+count) of a plane into a tile: lane j
 * takes sample k0+j of every row, so each row is one coalesced read. */
template <class T>
__device__ __forceinline__ void tile_load (T (*tile)[33], const Lines &l, int row0, int n_lines, int k0,
    int count, int lane)
{
  if (lane < count)
    for (int r = 0; r < 32 && row0 + r < n_lines; r++)
      tile[r][lane] = *reinterpret_cast<const T *> (l.at (row0 + r, k0 + lane));
}

template <class T>
__device__ __forceinline__ void tile_store (T (*tile)[33], const Lines &l, int row0, int n_lines, int k0,
    int lo, int hi, int lane)
{
  const int k = k0 + lane;
  if (k >= lo && k < hi)
    for (int r = 0; r < 32 && row0 + r < n_lines; r++)
      *reinterpret_cast<T *> (l.at (row0 + r, k)) = tile[r][lane];
}

/* A global-to-shared copy without registers (sm_80's cp.async); before sm_80 an ordinary
 * load and store, complete when it returns. */
template <class T>
__device__ __forceinline__ void cp_async (T *dst, const void *src)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  *dst = *reinterpret_cast<const T *> (src);
#else
  const unsigned int d = (unsigned int) __cvta_generic_to_shared (dst);
  asm volatile ("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(d), "l"(src), "n"(sizeof (T)) : "memory");
#endif
}

__device__ __forceinline__ void cp_async_wait_all ()
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.wait_all;" ::: "memory");
#endif
}

/* Stages a chunk of up to three planes into their tiles (lane = sample; `on`: this lane's
 * sample is wanted from that plane) as asynchronous copies, global to shared without
 * registers, and waits for them once: one memory latency a chunk, where loads through
 * registers waited one per plane and batch of rows. The caller's __syncwarp makes the
 * tiles visible to the warp. */
template <class A, class B, class C>
__device__ __forceinline__ void stage_chunk (A (*ta)[33], const Lines &la, bool on_a, B (*tb)[33], const Lines &lb,
    bool on_b, C (*tc)[33], const Lines &lc, bool on_c, int row0, int n_lines, int k, int lane)
{
  const int rows = min (32, n_lines - row0);
  for (int r = 0; r < rows; r++) {
    if (on_a)
      cp_async (&ta[r][lane], la.at (row0 + r, k));
    if (on_b)
      cp_async (&tb[r][lane], lb.at (row0 + r, k));
    if (on_c)
      cp_async (&tc[r][lane], lc.at (row0 + r, k));
  }
  cp_async_wait_all ();
}

/* Re Σ h (r, g, b) as a half4 word pair, alpha slot 0; or (c0, c1) as a half2 word. */
__device__ __forceinline__ uint2 park_word (H4, float4 h)
{
  __half2 a = __floats2half2_rn (h.x, h.y), b = __floats2half2_rn (h.z, 0.f);
  return make_uint2 (*reinterpret_cast<unsigned int *> (&a), *reinterpret_cast<unsigned int *> (&b));
}
__device__ __forceinline__ unsigned int park_word (H2, float4 h)
{
  __half2 a = __floats2half2_rn (h.x, h.y);
  return *reinterpret_cast<unsigned int *> (&a);
}

/* A tile slot's first word: a frame pixel (U8) stored over a parked half4 sum. */
__device__ __forceinline__ unsigned int first_word (uint2 w)
{
  return w.x;
}
__device__ __forceinline__ unsigned int first_word (unsigned int w)
{
  return w;
}

/* The terms of a step, or zero coefficients where the step lies outside the sweep (before
 * its warm-up start): for filters whose sweeps start from a zero state (F::kZeroStarts)
 * such a step leaves h = 0·h + 0·Δf = 0, as not stepping would. */
template <class F>
__device__ __forceinline__ void masked_terms (const F &filt, bool active, float4 fr_later, float4 fr_earlier,
    float2 bd[2], float2 x[2])
{
  filt.terms (fr_later, fr_earlier, bd, x);
#pragma unroll
  for (int i = 0; i < 2; i++) {
    bd[i] = active ? bd[i] : make_float2 (0.f, 0.f);
    x[i] = active ? x[i] : make_float2 (0.f, 0.f);
  }
}

__device__ __forceinline__ int warp_min (int v)
{
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v = min (v, __shfl_xor_sync (0xffffffffu, v, o));
  return v;
}

__device__ __forceinline__ int warp_max (int v)
{
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v = max (v, __shfl_xor_sync (0xffffffffu, v, o));
  return v;
}

/* A lane's samples of its row: a sample's value and its frame value (for the spacing),
 * straight from memory (zero for lanes past the last row) or from the staged chunk. */
template <class S, class F, bool kFrameIsIn> struct RowSamples {
  const Lines &frame, &in;
  const RowTiles<S, F> &tl;
  int row, lane;
  bool valid;

  __device__ __forceinline__ void at (int k, float4 &f, float4 &fr) const
  {
    f = fr = make_float4 (0.f, 0.f, 0.f, 0.f);
    if (valid) {
      f = fr = load_px (S (), in, in.at (row, k));
      if (F::kNeedsFrame && !kFrameIsIn)
        fr = load_px (U8 (), frame, frame.at (row, k));
    }
  }
  __device__ __forceinline__ void staged (int j, float4 &f, float4 &fr) const
  {
    f = fr = decode<S> (in, tl.in[lane][j]);
    if (F::kNeedsFrame && !kFrameIsIn)
      fr = decode<U8> (frame, tl.frame[lane][j]);
  }
};

/* A row sweep's lane among the 32 rows from row0: its row, whether that row exists, and the
 * bounds of the block's segment (blockIdx.y); false when there is nothing to sweep (row0
 * past the last row, or an empty segment). */
__device__ __forceinline__ bool row_segment (const Segments &geo, int row0, int lane, int &row, bool &valid,
    int &st, int &en)
{
  if (row0 >= geo.n_lines)
    return false;
  row = row0 + lane;
  valid = row < geo.n_lines;
  geo.bounds (blockIdx.y, st, en);
  return en > st;
}

/* A row sweep's lane: its row, its segment, the warp's tile, and the state and previous
 * sample it carries from step to step. */
template <class S, class F, bool kFrameIsIn>
struct RowLane {
  const Lines &frame, &in, &partial;
  const Segments &geo;
  const F &filt;
  RowTiles<S, F> &tl;
  RowSamples<S, F, kFrameIsIn> samples;
  int row0, lane, row, st, en;
  bool valid;
  SweepState<F::kChannels> state;
  float4 f_prev, fr_prev;
};

/* Compute, causal: from the warm-up start s (the warp's earliest, s_min) up to en − 1,
 * each chunk staged, its causal sums parked in the tile and, unless the anticausal sweep
 * finds them there (parked_in_tile), stored to the partial plane. */
template <class S, class F, bool kFrameIsIn>
__device__ __forceinline__ void rows_causal (RowLane<S, F, kFrameIsIn> &l, int s, int causal_first, bool parked_in_tile)
{
  float2 bd[2], x[2];
  for (int k0 = causal_first; k0 < l.en; k0 += 32) {
    const int count = min (32, l.en - k0);
    stage_chunk (l.tl.in, l.in, l.lane < count, l.tl.frame, l.frame, F::kNeedsFrame && !kFrameIsIn && l.lane < count,
        l.tl.park, l.partial, false, l.row0, l.geo.n_lines, k0 + l.lane, l.lane);
    __syncwarp ();
    for (int j = 0; j < count; j++) {
      const int k = k0 + j;
      float4 f, fr;
      l.samples.staged (j, f, fr);
      if (k > s) {
        l.filt.terms (fr, l.fr_prev, bd, x);
        sweep_advance (l.state, bd, x, f, l.f_prev);
      }
      l.f_prev = f;
      l.fr_prev = fr;
      if (k >= l.st)
        l.tl.park[l.lane][j] = park_word (ParkOf<F> (), sweep_sum (l.state));
    }
    __syncwarp ();
    if (!parked_in_tile)
      tile_store (l.tl.park, l.partial, l.row0, l.geo.n_lines, k0, l.st, l.en, l.lane);
    __syncwarp ();
  }
}

/* An output, f + the other direction's parked sum + this one's, over the parked sum in the
 * tile's slot j */
template <class S, class D, class F, bool kFrameIsIn>
__device__ __forceinline__ void park_output (RowLane<S, F, kFrameIsIn> &l, const Lines &out, int j, float4 f)
{
  const float4 p = load_px (ParkOf<F> (), l.partial, reinterpret_cast<const char *> (&l.tl.park[l.lane][j]));
  store_px (D (), out, reinterpret_cast<char *> (&l.tl.park[l.lane][j]), output_sum<F::kChannels> (f, p, sweep_sum (l.state)));
}

/* Compute and store, anticausal: from the warm-up end e (the warp's latest, e_max) down to
 * st, each chunk staged with its parked causal sums, the outputs f + both sums written over
 * them in the tile and stored to out. */
template <class S, class D, class F, bool kFrameIsIn>
__device__ __forceinline__ void rows_anticausal (RowLane<S, F, kFrameIsIn> &l, const Lines &out, int e,
    int anticausal_first, bool parked_in_tile)
{
  float2 bd[2], x[2];
  for (int k1 = anticausal_first; k1 >= l.st; k1 -= 32) {
    const int k0 = max (k1 - 31, l.st), count = k1 - k0 + 1;
    stage_chunk (l.tl.in, l.in, l.lane < count, l.tl.frame, l.frame, F::kNeedsFrame && !kFrameIsIn && l.lane < count,
        l.tl.park, l.partial, k0 + l.lane < l.en && l.lane < count && !parked_in_tile, l.row0, l.geo.n_lines,
        k0 + l.lane, l.lane);
    __syncwarp ();
    for (int j = count - 1; j >= 0; j--) {
      const int k = k0 + j;
      float4 f, fr;
      l.samples.staged (j, f, fr);
      if (k < e) {
        l.filt.terms (l.fr_prev, fr, bd, x);
        sweep_advance (l.state, bd, x, f, l.f_prev);
      } else if (k == e && l.valid) {
        l.filt.anticausal_state (l.state, l.row, blockIdx.y, l.en, l.geo.n);
      }
      l.f_prev = f;
      l.fr_prev = fr;
      if (k < l.en)
        park_output<S, D> (l, out, j, f);
    }
    __syncwarp ();
    /* only this chunk's samples: lanes past `count` hold another chunk's stale values */
    if (sizeof (typename Raw<D>::T) == sizeof (ParkWord<F>))
      tile_store (l.tl.park, out, l.row0, l.geo.n_lines, k0, l.st, min (l.en, k1 + 1), l.lane);
    else {
      const int k = k0 + l.lane;
      if (k < l.en && l.lane < count)
        for (int r = 0; r < 32 && l.row0 + r < l.geo.n_lines; r++)
          *reinterpret_cast<unsigned int *> (out.at (l.row0 + r, k)) = first_word (l.tl.park[r][l.lane]);
    }
    __syncwarp ();
  }
}

/* Rows of any filter (recursivegauss's swept passes; the edge-aware rows run
 * sweep_rows_split). kFrameIsIn: the pass reads the frame itself (first pass), so one tile
 * serves both. */
template <class S, class D, class F, bool kFrameIsIn>
__global__ void __launch_bounds__ (32 * kRowWarps)
sweep_rows (Lines frame, Lines in, Lines out, Lines partial, Segments geo, F filt)
{
  __shared__ RowTiles<S, F> tiles[kRowWarps];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = (blockIdx.x * kRowWarps + warp) * 32;
  int row, st, en;
  bool valid;
  if (!row_segment (geo, row0, lane, row, valid, st, en))
    return;   /* the whole warp */
  RowTiles<S, F> &tl = tiles[warp];
  const int s = valid ? filt.causal_start (frame, row, st) : st;
  const int e = valid ? filt.anticausal_end (frame, row, en, geo.n) : en - 1;
  const int s_min = warp_min (s), e_max = warp_max (e);
  RowLane<S, F, kFrameIsIn> l = { frame, in, partial, geo, filt, tl, { frame, in, tl, row, lane, valid }, row0, lane,
    row, st, en, valid };
  if (valid)
    filt.causal_state (l.state, row, blockIdx.y, st);
  else
    sweep_zero (l.state);
  /* The first sample of a sweep only gives the difference of the next step: when nothing is
   * written there, each lane loads it itself, and the tiles start one sample later (a
   * segment of 32·m samples would otherwise stage m + 1 tiles, one of them for a sample). */
  l.samples.at (s_min, l.f_prev, l.fr_prev);
  const int causal_first = s_min < st ? s_min + 1 : s_min;
  const int anticausal_first = e_max >= en ? e_max - 1 : e_max;
  /* When both sweeps take the segment as one chunk at the same place (carried starts, at
   * most 32 samples), the causal sums stay in the tile for the anticausal sweep instead of
   * going through the partial plane. */
  const bool parked_in_tile = causal_first == st && anticausal_first <= st + 31;
  rows_causal (l, s, causal_first, parked_in_tile);
  sweep_zero (l.state);
  l.samples.at (e_max, l.f_prev, l.fr_prev);
  if (e == e_max && valid)
    filt.anticausal_state (l.state, row, blockIdx.y, en, geo.n);
  rows_anticausal<S, D> (l, out, e, anticausal_first, parked_in_tile);
}

/* Rows of filters whose sweeps start from zero (F::kZeroStarts), each (32 rows, segment) on
 * two warps at once. Warp 0 sweeps causally from the warm-up start to the segment's middle
 * and warp 1 anticausally from the warm-up end down to the middle, each parking its sums
 * for its half of the segment; at the middle they trade states, and each sweeps the other
 * half in its other direction, writing the outputs there. Every sample of the segment is
 * stepped once per direction as in sweep_rows, in the same order from the same states (the
 * recursions are the same to the bit), but a segment's chain is half as long, so a launch
 * holds twice the warps for the same warm-up work: sweep_rows ran at ~8 warps per SM, bound by
 * latency, and more segments to fill the SM cost more warm-up than they gained (docs/performance.md). */
static constexpr int kSplitRowLines = 32;   /* rows per block of sweep_rows_split (two warps) */

/* Store, split rows: a chunk's parked sums of lo..hi−1 from the park tile to their plane,
 * only the chunk's own samples (the anticausal chunk that ends at mid is short, and the lanes
 * past it hold stale sums of samples already stored); k is the lane's sample, `mine` whether
 * it is in the chunk */
template <class S, class F>
__device__ __forceinline__ void store_parked_chunk (const RowTiles<S, F> &tl, const Lines &partial, const Segments &geo,
    int row0, int lane, int k, bool mine, int lo, int hi)
{
  __syncwarp ();
  if (mine && k >= lo && k < hi)
    for (int r = 0; r < 32 && row0 + r < geo.n_lines; r++)
      *reinterpret_cast<ParkWord<F> *> (partial.at (row0 + r, k)) = tl.park[r][lane];
  __syncwarp ();
}

/* Store, split rows: a chunk's outputs (in the park tile's slots) to the output plane */
template <class S, class D, class F>
__device__ __forceinline__ void store_output_chunk (const RowTiles<S, F> &tl, const Lines &out, const Segments &geo,
    int row0, int lane, int k, bool mine)
{
  __syncwarp ();
  if (mine)
    for (int r = 0; r < 32 && row0 + r < geo.n_lines; r++)
      if (sizeof (typename Raw<D>::T) == sizeof (ParkWord<F>))
        *reinterpret_cast<ParkWord<F> *> (out.at (row0 + r, k)) = tl.park[r][lane];
      else
        *reinterpret_cast<unsigned int *> (out.at (row0 + r, k)) = first_word (tl.park[r][lane]);
  __syncwarp ();
}

template <class S, class D, class F, bool kFrameIsIn>
__global__ void __launch_bounds__ (64)
sweep_rows_split (Lines frame, Lines in, Lines out, Lines partial, Segments geo, F filt)
{
  static_assert (F::kZeroStarts, "the states traded at the middle are the only start states");
  __shared__ RowTiles<S, F> tiles[2];
  __shared__ SweepState<F::kChannels> traded[2][32];   /* [direction][lane]: h⁺[mid − 1], h⁻[mid] */
  __shared__ int causal_starts[32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.x * kSplitRowLines;
  int row, st, en;
  bool valid;
  if (!row_segment (geo, row0, lane, row, valid, st, en))
    return;   /* the whole block */
  RowTiles<S, F> &tl = tiles[warp];
  const int mid = st + (en - st) / 2;   /* warp 0 writes st..mid−1, warp 1 mid..en−1 */
  const RowSamples<S, F, kFrameIsIn> samples = { frame, in, tl, row, lane, valid };
  SweepState<F::kChannels> state;
  sweep_zero (state);
  float2 bd[2], x[2];
  float4 f_prev, fr_prev;
  /* Steps over chunks of up to 32 samples from `from` to `last` (dir = ±1): causal (dir 1,
   * active where k > bound = s) or anticausal (dir −1, active where k < bound = e), as in
   * sweep_rows; each chunk is staged (with the other direction's parked sums where
   * `parked`), `emit (j, f)` follows each step, and `flush (k, mine)` each chunk, k being
   * the lane's sample and `mine` whether it is in the chunk. One loop for both directions
   * (a step's terms are symmetric in its two samples), so that the two warps, sweeping in
   * opposite directions, run the same code (see column_steps); chunks are staged in sweep
   * order, slot j of the chunk that starts at kf holding sample kf + dir·j, so that both
   * step through their slots upwards, at constant offsets in the unrolled loop. */
  const auto sweep = [&] (int from, int last, int dir, int bound, bool parked, auto emit, auto flush) {
    for (int kf = from; (last - kf) * dir >= 0; kf += 32 * dir) {
      const int count = min (32, (last - kf) * dir + 1), k = kf + dir * lane;
      stage_chunk (tl.in, in, lane < count, tl.frame, frame, F::kNeedsFrame && !kFrameIsIn && lane < count,
          tl.park, partial, parked && lane < count, row0, geo.n_lines, k, lane);
      __syncwarp ();
      const int last_outside = (bound - kf) * dir;   /* steps j > this are inside the sweep */
#pragma unroll 4
      for (int j = 0; j < count; j++) {
        float4 f, fr;
        samples.staged (j, f, fr);
        masked_terms (filt, j > last_outside, fr, fr_prev, bd, x);
        sweep_advance (state, bd, x, f, f_prev);
        f_prev = f;
        fr_prev = fr;
        emit (j, f);
      }
      flush (k, lane < count);
    }
  };
  const auto park = [&] (int j, float4) { tl.park[lane][j] = park_word (ParkOf<F> (), sweep_sum (state)); };
  /* f + the other direction's parked sum + this one's, into the park tile's slot */
  const auto output = [&] (int j, float4 f) {
    const float4 p = load_px (ParkOf<F> (), partial, reinterpret_cast<const char *> (&tl.park[lane][j]));
    store_px (D (), out, reinterpret_cast<char *> (&tl.park[lane][j]), output_sum<F::kChannels> (f, p, sweep_sum (state)));
  };
  const auto store_parked = [&] (int lo, int hi) {
    return [&, lo, hi] (int k, bool mine) { store_parked_chunk (tl, partial, geo, row0, lane, k, mine, lo, hi); };
  };
  const auto store_outputs = [&] (int k, bool mine) { store_output_chunk<S, D> (tl, out, geo, row0, lane, k, mine); };

  /* warp 0 causal from the warm-up start up to mid − 1, parking the sums of st..mid−1; warp
   * 1 anticausal from the warm-up end down to mid, parking the sums of mid..en−1 */
  {
    const int dir = warp ? -1 : 1;
    const int bound = !valid ? (warp ? en - 1 : st)
                      : warp ? filt.anticausal_end (frame, row, en, geo.n) : filt.causal_start (frame, row, st);
    const int from = warp ? warp_max (bound) : warp_min (bound);
    samples.at (from, f_prev, fr_prev);
    /* the first sample only gives the next step's difference unless it is written */
    const bool outside = warp ? from >= en : from < st;
    sweep (outside ? from + dir : from, warp ? mid : mid - 1, dir, bound, false, park,
        warp ? store_parked (mid, en) : store_parked (st, mid));
    traded[warp][lane] = state;
    if (warp == 0)
      causal_starts[lane] = bound;
  }
  __syncthreads ();

  /* warp 0 anticausal from h⁻[mid] down to st, writing st..mid−1 (every step is inside the
   * sweep: e >= en − 1 >= mid > k); warp 1 causal from h⁺[mid − 1] up to en − 1, writing
   * mid..en−1 (only a sweep that starts at mid itself, s = st = mid, has a step to leave out) */
  state = traded[1 - warp][lane];
  samples.at (warp ? max (mid - 1, 0) : mid, f_prev, fr_prev);
  sweep (warp ? mid : mid - 1, warp ? en - 1 : st, warp ? 1 : -1, warp ? causal_starts[lane] : en, true, output,
      store_outputs);
}

template <class S, class D, class F, bool kFrameIsIn>
static void launch_rows_split (const Lines &frame, const Lines &in, const Lines &out, const Lines &partial,
    const Segments &geo, const F &filt, cudaStream_t stream)
{
  const dim3 grid (div_up (geo.n_lines, kSplitRowLines), geo.segments);
  sweep_rows_split<S, D, F, kFrameIsIn><<<grid, 64, 0, stream>>> (frame, in, out, partial, geo, filt);
}

template <class S, class D, class F, bool kFrameIsIn>
static void launch_rows (const Lines &frame, const Lines &in, const Lines &out, const Lines &partial,
    const Segments &geo, const F &filt, cudaStream_t stream)
{
  const dim3 grid (div_up (geo.n_lines, 32 * kRowWarps), geo.segments);
  sweep_rows<S, D, F, kFrameIsIn><<<grid, 32 * kRowWarps, 0, stream>>> (frame, in, out, partial, geo, filt);
}

/* The block width launch_columns parks a geometry's sums on chip with (0: in the plane).
 * Segments longer than kParkOnChipMaxSamples park on chip in blocks of 64 or 32 threads
 * (up to 4× longer): against the plane, −8 to −19 % for the whole edge-aware filter at
 * blocks-per-stripe 16 and −11 % at σ = 200 (docs/performance.md); the automatic counts are
 * fitted to 128-thread blocks and mostly stay at or below kParkOnChipMaxSamples. */
static inline int columns_on_chip_threads (const Segments &geo)
{
  const size_t per_thread = (size_t) div_up (geo.n, geo.segments) * kParkBytesPerSample;
  int threads = kColumnThreads;
  while (threads > 32 && per_thread * threads > (size_t) kParkOnChipMaxBytes)
    threads /= 2;
  return per_thread * threads <= (size_t) kParkOnChipMaxBytes ? threads : 0;
}

template <class S, class D, class F>
static void launch_columns (const Lines &frame, const Lines &in, const Lines &out, const Lines &partial,
    const Segments &geo, const F &filt, cudaStream_t stream)
{
  const int threads = columns_on_chip_threads (geo);
  const size_t per_thread = (size_t) div_up (geo.n, geo.segments) * kParkBytesPerSample;
  if (threads)
    sweep_columns<S, D, F, true><<<div_up ((long long) geo.n_lines * geo.segments, threads), threads,
        per_thread * threads, stream>>> (frame, in, out, partial, geo, filt);
  else
    sweep_columns<S, D, F, false><<<div_up ((long long) geo.n_lines * geo.segments, kColumnThreads), kColumnThreads,
        0, stream>>> (frame, in, out, partial, geo, filt);
}

/* The columns per block launch_columns_split runs a geometry's split sweeps with (0: it runs
 * launch_columns instead): segments whose halves fit on chip. */
static inline int split_columns_per_block (const Segments &geo)
{
  const int segment = div_up (geo.n, geo.segments);
  for (int columns = kSplitColumns; columns >= 32; columns /= 2)
    if (split_columns_bytes (segment, columns) <= kParkOnChipMaxBytes)
      return columns;
  return 0;
}

/* The dynamic shared memory a block of launch_columns_split's kernel takes. */
static inline size_t split_columns_launch_bytes (const Segments &geo)
{
  const int columns = split_columns_per_block (geo), threads = columns_on_chip_threads (geo);
  if (columns)
    return split_columns_bytes (div_up (geo.n, geo.segments), columns);
  return threads ? (size_t) div_up (geo.n, geo.segments) * kParkBytesPerSample * threads : 0;
}

/* Columns of a zero-start filter on two threads per (column, segment) where a segment's
 * halves fit on chip (blocks of 64 or 32 columns), else as launch_columns. */
template <class S, class D, class F>
static void launch_columns_split (const Lines &frame, const Lines &in, const Lines &out, const Lines &partial,
    const Segments &geo, const F &filt, cudaStream_t stream)
{
  const int columns = split_columns_per_block (geo);
  if (columns)
    sweep_columns_split<S, D, F><<<dim3 (div_up (geo.n_lines, columns), geo.segments), 2 * columns,
        split_columns_bytes (div_up (geo.n, geo.segments), columns), stream>>> (frame, in, out, geo, filt);
  else
    launch_columns<S, D> (frame, in, out, partial, geo, filt, stream);
}

}  // namespace cs

#endif /* CS_SWEEP_CUH */
