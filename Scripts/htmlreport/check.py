#!/usr/bin/env python3
"""Checks upgrade-sim's HTML reports (run by Scripts/check-html-report.sh).

For each PAGE:JSON pair (files in --work; JSON is the same report in --format json):
- the page parses with html5lib in strict mode, and each <svg> element parses as XML;
- the page has no script and fetches nothing;
- headless Chromium screenshots it at 1280 and 390 px wide; each PNG is decoded here and must not be
  blank (several colours, a share of pixels off the background);
- the page is measured at both widths in an instrumented wrapper (the page in an iframe of that width,
  a script reading it) with --dump-dom:
  the viewport is the width asked for, the page has text, it has as many timelines as the JSON has
  histories (run) or broken guarantees and findings (explore), each drawn with a size, and no element
  but the timelines' boxes (and what they hold) is wider than the page. A page with a timeline wider
  than the window must scroll it inside its box.
"""

import argparse
import json
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
import zlib
from html import escape as html_escape

import html5lib

WIDTHS = (1280, 390)
HEIGHT = 1800

# The measurement: the page in an iframe of the width measured (a headless window is at least 500 px
# wide), read from the wrapper page once loaded (srcdoc shares the wrapper's origin), the result
# appended to the wrapper as JSON for --dump-dom.
WRAPPER = """<!DOCTYPE html>
<html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="page" style="width:%dpx;height:%dpx;border:0;display:block" srcdoc="%s"></iframe>
<script>
window.addEventListener('load', function () {
  var frame = document.getElementById('page');
  var page = frame.contentDocument, view = frame.contentWindow;
  var viewport = page.documentElement.clientWidth;
  var wide = [];
  var all = page.querySelectorAll('body *');
  for (var i = 0; i < all.length; i++) {
    var element = all[i];
    if (element.closest('.box') && !element.classList.contains('box')) continue;
    var r = element.getBoundingClientRect();
    if (r.width > 0 && (r.right > viewport + 0.5 || r.left < -0.5)) {
      wide.push(element.tagName.toLowerCase() + '.' + (element.getAttribute('class') || '') + ' ' +
        Math.round(r.left) + '..' + Math.round(r.right));
    }
  }
  var timelines = page.querySelectorAll('svg.tl');
  var drawn = 0, wideTimelines = 0;
  for (var j = 0; j < timelines.length; j++) {
    var box = timelines[j].getBoundingClientRect();
    if (box.width > 0 && box.height > 0) drawn++;
    if (box.width > viewport) wideTimelines++;
  }
  var boxes = page.querySelectorAll('.box');
  var scrolling = 0;
  for (var k = 0; k < boxes.length; k++) {
    if (boxes[k].scrollWidth > boxes[k].clientWidth + 1) scrolling++;
  }
  var result = {
    innerWidth: view.innerWidth, viewport: viewport, pageWidth: page.documentElement.scrollWidth,
    textLength: page.body.innerText.length, timelines: timelines.length, drawn: drawn,
    scrollingBoxes: scrolling, wideTimelines: wideTimelines, wide: wide.slice(0, 20), wideCount: wide.length
  };
  var out = document.createElement('pre');
  out.id = 'measurement';
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
});
</script>
</body></html>
"""


def fail(message):
    print("html-report: error: " + message, file=sys.stderr)
    sys.exit(1)


