/* gst-cudasmooth — the abstract base class of the three filters.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The element plumbing the filters share: caps in system and CUDA memory, the backend
 * choice and what it tells the application, allocation, events, queries, QoS and the
 * memory limit. The frame work is delegated: to the CPU executor (gstcudasmoothcpu.h) or
 * to the GPU executor (gstcudasmoothgpu.h), with the frames in flight in a queue
 * (gstcudasmoothqueue.h). A subclass owns its parameters and hands the base what runs them:
 * a CPU filter and a CUDA plan factory.
 */
#ifndef __GST_CUDA_SMOOTH_FILTER_H__
#define __GST_CUDA_SMOOTH_FILTER_H__

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cs_cpu.h"
#include "gstcudasmoothcpu.h"
#include "gstcudasmoothenums.h"

#ifdef HAVE_CUDA
#include "cs_cuda.h"
#endif

G_BEGIN_DECLS

#define GST_TYPE_CUDA_SMOOTH_FILTER (gst_cuda_smooth_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaSmoothFilter, gst_cuda_smooth_filter, GST, CUDA_SMOOTH_FILTER,
    GstBaseTransform);

struct _GstCudaSmoothFilterClass
{
  GstBaseTransformClass parent_class;

  /* The subclass's parameters, a struct of params_size bytes (a CsXxxParams). */
  gsize params_size;

  /* Called with the object lock held: copies the current parameters into params. */
  void (*get_params) (GstCudaSmoothFilter * self, gpointer params);

  /* TRUE when params leave every frame unchanged (the element passes buffers through). */
  gboolean (*is_identity) (gconstpointer params);

  /* The parameters of a plane whose samples lie s luma pixels apart on both axes: YUV
   * chroma (cs_*_params_subsampled). */
  void (*subsample_params) (gconstpointer params, int s, gpointer out);

  /* The CPU path (common/cs_cpu.h): the filter on RGBA pictures, and the workspace it takes
   * (the most any picture of the frame's size takes). */
  int (*filter_cpu) (gconstpointer params, const CsImage * src, CsImage * dst, int n_threads,
      CsCpuWorkspace * ws);
  /* The same on a frame's views of 1–3 channels (GRAY8, and YUV luma and chroma) whose
   * samples lie sx and sy luma pixels apart (1, or 2 for chroma: cs_*_params_subsampled per
   * axis; GstCudaSmoothCpuView). */
  GstCudaSmoothCpuViewsFunc filter_cpu_views;
  size_t (*cpu_workspace_bytes) (gconstpointer params, int width, int height, int n_threads);

  /* The subclass's properties, for gst_cuda_smooth_filter_set_field_property and
   * _get_field_property: field_offsets[prop_id] is the byte offset, from the start of the
   * instance, of the parameter behind property prop_id (a double, int or enum field, as
   * its GParamSpec says). */
  const gsize *field_offsets;
  guint n_field_offsets;

#ifdef HAVE_CUDA
  /* The GPU path: a plan for params and width x height pictures whose samples lie sx and sy
   * luma pixels apart on dev (cs_cuda.h). */
  cudaError_t (*cuda_plan_new) (gconstpointer params, int sx, int sy, int width, int height,
      const CsCudaDevice * dev, CsCudaPlan ** plan);
#endif
};

/* The caps every element accepts on both pads (system and, when built with CUDA, CUDA memory). */
GstCaps *gst_cuda_smooth_filter_template_caps (void);

/* For subclasses' class_init: installs the pad templates. */
void gst_cuda_smooth_filter_class_add_pad_templates (GstElementClass * klass);

/* set_property / get_property of a subclass whose properties are all parameter fields
 * listed in its class's field_offsets; they read and write under the object lock. */
void gst_cuda_smooth_filter_set_field_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec);
void gst_cuda_smooth_filter_get_field_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec);

#define GST_CUDA_SMOOTH_PARAM_FLAGS \
  (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

/* The largest frame side the filters take (their caps say so). */
#define GST_CUDA_SMOOTH_MAX_SIDE 32768

G_END_DECLS

#endif /* __GST_CUDA_SMOOTH_FILTER_H__ */
