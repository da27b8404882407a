/* gst-cudasmooth tests and benchmarks — PNG in and out through libpng.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_PNG_H
#define CS_PNG_H

#include "cs_image.h"

/* Reads an 8-bit grey/RGB/RGBA PNG into a new RGBA image (alpha 255; grey copied to
 * R, G and B). width 0 on failure. Free the data with free(). */
CsImage cs_png_load (const char *path);

/* Writes the colour channels of img as an RGB PNG; 0 on success. */
int cs_png_save (const CsImage *img, const char *path);

/* A width x height image cut from src, mirrored at its borders when larger (so that a
 * photo can stand for any frame size). */
CsImage cs_image_resize_by_mirroring (const CsImage *src, int width, int height);

#endif /* CS_PNG_H */
