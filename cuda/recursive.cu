/* recursivegauss on the GPU: Deriche's complex-pole pair (default) or Young–van Vliet,
 * lines cut into partitions that start from carried exact states (Deriche, partition-start
 * carry: cs_carry.cuh) or warm up over ceil(κσ) samples (common/cs_ref_recursive.c
 * defines the result). One thread sweeps one (line, partition).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Rows, then columns. Row pass: 8-bit frame -> half4 T. Column pass: T -> 8-bit output.
 * Deriche with warm-ups of up to 16 samples runs in one kernel per tile (recursive_tile.cu),
 * with warm-ups of 17–64 samples or carried starts in two tensor-core passes
 * (recursive_lines.cu; carried: after products for the carries and the scan), all with
 * partitions of at most 64 samples; otherwise it runs through the shared sweep (cs_sweep.cuh)
 * with δ = 1, after the carry and scan kernels when partitions carry. Young–van Vliet, a
 * cascade, runs its forward and backward passes as separate kernels through a float4 plane.
 */
#include "cs_cuda_complex.cuh"
#include "cs_cuda_px.cuh"
#include "cs_sweep.cuh"
#include "cs_carry.cuh"
#include "cs_coeffs.h"
#include "cs_plan.cuh"
#include "cs_policy.cuh"
#include "cs_recursive_tile.cuh"
#include "cs_recursive_lines.cuh"
#include "cs_partition.h"

#include <math.h>

#include <new>

namespace cs {

struct YvvK {
  double B, a1, a2, a3, M[3][3];
};

/* A pass's segments with the warm-up every segment runs (Young–van Vliet, and Deriche
 * partitions that warm up). */
struct Geometry : Segments {
  int warmup;

