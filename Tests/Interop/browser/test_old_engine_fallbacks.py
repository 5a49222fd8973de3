#!/usr/bin/env python3
"""The page's fallbacks for engines older than its newer APIs, exercised in headless Chromium with those APIs taken
away before the page's scripts run (DevTools `Page.addScriptToEvaluateOnNewDocument`), against a real server.

Taken away, as a Chromium 63 or Safari 12 lacks them: `Element.replaceChildren` (Chromium 86, Safari 14),
`ResizeObserver` (64, 13.1), `PointerEvent` (55, Safari 13), `MediaQueryList.addEventListener` (Safari 14),
`Element.animate` (Safari 13.1; the page no longer uses it: odometer digits are painted into a canvas in every engine),
`OffscreenCanvas` and `transferControlToOffscreen` (Chromium 69, Safari 16.4: the digits are then painted on the page's
main thread instead of by a worker).
Checks: the page starts without a script error; a posted value lands exactly on the odometer (its canvas shows the
digits too, painted by the page) and the counter (columns rebuilt through the replaceChildren fallback); the carousel turns; a window resize
re-measures the tiles (no ResizeObserver); a touch swipe on the carousel holds it and moves it to the next slide
(touch events instead of Pointer Events).
Then, with Chromium's own flex `gap` switched off, `.no-flex-gap` (what page.js sets where flex gap is missing)
places a tile header's items exactly as `gap` does, and keeps the carousel dots apart.
Last, in a second Chromium with every API in place, the digit painter's worker cannot start (its script is not found):
the page says so (`data-digit-painter`), takes its canvases back and paints the digits itself, without a script error.

Usage: test_old_engine_fallbacks.py --binary .build/debug/rollboard
"""

import sys

from browser_session import PRODUCER_TOKEN, body_data, run
from rollboard_process import Checks, RollboardProcess
from odometer_probe import READ_PAINTED_DIGITS, painted_reading, painted_shows
from test_dashboard import normalised, start_browser, wait_for

OLD_ENGINE_JS = """
delete Element.prototype.replaceChildren;
delete Document.prototype.replaceChildren;
delete DocumentFragment.prototype.replaceChildren;
delete window.ResizeObserver;
delete window.PointerEvent;
delete Element.prototype.animate;
MediaQueryList.prototype.addEventListener = undefined;
delete window.OffscreenCanvas;
delete HTMLCanvasElement.prototype.transferControlToOffscreen;
window.oldEngine = true;
"""

# A worker that cannot start: every Worker the page makes loads a script that is not there.
MISSING_WORKER_JS = """
const RealWorker = window.Worker;
window.Worker = function () { return new RealWorker('/js/tiles/no-such-worker.js'); };
"""

# The spaces between the visible items of a tile header (`gap`, or the `.no-flex-gap` margins), and whether the dots are apart.
ITEM_EDGES_JS = """
const spaces = (selector) => {
  const boxes = Array.from(document.querySelectorAll(selector)).filter((element) => element.offsetParent !== null)
    .map((element) => element.getBoundingClientRect());
  return boxes.slice(1).map((box, index) => Math.round((box.left - boxes[index].right) * 10) / 10);
};
const dots = Array.from(document.querySelectorAll('[data-tile-id="news"] .carousel__dot')).map((dot) => dot.getBoundingClientRect());
return {
  tileHeader: spaces('[data-tile-id="revenue"] .tile__header > *'),
  dotsApart: dots.length >= 2 && dots.every((dot, index) => index === 0 || dot.left - dots[index - 1].right >= 4),
};
"""

# Through the CSSOM: the page's Content-Security-Policy (style-src 'self') refuses a <style> element.
NO_FLEX_GAP_CSS = """
const sheet = document.styleSheets[0];
sheet.insertRule('.board-header, .tile__header, .carousel__dots, .playlist, .banner { gap: 0 !important; }', sheet.cssRules.length);
document.documentElement.classList.add('no-flex-gap');
"""


