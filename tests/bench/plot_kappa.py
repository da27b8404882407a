#!/usr/bin/env python3
"""Plots cs-kappa-study's CSV as the edge-aware paper's Fig. 6: MSE (8-bit output against
Algorithm A, log scale) vs kappa, one curve per (sigma, sigma_r) and algorithm, the mean
over photos with the min..max band. Needs only Pillow.
  python3 plot_kappa.py kappa.csv kappa.png"""
import collections, csv, math, sys
from PIL import Image, ImageDraw

rows = list(csv.DictReader(open(sys.argv[1])))
curves = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    curves[(r["sigma"], r["sigma_r"], r["algorithm"])][float(r["kappa"])].append(max(float(r["mse_8bit"]), 1e-5))

W, H, L, R, T, B = 900, 600, 80, 220, 40, 60
img = Image.new("RGB", (W, H), "white")
d = ImageDraw.Draw(img)
lo, hi = -5, 3   # log10 MSE range
def px(k, mse):
    return (L + k / 3.0 * (W - L - R), T + (hi - math.log10(mse)) / (hi - lo) * (H - T - B))
d.rectangle([L, T, W - R, H - B], outline="black")
for e in range(lo, hi + 1):
    y = px(0, 10 ** e)[1]
    d.line([L - 5, y, W - R, y], fill=(220, 220, 220))
    d.text((10, y - 6), "1e%+d" % e, fill="black")
for k in [0, 0.5, 1, 1.5, 2, 2.5, 3]:
    x = px(k, 1)[0]
    d.line([x, H - B, x, H - B + 5], fill="black")
    d.text((x - 8, H - B + 10), "%g" % k, fill="black")
d.text((W // 2 - 120, H - 25), "kappa (warm-up in units of sigma_i)", fill="black")
d.text((L, 10), "MSE vs Algorithm A (8-bit), mean and min..max over photos", fill="black")
colours = {"5": (0, 90, 200), "50": (0, 150, 60), "200": (200, 40, 40)}
legend_y = T
for (s, sr, alg), pts in sorted(curves.items(), key=lambda t: (float(t[0][0]), t[0][2])):
    col = colours.get(s, (0, 0, 0))
    ks = sorted(pts)
    mean = [px(k, sum(pts[k]) / len(pts[k])) for k in ks]
    band = [px(k, min(pts[k])) for k in ks] + [px(k, max(pts[k])) for k in reversed(ks)]
    light = tuple(c + (255 - c) * 3 // 4 for c in col)
    d.polygon(band, fill=light)
    d.line(mean, fill=col, width=3 if alg == "D24" else 1)
    d.text((W - R + 10, legend_y), "MSE(%s,%s) %s" % (s, sr, "Alg. D" if alg == "D24" else "Alg. C"), fill=col)
    legend_y += 18
img.save(sys.argv[2])
