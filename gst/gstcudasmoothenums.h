/* gst-cudasmooth — the enumerations the elements' properties take.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_SMOOTH_ENUMS_H__
#define __GST_CUDA_SMOOTH_ENUMS_H__

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  GST_CUDA_SMOOTH_BACKEND_AUTO,
  GST_CUDA_SMOOTH_BACKEND_CUDA,
  GST_CUDA_SMOOTH_BACKEND_CPU,
} GstCudaSmoothBackend;

/* What runs now (the read-only active-backend property). */
typedef enum
{
  GST_CUDA_SMOOTH_ACTIVE_NONE,   /* not started */
  GST_CUDA_SMOOTH_ACTIVE_CUDA,
  GST_CUDA_SMOOTH_ACTIVE_CPU,
} GstCudaSmoothActiveBackend;

typedef enum
{
  GST_CUDA_SMOOTH_OVERLAP_AUTO,   /* overlap unless upstream is live */
  GST_CUDA_SMOOTH_OVERLAP_ON,
  GST_CUDA_SMOOTH_OVERLAP_OFF,
} GstCudaSmoothOverlap;

/* What YUV formats do with U and V. */
typedef enum
{
  GST_CUDA_SMOOTH_CHROMA_FILTER,
  GST_CUDA_SMOOTH_CHROMA_COPY,
} GstCudaSmoothChroma;

GType gst_cuda_smooth_backend_get_type (void);
GType gst_cuda_smooth_chroma_get_type (void);
GType gst_cuda_smooth_active_backend_get_type (void);
GType gst_cuda_smooth_overlap_get_type (void);

G_END_DECLS

#endif
