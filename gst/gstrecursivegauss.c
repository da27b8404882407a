/* recursivegauss — recursive (IIR) Gaussian blur with lines split into partitions.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-recursivegauss
 * @title: recursivegauss
 *
 * Blurs with a Gaussian of standard deviation `sigma` at a cost independent of sigma: each
 * row, then each column, runs through a causal and an anticausal recursive filter.
 * `algorithm=deriche` (default): Deriche's fourth-order fit as two complex poles (R.
 * Deriche, "Recursively implementing the Gaussian and its derivatives", 1993), 65–72 dB
 * from the exact Gaussian. `algorithm=young-van-vliet`: I. T. Young and L. J. van Vliet
 * (1995) with the backward border of B. Triggs and M. Sdika (2006), the two-way paper's
 * method, 31–57 dB. For parallelism every line is cut into `blocks-per-stripe` partitions;
 * `partition-start` says how a partition gets the filter's state at its start: a warm-up of
 * kappa·sigma samples, or exact states carried along the line (deriche), or auto (carry past
 * a warm-up of 64 samples).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA,width=1280,height=720 ! recursivegauss sigma=8 ! videoconvert ! autovideosink
 * ]| Blur a test pattern.
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw,format=YUY2 ! recursivegauss sigma=12 ! videoconvert ! autovideosink
 * ]| The background-blur look on a webcam.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstrecursivegauss.h"

#include "cs_cpu.h"

struct _GstRecursiveGauss
{
  GstCudaSmoothFilter parent;
  CsRecursiveParams params;   /* under the object lock */
};

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_BLOCKS_PER_STRIPE,
  PROP_KAPPA,
  PROP_ALGORITHM,
  PROP_PARTITION_START,
  N_PROPS,
};

GST_DEBUG_CATEGORY_STATIC (gst_recursive_gauss_debug);
#define GST_CAT_DEFAULT gst_recursive_gauss_debug

G_DEFINE_TYPE_WITH_CODE (GstRecursiveGauss, gst_recursive_gauss, GST_TYPE_CUDA_SMOOTH_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_recursive_gauss_debug, "recursivegauss", 0, "recursivegauss element"));
GST_ELEMENT_REGISTER_DEFINE (recursivegauss, "recursivegauss", GST_RANK_NONE, GST_TYPE_RECURSIVE_GAUSS);

static GType
algorithm_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CS_RECURSIVE_DERICHE, "Deriche 4th order, complex poles (accurate)", "deriche"},
    {CS_RECURSIVE_YOUNG_VAN_VLIET, "Young-van Vliet 3rd order (the two-way paper's method)",
        "young-van-vliet"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstRecursiveGaussAlgorithm", values));
  return type;
}

static GType
partition_start_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CS_PARTITION_AUTO, "Carry past a warm-up of 64 samples, else warm up", "auto"},
    {CS_PARTITION_WARM_UP, "Warm up over kappa*sigma samples (the two-way paper's way)", "warm-up"},
    {CS_PARTITION_CARRY, "Exact start states carried along the line (deriche)", "carry"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstRecursiveGaussPartitionStart", values));
  return type;
}

static void
get_params (GstCudaSmoothFilter * filter, gpointer params)
{
  *(CsRecursiveParams *) params = GST_RECURSIVE_GAUSS (filter)->params;
}

static gboolean
is_identity (gconstpointer params)
{
  return cs_recursive_is_identity (params);
}

static void
subsample_params (gconstpointer params, int s, gpointer out)
{
  *(CsRecursiveParams *) out = cs_recursive_params_subsampled (params, s);
}

static int
filter_cpu (gconstpointer params, const CsImage * src, CsImage * dst, int n_threads, CsCpuWorkspace * ws)
{
  return cs_cpu_recursive (src, dst, params, n_threads, ws);
}

/* all views in the same parallel loops */
static int
filter_cpu_views (GstCudaSmoothCpuView * views, int n, int n_threads, CsCpuWorkspace * ws)
{
  CsChannels src[CS_CPU_MAX_VIEWS], dst[CS_CPU_MAX_VIEWS];
  CsRecursiveParams px[CS_CPU_MAX_VIEWS], py[CS_CPU_MAX_VIEWS];
  if (n > CS_CPU_MAX_VIEWS)
    return -1;
  for (int i = 0; i < n; i++) {
    src[i] = views[i].src;
    dst[i] = views[i].dst;
    px[i] = cs_recursive_params_subsampled (views[i].params, views[i].sx);
    py[i] = cs_recursive_params_subsampled (views[i].params, views[i].sy);
  }
  return cs_cpu_recursive_views (n, src, dst, px, py, n_threads, ws);
}

