/* gst-cudasmooth — the planners' tuning table (cs_policy.cuh).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cs_policy.cuh"

namespace cs {

/* Newest first. Only Hopper has been measured; the older architectures run its per-SM
 * figures, which their queried limits (SM count, shared memory) scale, until a card of
 * theirs is measured the same way (docs/performance.md, "Tuning"). */
static const Policy kPolicies[] = {
  {
    90, "H100 80GB HBM3, cs-bench-kernels --only pass-sweep / sweep, 2026-11 (docs/performance.md)",
    /* recursivegauss: rows stage tiles and run 16 warps per SM; columns are direct and take
     * more sweeps to fill */
    500.0, 1200.0, 16,
    /* edgeawaregauss: rows as recursivegauss; columns whose halves meet at the middle */
    500.0, 250.0, 32,
    /* row pass fastest at about 8 warps per SM (1080p 16 segments, 2048² 8, 4K 6–8) */
    4,
    /* three blocks 7–8 % faster at 4K (2040 tiles, 5.2 waves), two 5–8 % at 1080p (1.3 waves);
     * fewer waves decide below that (H200: an NV12 4K chroma plane's 340 blocks, one wave of
     * three or two of two, 0.0297 against 0.0332 ms) */
    4,
    /* 16-row strips at 4K (1.98 fills of 8-row strips), 8 at 1080p */
    3,
  },
  {
    75, "no card of these architectures measured: Hopper's per-SM figures",
    500.0, 1200.0, 16,
    500.0, 250.0, 32,
    4,
    4,
    3,
  },
};

const Policy &policy_for (const CsCudaDevice &dev)
{
  const int cc = 10 * dev.cc_major + dev.cc_minor;
  for (const Policy &p : kPolicies)
    if (cc >= p.cc)
      return p;
  return kPolicies[sizeof kPolicies / sizeof kPolicies[0] - 1];
}

}  // namespace cs
