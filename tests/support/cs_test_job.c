/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_test_job.h"

#include "cs_reference.h"

int cs_test_job_reference (const CsTestJob *j, const CsImage *src, CsImage *dst)
{
  switch (j->filter) {
    case CS_TEST_EDGEAWARE: return cs_ref_edgeaware (src, dst, &j->ea);
    case CS_TEST_BILATERAL: return cs_ref_bilateral (src, dst, &j->bl);
    default: return cs_ref_recursive (src, dst, &j->rc);
  }
}
