/* gst-cudasmooth — a view of one packed 8-bit, 4-bytes-per-pixel frame.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every format the elements accept (RGBA, BGRA, ARGB, ABGR and the x variants) is three
 * colour bytes and one alpha/x byte. The filters treat the three colour channels alike
 * (same filter per channel, Euclidean range distance over all three), so the only thing
 * the code needs to know about the format is where the alpha/x byte sits: first or last.
 */
#ifndef CS_IMAGE_H
#define CS_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CS_BYTES_PER_PIXEL 4
#define CS_COLOUR_CHANNELS 3

typedef struct {
  uint8_t *data;      /* first byte of the top row */
  int width;
  int height;
  ptrdiff_t stride;   /* bytes from one row to the next, >= 4 * width */
  int alpha_offset;   /* byte index of alpha/x within a pixel: 0 (ARGB...) or 3 (RGBA...) */
} CsImage;

/* Byte index of the first colour channel within a pixel. */
static inline int cs_colour_offset (int alpha_offset)
{
  return alpha_offset == 0 ? 1 : 0;
}

static inline uint8_t *cs_image_pixel (const CsImage *img, int x, int y)
{
  return img->data + (ptrdiff_t) y * img->stride + (ptrdiff_t) x * CS_BYTES_PER_PIXEL;
}

/* The one quantisation of the project: round half up, clamp to 0..255 (docs/algorithms.md). */
static inline uint8_t cs_quantise (double v)
{
  if (!(v > 0.0))   /* also catches NaN */
    return 0;
  if (v >= 254.5)
    return 255;
  return (uint8_t) (int) (v + 0.5);
}

static inline uint8_t cs_quantise_f (float v)
{
  if (!(v > 0.0f))
    return 0;
  if (v >= 254.5f)
    return 255;
  return (uint8_t) (int) (v + 0.5f);
}

/* Copies the alpha/x byte of every pixel from src to dst (same size and layout). */
void cs_image_copy_alpha (const CsImage *src, CsImage *dst);

/* Copies the whole picture (all four bytes of every pixel), respecting both strides. */
void cs_image_copy (const CsImage *src, CsImage *dst);

/* Unpacks the colour channels into an interleaved RGB array of width*height*3 values. */
void cs_image_to_double (const CsImage *img, double *rgb);

/* Quantises an interleaved RGB array into the colour channels of img (alpha untouched). */
void cs_image_from_double (const double *rgb, CsImage *img);

#ifdef __cplusplus
}
#endif

#endif /* CS_IMAGE_H */
