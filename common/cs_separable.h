/* gst-cudasmooth — apply a 1-D filter to every row, then every column, of an image.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_SEPARABLE_H
#define CS_SEPARABLE_H

/* Filters one line of n samples of `channels` interleaved values f into out (distinct arrays). */
typedef void (*CsLineFilter) (const double *f, int n, int channels, double *out, void *ctx);

/* In place on an interleaved width*height*channels array: rows with row_ctx, then columns
 * with column_ctx; returns −1 when memory runs out. */
int cs_separable_apply (double *v, int width, int height, int channels, CsLineFilter filter,
    void *row_ctx, void *column_ctx);

#endif /* CS_SEPARABLE_H */
