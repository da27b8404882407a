/* cs-bench-kernels — probes of the machine and floors that are no filter (probes.cuh).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "probes.cuh"

double measure_bandwidth_gbs ()
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
  CHECK (cudaFree (a));
  CHECK (cudaFree (b));
  return 2.0 * bytes / (median_of (t) * 1e-3) / 1e9;
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

/* threads * ops / time / 32 */
template <class K>
static double measure_rate (const Bench &b, K kernel, double ops_per_thread)
{
  float *o;
  CHECK (cudaMalloc (&o, 4));
  const int blocks = b.dev.sm_count * 16, threads = 256;
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

double measure_fma_rate (const Bench &b)
{
  return measure_rate (b, fma_rate_kernel, 512 * 8);
}

double measure_ex2_rate (const Bench &b)
{
  return measure_rate (b, ex2_rate_kernel, 256 * 8);
}

__global__ void arch_kernel (int *out)
{
#ifdef __CUDA_ARCH__
  *out = __CUDA_ARCH__;
#endif
}

int kernels_arch ()
{
  int *d, arch = 0;
  CHECK (cudaMalloc (&d, sizeof (int)));
  arch_kernel<<<1, 1>>> (d);
  CHECK (cudaMemcpy (&arch, d, sizeof (int), cudaMemcpyDeviceToHost));
  CHECK (cudaFree (d));
  return arch;
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

/* Copies of a frame's bytes rotated over more than L2 holds, as the filters' inputs are
 * (make_frame); input (i) is the one launch i reads. */
struct RotatedInputs {
  std::vector<uint4 *> frames;
  RotatedInputs (const Bench &b, size_t frame_bytes)
      : frames (frame_bytes ? 1 + (3 * (size_t) b.dev.l2_bytes) / frame_bytes : 0)
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

Result time_one_launch (Bench &b, size_t frame_bytes)
{
  const RotatedInputs inputs (b, frame_bytes);
  uint4 *out = nullptr;
  if (frame_bytes)
    CHECK (cudaMalloc (&out, frame_bytes));
  const size_t n = frame_bytes / sizeof (uint4);
  const auto launch = [&] (int i) {
    if (n)
      copy_kernel<<<b.dev.sm_count * 8, 256>>> (inputs.input (i), out, n);
    else
      empty_kernel<<<1, 32>>> (nullptr);
  };
  const Result r = measure (b, launch, 5, 60, 60);
  if (out)
    CHECK (cudaFree (out));
  return r;
}

/* 1024 + byte as fp16, exact: two pixels into 16 bytes of halves */
__global__ void widen_kernel (const uint4 *in, uint4 *plane, size_t n)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x) {
    const uint4 v = in[i];
    const unsigned int w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
    for (int j = 0; j < 4; j += 2) {
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

Result time_two_pass_copy (Bench &b, int w, int h)
{
  const size_t frame_bytes = (size_t) w * h * 4;
  const RotatedInputs inputs (b, frame_bytes);
  uint4 *plane, *out;
  CHECK (cudaMalloc (&plane, 2 * frame_bytes));
  CHECK (cudaMalloc (&out, frame_bytes));
  const size_t n = frame_bytes / sizeof (uint4);
  const auto launch = [&] (int i) {
    widen_kernel<<<b.dev.sm_count * 8, 256>>> (inputs.input (i), plane, n);
    narrow_kernel<<<b.dev.sm_count * 8, 256>>> (plane, out, n);
  };
  const Result r = measure (b, launch, 5, 60, 60);
  CHECK (cudaFree (plane));
  CHECK (cudaFree (out));
  return r;
}
