#!/usr/bin/env python3
"""Drives a headless Chromium through the DevTools protocol to check nwpcube's web page.

Usage: browser-check.py DEVTOOLS_PORT PAGE_URL OUTPUT_DIR

Opens the page, waits (bounded) until its map has settled, saves a screenshot, checks that
every image loaded and nothing was logged as an error, that the moving nest's outline is
drawn where /v1/domains puts it at two times, clicks the middle of the map, and
checks that the panel shows a meteogram that loaded and the place's days. Prints each check
and exits 1, naming what failed, when any fails.

Only the standard library: the WebSocket client the protocol needs is the few lines below
(RFC 6455, text frames, client masking), so that CI needs nothing from PyPI.
"""

import base64
import json
import math
import os
import socket
import struct
import sys
import time
import urllib.parse
import urllib.request

# Hang guards only: each is many times what the step takes on a loaded CI machine.
CONNECT_SECONDS = 30
LOAD_SECONDS = 90
SETTLE_SECONDS = 120


class WebSocket:
    """A minimal client WebSocket over a plain TCP connection (ws:// on loopback)."""

    def __init__(self, url, timeout):
        assert url.startswith("ws://"), url
        host_port, _, path = url[len("ws://"):].partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the WebSocket handshake")
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(f"DevTools refused the WebSocket: {head.decode(errors='replace').splitlines()[0]}")

    def _exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            data += chunk
        return data

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])  # FIN, text
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def receive(self):
        """The next whole text message (continuation frames joined); pings are answered."""
        message = b""
        while True:
            first, second = self._exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._exactly(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._exactly(8))[0]
            payload = self._exactly(length)  # the server never masks
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError("DevTools closed the WebSocket")
            if opcode == 0x9:  # ping: answer with a masked pong
                mask = os.urandom(4)
                self.sock.sendall(bytes([0x8A, 0x80 | length]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
                continue
            message += payload
            if first & 0x80:
                return message.decode()


class Page:
    """One page target: sends commands, collects the events the checks read."""

    def __init__(self, devtools_port):
        deadline = time.monotonic() + CONNECT_SECONDS
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{devtools_port}/json/list", timeout=5) as answer:
                    targets = json.load(answer)
                page = next(t for t in targets if t.get("type") == "page")
                break
            except (OSError, StopIteration, ValueError):
                if time.monotonic() > deadline:
                    fail(f"Chromium's DevTools on port {devtools_port} offered no page within {CONNECT_SECONDS} s")
                time.sleep(0.2)
        self.socket = WebSocket(page["webSocketDebuggerUrl"], timeout=CONNECT_SECONDS)
        self.next_id = 0
        self.events = []

    def command(self, method, timeout=CONNECT_SECONDS, **params):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            self.socket.sock.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                message = json.loads(self.socket.receive())
            except socket.timeout:
                fail(f"{method}: no answer from Chromium within {timeout} s")
            if message.get("id") == ident:
                if "error" in message:
                    fail(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for_event(self, method, timeout):
        """Waits for an event named `method` (perhaps already received)."""
        deadline = time.monotonic() + timeout
        while not any(e["method"] == method for e in self.events):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                fail(f"no {method} within {timeout} s")
            self.socket.sock.settimeout(remaining)
            try:
                message = json.loads(self.socket.receive())
            except socket.timeout:
                continue
            if "method" in message:
                self.events.append(message)

    def evaluate(self, expression):
        result = self.command("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            reason = details.get("exception", {}).get("description") or details.get("text")
            fail(f"evaluating {expression[:60]}… in {self.evaluate_url()}: {reason}")
        return result["result"].get("value")

    def evaluate_url(self):
        """The address of the document in the tab, which says whether it is the page at all."""
        result = self.command("Runtime.evaluate", expression="location.href", returnByValue=True)
        return result.get("result", {}).get("value", "?")

    def wait_until(self, expression, what, timeout):
        """Polls `expression` until it is truthy; the timeout only guards against a hang."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                fail(f"{what}: not within {timeout} s")
            time.sleep(0.25)

    def screenshot(self, path):
        data = self.command("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        print(f"browser-check: screenshot {path}")


failures = []


def fail(message):
    print(f"browser-check: FAILED: {message}")
    sys.exit(1)


def check(condition, message):
    print(f"browser-check: {'ok' if condition else 'FAILED'}: {message}")
    if not condition:
        failures.append(message)


# Every image of the page, with whether it loaded.
IMAGES = """JSON.stringify([...document.images].map(i => ({
  src: i.getAttribute('src') || '', where: i.parentElement.id, complete: i.complete, width: i.naturalWidth })))"""


def images(page):
    return [i for i in json.loads(page.evaluate(IMAGES)) if i["src"]]


def problems(page):
    """Console errors, uncaught exceptions and failed requests, as lines."""
    lines = []
    for event in page.events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            lines.append(f"uncaught: {details.get('exception', {}).get('description') or details.get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            lines.append("console." + params["type"] + ": " + " ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            entry = params["entry"]
            lines.append(f"log ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}".rstrip())
        elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
            lines.append(f"HTTP {params['response']['status']}: {params['response']['url']}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            lines.append(f"request failed ({params.get('errorText')}): {params.get('requestId')}")
    return lines


def world_pixel(latitude, longitude, zoom):
    """Web Mercator world pixels, from the definition (EPSG:3857 scaled to 256 · 2^zoom)."""
    size = 256 * 2 ** zoom
    phi = math.radians(max(-85.0511, min(85.0511, latitude)))
    return (longitude + 180) / 360 * size, (1 - math.log(math.tan(math.pi / 4 + phi / 2)) / math.pi) / 2 * size


def check_moving_outline(page, url):
    """The moving nest's outline, at two times when it is in different places, is drawn where
    /v1/domains?time= puts it."""
    with urllib.request.urlopen(url.rstrip("/") + "/v1/domains", timeout=CONNECT_SECONDS) as answer:
        domains = json.load(answer)["domains"]
    moving = [d for d in domains if d.get("positions")]
    check(bool(moving), f"/v1/domains names a moving nest ({[d['model_domain'] for d in domains]})")
    if not moving:
        return
    nest = moving[0]
    hours = page.evaluate("JSON.stringify(times)")
    hours = json.loads(hours)
    # Two of the slider's hours at which the nest's extents differ.
    by_time = {}
    for position in nest["positions"]:
        for text in position["times"]:
            by_time[text] = position
    chosen = []
    for index, ms in enumerate(hours):
        text = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ms / 1000))
        if text in by_time and all(by_time[text] is not by_time[other] for _, other in chosen):
            chosen.append((index, text))
        if len(chosen) == 2:
            break
    check(len(chosen) == 2, f"the slider reaches two of {nest['model_domain']}'s positions ({[t for _, t in chosen]})")
    drawn = []
    for index, text in chosen:
        page.evaluate(f"(() => {{ const s = document.getElementById('time'); s.value = '{index}';"
                      " s.dispatchEvent(new Event('input')); return 1; })()")
        query = urllib.parse.urlencode({"time": text[:16] + "Z"})
        with urllib.request.urlopen(url.rstrip("/") + "/v1/domains?" + query, timeout=CONNECT_SECONDS) as answer:
            extent = next(d for d in json.load(answer)["domains"] if d["model_domain"] == nest["model_domain"])
        box = json.loads(page.evaluate(f"""JSON.stringify((() => {{
          const box = [...document.querySelectorAll('#outlines .outline')].find(b => b.dataset.domain === {json.dumps(nest['model_domain'])});
          return box && {{left: parseFloat(box.style.left), top: parseFloat(box.style.top), width: parseFloat(box.style.width),
            height: parseFloat(box.style.height), zoom: view.zoom, x: view.x, y: view.y,
            mapWidth: document.getElementById('map').clientWidth, mapHeight: document.getElementById('map').clientHeight}};
        }})())"""))
        if not box:
            check(False, f"the page draws an outline of {nest['model_domain']}")
            return
        west_x, north_y = world_pixel(extent["north"], extent["west"], box["zoom"])
        east_x, south_y = world_pixel(extent["south"], extent["east"], box["zoom"])
        expected = (west_x - box["x"] + box["mapWidth"] / 2, north_y - box["y"] + box["mapHeight"] / 2,
                    east_x - west_x, south_y - north_y)
        found = (box["left"], box["top"], box["width"], box["height"])
        check(all(abs(a - b) < 1 for a, b in zip(found, expected)),
              f"at {text} the outline of {nest['model_domain']} is drawn at {tuple(round(v, 1) for v in found)}, "
              f"where /v1/domains?time= puts it {tuple(round(v, 1) for v in expected)}")
        drawn.append(found)
    check(len(drawn) == 2 and drawn[0] != drawn[1], f"the outline moved between {chosen[0][1]} and {chosen[1][1]}")


def main():
    devtools_port, url, output = sys.argv[1], sys.argv[2], sys.argv[3]
    page = Page(devtools_port)
    for domain in ("Page", "Runtime", "Log", "Network"):
        page.command(f"{domain}.enable")
    page.command("Emulation.setDeviceMetricsOverride", width=1280, height=800, deviceScaleFactor=1, mobile=False)
    page.command("Page.navigate", url=url)
    page.wait_for_event("Page.loadEventFired", LOAD_SECONDS)

    # The page has settled once its controls are filled (or it says why not) and every
    # image it asked for has finished, loaded or broken.
    page.wait_until(
        "document.getElementById('status').className === 'error' || (!document.getElementById('time').disabled"
        " && document.querySelectorAll('#base img').length > 0"
        " && [...document.images].every(i => !i.getAttribute('src') || i.complete))",
        "the map's tiles finished loading", SETTLE_SECONDS)
    os.makedirs(output, exist_ok=True)
    page.screenshot(os.path.join(output, "map.png"))

    state = json.loads(page.evaluate("""JSON.stringify({
      title: document.title, status: document.getElementById('status').textContent,
      metrics: [...document.getElementById('metric').options].map(o => o.value),
      sliderMax: Number(document.getElementById('time').max), time: document.getElementById('time-label').value })"""))
    check(state["title"] == "nwpcube", f"the page is nwpcube's (title {state['title']!r})")
    check(state["status"] == "", f"the page reports no problem ({state['status']!r})")
    check({"temp", "rain", "wind_vel", "cloud", "atm_press"} <= set(state["metrics"]), f"the field picker offers {state['metrics']}")
    check(state["sliderMax"] >= 1, f"the time slider has {state['sliderMax'] + 1} hours, now at {state['time']!r}")
    loaded = images(page)
    tiles = [i for i in loaded if i["where"] in ("base", "overlay")]
    broken = [i["src"] for i in loaded if not i["complete"] or i["width"] == 0]
    check(any(i["where"] == "base" for i in tiles) and any(i["where"] == "overlay" for i in tiles),
          f"the map shows {len(tiles)} tiles of the land and the field")
    check(not broken, f"every image loaded ({len(broken)} broken of {len(loaded)}{': ' + ', '.join(broken[:6]) if broken else ''})")

    check_moving_outline(page, url)

    # A click in the middle of the map, which the page fits to the domains.
    box = json.loads(page.evaluate("JSON.stringify(document.getElementById('map').getBoundingClientRect())"))
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
        page.command("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", buttons=1 if kind == "mousePressed" else 0, clickCount=1)
    page.wait_until(
        "(!document.getElementById('place').hidden && document.getElementById('meteogram').complete"
        " && [...document.images].every(i => !i.getAttribute('src') || i.complete))"
        " || document.getElementById('status').className === 'error'",
        "the clicked place's forecast", SETTLE_SECONDS)
    panel = json.loads(page.evaluate("""JSON.stringify({
      status: document.getElementById('status').textContent, title: document.getElementById('place-title').textContent,
      meteogram: document.getElementById('meteogram').naturalWidth, days: document.querySelectorAll('#days tbody tr').length })"""))
    check(panel["status"] == "", f"the click found a forecast ({panel['status'] or panel['title']})")
    check(panel["meteogram"] > 0, f"the panel shows a meteogram that loaded ({panel['meteogram']} px wide)")
    check(panel["days"] >= 1, f"the panel lists {panel['days']} days")
    page.screenshot(os.path.join(output, "page.png"))

    # One more round trip, so that every event Chromium sent before it has been read.
    page.evaluate("1")
    found = problems(page)
    check(not found, "no console errors, exceptions or failed requests" + ("".join("\n    " + line for line in found)))
    if failures:
        fail(f"{len(failures)} check(s) failed")
    print("browser-check: passed")


if __name__ == "__main__":
    main()
