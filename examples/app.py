#!/usr/bin/env python3
"""The same from Python (PyGObject): a test pattern through bilateral, radius changed
while playing.  GST_PLUGIN_PATH=build/gst python3 examples/app.py"""
import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst

Gst.init(None)
pipeline = Gst.parse_launch(
    "videotestsrc num-buffers=90 pattern=snow ! video/x-raw,format=BGRx,width=640,height=480 "
    "! bilateral name=f sigma=1.5 sigma-r=25 ! videoconvert ! fakesink")
f = pipeline.get_by_name("f")
pipeline.set_state(Gst.State.PLAYING)
bus = pipeline.get_bus()
radius = 1
while True:
    msg = bus.timed_pop_filtered(50 * Gst.MSECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if msg:
        if msg.type == Gst.MessageType.ERROR:
            print("error:", msg.parse_error())
        break
    radius = radius % 5 + 1
    f.set_property("radius", radius)
pipeline.set_state(Gst.State.NULL)
print("done, last radius", radius)
