/* gst-cudasmooth — plans on 1–3-channel views: the GRAY8 and YUV formats.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A plan whose kernels take views runs on the view itself (CsCudaPlan::run_view: the
 * packed-half bilateral, recursivegauss's tiles). Otherwise the view's channels are packed into the colour bytes of a working
 * RGBA frame (the other colour bytes 0: a constant 0 channel filters to 0 and adds nothing
 * to a range distance, so the RGBA kernels compute exactly the view's filter;
 * docs/algorithms.md, "Formats") and filtered by the plan, whose last pass writes the
 * destination's bytes itself where it can (CsCudaPlan::run_packed_to_view: edgeawaregauss),
 * else into a second working frame that is unpacked into the destination.
 */
#include "cs_cuda.h"
#include "cs_plan.cuh"

#include <stdint.h>

namespace cs {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kRun = 4;   /* pixels a thread moves: one 16-byte store or load of the working frame */

size_t work_pitch (int width)
{
  return ((size_t) width * 4 + 255) / 256 * 256;
}

/* kRun samples of channel c from x on, or fewer at the right edge: one 32-bit access where the
 * samples are adjacent bytes of an aligned word (luma, I420 chroma), else one per sample. */
template <int C>
__device__ __forceinline__ unsigned int load_run (const CsChannels &v, int c, int x, int y)
{
  const unsigned char *p = v.data[c] + (ptrdiff_t) y * v.stride[c] + (ptrdiff_t) x * v.step;
  if (v.step == 1 && x + kRun <= v.width && (reinterpret_cast<uintptr_t> (p) & 3) == 0)
    return *reinterpret_cast<const unsigned int *> (p);
  unsigned int w = 0;
#pragma unroll
  for (int k = 0; k < kRun; k++)
    if (x + k < v.width)
      w |= (unsigned int) p[(ptrdiff_t) k * v.step] << (8 * k);
  return w;
}

template <int C>
__device__ __forceinline__ void store_run (const CsChannels &v, int c, int x, int y, unsigned int w)
{
  unsigned char *p = v.data[c] + (ptrdiff_t) y * v.stride[c] + (ptrdiff_t) x * v.step;
  if (v.step == 1 && x + kRun <= v.width && (reinterpret_cast<uintptr_t> (p) & 3) == 0) {
    *reinterpret_cast<unsigned int *> (p) = w;
    return;
  }
#pragma unroll
  for (int k = 0; k < kRun; k++)
    if (x + k < v.width)
      p[(ptrdiff_t) k * v.step] = (unsigned char) (w >> (8 * k));
}

/* C channels' runs into kRun working pixels (byte k of channel c's run -> byte c of pixel k) */
template <int C>
__global__ void pack (CsChannels src, unsigned char *work, size_t pitch)
{
  const int x = (blockIdx.x * kBlockX + threadIdx.x) * kRun, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= src.width || y >= src.height)
    return;
  unsigned int run[C];
#pragma unroll
  for (int c = 0; c < C; c++)
    run[c] = load_run<C> (src, c, x, y);
  unsigned int px[kRun];
#pragma unroll
  for (int k = 0; k < kRun; k++) {
    px[k] = 0;
#pragma unroll
    for (int c = 0; c < C; c++)
      px[k] |= ((run[c] >> (8 * k)) & 0xFFu) << (8 * c);
  }
  unsigned int *dst = reinterpret_cast<unsigned int *> (work + (size_t) y * pitch) + x;
  if (x + kRun <= src.width) {
    *reinterpret_cast<uint4 *> (dst) = make_uint4 (px[0], px[1], px[2], px[3]);
  } else {
#pragma unroll
    for (int k = 0; k < kRun; k++)
      if (x + k < src.width)
        dst[k] = px[k];
  }
}

template <int C>
__global__ void unpack (const unsigned char *work, size_t pitch, CsChannels dst)
{
  const int x = (blockIdx.x * kBlockX + threadIdx.x) * kRun, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= dst.width || y >= dst.height)
    return;
  const unsigned int *src = reinterpret_cast<const unsigned int *> (work + (size_t) y * pitch) + x;
  unsigned int px[kRun];
  if (x + kRun <= dst.width) {
    const uint4 v = *reinterpret_cast<const uint4 *> (src);
    px[0] = v.x, px[1] = v.y, px[2] = v.z, px[3] = v.w;
  } else {
#pragma unroll
    for (int k = 0; k < kRun; k++)
      px[k] = x + k < dst.width ? src[k] : 0;
  }
#pragma unroll
  for (int c = 0; c < C; c++) {
    unsigned int run = 0;
#pragma unroll
    for (int k = 0; k < kRun; k++)
      run |= ((px[k] >> (8 * c)) & 0xFFu) << (8 * k);
    store_run<C> (dst, c, x, y, run);
  }
}

template <int C>
__global__ void copy (CsChannels src, CsChannels dst)
{
  const int x = (blockIdx.x * kBlockX + threadIdx.x) * kRun, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= src.width || y >= src.height)
    return;
#pragma unroll
  for (int c = 0; c < C; c++)
    store_run<C> (dst, c, x, y, load_run<C> (src, c, x, y));
}

bool views_fit (const CsChannels &src, const CsChannels &dst)
{
  return src.width > 0 && src.height > 0 && src.channels >= 1 && src.channels <= CS_MAX_CHANNELS &&
      dst.width == src.width && dst.height == src.height && dst.channels == src.channels;
}

}  // namespace
}  // namespace cs

extern "C" size_t cs_cuda_channels_work_bytes (int width, int height)
{
  return 2 * cs::work_pitch (width) * (size_t) height;
}

