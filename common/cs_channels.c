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

void cs_channels_pack_rows (const CsChannels *src, CsImage *rgba, int begin, int end)
{
  for (int y = begin; y < end; y++) {
    uint8_t *d = cs_image_pixel (rgba, 0, y);
    memset (d, 0, (size_t) src->width * CS_BYTES_PER_PIXEL);
    for (int i = 0; i < src->channels; i++) {
      const uint8_t *s = cs_channels_sample (src, i, 0, y);
      for (int x = 0; x < src->width; x++)
        d[CS_BYTES_PER_PIXEL * x + i] = s[(ptrdiff_t) x * src->step];
    }
  }
}

void cs_channels_unpack_rows (const CsImage *rgba, CsChannels *dst, int begin, int end)
{
  for (int y = begin; y < end; y++) {
    const uint8_t *s = cs_image_pixel (rgba, 0, y);
    for (int i = 0; i < dst->channels; i++) {
      uint8_t *d = cs_channels_sample (dst, i, 0, y);
      for (int x = 0; x < dst->width; x++)
        d[(ptrdiff_t) x * dst->step] = s[CS_BYTES_PER_PIXEL * x + i];
    }
  }
}
