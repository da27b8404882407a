#!/usr/bin/env python3
"""Smoothed frames into OpenCV: GStreamer does the capture and the filtering, OpenCV gets
BGR numpy arrays from an appsink (needs an OpenCV built with GStreamer, as Debian's
python3-opencv is).
  GST_PLUGIN_PATH=build/gst python3 examples/opencv.py ["SOURCE"] [count]
SOURCE defaults to a test pattern; e.g. "v4l2src" for a webcam,
"filesrc location=movie.mp4 ! decodebin" for a file."""
import sys
import cv2

source = sys.argv[1] if len(sys.argv) > 1 else "videotestsrc pattern=snow num-buffers=60"
count = int(sys.argv[2]) if len(sys.argv) > 2 else 60
pipeline = (source + " ! videoconvert ! video/x-raw,format=BGRx "
            "! bilateral sigma=1.5 sigma-r=25 radius=3 "
            "! videoconvert ! video/x-raw,format=BGR ! appsink drop=false sync=false")
cap = cv2.VideoCapture(pipeline, cv2.CAP_GSTREAMER)
if not cap.isOpened():
    sys.exit("could not open the pipeline (is OpenCV built with GStreamer, is GST_PLUGIN_PATH set?)")
frames, size = 0, None
while frames < count:
    ok, frame = cap.read()
    if not ok:
        break
    frames, size = frames + 1, frame.shape
    # frame is an HxWx3 uint8 BGR array, already smoothed: hand it to the rest of the program
cap.release()
print("read %d smoothed frames" % frames + (", %dx%d" % (size[1], size[0]) if size else ""))
sys.exit(0 if frames else 1)
