/* gst-cudasmooth — apply a 1-D filter to every row, then every column, of an RGB image.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_SEPARABLE_H
#define CS_SEPARABLE_H

/* Filters one line of n interleaved RGB samples f into out (distinct arrays). */
typedef void (*CsLineFilter) (const double *f, int n, double *out, void *ctx);

/* In place on an interleaved width*height*3 array; returns −1 when memory runs out. */
int cs_separable_apply (double *rgb, int width, int height, CsLineFilter filter, void *ctx);

#endif /* CS_SEPARABLE_H */