  __device__ __forceinline__ bool locate (long long t, int &line, int &st, int &en, int &s, int &e) const
  {
    int seg;
    if (!thread_segment (t, line, seg, st, en))
      return false;
    s = max (st - warmup, 0);
    e = min (en - 1 + warmup, n - 1);
    return true;
  }
};

/* Young–van Vliet forward pass, state in double (B ~ 1/q³ is below float resolution at
 * large σ). Writes w (and alpha) to the float4 plane W. */
template <class S>
__global__ void yvv_forward (Lines in, Lines w_plane, Geometry geo, YvvK k)
{
  int line, st, en, s, e;
  if (!geo.locate (blockIdx.x * (long long) blockDim.x + threadIdx.x, line, st, en, s, e))
    return;
  float4 f = load_px (S (), in, in.at (line, s));
  double w1[3] = { f.x, f.y, f.z }, w2[3], w3[3];
  for (int c = 0; c < 3; c++)
    w2[c] = w3[c] = w1[c];
  for (int x = s; x < en; x++) {
    f = load_px (S (), in, in.at (line, x));
    const float fx[3] = { f.x, f.y, f.z };
#pragma unroll
    for (int c = 0; c < 3; c++) {
      const double v = k.B * fx[c] + k.a1 * w1[c] + k.a2 * w2[c] + k.a3 * w3[c];
      w3[c] = w2[c];
      w2[c] = w1[c];
      w1[c] = v;
    }
    if (x >= st)
      *reinterpret_cast<float4 *> (w_plane.at (line, x)) =
          make_float4 ((float) w1[0], (float) w1[1], (float) w1[2], f.w);
  }
}

/* Young–van Vliet backward pass on W, from Triggs–Sdika at e with u = f[e]; the three forward
 * outputs it starts from are this partition's own (f[s] before st). */
template <class S, class D>
__global__ void yvv_backward (Lines in, Lines w_plane, Lines out, Geometry geo, YvvK k)
{
  int line, st, en, s, e;
  if (!geo.locate (blockIdx.x * (long long) blockDim.x + threadIdx.x, line, st, en, s, e))
    return;
  const float4 fe = load_px (S (), in, in.at (line, e));
  const float u[3] = { fe.x, fe.y, fe.z };
  /* before st, the partition's own forward state f[s] (common/cs_ref_recursive.c) */
  const float4 fs = load_px (S (), in, in.at (line, s));
  float4 wk[3];
  for (int j = 0; j < 3; j++)
    wk[j] = e - j >= st ? *reinterpret_cast<const float4 *> (w_plane.at (line, e - j)) : fs;
  double y1[3], y2[3], y3[3];
#pragma unroll
  for (int c = 0; c < 3; c++) {
    const double dev[3] = { (&wk[0].x)[c] - (double) u[c], (&wk[1].x)[c] - (double) u[c],
      (&wk[2].x)[c] - (double) u[c] };
    y1[c] = u[c] + k.M[0][0] * dev[0] + k.M[0][1] * dev[1] + k.M[0][2] * dev[2];
    y2[c] = u[c] + k.M[1][0] * dev[0] + k.M[1][1] * dev[1] + k.M[1][2] * dev[2];
    y3[c] = u[c] + k.M[2][0] * dev[0] + k.M[2][1] * dev[1] + k.M[2][2] * dev[2];
  }
  for (int x = e;; x--) {
    if (x < en)
      store_px (D (), out, out.at (line, x),
          make_float4 ((float) y1[0], (float) y1[1], (float) y1[2], wk[0].w));
    if (x == st)
      break;
    wk[0] = *reinterpret_cast<const float4 *> (w_plane.at (line, x - 1));
    const float w[3] = { wk[0].x, wk[0].y, wk[0].z };
#pragma unroll
    for (int c = 0; c < 3; c++) {
      const double v = k.B * w[c] + k.a1 * y1[c] + k.a2 * y2[c] + k.a3 * y3[c];
      y3[c] = y2[c];
      y2[c] = y1[c];
      y1[c] = v;
    }
  }
}

static const int kThreads = 128;

static size_t plane_pitch (int width, int elem_bytes)
{
  return ((size_t) width * elem_bytes + 255) / 256 * 256;
}

/* Carried partitions are at least this long: the states of a cut (96 bytes) cost the
 * scan about what this many sample steps do, which is also the automatic count's price
 * of a cut. It bounds the carries' scratch to 96/16 = 6 bytes per pixel. */
static const int kMinCarriedPartition = 16;

static int carried_segments (int segments, int n)
{
  return max (1, min (segments, n / kMinCarriedPartition));
}

static size_t carries_bytes (int width, int height)
{
  const size_t cuts = (size_t) width * height / kMinCarriedPartition + (size_t) max (width, height);
  return (cuts * kCarryComponents * sizeof (float2) + 255) / 256 * 256;
}

/* the swept carries' weights, or the tensor-core carries' tables */
static size_t weights_bytes (int width, int height)
{
  const size_t bytes = max ((size_t) max (width, height) * sizeof (float4), recursive_lines_carried_table_bytes ());
  return (bytes + 255) / 256 * 256;
}

static int warmup_samples (const CsRecursiveParams &p)
{
  return (int) ceil (p.kappa * p.sigma);
}

/* Deriche with warm-ups whose tiles fit recursive_tile.cu */
static bool tiles_cover (const CsRecursiveParams &p, int width, int height, int segments_x, int segments_y,
    int warmup)
{
  return p.algorithm == CS_RECURSIVE_DERICHE && !cs_recursive_carries (&p) &&
      recursive_tiles_cover (width, height, segments_x, segments_y, warmup);
}

/* Deriche with carried starts and segments of 16–64 samples (recursive_lines.cu) */
static bool carried_lines_cover (const CsRecursiveParams &p, int width, int height, int segments_x, int segments_y)
{
  return p.algorithm == CS_RECURSIVE_DERICHE && cs_recursive_carries (&p) &&
      recursive_lines_carried_cover (width, height, carried_segments (segments_x, width),
          carried_segments (segments_y, height));
}

/* Deriche with warm-ups of 17–64 samples and segments of at most 64 (recursive_lines.cu) */
static bool lines_cover (const CsRecursiveParams &p, int width, int height, int segments_x, int segments_y,
    int warmup)
{
  return p.algorithm == CS_RECURSIVE_DERICHE && !cs_recursive_carries (&p) &&
      recursive_lines_cover (width, height, segments_x, segments_y, warmup);
}

/* The segment counts of both passes when blocks-per-stripe is 0. */
static void auto_segments (const CsCudaDevice &dev, const Policy &policy, int width, int height,
    const CsRecursiveParams &p, int segments[2])
{
  const int warmup = warmup_samples (p);
  /* warm-ups short enough for one kernel per tile (recursive_tile.cu): tiles as long as
   * they can be, since their margins are what it repeats, but shorter where a frame gives
   * fewer tiles than the GPU has SMs (512x512: 32 samples, 0.019 against 0.025 ms) */
  int tile = kTileMaxSegment;
  while (tile > 16 && (long long) div_up (width, tile) * div_up (height, tile) < dev.sm_count)
    tile /= 2;
  const int tiles_x = div_up (width, tile), tiles_y = div_up (height, tile);
  if (tiles_cover (p, width, height, tiles_x, tiles_y, warmup) &&
      recursive_tiles_fit (warmup, (long long) tiles_x * tiles_y, dev, policy)) {
    segments[0] = tiles_x;
    segments[1] = tiles_y;
    return;
  }
  /* longer warm-ups, up to 64 samples: 64-sample segments for the two tensor-core passes
   * (recursive_lines.cu), whose windows are 64 outputs long */
  const int lines_x = div_up (width, kTileMaxSegment), lines_y = div_up (height, kTileMaxSegment);
  if (lines_cover (p, width, height, lines_x, lines_y, warmup)) {
    segments[0] = lines_x;
    segments[1] = lines_y;
    return;
  }
  /* carried starts: 64-sample segments for the tensor-core passes, as long as they can be
   * (each costs a carry and a 16-sample margin of the window) */
  if (carried_lines_cover (p, width, height, lines_x, lines_y)) {
    segments[0] = carried_segments (lines_x, width);
    segments[1] = carried_segments (lines_y, height);
    return;
  }
  for (int pass = 0; pass < 2; pass++) {
    const bool rows = pass == 0;
    const int n = rows ? width : height, n_lines = rows ? height : width;
    /* the machine's rate in concurrent sweeps: rows stage tiles, columns are direct */
    const double sweeps = dev.sm_count * (rows ? policy.recursive_row_sweeps : policy.recursive_column_sweeps);
    if (cs_recursive_carries (&p)) {
      const int model = cs_auto_partitions_short (n, n_lines, kMinCarriedPartition / 2.0, sweeps,
          kMinCarriedPartition, 256, rows ? 0 : kParkOnChipMaxSamples, kParkOnChipStepCost);
      /* rows: segments of at most one tile keep their causal sums on chip (sweep_rows) */
      segments[pass] = carried_segments (rows ? max (model, div_up (n, 32)) : model, n);
    } else {
      segments[pass] = cs_auto_partitions_short (n, n_lines, warmup, sweeps, policy.recursive_min_partition, 256,
          rows ? 0 : kParkOnChipMaxSamples, kParkOnChipStepCost);
    }
  }
}

namespace {

struct TilesPlan : CsCudaPlan {
  TileLaunch tiles;

