/* cs-bench-kernels — the filters' cases (cases.cuh).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cases.cuh"

static CsCudaPlan *edgeaware_plan (Bench &b, const Frame &f, const CsEdgeAwareParams &p, int rows = 0, int cols = 0)
{
  const CsCudaPlanOverrides o = { rows, cols, 0, 0 };
  CsCudaPlan *plan = nullptr;
  CHECK (cs_cuda_edgeaware_plan_new_with (&p, f.w, f.h, &b.dev, &o, &plan));
  return plan;
}

static CsCudaPlan *recursive_plan (Bench &b, const Frame &f, const CsRecursiveParams &p, int rows = 0, int cols = 0,
    bool swept = false)
{
  const CsCudaPlanOverrides o = { rows, cols, swept, 0 };
  CsCudaPlan *plan = nullptr;
  CHECK (cs_cuda_recursive_plan_new_with (&p, f.w, f.h, &b.dev, &o, &plan));
  return plan;
}

static CsCudaPlan *bilateral_plan (Bench &b, const Frame &f, const CsBilateralParams &p, bool float_kernel = false)
{
  const CsCudaPlanOverrides o = { 0, 0, 0, float_kernel };
  CsCudaPlan *plan = nullptr;
  CHECK (cs_cuda_bilateral_plan_new_with (&p, f.w, f.h, &b.dev, &o, &plan));
  return plan;
}

/* Times a plan and frees it. */
static Result run (Bench &b, Frame &f, CsCudaPlan *plan)
{
  const Result r = time_plan (b, f, plan);
  cs_cuda_plan_free (plan);
  return r;
}

/* " auto_blocks=rows/columns" of a plan */
static std::string segments_of (const CsCudaPlan *plan)
{
  return fmt (" auto_blocks=%d/%d", cs_cuda_plan_segments (plan, CS_PASS_ROWS), cs_cuda_plan_segments (plan, CS_PASS_COLUMNS));
}

void bench_edgeaware (Bench &b)
{
  struct { int w, h; double s, sr; } cases[] = {
    { 2048, 2048, 50, 50 }, { 2048, 2048, 200, 150 }, { 3840, 2160, 20, 40 }, { 1920, 1080, 20, 40 },
  };
  for (auto &c : cases) {
    Frame f = make_frame (b, c.w, c.h);
    CsEdgeAwareParams p = cs_edgeaware_params_default ();
    p.sigma = c.s;
    p.sigma_r = c.sr;
    const double floor_ms = memory_floor_ms (b, 2.0 * p.iterations * 8.0 * c.w * c.h);
    for (int k : { 0, 1, 16 }) {
      p.blocks_per_stripe = k;
      CsCudaPlan *plan = edgeaware_plan (b, f, p);
      const std::string blocks = k == 0 ? segments_of (plan) : std::string ();
      const Result r = run (b, f, plan);
      print_line ("edgeawaregauss", f, fmt ("sigma=%g,sigma-r=%g,iterations=2,kappa=2,blocks-per-stripe=%d", c.s, c.sr, k),
          r, floor_ms, "memory(4 passes x 8 B/px)", blocks);
    }
    /* The same four passes without warm-up (κ = 0: every segment starts from its border
     * state, no search, no warm-up steps; not the filter docs/algorithms.md defines at κ = 2), at
     * the best of a range of segment counts: what the passes' own steps cost once the
     * warm-up, the price of splitting lines, is gone. The κ = 2 time cannot go under it
     * without fewer instructions a step or more of them issued a cycle. */
    CsEdgeAwareParams p0 = p;
    p0.kappa = 0;
    double best = 1e9;
    int best_b = 0;
    for (int k : { 8, 16, 24, 32, 48, 64, 96, 128 }) {
      p0.blocks_per_stripe = k;
      const double ms = kernel_ms (run (b, f, edgeaware_plan (b, f, p0)));
      if (ms < best)
        best = ms, best_b = k;
    }
    printf ("floor edgeaware_no_warmup size=%dx%d sigma=%g sigma-r=%g ms_queued=%.4f blocks-per-stripe=%d (kappa=0, "
            "the best of 8..128 segments: the passes' steps without any warm-up)\n",
        c.w, c.h, c.s, c.sr, best, best_b);
    free_frame (f);
  }
}

