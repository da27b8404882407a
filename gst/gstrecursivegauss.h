/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef __GST_RECURSIVE_GAUSS_H__
#define __GST_RECURSIVE_GAUSS_H__

#include "gstcudasmoothfilter.h"

G_BEGIN_DECLS
#define GST_TYPE_RECURSIVE_GAUSS (gst_recursive_gauss_get_type ())
G_DECLARE_FINAL_TYPE (GstRecursiveGauss, gst_recursive_gauss, GST, RECURSIVE_GAUSS, GstCudaSmoothFilter);
GST_ELEMENT_REGISTER_DECLARE (recursivegauss);
G_END_DECLS

#endif
