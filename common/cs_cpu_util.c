/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_cpu_util.h"
#include "cs_parallel.h"

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

void cs_cpu_unpack_rows (const CsImage *src, float *rgb, int begin, int end)
{
  const int co = cs_colour_offset (src->alpha_offset);
  for (int y = begin; y < end; y++) {
    const uint8_t *p = cs_image_pixel (src, 0, y) + co;
    float *o = rgb + (size_t) y * src->width * 3;
    for (int x = 0; x < src->width; x++) {
      o[3 * x + 0] = p[4 * x + 0];
      o[3 * x + 1] = p[4 * x + 1];
      o[3 * x + 2] = p[4 * x + 2];
    }
  }
}

void cs_cpu_pack_rows (const float *rgb, const CsImage *src, CsImage *dst, int begin, int end)
{
  const int co = cs_colour_offset (dst->alpha_offset);
  for (int y = begin; y < end; y++) {
    const uint8_t *a = cs_image_pixel (src, 0, y) + src->alpha_offset;
    uint8_t *p = cs_image_pixel (dst, 0, y);
    const float *i = rgb + (size_t) y * dst->width * 3;
    for (int x = 0; x < dst->width; x++) {
      const uint8_t alpha = a[4 * x];
      p[4 * x + co + 0] = cs_quantise_f (i[3 * x + 0]);
      p[4 * x + co + 1] = cs_quantise_f (i[3 * x + 1]);
      p[4 * x + co + 2] = cs_quantise_f (i[3 * x + 2]);
      p[4 * x + dst->alpha_offset] = alpha;
    }
  }
}

typedef struct {
  const uint8_t *in;
  uint8_t *out;
  int width, height;
  size_t elem;
} TransposeJob;

#define TILE 32

static void transpose_rows (void *arg, int begin, int end, int worker)
{
  const TransposeJob *j = arg;
  (void) worker;
  for (int ty = begin; ty < end; ty++) {
    const int y0 = ty * TILE, y1 = y0 + TILE < j->height ? y0 + TILE : j->height;
    for (int x0 = 0; x0 < j->width; x0 += TILE) {
      const int x1 = x0 + TILE < j->width ? x0 + TILE : j->width;
      if (j->elem == 12) {   /* interleaved float RGB: the common case, kept inlinable */
        for (int y = y0; y < y1; y++)
          for (int x = x0; x < x1; x++) {
            const float *s = (const float *) j->in + ((size_t) y * j->width + x) * 3;
            float *d = (float *) j->out + ((size_t) x * j->height + y) * 3;
            d[0] = s[0];
            d[1] = s[1];
            d[2] = s[2];
          }
      } else {
        for (int y = y0; y < y1; y++)
          for (int x = x0; x < x1; x++)
            memcpy (j->out + ((size_t) x * j->height + y) * j->elem,
                j->in + ((size_t) y * j->width + x) * j->elem, j->elem);
      }
    }
  }
}

void cs_cpu_transpose (const void *in, void *out, int width, int height, size_t elem, int n_threads)
{
  TransposeJob j = { in, out, width, height, elem };
  cs_parallel_for ((height + TILE - 1) / TILE, n_threads, transpose_rows, &j);
}
