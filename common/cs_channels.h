/* gst-cudasmooth — 1 to 3 channels of 8-bit samples that a filter treats as one image.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The filters see every format as one or two such images (docs/algorithms.md, "Formats"):
 * the three colour channels of RGBA, the one of GRAY8, luma alone, or U and V together at
 * chroma size. Each channel has its own first sample and row stride, so the planar (I420),
 * semi-planar (NV12) and packed (YUY2) layouts of a channel are all a view; step is the
 * bytes between neighbouring samples of a row, the same for every channel of a view.
 * Samples are one byte; a 16-bit depth would add a field here.
 */
#ifndef CS_CHANNELS_H
#define CS_CHANNELS_H

#include <stddef.h>
#include <stdint.h>

#include "cs_image.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CS_MAX_CHANNELS 3

typedef struct {
  int width;
  int height;
  int channels;                        /* 1, 2 or 3 */
  uint8_t *data[CS_MAX_CHANNELS];      /* sample (0, 0) of each channel */
  ptrdiff_t stride[CS_MAX_CHANNELS];   /* bytes from one row to the next */
  int step;                            /* bytes from one sample to the next along a row */
} CsChannels;

/* The three colour channels of a packed RGBA-family image. */
CsChannels cs_channels_of_image (const CsImage *img);

static inline uint8_t *cs_channels_sample (const CsChannels *c, int channel, int x, int y)
{
  return c->data[channel] + (ptrdiff_t) y * c->stride[channel] + (ptrdiff_t) x * c->step;
}

/* Copies every channel's samples from src to dst (same size and channel count). */
void cs_channels_copy (const CsChannels *src, CsChannels *dst);

/* Samples as doubles, channels interleaved: width*height*channels values. */
void cs_channels_to_double (const CsChannels *c, double *v);

/* Quantises interleaved values (cs_quantise) into the channels. */
void cs_channels_from_double (const double *v, CsChannels *c);

#ifdef __cplusplus
}
#endif

#endif /* CS_CHANNELS_H */
