#!/usr/bin/env python3
"""The chase page in a headless Chromium, driven through the DevTools protocol: builds the
WebAssembly module, serves the page on localhost, moves the pointer onto a cell (the player),
lets 3,000 enemies chase it for two seconds, clicks a wall shut, and checks the page's state
(no error, the enemies closer, the wall repaired) and a screenshot (not blank); then the same
chase in the rooms mode (the enemies closer along the rooms' paths, a screenshot).

Usage: python3 web/test.py [--screenshot docs/web-chase.png]  (the rooms mode's beside it, -rooms.png)
Needs the wasm32-unknown-unknown target and Chromium (`chromium`); exits 0 with a line that
starts with SKIPPED when either is missing (the caller decides whether that may pass).
"""

import base64
import functools
import http.server
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
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


class DevTools:
    """A Chromium DevTools connection over a WebSocket (the protocol's few frames by hand:
    the standard library has no WebSocket client)."""

    def __init__(self, url):
        host, port_path = url[len("ws://"):].split(":", 1)
        port, path = port_path.split("/", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /{path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        reply = b""
        while b"\r\n\r\n" not in reply:
            reply += self.sock.recv(4096)
        if b" 101 " not in reply.split(b"\r\n")[0]:
            fail(f"the DevTools handshake failed: {reply[:200]!r}")
        self.next_id = 0

    def _read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                fail("the DevTools connection closed")
            data += chunk
        return data

    def _receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            message += self._read(length)
            if first & 0x80:  # the last fragment
                return json.loads(message)

    def call(self, method, **params):
        self.next_id += 1
        payload = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        head = bytes([0x81])
        if len(payload) < 126:
            head += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        while True:
            message = self._receive()
            if message.get("id") == self.next_id:
                if "error" in message:
                    fail(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            fail(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def mouse(self, kind, x, y):
        extra = {"button": "left", "clickCount": 1} if kind != "mouseMoved" else {}
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)


def start_chromium(browser, profile):
    """Chromium, headless, with the DevTools protocol on a free port: (process, page URL)."""
    process = subprocess.Popen(
        [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--window-size=1280,800", "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    deadline, said = time.time() + 60, []
    for line in process.stderr:
        said.append(line)
        found = re.search(r"DevTools listening on (ws://\S+)", line)
        if found:
            port = found.group(1).split(":")[2].split("/")[0]
            pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
            page = next(p for p in pages if p.get("type") == "page")
            return process, page["webSocketDebuggerUrl"]
        if time.time() > deadline:
            break
    process.kill()
    # Chromium that cannot start here (a container without what it needs) cannot run the test.
    skip("Chromium did not start (it said: " + " | ".join(line.strip() for line in said[-5:]) + ")")


def wait(tools, expression, what, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if tools.evaluate(expression):
            return
        time.sleep(0.1)
    fail(f"{what} never came: {tools.evaluate('JSON.stringify(window.signposts)')}")


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


def save_table(maps):
    """den312d's table saved by the `signposts` command (the one `cargo test` built) into
    `maps`, listed in maps.txt; False, with the reason printed, when either is missing."""
    tool = os.path.join(ROOT, "target", "debug", "signposts")
    source = os.path.join(ROOT, "maps", "den312d.map")
    if not (os.path.exists(tool) and os.path.exists(source)):
        print(f"(the saved-table check is left out: {tool} or {source} is missing)")
        return False
    os.makedirs(maps)
    run = subprocess.run([tool, "build", source, "--diagonal", "-o", os.path.join(maps, "den312d.sp")],
                         capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"signposts build failed: {run.stderr}")
    with open(os.path.join(maps, "maps.txt"), "w") as listing:
        listing.write("den312d.sp\n")
    return True


def png_has_enemies(path):
    """Whether a screenshot shows more than a few colours, the enemies' red among them."""
    width, height, channels, rows = png_pixels(path)
    colours = {row[i:i + 3] for row in rows[::4] for i in range(0, width * channels, 4 * channels)}
    red = sum(row.count(bytes((0xEE, 0x46, 0x3C))) for row in rows)
    print(f"{os.path.basename(path)} {width}x{height}: {len(colours)} colours sampled, enemies drawn: {red > 0}")
    return len(colours) >= 4 and red > 0


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
        saved = save_table(os.path.join(folder, "maps"))
        server = serve(folder)
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        process, page_url = start_chromium(browser, os.path.join(folder, "profile"))
        try:
            tools = DevTools(page_url)
            tools.call("Page.navigate", url=url)
            wait(tools, "window.signposts && (window.signposts.ready || window.signposts.error !== null)", "the page")
            state = tools.evaluate("JSON.stringify(window.signposts)")
            if json.loads(state).get("error"):
                fail(f"the page reported an error: {json.loads(state)['error']}")
            tools.evaluate("document.getElementById('enemies').value = 3000;"
                           "document.getElementById('enemies').dispatchEvent(new Event('input')); true")
            # The pointer onto an open cell near the middle: the player.
            player = tools.evaluate("(() => { const p = window.signposts.player; return [p.x, p.y]; })()")
            at = tools.evaluate(f"window.signposts.screenAt({player[0]}, {player[1]})")
            tools.mouse("mouseMoved", at["x"], at["y"])
            before = tools.evaluate("window.signposts.meanDistance()")
            time.sleep(2.0)  # frames run: the enemies step toward the pointer
            after = tools.evaluate("window.signposts.meanDistance()")
            if not after < 0.8 * before:
                fail(f"the enemies did not close in: mean distance {before:.1f} -> {after:.1f}")
            # A click on an open cell a few cells away: a wall, the table repaired in place.
            wall = tools.evaluate(
                f"(() => {{ for (let r = 3; r < 40; r++) for (let dx = -r; dx <= r; dx++) {{"
                f" const x = {player[0]} + dx, y = {player[1]} + r; if (window.signposts.isOpen(x, y)) return [x, y]; }}"
                f" return null; }})()"
            )
            at = tools.evaluate(f"window.signposts.screenAt({wall[0]}, {wall[1]})")
            tools.mouse("mousePressed", at["x"], at["y"])
            tools.mouse("mouseReleased", at["x"], at["y"])
            time.sleep(0.5)
            state = json.loads(tools.evaluate("JSON.stringify(window.signposts)"))
            blocked = not tools.evaluate(f"window.signposts.isOpen({wall[0]}, {wall[1]})")
            print(f"the page: mean distance {before:.1f} -> {after:.1f} in 2 s; wall at {wall} closed: {blocked}, "
                  f"repairs {state['repairs']} ({state['repairMs']:.1f} ms); {state['enemies']} enemies' steps "
                  f"{sum(state['stepMs']) / max(1, len(state['stepMs'])):.2f} ms a frame, A* {state['astarMs']:.1f} ms")
            if state.get("error"):
                fail(f"the page reported an error: {state['error']}")
            if not (blocked and state["repairs"] == 1):
                fail(f"the click did not close the wall at {wall}")
            # Time for the crowd to come round the new wall, then the picture.
            time.sleep(1.0)
            shot = os.path.join(folder, "shot.png")
            data = tools.call("Page.captureScreenshot", format="png")["data"]
            with open(shot, "wb") as out:
                out.write(base64.b64decode(data))
            # The second mode: the map's rooms, enemies moving at any angle.
            tools.evaluate("(() => { const m = document.getElementById('mode'); m.value = 'rooms';"
                           " m.dispatchEvent(new Event('change')); return true; })()")
            wait(tools, "window.signposts.rooms !== null || window.signposts.error !== null", "the rooms")
            at = tools.evaluate(f"window.signposts.screenAt({player[0]}, {player[1]})")
            tools.mouse("mouseMoved", at["x"] + 1, at["y"] + 1)
            before = tools.evaluate("window.signposts.meanDistance()")
            time.sleep(2.0)
            after = tools.evaluate("window.signposts.meanDistance()")
            state = json.loads(tools.evaluate("JSON.stringify(window.signposts)"))
            print(f"the rooms: {state['rooms']['regions']} regions built in {state['rooms']['buildMs']:.0f} ms; "
                  f"mean path length {before:.1f} -> {after:.1f} in 2 s")
            if state.get("error"):
                fail(f"the page reported an error in the rooms mode: {state['error']}")
            if not after < 0.9 * before:
                fail(f"the rooms enemies did not close in: {before:.1f} -> {after:.1f}")
            rooms_shot = os.path.join(folder, "rooms.png")
            data = tools.call("Page.captureScreenshot", format="png")["data"]
            with open(rooms_shot, "wb") as out:
                out.write(base64.b64decode(data))
            if saved:
                # A table saved by `signposts build`, fetched as bytes and loaded, not built.
                tools.evaluate("(() => { const m = document.getElementById('mode'); m.value = 'grid';"
                               " m.dispatchEvent(new Event('change'));"
                               " const s = document.getElementById('map'); s.value = 'den312d.sp';"
                               " s.dispatchEvent(new Event('change')); return true; })()")
                wait(tools, "(window.signposts.ready && window.signposts.width === 65) || window.signposts.error !== null",
                     "the saved table")
                time.sleep(0.5)
                state = json.loads(tools.evaluate("JSON.stringify(window.signposts)"))
                if state.get("error"):
                    fail(f"the saved table did not load: {state['error']}")
                print(f"the saved table of den312d: {state['width']}x{state['height']}, "
                      f"{state['tableBytes'] / 1048576:.1f} MiB, loaded in {state['buildMs']:.0f} ms")
        finally:
            process.kill()
            server.shutdown()
        if not png_has_enemies(shot):
            fail("the screenshot looks blank")
        if not png_has_enemies(rooms_shot):
            fail("the rooms screenshot looks blank")
        if keep:
            shutil.copy(shot, os.path.join(ROOT, keep))
            rooms_keep = keep.replace(".png", "-rooms.png")
            shutil.copy(rooms_shot, os.path.join(ROOT, rooms_keep))
            print(f"kept as {keep} and {rooms_keep}")
    print("the web page test passed")
    print("test result: ok. 1 passed; 0 failed; 0 ignored (web/test.py)")


if __name__ == "__main__":
    main()