def tile(driver, tile_id):
    return driver.execute_script(
        "const t = document.querySelector(`[data-tile-id=\"${arguments[0]}\"]`); return t ? Object.assign({}, t.dataset) : {}",
        tile_id)


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    driver = start_browser(arguments)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OLD_ENGINE_JS})
        driver.get(f"{server.base_url}/d/demo")
        opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        missing = driver.execute_script("return [typeof Element.prototype.replaceChildren, typeof ResizeObserver,"
                                        " typeof PointerEvent, typeof MediaQueryList.prototype.addEventListener,"
                                        " typeof Element.prototype.animate, typeof OffscreenCanvas,"
                                        " typeof HTMLCanvasElement.prototype.transferControlToOffscreen]")
        checks.check(opened and missing == ["undefined"] * 7,
                     "without replaceChildren, ResizeObserver, PointerEvent, MediaQueryList.addEventListener, "
                     "Element.animate and OffscreenCanvas the page starts",
                     f"connection {body_data(driver, 'connection')!r}, typeof {missing}")

        server.request("POST", "/api/v1/metrics/revenue", {"value": 86000.5}, token=PRODUCER_TOKEN)
        wait_for(lambda: tile(driver, "revenue").get("target") == "86000.5", arguments.timeout)
        value = 86420.75  # a second value: the revenue tile (delta: previous) shows its change arrow too
        server.request("POST", "/api/v1/metrics/revenue", {"value": value}, token=PRODUCER_TOKEN)
        server.request("POST", "/api/v1/metrics/orders", {"value": 4242}, token=PRODUCER_TOKEN)
        landed = wait_for(lambda: tile(driver, "revenue").get("atRest") == "true"
                          and normalised(tile(driver, "revenue").get("digits", "")) == "86420.75", arguments.timeout)
        painted = painted_reading(lambda: driver.execute_script(READ_PAINTED_DIGITS, "revenue"), "86420.75")
        counted = wait_for(lambda: tile(driver, "orders").get("target") == "4242"
                           and "".join(c for c in tile(driver, "orders").get("text", "") if c.isdigit()) == "4242",
                           arguments.timeout)
        painter = driver.execute_script("return document.documentElement.dataset.digitPainter || null")
        checks.check(bool(landed) and painted_shows(painted, "86420.75") and bool(counted) and painter == "page",
                     "a posted value lands exactly on the odometer (its canvas too, painted by the page) and the counter",
                     f"odometer {tile(driver, 'revenue')!r}, painted {painted.get('digits')!r} by {painter!r}, "
                     f"counter {tile(driver, 'orders')!r}")

        pages = set()
        turned = wait_for(lambda: pages.add(tile(driver, "news").get("page")) or len(pages - {None}) >= 2, 15, )
        checks.check(bool(turned), "the carousel turns", f"pages seen {pages}")

        cell_before = painted.get("cell", 0)
        driver.set_window_size(900, 700)
        resized = wait_for(lambda: (lambda p: p if p.get("cell") and abs(p["cell"] - cell_before) > 1
                                    and painted_shows(p, "86420.75") else None)(
            driver.execute_script(READ_PAINTED_DIGITS, "revenue") or {}), arguments.timeout)
        checks.check(bool(resized), "a window resize re-measures the odometer (no ResizeObserver): new cell, same digits",
                     f"cell {cell_before} then {(driver.execute_script(READ_PAINTED_DIGITS, 'revenue') or {})!r}")

        swipe(driver, checks, arguments)

        driver.set_window_size(1280, 720)
        driver.execute_script("document.documentElement.classList.remove('no-flex-gap')")
        wait_for(lambda: False, 0.5)
        with_gap = driver.execute_script(ITEM_EDGES_JS)
        driver.execute_script(NO_FLEX_GAP_CSS)
        with_margins = driver.execute_script(ITEM_EDGES_JS)
        header_gap, header_margins = with_gap["tileHeader"], with_margins["tileHeader"]
        close = len(header_gap) >= 1 and header_gap[0] > 0 and len(header_gap) == len(header_margins) and all(
            abs(a - b) <= 0.5 for a, b in zip(header_gap, header_margins))
        checks.check(close and with_margins["dotsApart"],
                     "without flex gap, .no-flex-gap margins place a tile header's title and change arrow as gap does, "
                     "and keep the carousel dots apart", f"gap {with_gap}, margins {with_margins}")
        errors = [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
        script_error = driver.execute_script("return document.documentElement.dataset.scriptError || null")
        checks.check(not errors and script_error is None, "no script errors", f"{errors[:3]} {script_error!r}")
    finally:
        driver.quit()
    failing_worker(server, arguments, checks)


def failing_worker(server, arguments, checks):
    """The digit painter's worker cannot start: the page takes its canvases back and paints the digits itself, the value
    already on screen (at rest, no frame coming) as well as a new one."""
    driver = start_browser(arguments)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MISSING_WORKER_JS})
        driver.get(f"{server.base_url}/d/demo")
        wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        painter = wait_for(lambda: (lambda p: p if p and p.startswith("page: worker failed") else None)(
            driver.execute_script("return document.documentElement.dataset.digitPainter || null")), arguments.timeout)
        # The value posted by the first part of this test is at rest: only the failure can make it painted again.
        shown = tile(driver, "revenue").get("digits", "")
        at_rest = painted_reading(lambda: driver.execute_script(READ_PAINTED_DIGITS, "revenue"), shown)
        value = 97531.25
        server.request("POST", "/api/v1/metrics/revenue", {"value": value}, token=PRODUCER_TOKEN)
        landed = wait_for(lambda: tile(driver, "revenue").get("atRest") == "true"
                          and normalised(tile(driver, "revenue").get("digits", "")) == "97531.25", arguments.timeout)
        painted = painted_reading(lambda: driver.execute_script(READ_PAINTED_DIGITS, "revenue"), "97531.25")
        script_error = driver.execute_script("return document.documentElement.dataset.scriptError || null")
        checks.check(bool(painter) and painted_shows(at_rest, shown) and bool(landed)
                     and painted_shows(painted, "97531.25") and script_error is None,
                     "when the digit painter's worker cannot start, the page paints the digits itself: the value at rest "
                     "and a new one", f"data-digit-painter {painter!r}; at rest {shown!r} read {at_rest.get('digits')!r}; "
                     f"new value read {painted.get('digits')!r}; script error {script_error!r}")
    finally:
        driver.quit()