  cudaError_t run (const CsCudaImage &src, const CsCudaImage &dst, void *, cudaStream_t stream) const override
  {
    if (!frames_fit (*this, src, dst))
      return cudaErrorInvalidValue;
    return launch_tiles (make_lines (src.data, src.pitch, 4, true, src.alpha_offset == 0),
        make_lines (dst.data, dst.pitch, 4, true, dst.alpha_offset == 0), tiles, stream);
  }

  cudaError_t run_view (const CsChannels &src, const CsChannels &dst, void *, bool beside, cudaStream_t stream) const override
  {
    return launch_tiles_view (src, dst, tiles, beside, stream);
  }

  cudaError_t run_views_with (const CsChannels &src, const CsChannels &dst, const CsCudaPlan &second,
      const CsChannels &src1, const CsChannels &dst1, cudaStream_t stream) const override
  {
    const TilesPlan *chroma = dynamic_cast<const TilesPlan *> (&second);
    return chroma ? launch_tiles_views (src, dst, tiles, src1, dst1, chroma->tiles, stream) : cudaErrorNotSupported;
  }

  bool takes_views (int channels) const override { return channels == 1 || channels == 2; }
};

/* scratch: T (half4 rows) first, then the carried passes' tables and states */
struct LinesPlan : CsCudaPlan {
  LinesLaunch lines;

  cudaError_t run (const CsCudaImage &src, const CsCudaImage &dst, void *scratch, cudaStream_t stream) const override
  {
    if (!frames_fit (*this, src, dst) || reinterpret_cast<uintptr_t> (scratch) % 16)
      return cudaErrorInvalidValue;
    return launch_lines (make_lines (src.data, src.pitch, 4, true, src.alpha_offset == 0),
        make_lines (scratch, plane_pitch (width, 8), 8, true, 0),
        make_lines (dst.data, dst.pitch, 4, true, dst.alpha_offset == 0), lines, stream);
  }
};

struct CarriedLinesPlan : CsCudaPlan {
  CarriedLaunch lines;

