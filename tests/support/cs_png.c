/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_png.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

CsImage cs_png_load (const char *path)
{
  CsImage img = { 0 };
  png_image p;
  memset (&p, 0, sizeof p);
  p.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file (&p, path))
    return img;
  p.format = PNG_FORMAT_RGBA;
  img.width = (int) p.width;
  img.height = (int) p.height;
  img.stride = (ptrdiff_t) p.width * 4;
  img.alpha_offset = 3;
  img.data = malloc (PNG_IMAGE_SIZE (p));
  if (!img.data || !png_image_finish_read (&p, NULL, img.data, (png_int_32) img.stride, NULL)) {
    free (img.data);
    memset (&img, 0, sizeof img);
  }
  return img;
}

int cs_png_save (const CsImage *img, const char *path)
{
  png_image p;
  const int co = cs_colour_offset (img->alpha_offset);
  unsigned char *rgb = malloc ((size_t) img->width * img->height * 3);
  int ok;
  if (!rgb)
    return -1;
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      memcpy (rgb + 3 * ((size_t) y * img->width + x), cs_image_pixel (img, x, y) + co, 3);
  memset (&p, 0, sizeof p);
  p.version = PNG_IMAGE_VERSION;
  p.width = (png_uint_32) img->width;
  p.height = (png_uint_32) img->height;
  p.format = PNG_FORMAT_RGB;
  ok = png_image_write_to_file (&p, path, 0, rgb, img->width * 3, NULL);
  free (rgb);
  return ok ? 0 : -1;
}

static int mirror (int v, int n)
{
  const int period = 2 * n;
  v %= period;
  return v < n ? v : period - 1 - v;
}

CsImage cs_image_resize_by_mirroring (const CsImage *src, int width, int height)
{
  CsImage img = { 0 };
  img.width = width;
  img.height = height;
  img.stride = (ptrdiff_t) width * 4;
  img.alpha_offset = src->alpha_offset;
  img.data = malloc ((size_t) img.stride * height);
  if (!img.data)
    return img;
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      memcpy (cs_image_pixel (&img, x, y),
          cs_image_pixel (src, mirror (x, src->width), mirror (y, src->height)), 4);
  return img;
}
