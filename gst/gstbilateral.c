/* bilateral — exact bilateral filter (and a separable approximation).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-bilateral
 * @title: bilateral
 *
 * Smooths noise while keeping edges (C. Tomasi and R. Manduchi, "Bilateral filtering for
 * gray and color images", ICCV 1998): every output pixel is the average of its
 * (2·radius+1)² neighbourhood weighted by a Gaussian of the distance in pixels (`sigma`)
 * times a range kernel of the colour difference (`sigma-r`, Euclidean over R, G, B in
 * 0..255 units): Gaussian exp(−d²/2σr²) or Lorentzian 1/(1 + d²/2σr²). `mode=exact`
 * evaluates the full window; `mode=separable` filters rows then columns, much cheaper at
 * large radius but an approximation. Borders clamp to the edge. RGB formats, GRAY8 and YUV
 * (NV12, NV21, I420, YV12, Y444, YUY2, UYVY: luma, and U with V at chroma size; `chroma=copy`
 * filters luma only). Runs on an NVIDIA GPU (system or CUDA memory) or on all CPU cores;
 * within 1 LSB of a double-precision reference either way.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw,format=YUY2 ! bilateral sigma=1.5 sigma-r=25 radius=3 ! videoconvert ! autovideosink
 * ]| Webcam denoising on the camera's YUY2: radius 2..4, sigma-r about twice the noise.
 * |[
 * gst-launch-1.0 filesrc location=movie.mp4 ! qtdemux ! h264parse ! nvh264dec ! bilateral sigma=2 sigma-r=30 ! cudadownload ! videoconvert ! autovideosink
 * ]| NVDEC's NV12 filtered in CUDA memory, no copy in between.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! cudaupload ! bilateral sigma=2 sigma-r=30 ! cudadownload ! videoconvert ! autovideosink
 * ]| The same in CUDA memory, with no host copies inside the filter.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbilateral.h"

#include "cs_cpu.h"

struct _GstBilateral
{
  GstCudaSmoothFilter parent;
  CsBilateralParams params;   /* under the object lock */
};

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_SIGMA_R,
  PROP_RADIUS,
  PROP_RANGE_KERNEL,
  PROP_MODE,
  N_PROPS,
};

GST_DEBUG_CATEGORY_STATIC (gst_bilateral_debug);
#define GST_CAT_DEFAULT gst_bilateral_debug

G_DEFINE_TYPE_WITH_CODE (GstBilateral, gst_bilateral, GST_TYPE_CUDA_SMOOTH_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_bilateral_debug, "bilateral", 0, "bilateral element"));
GST_ELEMENT_REGISTER_DEFINE (bilateral, "bilateral", GST_RANK_NONE, GST_TYPE_BILATERAL);

static GType
range_kernel_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CS_RANGE_KERNEL_GAUSSIAN, "Gaussian exp(-d^2/(2 sigma-r^2))", "gaussian"},
    {CS_RANGE_KERNEL_LORENTZIAN, "Lorentzian 1/(1 + d^2/(2 sigma-r^2))", "lorentzian"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstBilateralRangeKernel", values));
  return type;
}

static GType
mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CS_BILATERAL_EXACT, "Full (2r+1)^2 window", "exact"},
    {CS_BILATERAL_SEPARABLE, "Rows then columns (approximation, faster at large radius)", "separable"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstBilateralMode", values));
  return type;
}

static void
get_params (GstCudaSmoothFilter * filter, gpointer params)
{
  *(CsBilateralParams *) params = GST_BILATERAL (filter)->params;
}

static gboolean
is_identity (gconstpointer params)
{
  return cs_bilateral_is_identity (params);
}

static void
subsample_params (gconstpointer params, int s, gpointer out)
{
  *(CsBilateralParams *) out = cs_bilateral_params_subsampled (params, s);
}

static int
filter_cpu (gconstpointer params, const CsImage * src, CsImage * dst, int n_threads, CsCpuWorkspace * ws)
{
  return cs_cpu_bilateral (src, dst, params, n_threads, ws);
}

/* view by view */
static int
filter_cpu_views (GstCudaSmoothCpuView * views, int n, int n_threads, CsCpuWorkspace * ws)
{
  for (int i = 0; i < n; i++) {
    const CsBilateralParams px = cs_bilateral_params_subsampled (views[i].params, views[i].sx),
        py = cs_bilateral_params_subsampled (views[i].params, views[i].sy);
    if (cs_cpu_bilateral_channels (&views[i].src, &views[i].dst, &px, &py, n_threads, ws) != 0)
      return -1;
  }
  return 0;
}

static size_t
cpu_workspace_bytes (gconstpointer params, int width, int height, int n_threads)
{
  return cs_cpu_bilateral_workspace_bytes (params, width, height, n_threads);
}