void bench_recursive (Bench &b)
{
  for (auto sz : { std::make_pair (1920, 1080), std::make_pair (3840, 2160) }) {
    Frame f = make_frame (b, sz.first, sz.second);
    const double floor_ms = memory_floor_ms (b, 8.0 * f.w * f.h);
    /* what the tile and tensor-core kernels take is timed again through the swept passes, at the
     * same counts */
    const struct { CsRecursiveAlgorithm alg; CsPartitionStart start; bool two_pass; } cases[] = {
      { CS_RECURSIVE_DERICHE, CS_PARTITION_CARRY, false }, { CS_RECURSIVE_DERICHE, CS_PARTITION_WARM_UP, false },
      { CS_RECURSIVE_DERICHE, CS_PARTITION_WARM_UP, true }, { CS_RECURSIVE_DERICHE, CS_PARTITION_CARRY, true },
      { CS_RECURSIVE_YOUNG_VAN_VLIET, CS_PARTITION_WARM_UP, false },
    };
    for (double s : { 0.5, 2.0, 5.0, 20.0, 50.0, 200.0 })
      for (const auto &c : cases) {
        CsRecursiveParams p = cs_recursive_params_default ();
        p.sigma = s;
        p.algorithm = c.alg;
        p.partition_start = c.start;
        CsCudaPlan *plan = recursive_plan (b, f, p);
        const CsCudaPath path = cs_cuda_plan_path (plan);
        const bool tiles = path == CS_CUDA_PATH_RECURSIVE_TILES,
                   lines = path == CS_CUDA_PATH_RECURSIVE_LINES || path == CS_CUDA_PATH_RECURSIVE_LINES_CARRIED;
        const std::string blocks = segments_of (plan);
        if (c.two_pass) {
          cs_cuda_plan_free (plan);
          if (!tiles && !lines)
            continue;
          plan = recursive_plan (b, f, p, 0, 0, true);
        }
        const Result r = run (b, f, plan);
        print_line (c.two_pass ? "recursivegauss(two-pass)"
                : tiles        ? "recursivegauss(tiles)"
                : lines        ? "recursivegauss(lines)"
                               : "recursivegauss",
            f,
            fmt ("sigma=%g,algorithm=%s,partition-start=%s,blocks-per-stripe=0,kappa=%g", s,
            c.alg ? "young-van-vliet" : "deriche", c.start == CS_PARTITION_CARRY ? "carry" : "warm-up", p.kappa),
            r, floor_ms, "memory(read+write 8 B/px)", blocks);
      }
    free_frame (f);
  }
}

void bench_bilateral (Bench &b)
{
  for (auto sz : { std::make_pair (1920, 1080), std::make_pair (3840, 2160) }) {
    Frame f = make_frame (b, sz.first, sz.second);
    const double mem_ms = memory_floor_ms (b, 8.0 * f.w * f.h);
    /* the float tile kernel is timed beside the packed-half one it replaces */
    const struct { CsRangeKernel kernel; CsBilateralMode mode; bool float_kernel; } cases[] = {
      { CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_EXACT, false }, { CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_EXACT, true },
      { CS_RANGE_KERNEL_GAUSSIAN, CS_BILATERAL_SEPARABLE, false }, { CS_RANGE_KERNEL_LORENTZIAN, CS_BILATERAL_EXACT, false },
    };
    for (int r : { 1, 2, 3, 5, 7 })
      for (const auto &c : cases) {
        CsBilateralParams p = cs_bilateral_params_default ();
        p.radius = r;
        p.sigma = r / 2.0;
        p.sigma_r = 30;
        p.range_kernel = c.kernel;
        p.mode = c.mode;
        CsCudaPlan *plan = bilateral_plan (b, f, p, c.float_kernel);
        const CsCudaPath path = cs_cuda_plan_path (plan);
        const Result res = run (b, f, plan);
        /* Arithmetic floor of the exact Gaussian kernels, per window evaluation (output
         * and tap): one MUFU ex2 either way; float: 9 FP32 instructions (1 add + 3 FMA
         * for the exponent, 4 accumulations, the ex2's issue slot); packed half: 11
         * half2 instructions serve two evaluations (3 differences, 3 squares, the
         * exponent, 4 accumulations) plus the ex2 pair's pack — 6 issue slots per
         * evaluation, at the FMA pipe's rate; from r = 4 the scaled colours take the
         * exponent in 3 FMAs (bilateral_half.cu): 10 + 1, 5.5 slots. The slower pipe
         * bounds. */
        const bool half = path == CS_CUDA_PATH_BILATERAL_HALF_STRIPS || path == CS_CUDA_PATH_BILATERAL_HALF_TILES;
        const bool separable = c.mode == CS_BILATERAL_SEPARABLE;
        const double evals = (double) (2 * r + 1) * (2 * r + 1) * f.w * f.h;
        const double fp_ms = evals * (half ? (r >= 4 ? 5.5 : 6.0) : 9.0) / b.fma_rate * 1e3;
        const double sfu_ms = evals / b.ex2_rate * 1e3;
        const double arith_ms = std::max (fp_ms, sfu_ms);
        const bool mem_bound = mem_ms > arith_ms || separable;
        /* The tile kernels (r >= 2) once more without their DRAM traffic: what the taps,
         * the tile in shared memory and the epilogue cost by themselves at this frame's grid */
        std::string on_chip;
        if (half && r >= 2 && c.kernel == CS_RANGE_KERNEL_GAUSSIAN && !separable) {
          const Result oc = time_launches (b, f, [&] (void *) {
            const CsCudaImage d = { f.output, f.w, f.h, f.pitch, 3 };
            return cs_cuda_bilateral_on_chip_floor (&d, &p, 0);
          });
          on_chip = fmt (" floor_on_chip_ms=%.4f (the kernel without loads or stores)", kernel_ms (oc));
        }
        print_line ("bilateral", f, fmt ("radius=%d,sigma=%g,sigma-r=30,range-kernel=%s,mode=%s,kernel=%s", r, p.sigma,
            c.kernel == CS_RANGE_KERNEL_LORENTZIAN ? "lorentzian" : "gaussian", separable ? "separable" : "exact",
            half ? "half2" : "float"), res,
            separable ? mem_ms : std::max (mem_ms, arith_ms),
            mem_bound ? "memory" : (fp_ms > sfu_ms ? "arithmetic(fp)" : "arithmetic(ex2)"),
            fmt (" floor_memory_ms=%.4f floor_arith_ms=%.4f (%s %.4f, ex2 %.4f)", mem_ms, arith_ms,
                half ? "half2" : "fp32", fp_ms, sfu_ms) + on_chip);
      }
    free_frame (f);
  }
}

