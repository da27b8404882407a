/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef __GST_BILATERAL_H__
#define __GST_BILATERAL_H__

#include "gstcudasmoothfilter.h"

G_BEGIN_DECLS
#define GST_TYPE_BILATERAL (gst_bilateral_get_type ())
G_DECLARE_FINAL_TYPE (GstBilateral, gst_bilateral, GST, BILATERAL, GstCudaSmoothFilter);
GST_ELEMENT_REGISTER_DECLARE (bilateral);
G_END_DECLS

#endif
