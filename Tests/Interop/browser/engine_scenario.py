"""The demo dashboard in one browser engine: what every engine test checks, written once and driven through a
small adapter, so the same checks run in Firefox ESR (Marionette), WebKitGTK (WebKitWebDriver) and QtWebEngine
(runJavaScript). Standard library only: the QtWebEngine test runs under Debian's python3, not the venv.

The adapter gives `evaluate(expression)` (a JavaScript expression's JSON value), `pause(seconds)` (waiting while
the engine keeps running), `screenshot(path)` and `native_errors()` (what the engine itself logged, if it can say).

Checks, against a real `rollboard serve` over TLS: the page connects with permessage-deflate (and finds flex `gap`, so
the margins meant for engines without it stay off); a posted value lands
exactly on an odometer (`data-digits`, at rest; the canvas shows each column's digit, pixel for pixel a whole cell of
the strip it copies from) and on a counter (`data-text`); a carousel turns by itself (its
position moves between slides and its page changes); no script error is recorded (boot.js's `data-script-errors`)
or logged by the engine; a screenshot is saved. Then the story dashboard (run_story): posted values show as a chart
with its range and time labels, an arc gauge whose marks have halos, a sparkline with its newest point marked and a
leaderboard, with no script error, and a second screenshot NAME-story.png. The probes are ES5, so they run in any
engine.
"""

import os
import random
import time

from odometer_probe import PAINTED_DIGITS_JS, painted_matches, painted_reading
from rollboard_process import Checks

DATASET_JS = ("(function (id) { var t = document.querySelector('[data-tile-id=\"' + id + '\"]'); if (!t) return null;"
              " var d = {}; for (var k in t.dataset) d[k] = t.dataset[k]; return d; })")


def tile(page, tile_id):
    return page.evaluate(f"{DATASET_JS}({tile_id!r})")


def wait_for(page, predicate, timeout, step=0.1):
    """Polls `predicate()` until it is truthy or `timeout` seconds pass; returns its last result."""
    deadline = time.monotonic() + timeout
    result = predicate()
    while not result and time.monotonic() < deadline:
        page.pause(step)
        result = predicate()
    return result


def normalised(digits):
    negative = digits.startswith("-")
    whole, point, fraction = (digits[1:] if negative else digits).partition(".")
    return ("-" if negative else "") + (whole.lstrip("0") or "0") + point + fraction


def run_scenario(page, server, producer_token, engine, screenshot, timeout=30.0, page_path="/d/demo"):
    """Opens the demo dashboard in `page` and runs the checks; returns the Checks."""
    checks = Checks()
    page.open(server.base_url + page_path)
    body = lambda name: page.evaluate(f"document.body ? document.body.getAttribute('data-{name}') : null")
    opened = wait_for(page, lambda: body("connection") == "open", timeout)
    checks.check(bool(opened), f"{engine}: the page connects over wss:// and gets its hello",
                 f"data-connection={body('connection')!r}, script error={page.evaluate(SCRIPT_ERROR_JS)!r}")
    if not opened:
        save(page, screenshot, checks, engine)
        return checks
    fallback = page.evaluate("document.documentElement.className.indexOf('no-flex-gap') >= 0")
    checks.check(fallback is False, f"{engine}: flex gap is detected, so the margins for old engines stay off",
                 f"no-flex-gap on <html>: {fallback!r}")
    extensions = body("extensions") or ""
    checks.check("permessage-deflate" in extensions, f"{engine}: the WebSocket runs with permessage-deflate",
                 f"extensions {extensions!r}")

    value = round(random.randrange(1000, 99999) + random.randrange(0, 100) / 100, 2)
    status, answer = server.request("POST", "/api/v1/metrics/revenue", {"value": value}, token=producer_token)
    expected = normalised(f"{value:.2f}")
    landed = wait_for(page, lambda: (lambda t: t if t and t.get("atRest") == "true"
                                     and normalised(t.get("digits", "")) == expected else None)(tile(page, "revenue")),
                      timeout)
    checks.check(status == 202 and bool(landed), f"{engine}: the odometer comes to rest on the posted {expected}",
                 f"POST {status} {answer!r}; tile {tile(page, 'revenue')!r}")
    shown = (tile(page, "revenue") or {}).get("digits", "").replace("-", "").replace(".", "")
    painted = painted_reading(lambda: page.evaluate(f"{PAINTED_DIGITS_JS}('revenue')"), shown, pause=page.pause)
    painter = page.evaluate("document.documentElement.dataset.digitPainter || null")
    print(f"  {engine}: the digits are painted by the {painter}")
    checks.check(painted_matches(painted, shown),
                 f"{engine}: the odometer's canvas shows each column's digit, a whole cell of its strip",
                 f"data-digits {shown!r}; painted {painted!r}; painted by the {painter}")

    orders = random.randrange(1000, 99999)
    status, answer = server.request("POST", "/api/v1/metrics/orders", {"value": orders}, token=producer_token)
    # The server formats the counter's text (its `format` and `grouping`); the digits shown must be the value's.
    counted = wait_for(page, lambda: (lambda t: t.get("target") == str(orders)
                                      and "".join(c for c in t.get("text", "") if c.isdigit()) == str(orders))(
        tile(page, "orders") or {}), timeout)
    checks.check(status == 202 and bool(counted), f"{engine}: the counter counts to the posted {orders}",
                 f"POST {status} {answer!r}; tile {tile(page, 'orders')!r}")

    pages, fractional = set(), False
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not (len(pages) >= 2 and fractional):
        news = tile(page, "news") or {}
        if news.get("page") is not None:
            pages.add(news["page"])
        position = float(news.get("position") or 0)
        fractional = fractional or abs(position - round(position)) > 0.01
        page.pause(0.03)
    checks.check(len(pages) >= 2 and fractional, f"{engine}: the carousel turns by itself (moving between slides)",
                 f"pages seen {sorted(pages)}, a position between slides seen: {fractional}")

    errors = page.evaluate(SCRIPT_ERROR_JS)
    native = page.native_errors()
    checks.check(not errors and not native and body("connection") == "open",
                 f"{engine}: no script error recorded or logged, still connected",
                 f"page: {errors!r}; engine: {native[:3]!r}; connection {body('connection')!r}")
    save(page, screenshot, checks, engine)
    run_story(page, server, producer_token, engine, screenshot, timeout, checks)
    return checks