  cudaError_t run (const CsCudaImage &src, const CsCudaImage &dst, void *scratch, cudaStream_t stream) const override
  {
    if (!frames_fit (*this, src, dst) || reinterpret_cast<uintptr_t> (scratch) % 16)
      return cudaErrorInvalidValue;
    char *tables = (char *) scratch + plane_pitch (width, 8) * height;
    float2 *states = (float2 *) (tables + weights_bytes (width, height));
    return launch_lines_carried (make_lines (src.data, src.pitch, 4, true, src.alpha_offset == 0),
        make_lines (scratch, plane_pitch (width, 8), 8, true, 0),
        make_lines (dst.data, dst.pitch, 4, true, dst.alpha_offset == 0), lines, states, tables, stream);
  }
};

/* The swept passes (cs_sweep.cuh) and Young–van Vliet's. scratch: T (half4), then the parked
 * causal sums (half4) or the YvV forward output (float4), then the carries' weights and
 * states. */
struct SweptPlan : CsCudaPlan {
  Geometry rows, cols;
  bool yvv, carry[2];
  bool same_axes;   /* rows and columns filtered alike (all but the chroma of 4:2:2 formats) */
  YvvK yvv_k[2];    /* [0] rows, [1] columns */
  UniformFilter filter[2];
  CarryPoles poles[2];
  CarryJumps jumps[2];

