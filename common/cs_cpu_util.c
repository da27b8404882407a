/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_cpu_util.h"
#include "cs_parallel.h"
#include "cs_simd.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define ALIGN 64

/* Workspaces are mapped pages of their own: from the heap, a 17 MB table freed and made
 * again at every start left glibc's heap fragmented (RSS 66 -> 240 MB over random state
 * changes). Under AddressSanitizer the heap is kept, for its red zones. */
#if defined(__SANITIZE_ADDRESS__)
#define CS_WORKSPACE_ON_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CS_WORKSPACE_ON_HEAP 1
#endif
#endif

static void *pages_alloc (size_t bytes)
{
#ifdef CS_WORKSPACE_ON_HEAP
  void *mem = NULL;
  return posix_memalign (&mem, ALIGN, bytes) == 0 ? mem : NULL;
#else
  void *mem = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return mem == MAP_FAILED ? NULL : mem;
#endif
}

static void pages_free (void *mem, size_t bytes)
{
  if (!mem)
    return;
#ifdef CS_WORKSPACE_ON_HEAP
  (void) bytes;
  free (mem);
#else
  munmap (mem, bytes);
#endif
}

void cs_cpu_workspace_clear (CsCpuWorkspace *ws)
{
  pages_free (ws->mem, ws->size);
  ws->mem = NULL;
  ws->size = 0;
}

int cs_cpu_workspace_reserve (CsCpuWorkspace *ws, size_t bytes)
{
  if (bytes <= ws->size)
    return 0;
  void *mem = pages_alloc (bytes);
  if (!mem)
    return -1;
  cs_cpu_workspace_clear (ws);
  ws->mem = mem;
  ws->size = bytes;
  return 0;
}

size_t cs_workspace_total (int count, const size_t *sizes)
{
  size_t total = 0;
  for (int i = 0; i < count; i++)
    total += (sizes[i] + ALIGN - 1) / ALIGN * ALIGN;
  return total;
}

int cs_workspace_carve (CsCpuWorkspace *ws, int count, const size_t *sizes, void **arrays)
{
  if (cs_cpu_workspace_reserve (ws, cs_workspace_total (count, sizes)) != 0)
    return -1;
  uint8_t *p = ws->mem;
  for (int i = 0; i < count; i++) {
    arrays[i] = p;
    p += (sizes[i] + ALIGN - 1) / ALIGN * ALIGN;
  }
  return 0;
}

static inline __attribute__ ((always_inline)) void unpack_n (const CsChannels *src, float *v, int begin, int end,
    const int nc)
{
  for (int y = begin; y < end; y++) {
    const uint8_t *p[3];
    for (int c = 0; c < nc; c++)
      p[c] = cs_channels_sample (src, c, 0, y);
    float *o = v + (size_t) y * src->width * nc;
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < nc; c++)
        o[nc * x + c] = p[c][(ptrdiff_t) x * src->step];
  }
}

void cs_cpu_unpack_channels (const CsChannels *src, float *v, int begin, int end)
{
  switch (src->channels) {
    case 1: unpack_n (src, v, begin, end, 1); break;
    case 2: unpack_n (src, v, begin, end, 2); break;
    default: unpack_n (src, v, begin, end, 3); break;
  }
}

static inline __attribute__ ((always_inline)) void pack_n (const float *v, CsChannels *dst, int begin, int end,
    const int nc)
{
  for (int y = begin; y < end; y++) {
    uint8_t *p[3];
    for (int c = 0; c < nc; c++)
      p[c] = cs_channels_sample (dst, c, 0, y);
    const float *i = v + (size_t) y * dst->width * nc;
    for (int x = 0; x < dst->width; x++)
      for (int c = 0; c < nc; c++)
        p[c][(ptrdiff_t) x * dst->step] = cs_quantise_f (i[nc * x + c]);
  }
}

void cs_cpu_pack_channels (const float *v, CsChannels *dst, int begin, int end)
{
  switch (dst->channels) {
    case 1: pack_n (v, dst, begin, end, 1); break;
    case 2: pack_n (v, dst, begin, end, 2); break;
    default: pack_n (v, dst, begin, end, 3); break;
  }
}

typedef struct {
  const CsImage *src;
  CsImage *dst;
} AlphaJob;

static void alpha_rows (void *arg, int begin, int end, int worker)
{
  const AlphaJob *j = arg;
  CsImage s = *j->src, d = *j->dst;
  (void) worker;
  s.data = cs_image_pixel (j->src, 0, begin);
  d.data = cs_image_pixel (j->dst, 0, begin);
  s.height = d.height = end - begin;
  cs_image_copy_alpha (&s, &d);
}

