/* gst-cudasmooth — the subclasses' properties, each one field of their parameter struct.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmoothfilter.h"

/* The parameter field behind a subclass property, or NULL when the class lists none. */
static gpointer
field_of (GObject * object, guint prop_id)
{
  GstCudaSmoothFilterClass *klass = GST_CUDA_SMOOTH_FILTER_GET_CLASS (object);
  if (prop_id == 0 || prop_id >= klass->n_field_offsets || klass->field_offsets[prop_id] == 0)
    return NULL;
  return G_STRUCT_MEMBER_P (object, klass->field_offsets[prop_id]);
}

void
gst_cuda_smooth_filter_set_field_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  gpointer field = field_of (object, prop_id);
  if (field == NULL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  GST_OBJECT_LOCK (object);
  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
    case G_TYPE_DOUBLE:
      *(gdouble *) field = g_value_get_double (value);
      break;
    case G_TYPE_INT:
      *(gint *) field = g_value_get_int (value);
      break;
    case G_TYPE_ENUM:
      *(gint *) field = g_value_get_enum (value);
      break;
    default:
      g_assert_not_reached ();
  }
  GST_OBJECT_UNLOCK (object);
}

void
gst_cuda_smooth_filter_get_field_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  gpointer field = field_of (object, prop_id);
  if (field == NULL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  GST_OBJECT_LOCK (object);
  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
    case G_TYPE_DOUBLE:
      g_value_set_double (value, *(gdouble *) field);
      break;
    case G_TYPE_INT:
      g_value_set_int (value, *(gint *) field);
      break;
    case G_TYPE_ENUM:
      g_value_set_enum (value, *(gint *) field);
      break;
    default:
      g_assert_not_reached ();
  }
  GST_OBJECT_UNLOCK (object);
}