/* blocks-per-stripe: one count for both passes over a grid of counts, against auto. The
 * best of a dozen noisy figures is biased low (the smallest of them wins), so the summary
 * times the winner and auto again, alternately, three rounds, and states their medians
 * besides the sweep's own ratio. */
void bench_sweep (Bench &b)
{
  struct { int w, h; } sizes[] = { { 1920, 1080 }, { 2048, 2048 }, { 3840, 2160 }, { 512, 512 } };
  for (auto &sz : sizes) {
    Frame f = make_frame (b, sz.w, sz.h);
    CsEdgeAwareParams ea = cs_edgeaware_params_default ();
    CsRecursiveParams rc = cs_recursive_params_default ();
    if (sz.w == 2048)
      ea.sigma = ea.sigma_r = 50;
    for (int which = 0; which < 2; which++) {
      const char *name = which ? "recursivegauss" : "edgeawaregauss";
      const auto plan_of = [&] (int k) {
        if (which == 0) {
          ea.blocks_per_stripe = k;
          return edgeaware_plan (b, f, ea);
        }
        rc.blocks_per_stripe = k;
        return recursive_plan (b, f, rc);
      };
      const auto timed = [&] (int k) { return run (b, f, plan_of (k)); };
      double best = 1e9;
      int best_b = 0;
      for (int k : { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 0 }) {
        CsCudaPlan *plan = plan_of (k);
        const std::string automatic = k ? "" : fmt (" (auto=%d/%d)", cs_cuda_plan_segments (plan, CS_PASS_ROWS),
            cs_cuda_plan_segments (plan, CS_PASS_COLUMNS));
        const Result r = run (b, f, plan);
        if (k && kernel_ms (r) < best) {
          best = kernel_ms (r);
          best_b = k;
        }
        printf ("sweep filter=%s size=%dx%d blocks-per-stripe=%d%s ms_queued=%.4f ms_median=%.4f\n", name, f.w, f.h, k,
            automatic.c_str (), r.queued, r.median);
        if (k == 0) {
          const double auto_ms = kernel_ms (r);
          std::vector<double> again_best, again_auto;
          for (int round = 0; round < 3; round++) {
            again_best.push_back (kernel_ms (timed (best_b)));
            again_auto.push_back (kernel_ms (timed (0)));
          }
          std::sort (again_best.begin (), again_best.end ());
          std::sort (again_auto.begin (), again_auto.end ());
          printf ("sweep-summary filter=%s size=%dx%d best_fixed=%d best_ms=%.4f auto_ms=%.4f auto_vs_best=%.3f "
                  "retimed_best_ms=%.4f retimed_auto_ms=%.4f retimed_auto_vs_best=%.3f\n",
              name, f.w, f.h, best_b, best, auto_ms, auto_ms / best, again_best[1], again_auto[1], again_auto[1] / again_best[1]);
        }
      }
    }
    free_frame (f);
  }
}

/* Each pass's time against its own segment count, the other pass on auto: the data the
 * automatic choice is fitted to (docs/performance.md). */
