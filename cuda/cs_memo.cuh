/* gst-cudasmooth — the launchers' coefficient tables, remembered per host thread (internal to
 * cuda/).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The recursivegauss launchers build fp16 tables from σ and the segment shape on the host
 * before each launch: 1–2 µs for the tile and warm-up passes, 26 µs for the carried passes'
 * (per frame, on the CPU, and inside what cs-bench-kernels times, since the GPU waits for
 * the launch). A stream of frames asks for the same tables every time, so each launcher
 * keeps the last ones it built on this thread (an element filters on its streaming thread;
 * two threads do not share, so no lock) and rebuilds them only when the key changes.
 */
#ifndef CS_MEMO_CUH
#define CS_MEMO_CUH

namespace cs {

/* What the tables depend on: σ and two sizes (the window's pad and k-steps, or the
 * segment lengths of the two passes) */
struct TableKey {
  double sigma;
  int first, second;
  bool operator== (const TableKey &o) const { return sigma == o.sigma && first == o.first && second == o.second; }
};

template <class Key, class Value>
struct LastBuilt {
  bool valid = false;
  Key key;
  Value value;

  /* value for `k`, built by build (Value &) only when k differs from the last key */
  template <class Build>
  const Value &get (const Key &k, Build build)
  {
    if (!valid || !(key == k)) {
      build (value);
      key = k;
      valid = true;
    }
    return value;
  }
};

}  // namespace cs

#endif /* CS_MEMO_CUH */
