/* gst-cudasmooth tests — run one Check suite and turn its result into an exit status.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_TEST_CHECK_H
#define CS_TEST_CHECK_H

#include <check.h>

static inline int cs_test_run_suite (Suite *s)
{
  SRunner *r = srunner_create (s);
  srunner_run_all (r, CK_NORMAL);
  const int failed = srunner_ntests_failed (r);
  srunner_free (r);
  return failed ? 1 : 0;
}

#endif