void cs_cpu_copy_alpha (const CsImage *src, CsImage *dst, int n_threads)
{
  AlphaJob j = { src, dst };
  cs_parallel_for (src->height, cs_cpu_threads (n_threads), alpha_rows, &j);
}

typedef CsCpuTransposeJob TransposeJob;

#define TILE 32

/* One tile of elements of nf floats, inlined per nf: a memcpy call per element cost the
 * one- and two-channel images (GRAY8, the YUV planes) more than their filters' steps. One
 * float or a pair goes by blocks in the vector registers where the block is whole (8 × 8
 * floats, 4 × 4 pairs): an element at a time took a load and a store each. */
static inline __attribute__ ((always_inline)) void transpose_tile (const TransposeJob *j, int y0, int y1, int x0,
    int x1, const int nf)
{
  const float *in = (const float *) j->in;
  float *out = (float *) j->out;
  const int b = nf == 1 ? 8 : 4;
  int y = y0;
  if (nf <= 2)
    for (; y + b <= y1; y += b) {
      int x = x0;
      for (; x + b <= x1; x += b) {
        CsF8 r[8];
        for (int i = 0; i < b; i++)
          r[i] = cs_f8_load (in + ((size_t) (y + i) * j->width + x) * nf);
        if (nf == 1) {
          cs_f8_transpose8 (r);
        } else {
          CsL4 l[4];
          memcpy (l, r, sizeof l);
          cs_l4_transpose4 (l);
          memcpy (r, l, sizeof l);
        }
        for (int i = 0; i < b; i++)
          memcpy (out + ((size_t) (x + i) * j->height + y) * nf, &r[i], sizeof r[i]);
      }
      for (; x < x1; x++)
        for (int i = 0; i < b; i++)
          for (int c = 0; c < nf; c++)
            out[((size_t) x * j->height + y + i) * nf + c] = in[((size_t) (y + i) * j->width + x) * nf + c];
    }
  for (; y < y1; y++)
    for (int x = x0; x < x1; x++) {
      const float *s = in + ((size_t) y * j->width + x) * nf;
      float *d = out + ((size_t) x * j->height + y) * nf;
      for (int c = 0; c < nf; c++)
        d[c] = s[c];
    }
}

CS_SIMD_CLONES void cs_cpu_transpose_rows (void *arg, int begin, int end, int worker)
{
  const TransposeJob *j = arg;
  (void) worker;
  for (int ty = begin; ty < end; ty++) {
    const int y0 = ty * TILE, y1 = y0 + TILE < j->height ? y0 + TILE : j->height;
    for (int x0 = 0; x0 < j->width; x0 += TILE) {
      const int x1 = x0 + TILE < j->width ? x0 + TILE : j->width;
      switch (j->elem) {   /* interleaved floats of 1, 2 or 3 channels: the cases there are */
        case 4: transpose_tile (j, y0, y1, x0, x1, 1); break;
        case 8: transpose_tile (j, y0, y1, x0, x1, 2); break;
        case 12: transpose_tile (j, y0, y1, x0, x1, 3); break;
        default:
          for (int y = y0; y < y1; y++)
            for (int x = x0; x < x1; x++)
              memcpy ((uint8_t *) j->out + ((size_t) x * j->height + y) * j->elem,
                  (const uint8_t *) j->in + ((size_t) y * j->width + x) * j->elem, j->elem);
      }
    }
  }
}

int cs_cpu_transpose_blocks (const CsCpuTransposeJob *job)
{
  return (job->height + TILE - 1) / TILE;
}

/* One loop over the items of several views: view v's are [first[v], first[v + 1]), each run
 * by fn on its own job. */
typedef struct {
  int n;
  int first[CS_CPU_MAX_VIEWS + 1];
  CsRangeFn fn;
  void *jobs[CS_CPU_MAX_VIEWS];
} ViewsLoop;

static void views_body (void *arg, int begin, int end, int worker)
{
  const ViewsLoop *l = arg;
  for (int v = 0; v < l->n; v++) {
    const int b = begin > l->first[v] ? begin : l->first[v], e = end < l->first[v + 1] ? end : l->first[v + 1];
    if (b < e)
      l->fn (l->jobs[v], b - l->first[v], e - l->first[v], worker);
  }
}

void cs_cpu_for_views (int n, void *jobs, size_t size, const int *items, CsRangeFn fn, int flushed, int n_threads)
{
  ViewsLoop l = { .n = n, .fn = fn };
  for (int v = 0; v < n; v++) {
    l.jobs[v] = (char *) jobs + v * size;
    l.first[v + 1] = l.first[v] + items[v];
  }
  if (flushed)
    cs_parallel_for_flushed (l.first[n], n_threads, views_body, &l);
  else
    cs_parallel_for (l.first[n], n_threads, views_body, &l);
}
