/* gst-cudasmooth tests — inputs made on the spot or read from tests/data (pure C).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_TEST_IMAGES_H
#define CS_TEST_IMAGES_H

#include <stdint.h>

#include "cs_image.h"

/* Allocates a width x height image with `pad` spare bytes at the end of every row,
 * filled with `poison` (padding included). Free with cs_test_image_free. */
CsImage cs_test_image_new (int width, int height, int pad, int alpha_offset, uint8_t poison);
void cs_test_image_free (CsImage *img);

/* Fills the pixels (not the padding) with a reproducible pattern; alpha gets noise too. */
void cs_test_fill_noise (CsImage *img, uint32_t seed);
void cs_test_fill_scene (CsImage *img, uint32_t seed);   /* smooth shapes, edges and noise */
/* Isolated grey-255 spikes (1 pixel in 20) on a flat grey-10 field, random alpha. */
void cs_test_fill_spikes (CsImage *img, uint32_t seed);
/* every colour byte 0, 1, 2, 253, 254 or 255 (alpha random): weighted means that lie at
 * the ends of the byte range, where a rounded sum could step past them */
void cs_test_fill_extremes (CsImage *img, uint32_t seed);
void cs_test_fill_constant (CsImage *img, uint8_t r, uint8_t g, uint8_t b);
/* 0/255 in every colour byte (green the inverse of red and blue) as a checkerboard
 * (CS_TEST_CHECKERBOARD) or stripes along x or y; alpha x·7 + y. Every difference between
 * neighbours is ±255: the worst input for fp16 filter coefficients. */
typedef enum { CS_TEST_CHECKERBOARD, CS_TEST_STRIPES_X, CS_TEST_STRIPES_Y } CsTestBinaryPattern;
void cs_test_fill_binary (CsImage *img, CsTestBinaryPattern pattern);

/* Reads a binary PPM (P6, maxval 255) into a new image; width 0 on failure. */
CsImage cs_test_image_load_ppm (const char *path, int pad, int alpha_offset);

/* Mirror image left-right into dst (same size). */
void cs_test_flip_horizontal (const CsImage *src, CsImage *dst);

/* True when every padding byte (beyond 4*width in each row) still holds `poison`. */
int cs_test_padding_intact (const CsImage *img, uint8_t poison);

/* Path of a file in tests/data (the build passes CS_TEST_DATA_DIR). */
const char *cs_test_data_path (const char *name);

#endif /* CS_TEST_IMAGES_H */
