/* edgeawaregauss on the GPU: the domain transform and Deriche's complex poles on the
 * non-uniform grid, Algorithm C, each (line, segment) swept from both ends to its middle
 * (docs/algorithms.md, 1 and 4). common/cs_ref_edgeaware.c defines the result.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_cuda_complex.cuh"
#include "cs_cuda_px.cuh"
#include "cs_plan.cuh"
#include "cs_policy.cuh"
#include "cs_sweep.cuh"
#include "cs_coeffs.h"
#include "cs_partition.h"

#include <math.h>

#include <algorithm>
#include <new>

namespace cs {

/* A plane of intermediate elements of `bytes` (half4, or half2 for a view's one or two channels) */
static size_t plane_pitch (int width, int bytes = H4::bytes)
{
  return ((size_t) width * bytes + 255) / 256 * 256;
}

/* The longest column segments whose halves park on chip, in blocks of 64 and 32 columns */
static constexpr int kSplitColumnsOnChip = split_columns_max_samples (kSplitColumns);
static constexpr int kSplitColumnsOnChipNarrow = split_columns_max_samples (kSplitColumns / 2);
static_assert (kSplitColumnsOnChip == 109 && kSplitColumnsOnChipNarrow == 237, "as docs/performance.md says");

static EdgeAwareCoeffs filter_for (double sigma_i, const CsEdgeAwareParams &p)
{
  CsDericheCoeffs c;
  EdgeAwareCoeffs f;
  cs_deriche_coeffs (sigma_i, &c);
  for (int i = 0; i < 2; i++) {
    f.inv_r0[i] = cx ((float) c.inv_r0[i].re, (float) c.inv_r0[i].im);
    f.log2_abs_b[i] = (float) (c.b_log_abs[i] / log (2.0));
    f.arg_b[i] = (float) c.b_arg[i];   /* atan2, not atan: Re b < 0 at small σ_i */
  }
  const double ratio = p.sigma / p.sigma_r;
  f.ratio2 = (float) (ratio * ratio);
  f.search_ratio2 = ratio * ratio;
  f.warmup = p.kappa * sigma_i;
  return f;
}

/* The segment count of a pass when blocks-per-stripe is 0: the partition model
 * (cs_partition.h) with this device's rate (cs_policy.cuh). */
static int auto_segments (const CsCudaDevice &dev, int width, int height, CsPass pass, const CsEdgeAwareParams &p)
{
  const Policy &policy = policy_for (dev);
  const bool rows = pass == CS_PASS_ROWS;
  /* The first iteration has the largest σ_i and dominates; Δt >= 1, so κσ_1 transformed
   * units is at most κσ_1 samples. */
  const double warmup = p.kappa * cs_edgeaware_iteration_sigma (&p, 1);
  const double sweeps = dev.sm_count * (rows ? policy.edgeaware_row_sweeps : policy.edgeaware_column_sweeps);
  const int b = cs_auto_partitions_short (rows ? width : height, rows ? height : width, warmup, sweeps,
      policy.edgeaware_min_partition, 256, rows ? 0 : kSplitColumnsOnChip, kParkOnChipStepCost);
  /* Columns: never so few segments that their halves leave the chip (1.3–1.6× slower there) */
  if (!rows)
    return std::max (b, div_up (height, kSplitColumnsOnChipNarrow));
  /* Rows: at most the policy's row blocks per SM, where the row pass ran best; the model,
   * which sees only warm-up against parallelism, asks for more. */
  const int row_blocks = div_up (height, kSplitRowLines);
  return std::max (1, std::min (b, policy.edgeaware_row_blocks_per_sm * dev.sm_count / row_blocks));
}

namespace {

struct EdgeAwarePlan : CsCudaPlan {
  int iterations;
  EdgeAwareCoeffs filters[CS_EDGEAWARE_ITERATIONS_MAX][2];   /* rows, columns */
  Segments rows, cols;

  cudaError_t run (const CsCudaImage &src, const CsCudaImage &dst, void *scratch, cudaStream_t stream) const override
  {
    return sweep<3, U8> (src, dst, frame_columns (dst), scratch, stream);
  }

  /* A packed view's C channels: the sweeps step C channels, and the spacings sum C
   * squares, which is what three give where the others are 0. */
  cudaError_t run_packed (const CsCudaImage &src, const CsCudaImage &dst, void *scratch, int channels,
      cudaStream_t stream) const override
  {
    if (channels == 1)
      return sweep<1, U8> (src, dst, frame_columns (dst), scratch, stream);
    if (channels == 2)
      return sweep<2, U8> (src, dst, frame_columns (dst), scratch, stream);
    return sweep<3, U8> (src, dst, frame_columns (dst), scratch, stream);
  }

  /* The last column pass writes the view's bytes (V8), which is what unpacking the working
   * frame it would have written gives; a view whose two channels' rows are apart by
   * different strides is unpacked. */
  cudaError_t run_packed_to_view (const CsCudaImage &src, const CsChannels &dst, void *scratch,
      cudaStream_t stream) const override
  {
    const long long offset = dst.channels == 2 ? (long long) (dst.data[1] - dst.data[0]) : 0;
    if (dst.channels > 2 || (dst.channels == 2 && (dst.stride[1] != dst.stride[0] || offset != (int) offset)))
      return cudaErrorNotSupported;
    Lines out = make_lines (dst.data[0], (size_t) dst.stride[0], dst.step, false, 0);
    out.channel_offset = (int) offset;
    const CsCudaImage shape = { dst.data[0], dst.width, dst.height, 0, 0 };
    return dst.channels == 1 ? sweep<1, V8<1>> (src, shape, out, scratch, stream)
                             : sweep<2, V8<2>> (src, shape, out, scratch, stream);
  }

