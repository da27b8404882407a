/* gst-cudasmooth tests — whether the build runs under AddressSanitizer, for the few checks
 * it changes the ground of (RSS, address-space limits, plugins loaded by non-ASan programs).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CS_TEST_SANITIZER_H
#define CS_TEST_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define CS_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CS_TEST_UNDER_ASAN 1
#endif
#endif
#ifndef CS_TEST_UNDER_ASAN
#define CS_TEST_UNDER_ASAN 0
#endif

#endif
