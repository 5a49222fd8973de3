#!/usr/bin/env python3
"""Browser interop test: headless Chromium shows a posted value on the dashboard page.

Opens /d/DASHBOARD on a running Rollboard server (https with a self-signed certificate is fine),
posts a value to /api/v1/metrics/METRIC with the producer token, waits until the page's odometer
tile for METRIC comes to rest, and checks that it shows exactly the posted value — both the
page's `data-digits` hook and the digits its canvas actually shows. Saves a screenshot.

Prints one PASS/FAIL line per check and then "N passed, M failed"; exits 0 only when every
check passed.

    python test_dashboard.py --base-url https://127.0.0.1:8443 --token TOKEN \\
        [--dashboard demo] [--metric revenue] [--value 1234.5] [--screenshot out.png]

The base URL and token may also come from ROLLBOARD_BASE_URL and ROLLBOARD_PRODUCER_TOKEN.
The server should not be feeding METRIC itself (no `--demo` feeder on it), or the value the page
comes to rest at may be a synthetic one.
"""

import argparse
import base64
import json
import os
import random
import ssl
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

from odometer_probe import READ_PAINTED_DIGITS, painted_reading, painted_shows

POLL_SECONDS = 0.05
REST_CONFIRM_SECONDS = 0.5

# Every tile has painted a state of its type, or "—" for a metric with no value yet (the hello's full state reached
# the DOM).
UNPAINTED_TILES_JS = """
const hooks = { odometer: 'digits', counter: 'text', wheel: 'top', carousel: 'page', text: 'text' };
return [...document.querySelectorAll('[data-tile-id]')]
  .filter((tile) => tile.dataset.empty !== 'true')
  .filter((tile) => hooks[tile.dataset.tileType] === undefined || tile.dataset[hooks[tile.dataset.tileType]] === undefined)
  .map((tile) => `${tile.dataset.tileId} (${tile.dataset.tileType})`);
"""


class Report:
    """Collects PASS/FAIL lines."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(f"{'PASS' if ok else 'FAIL'}: {name}{' — ' + detail if detail else ''}", flush=True)
        return ok


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", default=os.environ.get("ROLLBOARD_BASE_URL", "https://localhost:8443"))
    parser.add_argument("--token", default=os.environ.get("ROLLBOARD_PRODUCER_TOKEN"))
    parser.add_argument("--dashboard", default="demo")
    parser.add_argument("--metric", default="revenue")
    parser.add_argument("--value", type=float, default=None,
                        help="value to post (default: a random value that fits the tile)")
    parser.add_argument("--wheel", default="status", help="a wheel tile to move by index ('' to skip)")
    parser.add_argument("--carousel", default="news",
                        help="a carousel tile to send to another page and give new slides ('' to skip)")
    parser.add_argument("--text-tile", default="notice", help="a text tile to post a message to ('' to skip)")
    parser.add_argument("--screenshot", default=os.path.join("reports", "browser", "dashboard.png"))
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for each step")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--chromedriver", default=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    parser.add_argument("--window-size", default="1920,1080")
    parser.add_argument("--threshold-tile", default="temperature",
                        help="a tile with thresholds, posted its warning value (empty to skip)")
    return parser.parse_args()


def start_browser(arguments, profile=None):
    """Headless Chromium; `profile`: a user-data folder, so a second session has the first one's localStorage."""
    options = webdriver.ChromeOptions()
    options.binary_location = arguments.chromium
    if profile:
        options.add_argument(f"--user-data-dir={profile}")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--ignore-certificate-errors",
                 f"--window-size={arguments.window_size}", "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(arguments.chromedriver), options=options)


def wait_for(predicate, timeout):
    """Polls `predicate` until it returns something truthy or `timeout` passes; returns the last result."""
    deadline = time.monotonic() + timeout
    result = predicate()
    while not result and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        result = predicate()
    return result


def post_value(base_url, token, metric, value, timeout):
    """POSTs {"value": value}; returns (status, parsed body or text)."""
    return post_json(base_url, token, f"/api/v1/metrics/{urllib.parse.quote(metric, safe='')}", {"value": value}, timeout)


def post_json(base_url, token, path, payload, timeout):
    """POSTs `payload` as JSON to `path` with the producer token; returns (status, parsed body or text)."""
    url = f"{base_url.rstrip('/')}{path}"
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json", "Accept": "application/json"})
    context = ssl._create_unverified_context() if url.startswith("https:") else None
    try:
        with urllib.request.urlopen(request, context=context, timeout=timeout) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    try:
        return status, json.loads(body)
    except ValueError:
        return status, body.decode(errors="replace")


