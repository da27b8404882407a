#!/usr/bin/env python3
"""A/B of two cs-bench-kernels logs of the same cases (e.g. two builds run in turn on one
GPU): per case ms_queued of B over A, and their spread.
Usage: compare_bench.py A.log B.log [A2.log B2.log ...]  (pairs; the ratio per case is the
median over the pairs, and the runs of one build against each other show the noise)."""
import re, statistics, sys

def cases(path):
    out = {}
    for line in open(path):
        if not line.startswith('bench '):
            continue
        f = dict(re.findall(r'(\w+)=(\S+)', line))
        key = (f['filter'], f['size'], f['params'])
        out[key] = float(f['ms_queued'])
    return out

logs = sys.argv[1:]
if len(logs) < 2 or len(logs) % 2:
    sys.exit(__doc__)
pairs = [(cases(logs[i]), cases(logs[i + 1])) for i in range(0, len(logs), 2)]
keys = [k for k in pairs[0][0] if all(k in a and k in b for a, b in pairs)]
ratios, noise = [], []
for k in keys:
    r = statistics.median(b[k] / a[k] for a, b in pairs if a[k] > 0)
    ratios.append(r)
    if len(pairs) > 1:
        noise.append(pairs[1][0][k] / pairs[0][0][k])
    print('%-28s %-10s %-80s A %.4f B %.4f B/A %.3f' % (k[0], k[1], k[2][:80], pairs[0][0][k], pairs[0][1][k], r))
if ratios:
    print('summary: %d cases, B/A median %.3f, min %.3f, max %.3f%s' % (len(ratios), statistics.median(ratios),
        min(ratios), max(ratios), ', A against itself: %.3f..%.3f' % (min(noise), max(noise)) if noise else ''))
