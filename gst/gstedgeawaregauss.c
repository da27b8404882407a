/* edgeawaregauss — edge-aware Gaussian by domain transform and recursive filtering.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-edgeawaregauss
 * @title: edgeawaregauss
 *
 * Smooths within regions and stops at edges, at a cost independent of sigma. Each row
 * (then each column) is mapped isometrically to a line whose sample spacing grows with the
 * colour step, Δt = sqrt(1 + (σs/σr)² |ΔI|²) (E. Gastal and M. Oliveira, "Domain transform
 * for edge-aware image and video processing", SIGGRAPH 2011), and a Gaussian runs along it
 * as Deriche's complex-pole recursive filter on the non-uniform grid (Gastal and Oliveira,
 * "High-order recursive filtering of non-uniformly sampled signals", CGF 2015).
 * `iterations` horizontal+vertical pairs with decreasing σ_i remove the stripes one pair
 * leaves. Every line is cut into `blocks-per-stripe` blocks whose starting state is
 * approximated by running the recursion over κ·σ_i of transformed distance before the block
 * (H. Ferreira, E. Gastal, L. Schnorr, P. Navaux, "Performance and error analysis of
 * recursive edge-aware Gaussian filters on GPUs"); the error shrinks as e^(−1.72κ).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=RGBA ! edgeawaregauss sigma=20 sigma-r=40 ! videoconvert ! autovideosink
 * ]| Smoothing that keeps outlines.
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw,format=YUY2 ! edgeawaregauss sigma=15 sigma-r=30 ! videoconvert ! autovideosink
 * ]| A cartoon-like webcam.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstedgeawaregauss.h"

#include "cs_cpu.h"

struct _GstEdgeAwareGauss
{
  GstCudaSmoothFilter parent;
  CsEdgeAwareParams params;   /* under the object lock */
};

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_SIGMA_R,
  PROP_ITERATIONS,
  PROP_KAPPA,
  PROP_BLOCKS_PER_STRIPE,
  N_PROPS,
};

GST_DEBUG_CATEGORY_STATIC (gst_edge_aware_gauss_debug);
#define GST_CAT_DEFAULT gst_edge_aware_gauss_debug

G_DEFINE_TYPE_WITH_CODE (GstEdgeAwareGauss, gst_edge_aware_gauss, GST_TYPE_CUDA_SMOOTH_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_edge_aware_gauss_debug, "edgeawaregauss", 0, "edgeawaregauss element"));
GST_ELEMENT_REGISTER_DEFINE (edgeawaregauss, "edgeawaregauss", GST_RANK_NONE, GST_TYPE_EDGE_AWARE_GAUSS);

static void
get_params (GstCudaSmoothFilter * filter, gpointer params)
{
  *(CsEdgeAwareParams *) params = GST_EDGE_AWARE_GAUSS (filter)->params;
}

static gboolean
is_identity (gconstpointer params)
{
  return cs_edgeaware_is_identity (params);
}

static void
subsample_params (gconstpointer params, int s, gpointer out)
{
  *(CsEdgeAwareParams *) out = cs_edgeaware_params_subsampled (params, s);
}

static int
filter_cpu (gconstpointer params, const CsImage * src, CsImage * dst, int n_threads, CsCpuWorkspace * ws)
{
  return cs_cpu_edgeaware (src, dst, params, n_threads, ws);
}

/* all views in the same parallel loops */
static int
filter_cpu_views (GstCudaSmoothCpuView * views, int n, int n_threads, CsCpuWorkspace * ws)
{
  CsChannels src[CS_CPU_MAX_VIEWS], dst[CS_CPU_MAX_VIEWS];
  CsEdgeAwareParams px[CS_CPU_MAX_VIEWS], py[CS_CPU_MAX_VIEWS];
  if (n > CS_CPU_MAX_VIEWS)
    return -1;
  for (int i = 0; i < n; i++) {
    src[i] = views[i].src;
    dst[i] = views[i].dst;
    px[i] = cs_edgeaware_params_subsampled (views[i].params, views[i].sx);
    py[i] = cs_edgeaware_params_subsampled (views[i].params, views[i].sy);
  }
  return cs_cpu_edgeaware_views (n, src, dst, px, py, n_threads, ws);
}