def get_json(base_url, path, timeout):
    """GETs `path`; returns (status, parsed body or text)."""
    url = f"{base_url.rstrip('/')}{path}"
    context = ssl._create_unverified_context() if url.startswith("https:") else None
    try:
        with urllib.request.urlopen(url, context=context, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def tile_layout(base_url, dashboard, tile_id, timeout):
    """The tile's entry in GET /api/v1/dashboards/{dashboard} (its effective options), or {}."""
    status, layout = get_json(base_url, f"/api/v1/dashboards/{urllib.parse.quote(dashboard, safe='')}", timeout)
    tiles = layout.get("tiles", []) if status == 200 and isinstance(layout, dict) else []
    return next((tile for tile in tiles if tile.get("id") == tile_id), {})


def tile_of_id(driver, tile_id):
    """The dataset of tile `tile_id` on the page, or {}."""
    return driver.execute_script(
        "const t = document.querySelector(`[data-tile-id=\"${CSS.escape(arguments[0])}\"]`); return t ? {...t.dataset} : {}",
        tile_id)


def formatted(value, decimals):
    """The digits an odometer with `decimals` places shows for `value` ("-1234.50")."""
    return f"{value:.{decimals}f}"


def normalised(digits):
    """Drops leading zeros of the integer part (fixed-width odometers pad with them); "-0" is "0"."""
    negative = digits.startswith("-")
    body = digits[1:] if negative else digits
    whole, point, fraction = body.partition(".")
    whole = whole.lstrip("0") or "0"
    result = whole + point + fraction
    is_zero = set(result) <= {"0", "."}
    return ("-" if negative and not is_zero else "") + result


def choose_value(tile):
    """A value that differs from the tile's current target and fits its columns."""
    decimals = int(tile.get("decimals") or 0)
    columns = int(tile.get("columns") or 0)
    whole_digits = max(1, min(5, columns - decimals)) if columns else 4
    current = tile.get("target")
    while True:
        whole = random.randrange(10 ** (whole_digits - 1), 10 ** whole_digits) if whole_digits > 1 else random.randrange(1, 10)
        fraction = random.randrange(0, 10 ** decimals) / 10 ** decimals if decimals else 0
        value = round(whole + fraction, decimals)
        if current in (None, "") or float(current) != value:
            return value


def run(arguments, report):
    base_url = arguments.base_url.rstrip("/")
    if not report.check("producer token given", bool(arguments.token),
                        "pass --token or set ROLLBOARD_PRODUCER_TOKEN"):
        return
    driver = start_browser(arguments)
    try:
        page = f"{base_url}/d/{urllib.parse.quote(arguments.dashboard, safe='')}"
        driver.get(page)
        dataset = lambda: driver.execute_script("return {...document.body.dataset}")
        connection = wait_for(lambda: dataset().get("connection") == "open", arguments.timeout)
        board = driver.execute_script("return document.getElementById('board')?.textContent.slice(0, 120)")
        if not report.check("page connects and shows the dashboard", connection,
                            f"{page}: data-connection={dataset().get('connection')!r}, board says {board!r}"):
            return
        tile_dataset = lambda: driver.execute_script(
            "const t = document.querySelector(`[data-tile-id=\"${CSS.escape(arguments[0])}\"]`); return t ? {...t.dataset} : null",
            arguments.metric)
        tile = wait_for(lambda: (lambda t: t if t and ("digits" in t or t.get("empty") == "true") else None)(
            tile_dataset()), arguments.timeout)
        if not report.check(f"tile {arguments.metric!r} is an odometer", tile is not None and
                            tile.get("tileType") == "odometer", f"found {tile_dataset()!r}"):
            return
        if tile.get("empty") == "true":
            dash = driver.execute_script(
                "return document.querySelector(`[data-tile-id=\"${CSS.escape(arguments[0])}\"] .tile__empty`)?.innerText",
                arguments.metric)
            report.check(f"tile {arguments.metric!r} has no value yet and shows \u2014, not 0", dash == "\u2014",
                         f"placeholder {dash!r}")
        unpainted = wait_for(lambda: not driver.execute_script(UNPAINTED_TILES_JS), arguments.timeout)
        report.check("every tile shows its state", unpainted,
                     f"not painted: {', '.join(driver.execute_script(UNPAINTED_TILES_JS))}")

        value = arguments.value if arguments.value is not None else choose_value(tile)
        decimals = int(tile.get("decimals") or 0)
        expected = normalised(formatted(value, decimals))
        status, body = post_value(base_url, arguments.token, arguments.metric, value, arguments.timeout)
        accepted_at = time.monotonic()
        if not report.check(f"POST /api/v1/metrics/{arguments.metric} {{\"value\": {value}}} is accepted",
                            status == 202, f"status {status}, body {body!r}"):
            return
        max_duration = float(tile_layout(base_url, arguments.dashboard, arguments.metric, arguments.timeout)
                             .get("maxDuration") or 3)

        def settled():
            now = tile_dataset() or {}
            shown = normalised(now.get("digits", ""))
            return now if now.get("atRest") == "true" and shown == expected else None

        at_rest = wait_for(settled, arguments.timeout)
        reads_after = time.monotonic() - accepted_at
        print(f"  the odometer read {expected} {reads_after:.2f} s after the 202 (maxDuration {max_duration} s)")
        report.check("the odometer reads the posted value within maxDuration + 0.5 s of the 202",
                     at_rest is not None and reads_after <= max_duration + 0.5, f"{reads_after:.2f} s")
        groups = driver.execute_script(
            "return [...document.querySelectorAll(`[data-tile-id=\"${CSS.escape(arguments[0])}\"] .odometer__group`)]"
            ".filter((g) => getComputedStyle(g).visibility !== 'hidden').map((g) => g.textContent)", arguments.metric)
        separator = tile_layout(base_url, arguments.dashboard, arguments.metric, arguments.timeout).get("groupSeparator")
        if separator and abs(value) >= 1000:
            report.check(f"the odometer groups its digits with {separator!r}", bool(groups) and set(groups) == {separator},
                         f"visible separators {groups!r}")
        if at_rest:
            time.sleep(REST_CONFIRM_SECONDS)
            at_rest = settled()
        last = tile_dataset() or {}
        report.check(f"odometer comes to rest showing {expected}", at_rest is not None,
                     f"shows {last.get('digits')!r} (at rest: {last.get('atRest')}, target {last.get('target')!r})")

        painted = painted_reading(lambda: driver.execute_script(READ_PAINTED_DIGITS, arguments.metric), last.get("digits"))
        report.check("the canvas shows each column's digit, a whole cell of its strip",
                     normalised(last.get("digits", "")) == expected and painted_shows(painted, last.get("digits")),
                     f"data-digits {last.get('digits')!r}, painted {painted!r}")
        painter = driver.execute_script("return document.documentElement.dataset.digitPainter || null")
        report.check("a worker paints the odometers' digits (the page's main thread only says what to copy where)",
                     painter == "worker", f"data-digit-painter {painter!r}")

        second = round(value + 12.5, decimals)
        status, _ = post_value(base_url, arguments.token, arguments.metric, second, arguments.timeout)
        arrow = wait_for(lambda: (lambda t: t if t.get("trend") == "up" else None)(tile_dataset() or {}), arguments.timeout)
        layout = tile_layout(base_url, arguments.dashboard, arguments.metric, arguments.timeout)
        if layout.get("delta") == "previous":
            change = driver.execute_script(
                "const c = document.querySelector(`[data-tile-id=\"${CSS.escape(arguments[0])}\"] .tile__change`);"
                "return c && !c.hidden ? {text: c.textContent, color: getComputedStyle(c).color} : null", arguments.metric)
            report.check("a second value shows a change arrow with the delta, coloured as better",
                         status == 202 and arrow is not None and change is not None and change["text"].startswith("\u25B2 +12.5"),
                         f"arrow {arrow!r}, change {change!r}")
        if arguments.threshold_tile:
            threshold = tile_layout(base_url, arguments.dashboard, arguments.threshold_tile, arguments.timeout)
            limit = threshold.get("warning")
            edge_js = ("const t = document.querySelector(`[data-tile-id=\"${CSS.escape(arguments[0])}\"]`);"
                       "const b = t.querySelector('.tile__body');"
                       "return {edge: getComputedStyle(t).boxShadow, value: getComputedStyle(b).color, room: b.getBoundingClientRect().width}")
            status, _ = post_value(base_url, arguments.token, arguments.threshold_tile, limit, arguments.timeout)
            colored = wait_for(lambda: (lambda t: t if t.get("status") == "warning" else None)(
                tile_of_id(driver, arguments.threshold_tile)), arguments.timeout)
            edge = driver.execute_script(edge_js, arguments.threshold_tile)
            report.check(f"{arguments.threshold_tile!r} at its warning threshold {limit} shows the warning colour: its value "
                         "and an edge inside its border",
                         status == 202 and colored is not None and edge["edge"].startswith(edge["value"] + " ")
                         and edge["edge"].endswith(" inset"), f"tile {tile_of_id(driver, arguments.threshold_tile)!r}, {edge}")
            # The digits are painted in the status's colour, there and back (the page keeps a strip per status); the
            # edge takes no room, so a status that flips every second never makes the value fit its tile again.
            inks, edges = [], []
            # The last value lies between the good one and the threshold: a status without an edge ("normal").
            for posted in (limit, round(limit - 5, 1), limit, round(limit - 2.5, 1)):
                post_value(base_url, arguments.token, arguments.threshold_tile, posted, arguments.timeout)
                rested = wait_for(lambda: (lambda t: t if t.get("atRest") == "true" and t.get("target") == f"{posted:g}"
                                           else None)(tile_of_id(driver, arguments.threshold_tile)), arguments.timeout)
                read = painted_reading(lambda: driver.execute_script(READ_PAINTED_DIGITS, arguments.threshold_tile),
                                       (rested or {}).get("digits"))
                inks.append((posted, (rested or {}).get("status"), read.get("ink") if painted_shows(read, (rested or {}).get("digits")) else None))
                edges.append(dict(driver.execute_script(edge_js, arguments.threshold_tile), status=(rested or {}).get("status")))
            report.check(f"{arguments.threshold_tile!r}'s value keeps its room as its status changes and changes back",
                         len({round(edge["room"], 2) for edge in edges}) == 1 and edges[0]["room"] > 0
                         and len({edge["status"] for edge in edges}) == 3 and edges[3]["edge"] == "none", f"{edges!r}")
            inks = inks[:3]
            report.check(f"{arguments.threshold_tile!r}'s digits are painted in its status's colour as it changes and changes back",
                         all(ink for _, _, ink in inks) and inks[0][2] == inks[2][2] != inks[1][2] and inks[0][1] != inks[1][1],
                         f"(value, status, ink) {inks!r}")

        tile_of = lambda tile_id: driver.execute_script(
            "const t = document.querySelector(`[data-tile-id=\"${CSS.escape(arguments[0])}\"]`); return t ? {...t.dataset} : null",
            tile_id)
        if arguments.wheel:
            layout_status, layout = get_json(base_url, f"/api/v1/dashboards/{urllib.parse.quote(arguments.dashboard, safe='')}",
                                             arguments.timeout)
            tiles = layout.get("tiles", []) if isinstance(layout, dict) else []
            contents = next((tile.get("contents") for tile in tiles if tile.get("id") == arguments.wheel), None) or []
            index = len(contents) - 1
            status, body = post_json(base_url, arguments.token, f"/api/v1/wheels/{arguments.wheel}", {"index": index},
                                     arguments.timeout)
            shown = wait_for(lambda: (lambda t: t if t and t.get("top") == contents[index] and t.get("position") in
                                      (str(index), f"{index}.0") else None)(tile_of(arguments.wheel)), arguments.timeout)
            report.check(f"wheel {arguments.wheel!r} turns to its last label {contents[index] if contents else None!r}",
                         status == 202 and shown is not None, f"POST {status} {body!r}; tile {tile_of(arguments.wheel)!r}")
        if arguments.carousel:
            status, body = post_json(base_url, arguments.token, f"/api/v1/carousels/{arguments.carousel}",
                                     {"action": "goto", "page": 2}, arguments.timeout)
            shown = wait_for(lambda: (tile_of(arguments.carousel) or {}).get("page") == "2", arguments.timeout)
            report.check(f"carousel {arguments.carousel!r} goes to page 2 and its dots show it",
                         status == 202 and shown, f"POST {status} {body!r}; tile {tile_of(arguments.carousel)!r}")
            slides = [{"text": "Welcome, visitors"}, {"text": "Fire drill at 3", "color": "#c0392b"},
                      {"image": "data:image/svg+xml;base64," + base64.b64encode(
                          b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
                          b'<rect width="40" height="20" fill="#2da44e"/></svg>').decode(), "alt": "A green square"}]
            status, body = post_json(base_url, arguments.token, f"/api/v1/carousels/{arguments.carousel}/slides",
                                     {"slides": slides}, arguments.timeout)
            shown = wait_for(lambda: (tile_of(arguments.carousel) or {}).get("slides") == "3", arguments.timeout)
            painted = driver.execute_script(
                "const t = document.querySelector(`[data-tile-id=\"${CSS.escape(arguments[0])}\"]`);"
                "return t ? {slides: [...t.querySelectorAll('.carousel__slide')].map((s) => s.textContent),"
                " dots: t.querySelectorAll('.carousel__dot').length,"
                " color: getComputedStyle(t.querySelectorAll('.carousel__text')[1]).color} : null", arguments.carousel)
            report.check(f"posted slides replace carousel {arguments.carousel!r}'s: three slides, three dots, the colour",
                         status == 202 and shown and painted is not None and painted["dots"] == 3
                         and painted["slides"][:2] == ["Welcome, visitors", "Fire drill at 3"]
                         and painted["color"] == "rgb(192, 57, 43)",
                         f"POST {status} {body!r}; tile {tile_of(arguments.carousel)!r}; painted {painted!r}")
        if arguments.text_tile:
            message = "Deploy freeze until Friday"
            status, body = post_json(base_url, arguments.token, f"/api/v1/texts/{arguments.text_tile}",
                                     {"text": message, "color": "#e67e22"}, arguments.timeout)
            shown = wait_for(lambda: (lambda t: t if t and t.get("text") == message and t.get("color") == "#e67e22" else None)(
                tile_of(arguments.text_tile)), arguments.timeout)
            painted = driver.execute_script(
                "const t = document.querySelector(`[data-tile-id=\"${CSS.escape(arguments[0])}\"]`);"
                "const p = t?.querySelector('.text');"
                "return p ? {text: p.textContent, color: getComputedStyle(p).color, edge: getComputedStyle(t).boxShadow,"
                " fits: p.scrollHeight <= t.querySelector('.tile__body').clientHeight} : null", arguments.text_tile)
            report.check(f"text tile {arguments.text_tile!r} shows the posted message in its colour, within the tile",
                         status == 202 and shown is not None and painted is not None and painted["text"] == message
                         and painted["color"] == "rgb(230, 126, 34)" and painted["edge"].startswith("rgb(230, 126, 34) ")
                         and painted["edge"].endswith(" inset")
                         and painted["fits"],
                         f"POST {status} {body!r}; tile {tile_of(arguments.text_tile)!r}; painted {painted!r}")

        state = dataset()
        banner = driver.execute_script("const b = document.getElementById('banner'); return b && !b.hidden ? b.textContent : null")
        errors = [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
        report.check("page is still connected, without banner or script errors",
                     state.get("connection") == "open" and banner is None and not errors,
                     f"connection={state.get('connection')!r}, banner={banner!r}, errors={errors[:3]!r}")
        report.check("the page speaks protocol 2 and counts the stream's frames",
                     state.get("protocol") == "2" and int(state.get("seq") or 0) > 0,
                     f"data-protocol={state.get('protocol')!r}, data-seq={state.get('seq')!r}")
        check_protocol_refusal(driver, page, arguments, report)
    finally:
        try:
            wait_for(lambda: not driver.execute_script(
                "return document.querySelector('[data-at-rest=\"false\"]') !== null"), 5)
            directory = os.path.dirname(os.path.abspath(arguments.screenshot))
            os.makedirs(directory, exist_ok=True)
            saved = driver.save_screenshot(arguments.screenshot)
            report.check(f"screenshot saved to {arguments.screenshot}", saved and os.path.getsize(arguments.screenshot) > 0)
        except (OSError, WebDriverException) as error:
            report.check(f"screenshot saved to {arguments.screenshot}", False, str(error))
        driver.quit()


def check_protocol_refusal(driver, page, arguments, report):
    """A second tab whose WebSocket sees the server's hello claim protocol 3: the page must say so and not paint."""
    driver.switch_to.new_window("tab")
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          addEventListener(type, listener, options) {
            if (type !== "message") return super.addEventListener(type, listener, options);
            return super.addEventListener(type, (event) => {
              const data = typeof event.data === "string" ? event.data.replace('"protocol":2,', '"protocol":3,') : event.data;
              listener(new MessageEvent("message", { data }));
            }, options);
          }
        };
    """})
    driver.get(page)
    closed = wait_for(lambda: driver.execute_script("return document.body.dataset.connection") == "closed",
                      arguments.timeout)
    message = driver.execute_script("return document.getElementById('board')?.textContent ?? ''")
    tiles = driver.execute_script("return document.querySelectorAll('[data-tile-id]').length")
    report.check("a hello in a protocol the page does not speak is refused with a visible message, no tiles painted",
                 closed and "protocol 3" in message and tiles == 0,
                 f"connection closed={closed}, board says {message[:100]!r}, {tiles} tiles")
    driver.close()
    driver.switch_to.window(driver.window_handles[0])


def main():
    arguments = parse_arguments()
    report = Report()
    try:
        run(arguments, report)
    except WebDriverException as error:
        report.check("browser session", False, error.msg or str(error))
    print(f"{report.passed} passed, {report.failed} failed")
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
