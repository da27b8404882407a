/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cs_params.h"

#include <math.h>

CsEdgeAwareParams cs_edgeaware_params_default (void)
{
  CsEdgeAwareParams p = {
    .sigma = CS_EDGEAWARE_SIGMA_DEFAULT,
    .sigma_r = CS_EDGEAWARE_SIGMA_R_DEFAULT,
    .iterations = CS_EDGEAWARE_ITERATIONS_DEFAULT,
    .kappa = CS_EDGEAWARE_KAPPA_DEFAULT,
    .blocks_per_stripe = 0,
  };
  return p;
}

CsBilateralParams cs_bilateral_params_default (void)
{
  CsBilateralParams p = {
    .sigma = CS_BILATERAL_SIGMA_DEFAULT,
    .sigma_r = CS_BILATERAL_SIGMA_R_DEFAULT,
    .radius = CS_BILATERAL_RADIUS_DEFAULT,
    .range_kernel = CS_RANGE_KERNEL_GAUSSIAN,
    .mode = CS_BILATERAL_EXACT,
  };
  return p;
}

CsRecursiveParams cs_recursive_params_default (void)
{
  CsRecursiveParams p = {
    .sigma = CS_RECURSIVE_SIGMA_DEFAULT,
    .blocks_per_stripe = 0,
    .kappa = CS_RECURSIVE_KAPPA_DEFAULT,
    .algorithm = CS_RECURSIVE_DERICHE,
    .partition_start = CS_PARTITION_AUTO,
  };
  return p;
}

static bool in_range (double v, double lo, double hi)
{
  return isfinite (v) && v >= lo && v <= hi;
}

const char *cs_edgeaware_params_check (const CsEdgeAwareParams *p)
{
  if (!in_range (p->sigma, CS_EDGEAWARE_SIGMA_MIN, CS_EDGEAWARE_SIGMA_MAX))
    return "sigma is outside 0..2000";
  if (!in_range (p->sigma_r, CS_EDGEAWARE_SIGMA_R_MIN, CS_EDGEAWARE_SIGMA_R_MAX))
    return "sigma-r is outside 0.01..1e6";
  if (p->iterations < CS_EDGEAWARE_ITERATIONS_MIN || p->iterations > CS_EDGEAWARE_ITERATIONS_MAX)
    return "iterations is outside 1..8";
  if (!in_range (p->kappa, CS_EDGEAWARE_KAPPA_MIN, CS_EDGEAWARE_KAPPA_MAX))
    return "kappa is outside 0..10";
  if (p->blocks_per_stripe < 0 || p->blocks_per_stripe > CS_BLOCKS_PER_STRIPE_MAX)
    return "blocks-per-stripe is outside 0..1024";
  return 0;
}

const char *cs_bilateral_params_check (const CsBilateralParams *p)
{
  if (!in_range (p->sigma, CS_BILATERAL_SIGMA_MIN, CS_BILATERAL_SIGMA_MAX))
    return "sigma is outside 0..32";
  if (!in_range (p->sigma_r, CS_BILATERAL_SIGMA_R_MIN, CS_BILATERAL_SIGMA_R_MAX))
    return "sigma-r is outside 0.01..1e6";
  if (p->radius < CS_BILATERAL_RADIUS_MIN || p->radius > CS_BILATERAL_RADIUS_MAX)
    return "radius is outside 0..64";
  if (p->range_kernel != CS_RANGE_KERNEL_GAUSSIAN && p->range_kernel != CS_RANGE_KERNEL_LORENTZIAN)
    return "unknown range kernel";
  if (p->mode != CS_BILATERAL_EXACT && p->mode != CS_BILATERAL_SEPARABLE)
    return "unknown mode";
  return 0;
}

const char *cs_recursive_params_check (const CsRecursiveParams *p)
{
  if (!in_range (p->sigma, CS_RECURSIVE_SIGMA_MIN, CS_RECURSIVE_SIGMA_MAX))
    return "sigma is outside 0..500";
  if (p->blocks_per_stripe < 0 || p->blocks_per_stripe > CS_BLOCKS_PER_STRIPE_MAX)
    return "blocks-per-stripe is outside 0..1024";
  if (!in_range (p->kappa, CS_RECURSIVE_KAPPA_MIN, CS_RECURSIVE_KAPPA_MAX))
    return "kappa is outside 0..20";
  if (p->algorithm != CS_RECURSIVE_DERICHE && p->algorithm != CS_RECURSIVE_YOUNG_VAN_VLIET)
    return "unknown algorithm";
  if (p->partition_start != CS_PARTITION_AUTO && p->partition_start != CS_PARTITION_WARM_UP
      && p->partition_start != CS_PARTITION_CARRY)
    return "unknown partition start";
  return 0;
}

bool cs_edgeaware_is_identity (const CsEdgeAwareParams *p)
{
  return p->sigma < CS_SIGMA_IDENTITY_BELOW;
}

bool cs_bilateral_is_identity (const CsBilateralParams *p)
{
  return p->sigma < CS_SIGMA_IDENTITY_BELOW;
}

bool cs_recursive_is_identity (const CsRecursiveParams *p)
{
  return p->algorithm == CS_RECURSIVE_YOUNG_VAN_VLIET ? p->sigma == 0.0 : p->sigma < CS_SIGMA_IDENTITY_BELOW;
}

bool cs_recursive_carries (const CsRecursiveParams *p)
{
  if (p->algorithm != CS_RECURSIVE_DERICHE)
    return false;
  if (p->partition_start == CS_PARTITION_AUTO)
    return ceil (p->kappa * p->sigma) > CS_PARTITION_CARRY_FROM_WARMUP;
  return p->partition_start == CS_PARTITION_CARRY;
}

double cs_edgeaware_iteration_sigma (const CsEdgeAwareParams *p, int i)
{
  const int n = p->iterations;
  return p->sigma * sqrt (3.0) * ldexp (1.0, n - i) / sqrt (ldexp (1.0, 2 * n) - 1.0);
}

int cs_bilateral_effective_radius (const CsBilateralParams *p)
{
  int r = p->radius;
  if (r == 0)
    r = (int) ceil (2.0 * p->sigma);
  if (r > CS_BILATERAL_RADIUS_MAX)
    r = CS_BILATERAL_RADIUS_MAX;
  return r;
}

CsEdgeAwareParams cs_edgeaware_params_subsampled (const CsEdgeAwareParams *p, int s)
{
  CsEdgeAwareParams q = *p;
  q.sigma = p->sigma / s;
  return q;
}

CsBilateralParams cs_bilateral_params_subsampled (const CsBilateralParams *p, int s)
{
  CsBilateralParams q = *p;
  const int r = cs_bilateral_effective_radius (p);
  q.sigma = p->sigma / s;
  q.radius = (r + s - 1) / s;
  return q;
}

CsRecursiveParams cs_recursive_params_subsampled (const CsRecursiveParams *p, int s)
{
  CsRecursiveParams q = *p;
  q.sigma = p->sigma / s;
  return q;
}
