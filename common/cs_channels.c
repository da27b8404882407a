/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_channels.h"

#include <string.h>

CsChannels cs_channels_of_image (const CsImage *img)
{
  const int co = cs_colour_offset (img->alpha_offset);
  CsChannels c = { .width = img->width, .height = img->height, .channels = 3, .step = CS_BYTES_PER_PIXEL };
  for (int i = 0; i < 3; i++) {
    c.data[i] = img->data + co + i;
    c.stride[i] = img->stride;
  }
  return c;
}

void cs_channels_copy (const CsChannels *src, CsChannels *dst)
{
  for (int i = 0; i < src->channels; i++)
    for (int y = 0; y < src->height; y++) {
      const uint8_t *s = cs_channels_sample (src, i, 0, y);
      uint8_t *d = cs_channels_sample (dst, i, 0, y);
      if (src->step == 1 && dst->step == 1) {
        memcpy (d, s, (size_t) src->width);
        continue;
      }
      for (int x = 0; x < src->width; x++)
        d[(ptrdiff_t) x * dst->step] = s[(ptrdiff_t) x * src->step];
    }
}

void cs_channels_to_double (const CsChannels *c, double *v)
{
  const int n = c->channels;
  for (int i = 0; i < n; i++)
    for (int y = 0; y < c->height; y++) {
      const uint8_t *s = cs_channels_sample (c, i, 0, y);
      double *o = v + (size_t) y * c->width * n + i;
      for (int x = 0; x < c->width; x++)
        o[(size_t) x * n] = s[(ptrdiff_t) x * c->step];
    }
}

void cs_channels_from_double (const double *v, CsChannels *c)
{
  const int n = c->channels;
  for (int i = 0; i < n; i++)
    for (int y = 0; y < c->height; y++) {
      uint8_t *d = cs_channels_sample (c, i, 0, y);
      const double *s = v + (size_t) y * c->width * n + i;
      for (int x = 0; x < c->width; x++)
        d[(ptrdiff_t) x * c->step] = cs_quantise (s[(size_t) x * n]);
    }
}