static size_t
cpu_workspace_bytes (gconstpointer params, int width, int height, int n_threads)
{
  return cs_cpu_recursive_workspace_bytes (params, width, height, n_threads);
}

#ifdef HAVE_CUDA
static cudaError_t
cuda_plan_new (gconstpointer params, int sx, int sy, int width, int height, const CsCudaDevice * dev,
    CsCudaPlan ** plan)
{
  const CsRecursiveParams px = cs_recursive_params_subsampled (params, sx), py = cs_recursive_params_subsampled (params, sy);
  return cs_cuda_recursive_plan_new_axes (&px, &py, width, height, dev, plan);
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
  [PROP_SIGMA] = G_STRUCT_OFFSET (GstRecursiveGauss, params.sigma),
  [PROP_BLOCKS_PER_STRIPE] = G_STRUCT_OFFSET (GstRecursiveGauss, params.blocks_per_stripe),
  [PROP_KAPPA] = G_STRUCT_OFFSET (GstRecursiveGauss, params.kappa),
  [PROP_ALGORITHM] = G_STRUCT_OFFSET (GstRecursiveGauss, params.algorithm),
  [PROP_PARTITION_START] = G_STRUCT_OFFSET (GstRecursiveGauss, params.partition_start),
};
/* enum properties are stored as gint */
G_STATIC_ASSERT (sizeof (CsRecursiveAlgorithm) == sizeof (gint));
G_STATIC_ASSERT (sizeof (CsPartitionStart) == sizeof (gint));

static void
gst_recursive_gauss_class_init (GstRecursiveGaussClass * klass)
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
          "Standard deviation of the Gaussian, in pixels (0 = pass through)",
          CS_RECURSIVE_SIGMA_MIN, CS_RECURSIVE_SIGMA_MAX, CS_RECURSIVE_SIGMA_DEFAULT,
          GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_BLOCKS_PER_STRIPE,
      g_param_spec_int ("blocks-per-stripe", "Blocks per stripe",
          "Partitions each row and column is cut into for parallel filtering "
          "(0 = chosen from the frame size and the GPU; the CPU path uses 1)",
          0, CS_BLOCKS_PER_STRIPE_MAX, 0, GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_KAPPA,
      g_param_spec_double ("kappa", "Kappa",
          "Warm-up of a partition before and after itself, in units of sigma (pixels = "
          "ceil(kappa*sigma)); larger is closer to the unpartitioned result. Used where "
          "partitions warm up (partition-start), and by auto to choose",
          CS_RECURSIVE_KAPPA_MIN, CS_RECURSIVE_KAPPA_MAX, CS_RECURSIVE_KAPPA_DEFAULT,
          GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_ALGORITHM,
      g_param_spec_enum ("algorithm", "Algorithm", "Recursive approximation of the Gaussian",
          algorithm_get_type (), CS_RECURSIVE_DERICHE, GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_PARTITION_START,
      g_param_spec_enum ("partition-start", "Partition start",
          "How a partition of a line gets the filter's state at its start: a warm-up of "
          "kappa*sigma samples, or exact states carried along the line (deriche only; "
          "young-van-vliet always warms up)",
          partition_start_get_type (), CS_PARTITION_AUTO, GST_CUDA_SMOOTH_PARAM_FLAGS));

  gst_element_class_set_static_metadata (element_class, "Recursive Gaussian blur",
      "Filter/Effect/Video", "Gaussian blur at a cost independent of sigma (recursive IIR "
      "filters, CUDA or multi-threaded CPU)", "gst-cudasmooth developers");
  gst_cuda_smooth_filter_class_add_pad_templates (element_class);
  gst_type_mark_as_plugin_api (algorithm_get_type (), 0);
  gst_type_mark_as_plugin_api (partition_start_get_type (), 0);

  filter_class->params_size = sizeof (CsRecursiveParams);
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
gst_recursive_gauss_init (GstRecursiveGauss * self)
{
  self->params = cs_recursive_params_default ();
}
