/* gst-cudasmooth — the abstract base class of the three filters.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Holds everything the elements share: RGBA-family caps in system and CUDA memory, the
 * backend choice (CUDA or the multi-threaded CPU path), the CUDA context shared with
 * neighbouring elements, pinned buffer pools, three streams so that the upload of one
 * frame, the kernels of the next and the download of a third overlap, the frames held for
 * that overlap (reported as latency, drained on EOS/caps/segment, dropped on flush),
 * metadata, QoS and errors.
 * A subclass supplies its parameters and its filter calls, nothing else.
 */
#ifndef __GST_CUDA_SMOOTH_FILTER_H__
#define __GST_CUDA_SMOOTH_FILTER_H__

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cs_cpu.h"
#include "cs_image.h"

#ifdef HAVE_CUDA
#include "cs_cuda.h"
#endif

G_BEGIN_DECLS

#define GST_TYPE_CUDA_SMOOTH_FILTER (gst_cuda_smooth_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaSmoothFilter, gst_cuda_smooth_filter, GST, CUDA_SMOOTH_FILTER,
    GstBaseTransform);

typedef enum
{
  GST_CUDA_SMOOTH_BACKEND_AUTO,
  GST_CUDA_SMOOTH_BACKEND_CUDA,
  GST_CUDA_SMOOTH_BACKEND_CPU,
} GstCudaSmoothBackend;

typedef enum
{
  GST_CUDA_SMOOTH_OVERLAP_AUTO,   /* overlap unless upstream is live */
  GST_CUDA_SMOOTH_OVERLAP_ON,
  GST_CUDA_SMOOTH_OVERLAP_OFF,
} GstCudaSmoothOverlap;

GType gst_cuda_smooth_backend_get_type (void);
GType gst_cuda_smooth_overlap_get_type (void);

/* Parameters of any of the three filters, as the base class carries them per frame. */
typedef union
{
  CsEdgeAwareParams edgeaware;
  CsBilateralParams bilateral;
  CsRecursiveParams recursive;
} GstCudaSmoothParams;

struct _GstCudaSmoothFilterClass
{
  GstBaseTransformClass parent_class;

  /* Called with the object lock held: copies the current property values into params and
   * returns TRUE when they leave every frame unchanged (identity: pass through). */
  gboolean (*snapshot) (GstCudaSmoothFilter * self, GstCudaSmoothParams * params);

  /* The CPU path; 0 on success, −1 when memory runs out. */
  int (*filter_cpu) (const GstCudaSmoothParams * params, const CsImage * src, CsImage * dst,
      int n_threads, CsCpuWorkspace * ws);

  /* The subclass's properties, for gst_cuda_smooth_filter_set_field_property and
   * _get_field_property: field_offsets[prop_id] is the byte offset, from the start of the
   * instance, of the parameter behind property prop_id (a double, int or enum field, as
   * its GParamSpec says). */
  const gsize *field_offsets;
  guint n_field_offsets;
#ifdef HAVE_CUDA
  size_t (*cuda_scratch_bytes) (const GstCudaSmoothParams * params, int width, int height);
  cudaError_t (*filter_cuda) (const GstCudaSmoothParams * params, const CsCudaImage * src,
      const CsCudaImage * dst, const CsCudaDevice * dev, void *scratch, size_t scratch_bytes,
      cudaStream_t stream);
#endif
};

/* The caps every element accepts on both pads (system and, when built with CUDA, CUDA memory). */
GstCaps *gst_cuda_smooth_filter_template_caps (void);

/* For subclasses' class_init: installs the pad templates and the common metadata. */
void gst_cuda_smooth_filter_class_add_pad_templates (GstElementClass * klass);

/* set_property / get_property of a subclass whose properties are all parameter fields
 * listed in its class's field_offsets; they read and write under the object lock. */
void gst_cuda_smooth_filter_set_field_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec);
void gst_cuda_smooth_filter_get_field_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec);

/* TRUE once the element decided to run on the GPU (after start). */
gboolean gst_cuda_smooth_filter_uses_cuda (GstCudaSmoothFilter * self);

#define GST_CUDA_SMOOTH_PARAM_FLAGS \
  (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

G_END_DECLS

#endif /* __GST_CUDA_SMOOTH_FILTER_H__ */
