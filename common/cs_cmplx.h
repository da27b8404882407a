/* gst-cudasmooth — <complex.h> with CMPLX, which glibc defines for GCC only (internal).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_CMPLX_H
#define CS_CMPLX_H

#include <complex.h>

#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex ((double) (x), (double) (y))
#endif

#endif /* CS_CMPLX_H */
