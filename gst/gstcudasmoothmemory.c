/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcudasmoothmemory.h"

#include <sys/resource.h>
#include <unistd.h>

guint64
gst_cuda_smooth_memory_limit (guint64 mib, const gchar ** source)
{
  if (mib) {
    *source = "memory-limit";
    return mib << 20;
  }
  const long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
  guint64 limit = pages > 0 && page > 0 ? (guint64) pages * (guint64) page : G_MAXUINT64;
  *source = "half of the physical memory";
  const struct { int resource; const gchar *name; } limits[] = {
    { RLIMIT_AS, "half of the address-space limit (ulimit -v)" },
    { RLIMIT_DATA, "half of the data limit (ulimit -d)" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (limits); i++) {
    struct rlimit r;
    if (getrlimit (limits[i].resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY && (guint64) r.rlim_cur < limit) {
      limit = (guint64) r.rlim_cur;
      *source = limits[i].name;
    }
  }
  return limit / 2;
}
