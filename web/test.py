#!/usr/bin/env python3
"""The chase page in a headless Chromium: builds the WebAssembly module, serves the page on
localhost, lets it play itself (`?test`: 3,000 enemies after a still player, then a click that
closes a wall), and checks what it reports in #result and a screenshot of it.

Usage: python3 web/test.py [--screenshot docs/web-chase.png]
Needs the wasm32-unknown-unknown target and Chromium (`chromium`); exits 0 with a line that
starts with SKIPPED when either is missing (the caller decides whether that may pass).
"""

import functools
import http.server
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WASM = os.path.join(ROOT, "target", "wasm32-unknown-unknown", "release", "signposts_web.wasm")


def skip(why):
    print(f"SKIPPED: the web page test: {why}")
    sys.exit(0)


def fail(why):
    print(f"FAILED: the web page test: {why}")
    sys.exit(1)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def build():
    env = dict(os.environ, CARGO_PROFILE_RELEASE_DEBUG="false", CARGO_PROFILE_RELEASE_STRIP="true")
    cmd = ["cargo", "build", "-q", "-p", "signposts-web", "--release", "--target", "wasm32-unknown-unknown"]
    if subprocess.run(cmd, cwd=ROOT, env=env).returncode != 0:
        fail("the WebAssembly build failed")


class Quiet(http.server.SimpleHTTPRequestHandler):
    """Serves the folder, `.wasm` as `application/wasm`, without a line per request."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def serve(folder):
    handler = functools.partial(Quiet, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browse(browser, url, *flags):
    cmd = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,800",
           "--virtual-time-budget=30000", *flags, url]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    return run.stdout, run.stderr


def png_pixels(path):
    """The RGB(A) rows of an 8-bit PNG, unfiltered: (width, height, channels, rows)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = header[:4]
    if depth != 8 or colour not in (2, 6):
        fail(f"{path}: a PNG of depth {depth}, colour type {colour}")
    channels = 3 if colour == 2 else 4
    raw, stride, rows, prior = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prior[i]
            c = prior[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prior = line
    return width, height, channels, rows


def main():
    args = sys.argv[1:]
    keep = args[args.index("--screenshot") + 1] if "--screenshot" in args else None
    browser = chromium()
    if browser is None:
        skip("no Chromium on this machine (Debian: apt-get install chromium)")
    targets = subprocess.run(["rustup", "target", "list", "--installed"], capture_output=True, text=True).stdout
    if "wasm32-unknown-unknown" not in targets.split():
        skip("the wasm32-unknown-unknown target is not installed (rustup target add wasm32-unknown-unknown)")
    build()
    with tempfile.TemporaryDirectory() as folder:
        for name in ("index.html", "chase.js"):
            shutil.copy(os.path.join(ROOT, "web", name), folder)
        shutil.copy(WASM, folder)
        server = serve(folder)
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html?test"
        dom, log = browse(browser, url, "--dump-dom")
        found = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
        if not found:
            fail(f"the page wrote no result; Chromium said:\n{log[-2000:]}")
        result = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
        print("the page reported:", json.dumps(result))
        if result.get("error"):
            fail(f"the page reported an error: {result['error']}")
        if not result["after"] < 0.8 * result["before"]:
            fail(f"the enemies did not close in: mean distance {result['before']:.1f} -> {result['after']:.1f}")
        if not (result["blocked"] and result["repairs"] == 1):
            fail(f"the click did not close the wall at {result['wall']}: {result}")
        shot = os.path.join(folder, "shot.png")
        browse(browser, url, f"--screenshot={shot}")
        server.shutdown()
        if not os.path.exists(shot):
            fail("Chromium took no screenshot")
        width, height, channels, rows = png_pixels(shot)
        colours = {row[i:i + 3] for row in rows[::4] for i in range(0, width * channels, 4 * channels)}
        red = sum(row.count(bytes((0xEE, 0x46, 0x3C))) for row in rows)
        if len(colours) < 4 or red == 0:
            fail(f"the screenshot looks blank: {len(colours)} colours sampled, no enemy drawn")
        print(f"screenshot {width}x{height}: {len(colours)} colours sampled, enemies drawn")
        if keep:
            shutil.copy(shot, os.path.join(ROOT, keep))
            print(f"kept as {keep}")
    print("the web page test passed")


if __name__ == "__main__":
    main()
