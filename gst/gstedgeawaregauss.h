/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef __GST_EDGE_AWARE_GAUSS_H__
#define __GST_EDGE_AWARE_GAUSS_H__

#include "gstcudasmoothfilter.h"

G_BEGIN_DECLS
#define GST_TYPE_EDGE_AWARE_GAUSS (gst_edge_aware_gauss_get_type ())
G_DECLARE_FINAL_TYPE (GstEdgeAwareGauss, gst_edge_aware_gauss, GST, EDGE_AWARE_GAUSS, GstCudaSmoothFilter);
GST_ELEMENT_REGISTER_DECLARE (edgeawaregauss);
G_END_DECLS

#endif
