/* gst-cudasmooth tests — channel views as the GRAY8 and YUV layouts hold them (pure C): luma,
 * NV12 / NV21 chroma, YUY2 luma, YUY2 / UYVY chroma inside one interleaved buffer, and I420
 * chroma as two planes of it, one after the other.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_TEST_LAYOUTS_H
#define CS_TEST_LAYOUTS_H

#include <stddef.h>
#include <stdint.h>

#include "cs_channels.h"

typedef struct {
  const char *name;
  int channels, step, offset[2], sx, sy;   /* sx, sy: the view's subsampling */
  int planes;                              /* 2: channel c in plane c, pitch x h bytes each */
} CsTestViewKind;

static const CsTestViewKind cs_test_view_kinds[] = {
  { "luma", 1, 1, { 0, 0 }, 1, 1, 1 }, { "NV12 chroma", 2, 2, { 0, 1 }, 2, 2, 1 },
  { "NV21 chroma", 2, 2, { 1, 0 }, 2, 2, 1 }, { "YUY2 luma", 1, 2, { 0, 0 }, 1, 1, 1 },
  { "YUY2 chroma", 2, 4, { 1, 3 }, 2, 1, 1 }, { "UYVY chroma", 2, 4, { 0, 2 }, 2, 1, 1 },
  { "I420 chroma", 2, 1, { 0, 0 }, 2, 2, 2 },
};
#define CS_TEST_N_VIEW_KINDS ((int) (sizeof cs_test_view_kinds / sizeof cs_test_view_kinds[0]))

/* The view of kind k in a buffer of `pitch` bytes a row starting at base. */
static inline CsChannels cs_test_view_in (uint8_t *base, const CsTestViewKind *k, int w, int h, size_t pitch)
{
  CsChannels v = { .width = w, .height = h, .channels = k->channels, .step = k->step };
  for (int c = 0; c < k->channels; c++) {
    v.data[c] = base + k->offset[c] + (k->planes > 1 ? (size_t) c * pitch * (size_t) h : 0);
    v.stride[c] = (ptrdiff_t) pitch;
  }
  return v;
}

/* width·step + 13 bytes a row: an odd pitch, padding after every row */
static inline size_t cs_test_view_pitch (const CsTestViewKind *k, int w)
{
  return (size_t) w * k->step + 13;
}

/* the bytes of a buffer holding a w x h view of kind k, `pitch` bytes a row */
static inline size_t cs_test_view_bytes (const CsTestViewKind *k, int h, size_t pitch)
{
  return pitch * (size_t) h * (size_t) k->planes;
}

/* bytes of ramps with noise (every byte: the views' samples and what lies between them) */
static inline void cs_test_fill_bytes (uint8_t *buf, size_t bytes, uint32_t seed)
{
  for (size_t b = 0; b < bytes; b++) {
    seed = seed * 1664525u + 1013904223u;
    buf[b] = (uint8_t) ((b % 61) * 3 + (seed >> 29));
  }
}

#endif /* CS_TEST_LAYOUTS_H */
