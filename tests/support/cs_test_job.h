/* gst-cudasmooth tests — one filter and its parameters, as the suites pass them around.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_TEST_JOB_H
#define CS_TEST_JOB_H

#include "cs_image.h"
#include "cs_params.h"

typedef enum {
  CS_TEST_EDGEAWARE,
  CS_TEST_BILATERAL,
  CS_TEST_RECURSIVE
} CsTestFilter;

/* Only the parameters of `filter` are read. */
typedef struct {
  CsTestFilter filter;
  CsEdgeAwareParams ea;
  CsBilateralParams bl;
  CsRecursiveParams rc;
} CsTestJob;

/* The double-precision reference of the job's filter (common/cs_reference.h); 0 on success. */
int cs_test_job_reference (const CsTestJob *j, const CsImage *src, CsImage *dst);

#endif /* CS_TEST_JOB_H */