extern "C" size_t cs_cuda_plan_work_bytes (const CsCudaPlan *plan, int channels)
{
  if (!plan || plan->takes_views (channels))
    return 0;
  return cs_cuda_channels_work_bytes (plan->width, plan->height);
}

static cudaError_t run_channels (const CsCudaPlan *plan, const CsChannels *src, const CsChannels *dst, void *work,
    void *scratch, bool beside, cudaStream_t stream)
{
  using namespace cs;
  if (!views_fit (*src, *dst) || (plan && (plan->width != src->width || plan->height != src->height)) ||
      reinterpret_cast<uintptr_t> (work) % 16)
    return cudaErrorInvalidValue;
  const dim3 block (kBlockX, kBlockY);
  const dim3 grid ((src->width + kBlockX * kRun - 1) / (kBlockX * kRun), (src->height + kBlockY - 1) / kBlockY);
  const int c = src->channels;
  if (!plan) {
    if (c == 1)
      copy<1><<<grid, block, 0, stream>>> (*src, *dst);
    else if (c == 2)
      copy<2><<<grid, block, 0, stream>>> (*src, *dst);
    else
      copy<3><<<grid, block, 0, stream>>> (*src, *dst);
    return cudaGetLastError ();
  }
  cudaError_t err = plan->run_view (*src, *dst, scratch, beside, stream);
  if (err != cudaErrorNotSupported)
    return err;
  if (!work)
    return cudaErrorInvalidValue;   /* cs_cuda_plan_work_bytes said none was needed */
  const size_t pitch = work_pitch (src->width);
  unsigned char *in = (unsigned char *) work, *out = in + pitch * src->height;
  if (c == 1)
    pack<1><<<grid, block, 0, stream>>> (*src, in, pitch);
  else if (c == 2)
    pack<2><<<grid, block, 0, stream>>> (*src, in, pitch);
  else
    pack<3><<<grid, block, 0, stream>>> (*src, in, pitch);
  err = cudaGetLastError ();
  if (err != cudaSuccess)
    return err;
  const CsCudaImage a = { in, src->width, src->height, pitch, 3 }, b = { out, src->width, src->height, pitch, 3 };
  err = plan->run_packed_to_view (a, *dst, scratch, stream);
  if (err != cudaErrorNotSupported)
    return err;
  if ((err = plan->run_packed (a, b, scratch, c, stream)) != cudaSuccess)
    return err;
  if (c == 1)
    unpack<1><<<grid, block, 0, stream>>> (out, pitch, *dst);
  else if (c == 2)
    unpack<2><<<grid, block, 0, stream>>> (out, pitch, *dst);
  else
    unpack<3><<<grid, block, 0, stream>>> (out, pitch, *dst);
  return cudaGetLastError ();
}

extern "C" cudaError_t cs_cuda_plan_run_channels (const CsCudaPlan *plan, const CsChannels *src,
    const CsChannels *dst, void *work, void *scratch, cudaStream_t stream)
{
  return run_channels (plan, src, dst, work, scratch, false, stream);
}

extern "C" cudaError_t cs_cuda_plan_run_channels_beside (const CsCudaPlan *plan, const CsChannels *src,
    const CsChannels *dst, void *work, void *scratch, cudaStream_t stream)
{
  return run_channels (plan, src, dst, work, scratch, true, stream);
}

cudaError_t cs::run_views_together (const CsCudaViewRun *views, int n, cudaStream_t stream)
{
  if (n != 2 || views[0].on_side || !views[1].on_side || !views[0].plan || !views[1].plan)
    return cudaErrorNotSupported;
  for (int i = 0; i < 2; i++) {
    const CsCudaViewRun &v = views[i];
    if (!cs::views_fit (v.src, v.dst) || v.plan->width != v.src.width || v.plan->height != v.src.height)
      return cudaErrorNotSupported;   /* run_channels says why */
  }
  return views[0].plan->run_views_with (views[0].src, views[0].dst, *views[1].plan, views[1].src, views[1].dst, stream);
}

extern "C" cudaError_t cs_cuda_plan_run_views (const CsCudaViewRun *views, int n, cudaStream_t stream, cudaStream_t side,
    cudaEvent_t fork, cudaEvent_t join)
{
  bool forked = false;
  for (int i = 0; i < n; i++)
    forked = forked || views[i].on_side;
  if (n < 0 || (n > 0 && !views) || (forked && (!side || !fork || !join || side == stream)))
    return cudaErrorInvalidValue;
  cudaError_t err = cs::run_views_together (views, n, stream);
  if (err != cudaErrorNotSupported)
    return err;
  err = cudaSuccess;
  if (forked && ((err = cudaEventRecord (fork, stream)) != cudaSuccess || (err = cudaStreamWaitEvent (side, fork, 0)) != cudaSuccess))
    return err;
  bool started[2] = { false, false };   /* a later view on a stream may start beside the one before it */
  for (int i = 0; i < n && err == cudaSuccess; i++) {
    const CsCudaViewRun &v = views[i];
    const int s = v.on_side ? 1 : 0;
    err = run_channels (v.plan, &v.src, &v.dst, v.work, v.scratch, started[s], s ? side : stream);
    started[s] = true;
  }
  if (forked) {
    const cudaError_t joined = cudaEventRecord (join, side);
    const cudaError_t waited = joined == cudaSuccess ? cudaStreamWaitEvent (stream, join, 0) : joined;
    if (err == cudaSuccess)
      err = waited;
  }
  return err;
}