void bench_pass_sweep (Bench &b, bool edgeaware_only)
{
  b.batches = false;
  struct { int w, h; bool edge; double s, sr; CsPartitionStart start; } cases[] = {
    { 1920, 1080, false, 5, 0, CS_PARTITION_CARRY }, { 3840, 2160, false, 5, 0, CS_PARTITION_CARRY },
    { 3840, 2160, false, 200, 0, CS_PARTITION_CARRY },
    { 1920, 1080, false, 5, 0, CS_PARTITION_WARM_UP }, { 3840, 2160, false, 5, 0, CS_PARTITION_WARM_UP },
    { 1920, 1080, false, 0.5, 0, CS_PARTITION_WARM_UP }, { 3840, 2160, false, 0.5, 0, CS_PARTITION_WARM_UP },
    { 3840, 2160, false, 50, 0, CS_PARTITION_WARM_UP },
    { 1920, 1080, true, 20, 40, CS_PARTITION_WARM_UP }, { 2048, 2048, true, 50, 50, CS_PARTITION_WARM_UP },
    { 3840, 2160, true, 20, 40, CS_PARTITION_WARM_UP }, { 2048, 2048, true, 200, 150, CS_PARTITION_WARM_UP },
  };
  const int counts[] = { 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 26, 28, 31, 32, 36, 40, 44, 48, 52, 56, 62, 64, 72, 80, 96,
    112, 120, 128 };
  for (auto &c : cases) {
    if (edgeaware_only && !c.edge)
      continue;
    Frame f = make_frame (b, c.w, c.h);
    CsEdgeAwareParams ea = cs_edgeaware_params_default ();
    CsRecursiveParams rc = cs_recursive_params_default ();
    ea.sigma = c.s;
    ea.sigma_r = c.sr;
    rc.sigma = c.s;
    rc.partition_start = c.start;
    const char *name = c.edge ? "edgeawaregauss" : rc.partition_start == CS_PARTITION_CARRY ? "recursivegauss(carry)" : "recursivegauss(warm-up)";
    CsCudaPlan *automatic = c.edge ? edgeaware_plan (b, f, ea) : recursive_plan (b, f, rc);
    const int auto_rows = cs_cuda_plan_segments (automatic, CS_PASS_ROWS);
    const int auto_cols = cs_cuda_plan_segments (automatic, CS_PASS_COLUMNS);
    const Result a = run (b, f, automatic);
    printf ("passsweep filter=%s size=%dx%d sigma=%g auto=%d/%d ms_median=%.4f\n", name, f.w, f.h, c.s, auto_rows, auto_cols, a.median);
    for (int pass = 0; pass < 2; pass++)
      for (int k : counts) {
        const int rows = pass ? auto_rows : k, cols = pass ? k : auto_cols;
        const Result r = run (b, f, c.edge ? edgeaware_plan (b, f, ea, rows, cols) : recursive_plan (b, f, rc, rows, cols));
        printf ("passsweep filter=%s size=%dx%d sigma=%g pass=%s segments=%d ms_median=%.4f\n", name, f.w, f.h, c.s,
            pass ? "columns" : "rows", k, r.median);
      }
    fflush (stdout);
    free_frame (f);
  }
}


/* Plans made for the limits of the architectures the default build targets, run on this
 * GPU at 1080p: what those limits make the planners choose (the tile kernel's instance, the
 * segment counts of other SM counts), each timed here. Information, not those cards' times. */
void bench_architectures (Bench &b)
{
  Frame f = make_frame (b, 1920, 1080);
  const CsCudaDevice own = b.dev;
  for (int i = 0; i < cs_cuda_architecture_count (); i++) {
    CsCudaDevice limits;
    const char *arch = cs_cuda_architecture (i, &limits);
    b.dev = limits;
    CsRecursiveParams rc = cs_recursive_params_default ();
    CsEdgeAwareParams ea = cs_edgeaware_params_default ();
    CsBilateralParams bl = cs_bilateral_params_default ();
    bl.radius = 3;
    bl.sigma_r = 30;
    CsCudaPlan *plans[5];
    const char *names[5] = { "recursivegauss sigma=5", "recursivegauss sigma=20", "recursivegauss sigma=50",
      "edgeawaregauss", "bilateral radius=3" };
    rc.sigma = 5;
    plans[0] = recursive_plan (b, f, rc);
    rc.sigma = 20;
    plans[1] = recursive_plan (b, f, rc);
    rc.sigma = 50;
    plans[2] = recursive_plan (b, f, rc);
    plans[3] = edgeaware_plan (b, f, ea);
    plans[4] = bilateral_plan (b, f, bl);
    b.dev = own;
    for (int k = 0; k < 5; k++) {
      const std::string what = fmt ("%s: %s%s, %zu B shared", names[k], cs_cuda_path_name (cs_cuda_plan_path (plans[k])),
          segments_of (plans[k]).c_str (), cs_cuda_plan_shared_bytes (plans[k]));
      const Result r = run (b, f, plans[k]);
      printf ("architecture limits=\"%s\" size=1920x1080 case=\"%s\" ms_queued=%.4f\n", arch, what.c_str (), kernel_ms (r));
    }
  }
  free_frame (f);
}
