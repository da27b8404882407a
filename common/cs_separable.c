/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_separable.h"

#include <stdlib.h>
#include <string.h>

int cs_separable_apply (double *rgb, int width, int height, CsLineFilter filter, void *ctx)
{
  const int n_max = width > height ? width : height;
  double *line = malloc ((size_t) n_max * 3 * sizeof (double));
  double *out = malloc ((size_t) n_max * 3 * sizeof (double));
  if (!line || !out) {
    free (line);
    free (out);
    return -1;
  }
  for (int y = 0; y < height; y++) {
    double *row = rgb + (size_t) y * width * 3;
    filter (row, width, out, ctx);
    memcpy (row, out, (size_t) width * 3 * sizeof (double));
  }
  for (int x = 0; x < width; x++) {
    for (int y = 0; y < height; y++)
      memcpy (&line[3 * y], &rgb[3 * ((size_t) y * width + x)], 3 * sizeof (double));
    filter (line, height, out, ctx);
    for (int y = 0; y < height; y++)
      memcpy (&rgb[3 * ((size_t) y * width + x)], &out[3 * y], 3 * sizeof (double));
  }
  free (line);
  free (out);
  return 0;
}