  cudaError_t run (const CsCudaImage &src, const CsCudaImage &dst, void *scratch, cudaStream_t stream) const override
  {
    if (!frames_fit (*this, src, dst))
      return cudaErrorInvalidValue;
    const int w = width, h = height;
    const size_t pitch_t = plane_pitch (w, 8), pitch_w = plane_pitch (w, 16);
    char *t_plane = (char *) scratch;
    char *second = t_plane + pitch_t * h;
    const Lines in_r = make_lines (src.data, src.pitch, 4, true, src.alpha_offset == 0);
    const Lines t_r = make_lines (t_plane, pitch_t, 8, true, 0);
    const Lines t_c = make_lines (t_plane, pitch_t, 8, false, 0);
    const Lines out_c = make_lines (dst.data, dst.pitch, 4, false, dst.alpha_offset == 0);
    const int grid_r = div_up ((long long) h * rows.segments, kThreads);
    const int grid_c = div_up ((long long) w * cols.segments, kThreads);
    if (yvv) {
      const Lines w_r = make_lines (second, pitch_w, 16, true, 0);
      const Lines w_c = make_lines (second, pitch_w, 16, false, 0);
      yvv_forward<U8><<<grid_r, kThreads, 0, stream>>> (in_r, w_r, rows, yvv_k[0]);
      yvv_backward<U8, H4><<<grid_r, kThreads, 0, stream>>> (in_r, w_r, t_r, rows, yvv_k[0]);
      yvv_forward<H4><<<grid_c, kThreads, 0, stream>>> (t_c, w_c, cols, yvv_k[1]);
      yvv_backward<H4, U8><<<grid_c, kThreads, 0, stream>>> (t_c, w_c, out_c, cols, yvv_k[1]);
      return cudaGetLastError ();
    }
    UniformFilter f_r = filter[0], f_c = filter[1];
    float4 *weights = (float4 *) (second + pitch_t * h);
    float2 *states = (float2 *) ((char *) weights + weights_bytes (w, h));
    const Segments &seg_r = rows, &seg_c = cols;
    const Lines parked_c = make_lines (second, pitch_t, 8, false, 0);
    const auto weights_for = [&] (int longest, const CarryPoles &poles) {
      carry_weights<<<div_up (longest, 128), 128, 0, stream>>> (weights, longest, poles);
    };
    if (same_axes && carry[0])
      weights_for (max (div_up (w, rows.segments), div_up (h, cols.segments)), poles[0]);
    /* the carries of the pass: its segments' end states, scanned into start states */
    const auto carry_pass = [&] (const Segments &seg, bool row_pass) {
      UniformFilter &f = row_pass ? f_r : f_c;
      if (!same_axes)
        weights_for (div_up (seg.n, seg.segments), poles[row_pass ? 0 : 1]);
      f.carried = { states, seg.n_lines, seg.segments };
      if (row_pass)
        carry_rows<U8><<<dim3 (div_up (seg.n_lines, 32 * kRowWarps), seg.segments), 32 * kRowWarps, 0, stream>>> (
            in_r, seg, weights, f.carried);
      else
        carry_columns<H4><<<div_up ((long long) seg.n_lines * seg.segments, kColumnThreads), kColumnThreads, 0,
            stream>>> (t_c, seg, weights, f.carried);
      scan_carries<<<div_up ((long long) seg.n_lines * kCarryComponents, 128), 128, 0, stream>>> (
          f.carried, seg, jumps[row_pass ? 0 : 1]);
    };
    if (carry[0])
      carry_pass (seg_r, true);
    launch_rows<U8, H4, UniformFilter, false> (in_r, in_r, t_r, t_r, seg_r, f_r, stream);
    if (carry[1])
      carry_pass (seg_c, false);
    launch_columns<H4, U8> (t_c, t_c, out_c, parked_c, seg_c, f_c, stream);
    return cudaGetLastError ();
  }
};

template <class P>
static P *new_plan (CsCudaPath path, int width, int height, const int segments[2])
{
  P *plan = new (std::nothrow) P ();
  if (plan) {
    plan->path = path;
    plan->width = width;
    plan->height = height;
    plan->segments[0] = segments[0];
    plan->segments[1] = segments[1];
  }
  return plan;
}

}  // namespace

/* The swept passes' filter of one pass */
static void uniform_pass (const CsRecursiveParams &p, int n, int segments, UniformFilter &f, CarryPoles &poles,
    CarryJumps &jumps)
{
  CsDericheCoeffs c;
  cs_deriche_coeffs (p.sigma, &c);
  for (int i = 0; i < 2; i++) {
    f.b[i] = cx ((float) c.b[i].re, (float) c.b[i].im);
    uniform_x (c, i, poles.x_re[i], poles.x_im[i]);
    poles.log_abs_b[i] = c.b_log_abs[i];
    poles.arg_b[i] = c.b_arg[i];
    f.x[i] = cx ((float) poles.x_re[i], (float) poles.x_im[i]);
  }
  f.warmup = warmup_samples (p);
  f.carried.states = nullptr;
  jumps = carry_jumps (c, n / segments);
}

static YvvK yvv_pass (const CsRecursiveParams &p)
{
  CsYvvCoeffs yvv_c;
  cs_yvv_coeffs (p.sigma, &yvv_c);
  YvvK k;
  k.B = yvv_c.B;
  k.a1 = yvv_c.a1;
  k.a2 = yvv_c.a2;
  k.a3 = yvv_c.a3;
  for (int r = 0; r < 3; r++)
    for (int j = 0; j < 3; j++)
      k.M[r][j] = yvv_c.M[r][j];
  return k;
}

cudaError_t plan_recursive (const CsRecursiveParams &p, int w, int h, const CsCudaDevice &dev,
    const PlanOverrides &o, CsCudaPlan **out)
{
  return plan_recursive_axes (p, p, w, h, dev, o, out);
}

/* Rows with px, columns with py. Where they differ (the chroma of 4:2:2 formats), the swept
 * passes, which take a filter per pass; the tile and tensor-core kernels share one. */
cudaError_t plan_recursive_axes (const CsRecursiveParams &px, const CsRecursiveParams &py, int w, int h,
    const CsCudaDevice &dev, const PlanOverrides &o, CsCudaPlan **out)
{
  *out = nullptr;
  if (w <= 0 || h <= 0 || cs_recursive_params_check (&px) || cs_recursive_params_check (&py) ||
      px.algorithm != py.algorithm || o.row_segments < 0 || o.column_segments < 0)
    return cudaErrorInvalidValue;
  if (cs_recursive_is_identity (&px) && cs_recursive_is_identity (&py))
    return cs_cuda_copy_plan_new (w, h, out);
  const bool same = px.sigma == py.sigma && px.blocks_per_stripe == py.blocks_per_stripe && px.kappa == py.kappa &&
      px.partition_start == py.partition_start;
  const CsRecursiveParams &p = px;
  const Policy &policy = policy_for (dev);
  const int warmup = warmup_samples (p);
  int segments[2] = { o.row_segments ? o.row_segments : px.blocks_per_stripe,
    o.column_segments ? o.column_segments : py.blocks_per_stripe };
  if (!segments[0] || !segments[1]) {
    int automatic[2], automatic_y[2];
    auto_segments (dev, policy, w, h, px, automatic);
    if (!same) {
      auto_segments (dev, policy, w, h, py, automatic_y);
      automatic[1] = automatic_y[1];
    }
    for (int pass = 0; pass < 2; pass++)
      segments[pass] = segments[pass] ? segments[pass] : automatic[pass];
  }
  CsDericheCoeffs c;   /* every path but Young–van Vliet's */
  if (p.algorithm == CS_RECURSIVE_DERICHE)
    cs_deriche_coeffs (p.sigma, &c);
  const size_t t_bytes = plane_pitch (w, 8) * h;

  if (same && !o.swept && tiles_cover (p, w, h, segments[0], segments[1], warmup)) {
    TilesPlan *plan = new_plan<TilesPlan> (CS_CUDA_PATH_RECURSIVE_TILES, w, h, segments);
    if (!plan)
      return cudaErrorMemoryAllocation;
    if (plan_tiles (w, h, segments[0], segments[1], warmup, c, dev, policy, plan->tiles)) {
      plan->shared_bytes = plan->tiles.shared_bytes;
      *out = plan;
      return cudaSuccess;
    }
    delete plan;   /* too much shared memory for this device: the passes below */
  }
  if (same && !o.swept && lines_cover (p, w, h, segments[0], segments[1], warmup)) {
    LinesPlan *plan = new_plan<LinesPlan> (CS_CUDA_PATH_RECURSIVE_LINES, w, h, segments);
    if (!plan)
      return cudaErrorMemoryAllocation;
    plan_lines (w, h, segments[0], segments[1], warmup, c, launches_overlap (dev), plan->lines);
    plan->scratch_bytes = t_bytes;
    *out = plan;
    return cudaSuccess;
  }
  if (same && !o.swept && carried_lines_cover (p, w, h, segments[0], segments[1])) {
    const int carried[2] = { carried_segments (segments[0], w), carried_segments (segments[1], h) };
    CarriedLinesPlan *plan = new_plan<CarriedLinesPlan> (CS_CUDA_PATH_RECURSIVE_LINES_CARRIED, w, h, carried);
    if (!plan)
      return cudaErrorMemoryAllocation;
    plan_lines_carried (w, h, carried[0], carried[1], c, launches_overlap (dev), plan->lines);
    plan->scratch_bytes = t_bytes + weights_bytes (w, h) + carries_bytes (w, h);
    *out = plan;
    return cudaSuccess;
  }

  const bool yvv = p.algorithm == CS_RECURSIVE_YOUNG_VAN_VLIET;
  const bool carry[2] = { cs_recursive_carries (&px), cs_recursive_carries (&py) };
  if (carry[0])
    segments[0] = carried_segments (segments[0], w);
  if (carry[1])
    segments[1] = carried_segments (segments[1], h);
  SweptPlan *plan = new_plan<SweptPlan> (yvv ? CS_CUDA_PATH_RECURSIVE_YVV
                                             : carry[0] || carry[1] ? CS_CUDA_PATH_RECURSIVE_SWEPT_CARRIED
                                                                    : CS_CUDA_PATH_RECURSIVE_SWEPT,
      w, h, segments);
  if (!plan)
    return cudaErrorMemoryAllocation;
  plan->rows = { { w, h, segments[0] }, warmup_samples (px) };
  plan->cols = { { h, w, segments[1] }, warmup_samples (py) };
  plan->yvv = yvv;
  plan->carry[0] = carry[0];
  plan->carry[1] = carry[1];
  plan->same_axes = same;
  plan->shared_bytes = columns_on_chip_threads (plan->cols) ?
      (size_t) div_up (h, segments[1]) * kParkBytesPerSample * columns_on_chip_threads (plan->cols) : 0;
  if (yvv) {
    plan->yvv_k[0] = yvv_pass (px);
    plan->yvv_k[1] = yvv_pass (py);
    plan->scratch_bytes = t_bytes + plane_pitch (w, 16) * h;
    plan->shared_bytes = 0;
  } else {
    uniform_pass (px, w, segments[0], plan->filter[0], plan->poles[0], plan->jumps[0]);
    uniform_pass (py, h, segments[1], plan->filter[1], plan->poles[1], plan->jumps[1]);
    plan->scratch_bytes = 2 * t_bytes + (carry[0] || carry[1] ? weights_bytes (w, h) + carries_bytes (w, h) : 0);
  }
  *out = plan;
  return cudaSuccess;
}

}  // namespace cs
