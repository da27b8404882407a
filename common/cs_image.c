/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_image.h"

#include <string.h>

void cs_image_copy_alpha (const CsImage *src, CsImage *dst)
{
  for (int y = 0; y < src->height; y++) {
    const uint8_t *s = cs_image_pixel (src, 0, y) + src->alpha_offset;
    uint8_t *d = cs_image_pixel (dst, 0, y) + dst->alpha_offset;
    for (int x = 0; x < src->width; x++)
      d[x * CS_BYTES_PER_PIXEL] = s[x * CS_BYTES_PER_PIXEL];
  }
}

void cs_image_copy (const CsImage *src, CsImage *dst)
{
  for (int y = 0; y < src->height; y++)
    memcpy (cs_image_pixel (dst, 0, y), cs_image_pixel (src, 0, y),
        (size_t) src->width * CS_BYTES_PER_PIXEL);
}

void cs_image_to_double (const CsImage *img, double *rgb)
{
  const int co = cs_colour_offset (img->alpha_offset);
  for (int y = 0; y < img->height; y++) {
    const uint8_t *p = cs_image_pixel (img, 0, y) + co;
    double *o = rgb + (size_t) y * img->width * 3;
    for (int x = 0; x < img->width; x++)
      for (int c = 0; c < 3; c++)
        o[3 * x + c] = p[x * CS_BYTES_PER_PIXEL + c];
  }
}

void cs_image_from_double (const double *rgb, CsImage *img)
{
  const int co = cs_colour_offset (img->alpha_offset);
  for (int y = 0; y < img->height; y++) {
    uint8_t *p = cs_image_pixel (img, 0, y) + co;
    const double *i = rgb + (size_t) y * img->width * 3;
    for (int x = 0; x < img->width; x++)
      for (int c = 0; c < 3; c++)
        p[x * CS_BYTES_PER_PIXEL + c] = cs_quantise (i[3 * x + c]);
  }
}