def swipe(driver, checks, arguments):
    """A touch swipe leftwards across the carousel: held while the finger is down, then the next slide."""
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    box = driver.execute_script(
        "const r = document.querySelector('[data-tile-id=\"news\"] .carousel__viewport').getBoundingClientRect();"
        "return {x: r.left, y: r.top, width: r.width, height: r.height}")
    y = box["y"] + box["height"] / 2
    start, end = box["x"] + box["width"] * 0.8, box["x"] + box["width"] * 0.2
    page_before = None
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start, "y": y}]})
    held = wait_for(lambda: tile(driver, "news").get("held") == "true", arguments.timeout)
    page_before = tile(driver, "news").get("page")
    for step in range(1, 6):
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove",
                                                            "touchPoints": [{"x": start + (end - start) * step / 5, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    count = int(tile(driver, "news").get("slides") or 4)
    expected = str((int(page_before or 0) + 1) % count)
    moved = wait_for(lambda: tile(driver, "news").get("held") == "false" and tile(driver, "news").get("page") == expected,
                     arguments.timeout)
    checks.check(bool(held) and bool(moved), "a touch swipe holds the carousel, then moves it to the next slide (no Pointer Events)",
                 f"held {held}, page {page_before} then {tile(driver, 'news').get('page')} (expected {expected})")


if __name__ == "__main__":
    sys.exit(run(__doc__, lambda config: None, scenario))
