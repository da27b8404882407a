/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_test_images.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CsImage cs_test_image_new (int width, int height, int pad, int alpha_offset, uint8_t poison)
{
  CsImage img = { 0 };
  img.width = width;
  img.height = height;
  img.stride = (ptrdiff_t) width * 4 + pad;
  img.alpha_offset = alpha_offset;
  img.data = malloc ((size_t) img.stride * height + 1);
  memset (img.data, poison, (size_t) img.stride * height);
  return img;
}

void cs_test_image_free (CsImage *img)
{
  free (img->data);
  img->data = NULL;
}

static uint32_t next (uint32_t *s)
{
  /* xorshift32: reproducible on every platform */
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

void cs_test_fill_noise (CsImage *img, uint32_t seed)
{
  uint32_t s = seed * 2654435761u + 1;
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      uint8_t *p = cs_image_pixel (img, x, y);
      for (int c = 0; c < 4; c++)
        p[c] = (uint8_t) (next (&s) >> 24);
    }
}

void cs_test_fill_spikes (CsImage *img, uint32_t seed)
{
  uint32_t s = seed * 2654435761u + 3;
  const int co = cs_colour_offset (img->alpha_offset);
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      const uint32_t r = next (&s);
      uint8_t *p = cs_image_pixel (img, x, y);
      memset (p + co, r % 20 == 0 ? 255 : 10, 3);
      p[img->alpha_offset] = (uint8_t) (r >> 24);
    }
}

void cs_test_fill_extremes (CsImage *img, uint32_t seed)
{
  static const uint8_t values[] = { 0, 1, 2, 253, 254, 255 };
  uint32_t s = seed * 2654435761u + 5;
  const int co = cs_colour_offset (img->alpha_offset);
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      uint8_t *p = cs_image_pixel (img, x, y);
      for (int c = 0; c < 3; c++)
        p[co + c] = values[(next (&s) >> 24) % 6];
      p[img->alpha_offset] = (uint8_t) (next (&s) >> 24);
    }
}

void cs_test_fill_binary (CsImage *img, CsTestBinaryPattern pattern)
{
  const int co = cs_colour_offset (img->alpha_offset);
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      uint8_t *p = cs_image_pixel (img, x, y);
      const int on = pattern == CS_TEST_CHECKERBOARD ? (x + y) & 1 : pattern == CS_TEST_STRIPES_X ? x & 1 : y & 1;
      for (int c = 0; c < 3; c++)
        p[co + c] = (on ^ (c == 1)) ? 255 : 0;
      p[img->alpha_offset] = (uint8_t) (x * 7 + y);
    }
}

void cs_test_fill_scene (CsImage *img, uint32_t seed)
{
  uint32_t s = seed * 2654435761u + 7;
  const int co = cs_colour_offset (img->alpha_offset);
  const double cx = img->width * 0.4, cy = img->height * 0.55, rad = 0.3 * (img->width + img->height);
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      uint8_t *p = cs_image_pixel (img, x, y);
      const int inside = (x - cx) * (x - cx) + (y - cy) * (y - cy) < rad * rad * 0.25;
      const double base[3] = {
        inside ? 200.0 : 40.0 + 60.0 * sin (x * 0.05),
        inside ? 60.0 + 0.2 * x : 120.0 + 50.0 * cos (y * 0.08),
        x > img->width * 0.7 ? 230.0 : 20.0 + 0.3 * y,
      };
      for (int c = 0; c < 3; c++) {
        double v = base[c] + (double) (next (&s) >> 27) - 16.0;
        p[co + c] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
      }
      p[img->alpha_offset] = (uint8_t) (next (&s) >> 24);
    }
}

void cs_test_fill_constant (CsImage *img, uint8_t r, uint8_t g, uint8_t b)
{
  const int co = cs_colour_offset (img->alpha_offset);
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      uint8_t *p = cs_image_pixel (img, x, y);
      p[co] = r;
      p[co + 1] = g;
      p[co + 2] = b;
      p[img->alpha_offset] = (uint8_t) (x * 7 + y * 13);
    }
}

CsImage cs_test_image_load_ppm (const char *path, int pad, int alpha_offset)
{
  CsImage img = { 0 };
  FILE *f = fopen (path, "rb");
  int w, h, maxval;
  if (!f)
    return img;
  if (fscanf (f, "P6 %d %d %d", &w, &h, &maxval) != 3 || maxval != 255 || fgetc (f) == EOF) {
    fclose (f);
    return img;
  }
  img = cs_test_image_new (w, h, pad, alpha_offset, 0);
  const int co = cs_colour_offset (alpha_offset);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint8_t rgb[3];
      if (fread (rgb, 1, 3, f) != 3) {
        cs_test_image_free (&img);
        img.width = 0;
        fclose (f);
        return img;
      }
      uint8_t *p = cs_image_pixel (&img, x, y);
      memcpy (p + co, rgb, 3);
      p[alpha_offset] = (uint8_t) (255 - ((x ^ y) & 63));
    }
  fclose (f);
  return img;
}

void cs_test_flip_horizontal (const CsImage *src, CsImage *dst)
{
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      memcpy (cs_image_pixel (dst, src->width - 1 - x, y), cs_image_pixel (src, x, y), 4);
}

int cs_test_padding_intact (const CsImage *img, uint8_t poison)
{
  for (int y = 0; y < img->height; y++)
    for (ptrdiff_t b = (ptrdiff_t) img->width * 4; b < img->stride; b++)
      if (img->data[y * img->stride + b] != poison)
        return 0;
  return 1;
}

const char *cs_test_data_path (const char *name)
{
  static char buf[4096];
#ifdef CS_TEST_DATA_DIR
  snprintf (buf, sizeof buf, "%s/%s", CS_TEST_DATA_DIR, name);
#else
  snprintf (buf, sizeof buf, "tests/data/%s", name);
#endif
  return buf;
}
