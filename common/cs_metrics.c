/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_metrics.h"

#include <math.h>

double cs_psnr_from_mse (double mse)
{
  return mse > 0.0 ? 10.0 * log10 (255.0 * 255.0 / mse) : INFINITY;
}

CsErrorStats cs_compare_images (const CsImage *a, const CsImage *b)
{
  CsErrorStats s = { 0 };
  const int ca = cs_colour_offset (a->alpha_offset), cb = cs_colour_offset (b->alpha_offset);
  double sum = 0.0;
  for (int y = 0; y < a->height; y++)
    for (int x = 0; x < a->width; x++) {
      const uint8_t *pa = cs_image_pixel (a, x, y), *pb = cs_image_pixel (b, x, y);
      for (int c = 0; c < 3; c++) {
        const int d = (int) pa[ca + c] - (int) pb[cb + c];
        sum += (double) d * d;
        if (fabs ((double) d) > s.max_abs)
          s.max_abs = fabs ((double) d);
        s.differing += d != 0;
      }
      s.alpha_differing += pa[a->alpha_offset] != pb[b->alpha_offset];
    }
  s.mse = a->width && a->height ? sum / (3.0 * a->width * a->height) : 0.0;
  s.psnr = cs_psnr_from_mse (s.mse);
  return s;
}

CsErrorStats cs_compare_rgb (const double *a, const double *b, size_t n_pixels)
{
  CsErrorStats s = { 0 };
  double sum = 0.0;
  for (size_t i = 0; i < 3 * n_pixels; i++) {
    const double d = a[i] - b[i];
    sum += d * d;
    if (fabs (d) > s.max_abs)
      s.max_abs = fabs (d);
    s.differing += d != 0.0;
  }
  s.mse = n_pixels ? sum / (3.0 * n_pixels) : 0.0;
  s.psnr = cs_psnr_from_mse (s.mse);
  return s;
}