static size_t
cpu_workspace_bytes (gconstpointer params, int width, int height, int n_threads)
{
  return cs_cpu_edgeaware_workspace_bytes (params, width, height, n_threads);
}

#ifdef HAVE_CUDA
static cudaError_t
cuda_plan_new (gconstpointer params, int sx, int sy, int width, int height, const CsCudaDevice * dev,
    CsCudaPlan ** plan)
{
  const CsEdgeAwareParams px = cs_edgeaware_params_subsampled (params, sx), py = cs_edgeaware_params_subsampled (params, sy);
  return cs_cuda_edgeaware_plan_new_axes (&px, &py, width, height, dev, plan);
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
  [PROP_SIGMA] = G_STRUCT_OFFSET (GstEdgeAwareGauss, params.sigma),
  [PROP_SIGMA_R] = G_STRUCT_OFFSET (GstEdgeAwareGauss, params.sigma_r),
  [PROP_ITERATIONS] = G_STRUCT_OFFSET (GstEdgeAwareGauss, params.iterations),
  [PROP_KAPPA] = G_STRUCT_OFFSET (GstEdgeAwareGauss, params.kappa),
  [PROP_BLOCKS_PER_STRIPE] = G_STRUCT_OFFSET (GstEdgeAwareGauss, params.blocks_per_stripe),
};

static void
gst_edge_aware_gauss_class_init (GstEdgeAwareGaussClass * klass)
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
          CS_EDGEAWARE_SIGMA_MIN, CS_EDGEAWARE_SIGMA_MAX, CS_EDGEAWARE_SIGMA_DEFAULT,
          GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_SIGMA_R,
      g_param_spec_double ("sigma-r", "Sigma range",
          "Range standard deviation, in 0..255 colour units: colour steps well above it "
          "are kept as edges (very large = plain Gaussian)",
          CS_EDGEAWARE_SIGMA_R_MIN, CS_EDGEAWARE_SIGMA_R_MAX, CS_EDGEAWARE_SIGMA_R_DEFAULT,
          GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_ITERATIONS,
      g_param_spec_int ("iterations", "Iterations",
          "Horizontal+vertical pass pairs, with sigma_i = sigma*sqrt(3)*2^(N-i)/sqrt(4^N-1)",
          CS_EDGEAWARE_ITERATIONS_MIN, CS_EDGEAWARE_ITERATIONS_MAX, CS_EDGEAWARE_ITERATIONS_DEFAULT,
          GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_KAPPA,
      g_param_spec_double ("kappa", "Kappa",
          "Warm-up of a block, in units of sigma_i of transformed distance "
          "(0 = none; error shrinks as exp(-1.72*kappa))",
          CS_EDGEAWARE_KAPPA_MIN, CS_EDGEAWARE_KAPPA_MAX, CS_EDGEAWARE_KAPPA_DEFAULT,
          GST_CUDA_SMOOTH_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_BLOCKS_PER_STRIPE,
      g_param_spec_int ("blocks-per-stripe", "Blocks per stripe",
          "Blocks each row and column is cut into (1 = Algorithm A, exact; 0 = chosen from "
          "the frame size and the GPU's SM count; the CPU path uses 1 for 0)",
          0, CS_BLOCKS_PER_STRIPE_MAX, 0, GST_CUDA_SMOOTH_PARAM_FLAGS));

  gst_element_class_set_static_metadata (element_class, "Edge-aware Gaussian",
      "Filter/Effect/Video", "Edge-preserving Gaussian smoothing by domain transform and "
      "complex-pole recursive filtering (CUDA or multi-threaded CPU)", "gst-cudasmooth developers");
  gst_cuda_smooth_filter_class_add_pad_templates (element_class);

  filter_class->params_size = sizeof (CsEdgeAwareParams);
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
gst_edge_aware_gauss_init (GstEdgeAwareGauss * self)
{
  self->params = cs_edgeaware_params_default ();
}