STORY_JS = """(function () {
  function shown(sel) { var out = []; var all = document.querySelectorAll(sel);
    for (var i = 0; i < all.length; i++) { if (!all[i].hidden && all[i].textContent) out.push(all[i].textContent); }
    return out; }
  var chart = document.querySelector('[data-tile-id="requests"]');
  var dial = document.querySelector('[data-tile-id="capacity"] .gauge__dial');
  var spark = document.querySelector('[data-tile-id="pageviews"] .tile__spark-newest');
  return {high: shown('[data-tile-id="requests"] .chart__high'), low: shown('[data-tile-id="requests"] .chart__low'),
          times: shown('[data-tile-id="requests"] .chart__time'), text: chart ? chart.getAttribute('data-text') : null,
          halos: document.querySelectorAll('[data-tile-id="capacity"] .gauge__mark-halo').length,
          dial: dial ? dial.getBoundingClientRect().width : 0, spark: spark ? spark.getAttribute('d') : null,
          rows: (document.querySelector('[data-tile-id="leaders"]') || {dataset: {}}).dataset.rows || null};
})()"""


def run_story(page, server, producer_token, engine, screenshot, timeout, checks):
    """The story dashboard in the same engine (issue 35's drawing on the TV baseline): posted values show as a chart
    with its range and time labels, an arc gauge with its marks' halos, a sparkline with its newest point marked and
    a leaderboard; no script error; a screenshot NAME-story.png beside the demo's."""
    page.open(server.base_url + "/d/story")
    body = lambda name: page.evaluate(f"document.body ? document.body.getAttribute('data-{name}') : null")
    wait_for(page, lambda: body("connection") == "open", timeout)
    posts = [server.request("POST", "/api/v1/metrics/" + metric, {"value": value}, token=producer_token)[0]
             for metric, value in (("capacity", 74), ("signups", 248), ("requests", 120.4), ("pageviews", 48213))]
    posts.append(server.request("POST", "/api/v1/leaderboards/leaders", {"entries": {"Ana": 37, "Ben": 31, "Farid": 43}},
                                token=producer_token)[0])
    story = wait_for(page, lambda: (lambda s: s if s and s.get("text") == "120.4" and s.get("high") and s.get("times")
                                    and s.get("rows") == "Farid|Ana|Ben" and s.get("spark") else None)(
        page.evaluate(STORY_JS)), timeout) or page.evaluate(STORY_JS)
    checks.check(posts == [202] * 5 and bool(story and story.get("high") and story.get("low") and story.get("times"))
                 and story.get("halos", 0) >= 3 and story.get("dial", 0) > 100 and bool(story.get("spark"))
                 and story.get("rows") == "Farid|Ana|Ben",
                 f"{engine}: the story dashboard draws its chart labels (range and times), the arc's marks with halos, "
                 "the sparkline's newest point and the leaderboard", f"POST {posts}; {story!r}")
    errors = page.evaluate(SCRIPT_ERROR_JS)
    checks.check(not errors and body("connection") == "open", f"{engine}: no script error on the story dashboard",
                 f"page: {errors!r}; connection {body('connection')!r}")
    base, extension = os.path.splitext(screenshot)
    save(page, f"{base}-story{extension}", checks, engine)


SCRIPT_ERROR_JS = ("document.documentElement.getAttribute('data-script-errors') ? "
                   "document.documentElement.getAttribute('data-script-error') : null")


def save(page, path, checks, engine):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    try:
        page.screenshot(path)
        saved = os.path.exists(path) and os.path.getsize(path) > 0
    except Exception as error:  # any engine failure here is a failed check, not a crash
        saved = False
        print(f"  screenshot: {error}")
    checks.check(saved, f"{engine}: screenshot saved to {path}")
