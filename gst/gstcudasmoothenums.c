/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcudasmoothenums.h"

GType
gst_cuda_smooth_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SMOOTH_BACKEND_AUTO, "CUDA when a usable device exists, else the CPU (with a warning saying why)",
        "auto"},
    {GST_CUDA_SMOOTH_BACKEND_CUDA, "CUDA only (an error saying why where it cannot run)", "cuda"},
    {GST_CUDA_SMOOTH_BACKEND_CPU, "Multi-threaded CPU path", "cpu"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaSmoothBackend", values));
  return type;
}

GType
gst_cuda_smooth_active_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SMOOTH_ACTIVE_NONE, "Not started", "none"},
    {GST_CUDA_SMOOTH_ACTIVE_CUDA, "The CUDA kernels", "cuda"},
    {GST_CUDA_SMOOTH_ACTIVE_CPU, "The multi-threaded CPU path", "cpu"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaSmoothActiveBackend", values));
  return type;
}

GType
gst_cuda_smooth_overlap_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SMOOTH_OVERLAP_AUTO, "Overlap unless upstream is live", "auto"},
    {GST_CUDA_SMOOTH_OVERLAP_ON, "Always hold two frames to overlap transfers and kernels", "on"},
    {GST_CUDA_SMOOTH_OVERLAP_OFF, "Never hold a frame (no added latency)", "off"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaSmoothOverlap", values));
  return type;
}

GType
gst_cuda_smooth_chroma_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SMOOTH_CHROMA_FILTER, "Filter U and V together at chroma size", "filter"},
    {GST_CUDA_SMOOTH_CHROMA_COPY, "Filter luma only, copy U and V", "copy"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaSmoothChroma", values));
  return type;
}