def chromium_command(chromium, width, *extra):
    return [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-extensions", "--window-size=%d,%d" % (width, HEIGHT)] + list(extra)


def run_chromium(arguments):
    try:
        done = subprocess.run(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=180)
    except subprocess.TimeoutExpired:
        fail("chromium timed out: " + " ".join(arguments))
    if done.returncode != 0:
        fail("chromium exited %d: %s\n%s" % (done.returncode, " ".join(arguments), done.stderr.decode()[-2000:]))
    return done.stdout.decode("utf-8", "replace")


def add_bytes(a, b):
    """a + b byte by byte, modulo 256, at C speed: the lanes' high bits are added apart so that no
    carry crosses into the next byte."""
    size = len(a)
    low = int.from_bytes(b"\x7f" * size, "big")
    high = int.from_bytes(b"\x80" * size, "big")
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    return bytearray((((x & low) + (y & low)) ^ ((x ^ y) & high)).to_bytes(size, "big"))


def decode_png(path, max_rows):
    """The PNG's width, height and its first max_rows rows of (r, g, b) tuples; 8-bit RGB or RGBA,
    not interlaced."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        fail("%s: unexpected PNG format (depth %d, colour %d, interlace %d)" % (path, depth, colour, interlace))
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, position = [], bytearray(stride), 0
    for _ in range(min(height, max_rows)):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        if kind == 2:
            line = add_bytes(line, previous)
        elif kind != 0:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                up = previous[i]
                if kind == 1:
                    line[i] = (line[i] + left) & 255
                elif kind == 3:
                    line[i] = (line[i] + (left + up) // 2) & 255
                else:
                    corner = previous[i - channels] if i >= channels else 0
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                    line[i] = (line[i] + predictor) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, channels)])
        previous = line
    return width, height, rows


def check_screenshot(path, width):
    # The top of the page (its summary, legend and first timelines) is enough to tell a blank one.
    png_width, _, rows = decode_png(path, 900)
    if png_width != width:
        fail("%s is %d px wide, expected %d" % (path, png_width, width))
    sample = [pixel for row in rows[::4] for pixel in row[::4]]
    background = max(set(sample), key=sample.count)
    colours = len(set(sample))
    off = sum(1 for pixel in sample if pixel != background) / len(sample)
    if colours < 8 or off < 0.05:
        fail("%s looks blank: %d colours, %.1f%% of pixels off the background" % (path, colours, off * 100))
    return colours, off


def check_markup(path):
    with open(path, encoding="utf-8") as file:
        text = file.read()
    parser = html5lib.HTMLParser(strict=True)
    try:
        parser.parse(text)
    except Exception as error:  # html5lib raises ParseError with the position
        fail("%s: html5lib (strict) rejects it: %s" % (path, error))
    if re.search(r"<script", text, re.IGNORECASE):
        fail(path + " has a script")
    if re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text, re.IGNORECASE) or "url(" in text:
        fail(path + " fetches something")
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.DOTALL)
    for index, svg in enumerate(svgs):
        try:
            ElementTree.fromstring(svg)
        except ElementTree.ParseError as error:
            fail("%s: SVG %d is not XML: %s" % (path, index + 1, error))
    return text, len(svgs)


def expected_timelines(report):
    if "broken" in report:  # explore
        return report["broken"] + report["findings"]
    return sum(len(fixture["histories"]) for fixture in report["fixtures"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("pages", nargs="+", help="PAGE.html:REPORT.json, names in --work")
    arguments = parser.parse_args()
    for pair in arguments.pages:
        page, report_name = pair.split(":")
        path = os.path.join(arguments.work, page)
        with open(os.path.join(arguments.work, report_name), encoding="utf-8") as file:
            expected = expected_timelines(json.load(file))
        text, svg_count = check_markup(path)
        for width in WIDTHS:
            instrumented = "%s-measured-%d.html" % (path[:-len(".html")], width)
            with open(instrumented, "w", encoding="utf-8") as file:
                file.write(WRAPPER % (width, HEIGHT, html_escape(text, quote=True)))
            screenshot = "%s-%d.png" % (path[:-len(".html")], width)
            if os.path.exists(screenshot):
                os.remove(screenshot)
            run_chromium(chromium_command(arguments.chromium, width, "--screenshot=" + os.path.abspath(screenshot),
                                          "file://" + os.path.abspath(path)))
            colours, off = check_screenshot(screenshot, width)
            dom = run_chromium(chromium_command(arguments.chromium, max(WIDTHS) + 20, "--dump-dom",
                                                "--virtual-time-budget=10000",
                                                "file://" + os.path.abspath(instrumented)))
            found = re.search(r'<pre id="measurement">(.*?)</pre>', dom, re.DOTALL)
            if not found:
                fail("%s at %d px: the measurement did not run" % (page, width))
            measured = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&")
                                  .replace("&lt;", "<").replace("&gt;", ">"))
            where = "%s at %d px" % (page, width)
            if measured["innerWidth"] != width:
                fail("%s: the window is %d px wide" % (where, measured["innerWidth"]))
            if measured["textLength"] < 100:
                fail(where + ": the page is (nearly) empty")
            if measured["timelines"] != expected or measured["drawn"] != expected:
                fail("%s: %d timelines, %d drawn; expected %d" % (where, measured["timelines"], measured["drawn"],
                                                                   expected))
            if measured["wideCount"] or measured["pageWidth"] > measured["viewport"]:
                fail("%s: wider than the page (%d px): %s" % (where, measured["pageWidth"], measured["wide"]))
            if measured["wideTimelines"] > measured["scrollingBoxes"]:
                fail("%s: %d timelines are wider than the page but %d boxes scroll" % (
                    where, measured["wideTimelines"], measured["scrollingBoxes"]))
            print("html-report: %s: %d timelines drawn, %d scroll in their box, page %d px; screenshot %s"
                  " (%d colours, %.0f%% drawn)" % (where, measured["drawn"], measured["scrollingBoxes"],
                                                  measured["pageWidth"], screenshot, colours, off * 100))
        print("html-report: %s: html5lib strict parse ok, %d SVG elements parse as XML" % (page, svg_count))
    print("html-report: all pages passed")


if __name__ == "__main__":
    main()