#ifdef HAVE_CUDA
static cudaError_t
cuda_plan_new (gconstpointer params, int sx, int sy, int width, int height, const CsCudaDevice * dev,
    CsCudaPlan ** plan)
{
  const CsBilateralParams px = cs_bilateral_params_subsampled (params, sx), py = cs_bilateral_params_subsampled (params, sy);
  return cs_cuda_bilateral_plan_new_axes (&px, &py, width, height, dev, plan);
}
#endif

/* Properties are fields of the parameters (gst_cuda_smooth_filter_set_field_property);
 * every change is logged in the element's own category. */
static void
set_property (GObject * object, guint prop_id, const GValue * value, GParamSpec * pspec)
{
  gst_cuda_smooth_filter_set_field_property (object, prop_id, value, pspec);
  GST_DEBUG_OBJECT (object, "%s set", pspec->name);
}

/* Where each property lives (gst_cuda_smooth_filter_set_field_property). */
static const gsize field_offsets[N_PROPS] = {
  [PROP_SIGMA] = G_STRUCT_OFFSET (GstBilateral, params.sigma),
  [PROP_SIGMA_R] = G_STRUCT_OFFSET (GstBilateral, params.sigma_r),
  [PROP_RADIUS] = G_STRUCT_OFFSET (GstBilateral, params.radius),
  [PROP_RANGE_KERNEL] = G_STRUCT_OFFSET (GstBilateral, params.range_kernel),
  [PROP_MODE] = G_STRUCT_OFFSET (GstBilateral, params.mode),
};
G_STATIC_ASSERT (sizeof (CsRangeKernel) == sizeof (gint));   /* enum properties are stored as gint */
G_STATIC_ASSERT (sizeof (CsBilateralMode) == sizeof (gint));   /* enum properties are stored as gint */

static void
gst_bilateral_class_init (GstBilateralClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaSmoothFilterClass *filter_class = GST_CUDA_SMOOTH_FILTER_CLASS (klass);

  gobject_class->set_property = set_property;
  gobject_class->get_property = gst_cuda_smooth_filter_get_field_property;
  filter_class->field_offsets = field_offsets;
  filter_class->n_field_offsets = N_PROPS;

  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Spatial standard deviation, in pixels (0 = pass through)",
          CS_BILATERAL_SIGMA_MIN, CS_BILATERAL_SIGMA_MAX, CS_BILATERAL_SIGMA_DEFAULT,
          GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_SIGMA_R,
      g_param_spec_double ("sigma-r", "Sigma range",
          "Range standard deviation, in 0..255 colour units (Euclidean over R, G, B)",
          CS_BILATERAL_SIGMA_R_MIN, CS_BILATERAL_SIGMA_R_MAX, CS_BILATERAL_SIGMA_R_DEFAULT,
          GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_int ("radius", "Radius",
          "Window half-width in pixels; the window is (2*radius+1)^2 (0 = ceil(2*sigma))",
          CS_BILATERAL_RADIUS_MIN, CS_BILATERAL_RADIUS_MAX, CS_BILATERAL_RADIUS_DEFAULT,
          GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_RANGE_KERNEL,
      g_param_spec_enum ("range-kernel", "Range kernel", "Weight of a colour difference",
          range_kernel_get_type (), CS_RANGE_KERNEL_GAUSSIAN, GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode", "Exact filter or its separable approximation",
          mode_get_type (), CS_BILATERAL_EXACT, GST_CUDA_SMOOTH_PARAM_FLAGS));

  gst_element_class_set_static_metadata (element_class, "Bilateral filter",
      "Filter/Effect/Video", "Edge-preserving smoothing: exact bilateral filter with Gaussian "
      "or Lorentzian range weights (CUDA or multi-threaded CPU)", "gst-cudasmooth developers");
  gst_cuda_smooth_filter_class_add_pad_templates (element_class);
  gst_type_mark_as_plugin_api (range_kernel_get_type (), 0);
  gst_type_mark_as_plugin_api (mode_get_type (), 0);

  filter_class->params_size = sizeof (CsBilateralParams);
  filter_class->get_params = get_params;
  filter_class->is_identity = is_identity;
  filter_class->subsample_params = subsample_params;
  filter_class->filter_cpu = filter_cpu;
  filter_class->filter_cpu_views = filter_cpu_views;
  filter_class->cpu_workspace_bytes = cpu_workspace_bytes;
#ifdef HAVE_CUDA
  filter_class->cuda_plan_new = cuda_plan_new;
#endif
}

static void
gst_bilateral_init (GstBilateral * self)
{
  self->params = cs_bilateral_params_default ();
}