  static Lines frame_columns (const CsCudaImage &frame)
  {
    return make_lines (frame.data, frame.pitch, 4, false, frame.alpha_offset == 0);
  }

  /* the sweeps of C channels, the last column pass's output `out_c` of elements D, of dst's shape */
  template <int C, class D>
  cudaError_t sweep (const CsCudaImage &src, const CsCudaImage &dst, const Lines &out_c, void *scratch,
      cudaStream_t stream) const
  {
    if (!frames_fit (*this, src, dst))
      return cudaErrorInvalidValue;
    typedef typename PlaneOf<C>::T P;
    const size_t pitch_t = plane_pitch (width, P::bytes);
    char *planes[2] = { (char *) scratch, (char *) scratch + pitch_t * height };
    const int af = src.alpha_offset == 0;
    const Lines frame_r = make_lines (src.data, src.pitch, 4, true, af);
    const Lines frame_c = make_lines (src.data, src.pitch, 4, false, af);
    /* Plane use per iteration: H reads (frame | A) and writes B; V reads B and writes A,
     * or, on the last iteration, the output with its causal sums parked in A. */
    const Lines a_r = make_lines (planes[0], pitch_t, P::bytes, true, 0);
    const Lines b_r = make_lines (planes[1], pitch_t, P::bytes, true, 0);
    const Lines a_c = make_lines (planes[0], pitch_t, P::bytes, false, 0);
    const Lines b_c = make_lines (planes[1], pitch_t, P::bytes, false, 0);
    for (int it = 1; it <= iterations; it++) {
      const EdgeAwareFilter<C> fr = { filters[it - 1][0] }, fc = { filters[it - 1][1] };
      if (it == 1)
        launch_rows_split<U8, P, EdgeAwareFilter<C>, true> (frame_r, frame_r, b_r, b_r, rows, fr, stream);
      else
        launch_rows_split<P, P, EdgeAwareFilter<C>, false> (frame_r, a_r, b_r, b_r, rows, fr, stream);
      if (it < iterations)
        launch_columns_split<P, P> (frame_c, b_c, a_c, a_c, cols, fc, stream);
      else
        launch_columns_split<P, D> (frame_c, b_c, out_c, a_c, cols, fc, stream);
      const cudaError_t err = cudaGetLastError ();
      if (err != cudaSuccess)
        return err;
    }
    return cudaSuccess;
  }
};

}  // namespace

cudaError_t plan_edgeaware (const CsEdgeAwareParams &p, int w, int h, const CsCudaDevice &dev,
    const PlanOverrides &o, CsCudaPlan **out)
{
  return plan_edgeaware_axes (p, p, w, h, dev, o, out);
}

cudaError_t plan_edgeaware_axes (const CsEdgeAwareParams &px, const CsEdgeAwareParams &py, int w, int h,
    const CsCudaDevice &dev, const PlanOverrides &o, CsCudaPlan **out)
{
  *out = nullptr;
  if (w <= 0 || h <= 0 || cs_edgeaware_params_check (&px) || cs_edgeaware_params_check (&py) ||
      px.iterations != py.iterations || o.row_segments < 0 || o.column_segments < 0)
    return cudaErrorInvalidValue;
  if (cs_edgeaware_is_identity (&px) && cs_edgeaware_is_identity (&py))
    return cs_cuda_copy_plan_new (w, h, out);
  EdgeAwarePlan *plan = new (std::nothrow) EdgeAwarePlan ();
  if (!plan)
    return cudaErrorMemoryAllocation;
  plan->path = CS_CUDA_PATH_EDGEAWARE_SPLIT;
  plan->width = w;
  plan->height = h;
  plan->scratch_bytes = 2 * plane_pitch (w) * h;   /* two half4 planes, ping-pong */
  plan->iterations = px.iterations;
  for (int it = 1; it <= px.iterations; it++) {
    plan->filters[it - 1][0] = filter_for (cs_edgeaware_iteration_sigma (&px, it), px);
    plan->filters[it - 1][1] = filter_for (cs_edgeaware_iteration_sigma (&py, it), py);
  }
  const int requested[2] = { o.row_segments ? o.row_segments : px.blocks_per_stripe,
    o.column_segments ? o.column_segments : py.blocks_per_stripe };
  plan->rows = { w, h, requested[0] ? requested[0] : auto_segments (dev, w, h, CS_PASS_ROWS, px) };
  plan->cols = { h, w, requested[1] ? requested[1] : auto_segments (dev, w, h, CS_PASS_COLUMNS, py) };
  plan->segments[0] = plan->rows.segments;
  plan->segments[1] = plan->cols.segments;
  plan->shared_bytes = split_columns_launch_bytes (plan->cols);
  *out = plan;
  return cudaSuccess;
}

}  // namespace cs
