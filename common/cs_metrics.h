/* gst-cudasmooth — image comparison: MSE, PSNR, max abs error over the colour channels.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_METRICS_H
#define CS_METRICS_H

#include "cs_image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  double mse;
  double psnr;        /* dB, 10·log10(255²/MSE); INFINITY when the images are equal */
  double max_abs;     /* largest |a − b| of any colour sample */
  long long differing; /* colour samples that differ */
  long long alpha_differing; /* alpha/x bytes that differ (the filters must copy them) */
} CsErrorStats;

/* Compares two 8-bit images of equal size (layouts may differ). */
CsErrorStats cs_compare_images (const CsImage *a, const CsImage *b);

/* Compares two interleaved RGB double arrays of n pixels. */
CsErrorStats cs_compare_rgb (const double *a, const double *b, size_t n_pixels);

double cs_psnr_from_mse (double mse);

#ifdef __cplusplus
}
#endif

#endif /* CS_METRICS_H */
