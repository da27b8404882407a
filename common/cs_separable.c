/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_separable.h"

#include <stdlib.h>
#include <string.h>

int cs_separable_apply (double *v, int width, int height, int channels, CsLineFilter filter,
    void *row_ctx, void *column_ctx)
{
  const int n_max = width > height ? width : height;
  const size_t px = (size_t) channels * sizeof (double);
  double *line = malloc ((size_t) n_max * px);
  double *out = malloc ((size_t) n_max * px);
  if (!line || !out) {
    free (line);
    free (out);
    return -1;
  }
  for (int y = 0; y < height; y++) {
    double *row = v + (size_t) y * width * channels;
    filter (row, width, channels, out, row_ctx);
    memcpy (row, out, (size_t) width * px);
  }
  for (int x = 0; x < width; x++) {
    for (int y = 0; y < height; y++)
      memcpy (&line[(size_t) channels * y], &v[channels * ((size_t) y * width + x)], px);
    filter (line, height, channels, out, column_ctx);
    for (int y = 0; y < height; y++)
      memcpy (&v[channels * ((size_t) y * width + x)], &out[(size_t) channels * y], px);
  }
  free (line);
  free (out);
  return 0;
}
