#!/usr/bin/env python3
"""OpenCV's bilateralFilter on the noisy photos cs-quality wrote, for the same grid of
settings, PSNR against the clean photo. Prints nothing (and exits 0) without cv2.
  python3 denoise_opencv.py PHOTO_DIR NOISY_DIR
Note: OpenCV measures the colour distance of 3-channel images as the sum of absolute
differences (L1), our bilateral uses the Euclidean norm; sigmaSpace = sigma, d = 2r+1."""
import math, os, sys
try:
    import cv2, numpy as np
except ImportError:
    print("opencv: not installed, comparison skipped")
    sys.exit(0)
photo_dir, noisy_dir = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(noisy_dir)):
    if not name.startswith("noisy-"):
        continue
    _, noise, photo = name.split("-", 2)
    clean = cv2.imread(os.path.join(photo_dir, photo), cv2.IMREAD_COLOR).astype(np.float64)
    noisy = cv2.imread(os.path.join(noisy_dir, name), cv2.IMREAD_COLOR)
    for s in (1, 2, 3):
        for sr in (15, 25, 40, 60):
            r = math.ceil(2 * s)
            out = cv2.bilateralFilter(noisy, 2 * r + 1, sr, s).astype(np.float64)
            mse = np.mean((out - clean) ** 2)
            print("denoise-opencv photo=%s noise=%s params=sigma=%g,sigma-r=%g,radius=%d psnr=%.2f"
                  % (photo, noise, s, sr, r, 10 * math.log10(255 * 255 / mse)))
