"""The screenshot and DOM suite (issue 35): every tile type, at rest and mid-motion, both themes, 1920×1080 and
1280×720, in headless Chromium, against reference PNGs in Tests/Interop/browser/screenshots/.

The real server serves the page and a `gallery` dashboard (odometer, counter, arc and bar gauges, clock, leaderboard,
line/area/bar charts, an odometer with a `trend` sparkline, wheel, carousel, text). So that the pictures do not
depend on the time or on the server's timing, a script Chromium runs before the page wraps its WebSocket: the
server's `hello` gives the layout, and its tile STATEs are replaced by fixed ones (STATES below, docs/protocol.md);
the mid-motion picture is a fixed `state` message with every tile half-way (digits between two numbers, the needle and
the bar moving, rows sliding and fading, the chart sliding half a step, the wheel and carousel between two labels).
The server's own frames are then dropped, so each picture is one deterministic frame.

Each picture is compared with its reference by pixelmatch (anti-aliasing ignored, colour threshold 0.1); more than
0.5 % of its pixels differing fails. Differences are written to reports/screenshots/ (`*-actual.png`,
`*-diff.png`). Accept new references after an intended change with `--accept` (one command, see README.md here).

In the same run, at 1920×1080, the DOM is checked in both themes and both phases:
- every text shown (a text node with a box, not hidden, not wholly clipped away by a scrolling or clipping box) lies
  inside its tile's box (1 px slack);
- no two texts shown overlap (their visible boxes intersect by more than 2 px each way);
- every text is at least the legible minimum, MINIMUM_PX = 22 px of font size at 1080p (titles are 28-56 px);
- a chart shows its range's low and high labels and 3 to 5 time labels, in the dashboard's time zone and language;
- an arc gauge's dial uses at least 80 % of its tile's shorter side, and the gauges' goal and threshold marks are
  drawn over the fill with a halo (visible over an amber fill); a `trend` sparkline spans at least 80 % of its
  tile's width and 25 % of its height, its newest point marked; a leaderboard's last row ends inside the tile's
  padding.

`--docs` also writes docs/screenshots/story-{dark,light}.png: the story dashboard with fixed values.

Usage: test_screenshots.py --binary .build/debug/rollboard [--accept] [--docs]
"""

import io
import json
import os
import sys

from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch

from browser_session import REPOSITORY, body_data, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import start_browser, wait_for

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCES = os.path.join(HERE, "screenshots")
REPORTS = os.path.join(REPOSITORY, "reports", "screenshots")
MINIMUM_PX = 22
MISMATCH_LIMIT = 0.005
SIZES = ((1920, 1080), (1280, 720))
THEMES = ("dark", "light")

GALLERY = """
id: gallery
title: Every tile
locale: en-GB
timeZone: Europe/Berlin
grid: { columns: 4, rows: 4 }
tiles:
  - {id: revenue, type: odometer, title: Revenue today, decimals: 2, maxColumns: 9, prefix: "$", locale: en-US,
     position: {column: 1, row: 1, width: 2}}
  - {id: orders, type: counter, title: Orders, format: "%d", grouping: "#,##0"}
  - {id: clock, type: clock, title: Berlin}
  - {id: capacity, type: gauge, title: Capacity, style: arc, min: 0, max: 100, suffix: " %", lowerIsBetter: true,
     goal: 60, warning: 80, critical: 95}
  - {id: signups, type: gauge, title: Sign-ups, style: bar, goal: 400, warning: 100}
  - {id: leaders, type: leaderboard, title: Sales this week, size: 5, suffix: " sold", position: {column: 3, row: 2, width: 2}}
  - {id: requests, type: chart, title: Requests per second, style: line, window: "last 30m", step: 1m, decimals: 1,
     goal: 150, warning: 90, critical: 60, position: {column: 1, row: 3, width: 2}}
  - {id: queue, type: chart, title: Queue length, style: area, window: "last 10m", step: 1m}
  - {id: hourly, type: chart, title: Orders per minute, style: bars, window: "last 10m", step: 1m, aggregate: sum}
  - {id: pageviews, type: odometer, title: Page views, columns: 6, trend: 1h}
  - {id: status, type: wheel, title: Platform status, contents: [Operational, Degraded, Maintenance]}
  - {id: news, type: carousel, title: News, slides: [{text: "Record day: 1,000 orders"}, {text: "Lyon opens Monday"}]}
  - {id: notice, type: text, title: Notice, text: "Fire drill at 3 pm: meet at the car park"}
"""

N = 29_928_240  # 2026-11-26 12:00 UTC in minutes since 1970: 13:00 in Berlin

REQUESTS = [96.0, 97.5, 99.1, 98.4, 101.2, 103.0, 102.2, None, None, 104.8, 106.1, 105.0, 107.3, 109.0, 108.2, 110.4,
            None, 111.0, None, 112.5, 113.9, 112.0, 114.6, 116.2, 115.1, 117.8, 118.4, 117.0, 119.6]

LONG_NOTICE = ("Reminder: the quarterly fire drill starts at 3 pm today. Leave by the nearest stairway, never the lifts, "
               "meet your team lead at the car park, and wait there until the wardens give the all-clear signal. Visitors "
               "stay with their host. Anyone who needs help on the stairs tells reception before 2 pm, and a warden will "
               "come to them. Thank you!")

REST = {
    "revenue": {"d": [0, 4000, 8000, 2000, 1000, 3000, 0, 7000], "negative": False, "target": 48213.07},
    "orders": {"text": "1,287", "target": 1287},
    "clock": {"time": "13:05:09", "date": "Thursday, 26 November 2026"},
    "capacity": {"f": 8400, "text": "84 %", "target": 84, "status": "warning"},
    "signups": {"f": 6200, "text": "248", "target": 248, "status": "normal"},
    "leaders": {"n": ["Farid", "Ana", "Ben", "Chloé", "Dev"], "t": ["43 sold", "37 sold", "31 sold", "30 sold", "29 sold"],
                "r": [1, 2, 3, 4, 5], "y": [0, 1000, 2000, 3000, 4000], "o": [1000] * 5},
    "requests": {"pts": REQUESTS, "l": 120.4, "s": 0, "lo": 96.0, "hi": 120.4, "text": "120.4", "target": 120.4,
                 "n": N},
    "queue": {"pts": [12, 14, None, 9, None, 11, 15, 18, 16], "l": 13, "s": 0, "lo": 9, "hi": 18, "text": "13",
              "target": 13, "n": N},
    "hourly": {"pts": [31, 28, 35, 40, None, 38, 42, 37, 45], "l": 41, "s": 0, "lo": 0, "hi": 45, "text": "41",
               "target": 41, "n": N},
    "pageviews": {"d": [0, 4000, 8000, 2000, 1000, 3000], "negative": False, "target": 48213,
                  "spark": [10, 18, 25, 22, 30, 41, 38, 52, 60, 57, 71, 80]},
    "status": {"p": 0},
    "news": {"p": 0, "page": 0},
    "notice": {"text": "Fire drill at 3 pm: meet at the car park"},
}


def halfway():
    """Every tile half-way through a change."""
    states = json.loads(json.dumps(REST))
    states["revenue"].update({"d": [0, 4000, 8000, 2000, 1500, 3500, 500, 7500]})
    states["orders"].update({"text": "1,262"})
    states["capacity"].update({"f": 7100, "text": "71 %", "status": "good"})
    states["signups"].update({"f": 4100, "text": "164"})
    # Farid, who climbed past three rows, has faded out; Ana, Ben and Chloé are half-way down a line (new ranks).
    states["leaders"].update({"n": ["Farid", "Ana", "Ben", "Chloé", "Dev"], "t": ["40 sold", "37 sold", "31 sold",
                              "30 sold", "29 sold"], "r": [1, 2, 3, 4, 5], "y": [3000, 500, 1500, 2500, 4000],
                              "o": [0, 1000, 1000, 1000, 1000]})
    states["requests"].update({"pts": REQUESTS + [120.4], "l": 118.0, "s": 500, "lo": 96.0, "hi": 120.4,
                               "text": "118.0", "target": 118.0, "n": N + 1})
    states["queue"].update({"l": 15.5, "text": "15", "hi": 18})
    states["hourly"].update({"l": 43, "text": "43"})
    states["pageviews"].update({"d": [0, 4000, 8000, 2000, 1500, 3500]})
    states["notice"] = {"text": LONG_NOTICE}
    states["status"] = {"p": 500}
    states["news"] = {"p": 500, "page": 0}
    return states


STORY = {
    "capacity": {"f": 7400, "text": "74 %", "target": 74, "status": "warning"},
    "signups": {"f": 6200, "text": "248", "target": 248, "status": "normal"},
    "clock": {"time": "13:05:09", "date": "Thursday, 26 November 2026"},
    "leaders": {"n": ["Farid", "Ana", "Ben", "Chloé", "Dev"], "t": ["43 sold", "37 sold", "31 sold", "30 sold", "29 sold"],
                "r": [1, 2, 3, 4, 5], "y": [0, 1000, 2000, 3000, 4000], "o": [1000] * 5},
    "requests": {"pts": REQUESTS, "l": 120.4, "s": 0, "lo": 96.0, "hi": 120.4, "text": "120.4", "target": 120.4,
                 "n": N},
    "pageviews": {"d": [4000, 8000, 2000, 1000, 3000], "negative": False, "target": 48213,
                  "spark": [10, 18, 25, 22, 30, 41, 38, 52, 60, 57, 71, 80]},
    "sales": {"text": "64", "target": 64, "trend": "up", "deltaText": "+12 %", "sense": "better",
              "versus": "this time yesterday"},
}

WRAP_SOCKET = """
(function () {
  var Native = window.WebSocket;
  var latest = null;
  var fixed = null;
  window.__rollboardTest = {
    fix: function (states) { fixed = states; },
    deliver: function (states) {
      fixed = states;
      if (latest) latest({ data: JSON.stringify({ type: 'state', tiles: states, fixedByTest: true }) });
      return !!latest;
    },
  };
  function rewrite(data) {
    if (typeof data !== 'string') return data;
    var message;
    try { message = JSON.parse(data); } catch (error) { return data; }
    if (!message) return data;
    if (message.type === 'hello') {
      message.tiles = fixed || message.tiles;
      return JSON.stringify(message);
    }
    // Frames and states of the server are dropped: the picture is the fixed STATEs alone.
    if (message.fixedByTest) return data;
    if (message.f !== undefined || message.type === 'state') return null;
    return data;
  }
  function Wrapped(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    var add = socket.addEventListener.bind(socket);
    socket.addEventListener = function (type, listener, options) {
      if (type !== 'message') return add(type, listener, options);
      var handle = function (event) {
        var data = rewrite(event.data);
        if (data !== null) listener.call(socket, { data: data });
      };
      latest = handle;
      return add(type, handle, options);
    };
    return socket;
  }
  Wrapped.prototype = Native.prototype;
  ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'].forEach(function (name) { Wrapped[name] = Native[name]; });
  window.WebSocket = Wrapped;
})();
"""

# Every text shown on the page, with its tile, its visible box and its font size.
TEXTS = """
const out = [];
const walker = document.createTreeWalker(document.querySelector('.board'), NodeFilter.SHOW_TEXT);
const clips = (element) => {
  const boxes = [];
  for (let node = element; node && node !== document.body; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.overflowX !== 'visible' || style.overflowY !== 'visible' || style.clipPath !== 'none') {
      boxes.push(node.getBoundingClientRect());
    }
  }
  return boxes;
};
const shown = (element) => {
  for (let node = element; node && node !== document.body; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) < 0.05) return false;
    if (node.hidden) return false;
  }
  return true;
};
while (walker.nextNode()) {
  const node = walker.currentNode;
  if (!node.textContent.trim()) continue;
  const element = node.parentElement;
  if (!shown(element)) continue;
  const tile = element.closest('[data-tile-id]');
  if (!tile) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  const rect = range.getBoundingClientRect();
  if (rect.width < 1 || rect.height < 1) continue;
  let box = [rect.left, rect.top, rect.right, rect.bottom];
  for (const clip of clips(element)) {
    box = [Math.max(box[0], clip.left), Math.max(box[1], clip.top), Math.min(box[2], clip.right),
           Math.min(box[3], clip.bottom)];
  }
  if (box[2] - box[0] < 1 || box[3] - box[1] < 1) continue;
  const clipped = box[0] > rect.left + 1 || box[1] > rect.top + 1 || box[2] < rect.right - 1 || box[3] < rect.bottom - 1;
  const t = tile.getBoundingClientRect();
  out.push({tile: tile.dataset.tileId, text: node.textContent.trim().slice(0, 40), box: box,
            tileBox: [t.left, t.top, t.right, t.bottom], font: parseFloat(getComputedStyle(element).fontSize),
            clipped: clipped && getComputedStyle(element).textOverflow !== 'ellipsis',
            cls: element.className});
}
return out;
"""

SHAPES = """
const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
const tile = (id) => document.querySelector('[data-tile-id="' + id + '"]');
const charts = {};
['requests', 'queue', 'hourly'].forEach(function (id) {
  const t = tile(id);
  if (!t) return;
  const labels = (sel) => Array.prototype.filter.call(t.querySelectorAll(sel), function (e) {
    return !e.hidden && e.textContent.trim() && getComputedStyle(e).display !== 'none';
  }).map(function (e) { return e.textContent.trim(); });
  charts[id] = {high: labels('.chart__high'), low: labels('.chart__low'), times: labels('.chart__time')};
});
const spark = tile('pageviews') && tile('pageviews').querySelector('.tile__spark');
const newest = spark && spark.querySelector('.tile__spark-newest');
const rows = tile('leaders') ? Array.prototype.map.call(tile('leaders').querySelectorAll('.lb-row'), box) : [];
const arc = tile('capacity') ? Array.prototype.slice.call(tile('capacity').querySelectorAll('.gauge__dial > *')) : [];
const fillAt = arc.findIndex(function (e) { return (e.getAttribute('class') || '').indexOf('gauge__fill') >= 0; });
const marks = arc.filter(function (e) { return /gauge__mark--/.test(e.getAttribute('class') || ''); });
const barMarks = tile('signups') ? Array.prototype.slice.call(tile('signups').querySelectorAll('.gauge__bar-mark')) : [];
return {
  marks: {count: marks.length, overFill: marks.every(function (e) { return arc.indexOf(e) > fillAt; }),
          halos: arc.filter(function (e) { return (e.getAttribute('class') || '').indexOf('gauge__mark-halo') >= 0; }).length,
          barHalos: barMarks.filter(function (e) { return getComputedStyle(e).boxShadow !== 'none'; }).length,
          barMarks: barMarks.length},
  charts: charts,
  dial: box(tile('capacity') && tile('capacity').querySelector('.gauge__dial')),
  capacity: box(tile('capacity')),
  spark: spark && getComputedStyle(spark).display !== 'none' ? box(spark) : null,
  newest: newest ? newest.getAttribute('d') || '' : null,
  pageviews: box(tile('pageviews')),
  rows: rows, leaders: box(tile('leaders')),
};
"""


def prepare(config: str) -> None:
    with open(os.path.join(config, "dashboards", "gallery.yaml"), "w", encoding="utf-8") as handle:
        handle.write(GALLERY)


def capture(driver, width: int, height: int) -> Image.Image:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False})
    import base64
    return Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB")


def settle(driver) -> None:
    """Two animation frames and the fonts: what was delivered is painted."""
    driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      (document.fonts ? document.fonts.ready : Promise.resolve()).then(function () {
        requestAnimationFrame(function () { requestAnimationFrame(function () { setTimeout(done, 150); }); });
      });""")


def open_fixed(driver, base, dashboard, theme, states, arguments) -> bool:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                           {"source": WRAP_SOCKET + f"window.__rollboardTest.fix({json.dumps(states)});"})
    driver.get(f"{base}/d/{dashboard}?kiosk&theme={theme}&motion=full")
    return bool(wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout))


def compare(name: str, image: Image.Image, arguments, checks: Checks) -> None:
    reference = os.path.join(REFERENCES, f"{name}.png")
    if arguments.accept:
        os.makedirs(REFERENCES, exist_ok=True)
        image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            reference, optimize=True)
        checks.check(True, f"{name}: reference written", reference)
        return
    if not os.path.exists(reference):
        checks.check(False, f"{name} matches its reference", f"no reference {reference} (run with --accept)")
        return
    expected = Image.open(reference).convert("RGB")
    if expected.size != image.size:
        checks.check(False, f"{name} matches its reference", f"size {image.size}, reference {expected.size}")
        return
    diff = Image.new("RGB", image.size)
    # The reference was stored with 256 colours: compare against the same quantization of this picture.
    actual = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).convert("RGB")
    mismatched = pixelmatch(actual, expected, diff, threshold=0.1, includeAA=False)
    share = mismatched / (image.size[0] * image.size[1])
    if share > MISMATCH_LIMIT:
        os.makedirs(REPORTS, exist_ok=True)
        image.save(os.path.join(REPORTS, f"{name}-actual.png"))
        diff.save(os.path.join(REPORTS, f"{name}-diff.png"))
    checks.check(share <= MISMATCH_LIMIT, f"{name} matches its reference (pixelmatch, at most 0.5 % of pixels differ)",
                 f"{share:.3%} differ ({mismatched} px)")


def overlap(a, b, slack=2.0) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def dom_checks(driver, label: str, checks: Checks) -> None:
    texts = driver.execute_script(TEXTS) or []
    outside = [f"{t['tile']}: {t['text']!r} {[round(v) for v in t['box']]} in {[round(v) for v in t['tileBox']]}"
               for t in texts if not (t["box"][0] >= t["tileBox"][0] - 1 and t["box"][1] >= t["tileBox"][1] - 1
                                      and t["box"][2] <= t["tileBox"][2] + 1 and t["box"][3] <= t["tileBox"][3] + 1)]
    checks.check(bool(texts) and not outside, f"{label}: every text shown lies inside its tile's box",
                 f"{len(texts)} texts; outside: {outside[:4]}")
    if label.split()[1] == "rest":
        clipped = [f"{t['tile']}: {t['text']!r}" for t in texts if t.get("clipped")]
        checks.check(not clipped, f"{label}: no text shown at rest is cut by a box inside its tile (an ellipsis aside)",
                     f"{clipped[:4]}")
    overlapping = [f"{a['tile']}: {a['text']!r} / {b['tile']}: {b['text']!r}"
                   for i, a in enumerate(texts) for b in texts[i + 1:] if overlap(a["box"], b["box"])]
    checks.check(not overlapping, f"{label}: no two texts shown overlap", f"{overlapping[:4]}")
    titles = {t["tile"]: t["font"] for t in texts if "tile__title" in t["cls"]}
    small = [f"{t['tile']}: {t['text']!r} {t['font']:.1f}px" for t in texts
             if t["font"] < max(MINIMUM_PX, 0.95 * titles.get(t["tile"], 0))]
    checks.check(not small, f"{label}: every text is at least {MINIMUM_PX} px and as large as its tile's title "
                 "(the legible minimum at 1080p)", f"{small[:6]}")
    shapes = driver.execute_script(SHAPES) or {}
    charts = shapes.get("charts", {})
    bad = {id: c for id, c in charts.items() if not (c["high"] and c["low"] and 3 <= len(c["times"]) <= 5)}
    checks.check(len(charts) == 3 and not bad, f"{label}: every chart labels its range's low and high and 3-5 times",
                 f"{charts}")
    requests = charts.get("requests", {}).get("times", [])
    checks.check(all(":" in time and not time.endswith("M") for time in requests) and any("13:" in time or "12:" in time for time in requests),
                 f"{label}: the time labels are Berlin's time in en-GB (13:00, not 12:00 PM)", f"{requests}")
    dial, capacity = shapes.get("dial"), shapes.get("capacity")
    shorter = min(capacity[2], capacity[3]) if capacity else 0
    checks.check(bool(dial) and min(dial[2], dial[3] * 114 / 63) >= 0.8 * shorter,
                 f"{label}: the arc gauge's dial spans at least 80 % of its tile's shorter side",
                 f"dial {dial and round(min(dial[2], dial[3] * 114 / 63) / shorter, 2)} of {shorter}")
    marks = shapes.get("marks", {})
    checks.check(marks.get("count") == 3 and marks.get("overFill") and marks.get("halos") == 3
                 and marks.get("barMarks") == 2 and marks.get("barHalos") == 2,
                 f"{label}: the gauges' goal and threshold marks are drawn over the fill with a halo in the tile's colour "
                 "(visible over a fill of their own colour)", f"{marks}")
    spark, tile = shapes.get("spark"), shapes.get("pageviews")
    checks.check(bool(spark) and bool(tile) and spark[2] >= 0.8 * tile[2] and spark[3] >= 0.25 * tile[3]
                 and bool(shapes.get("newest")),
                 f"{label}: the sparkline spans the tile's width, a quarter of its height or more, its newest point marked",
                 f"spark {spark}, tile {tile}, newest {shapes.get('newest')!r}")
    rows, leaders = shapes.get("rows", []), shapes.get("leaders")
    bottom = max((row[1] + row[3] for row in rows), default=0)
    checks.check(bool(rows) and bool(leaders) and bottom <= leaders[1] + leaders[3] - 8,
                 f"{label}: the leaderboard's last row ends inside the tile's padding (8 px or more above its edge)",
                 f"last row ends at {bottom}, tile ends at {leaders and leaders[1] + leaders[3]}")


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    driver = start_browser(arguments)
    try:
        for theme in THEMES:
            opened = open_fixed(driver, base, "gallery", theme, REST, arguments)
            checks.check(opened, f"{theme}: the gallery opens", "")
            for phase, states in (("rest", REST), ("moving", halfway())):
                driver.execute_script("return window.__rollboardTest.deliver(arguments[0]);", states)
                for width, height in SIZES:
                    image = capture(driver, width, height)
                    settle(driver)
                    image = capture(driver, width, height)
                    compare(f"gallery-{width}x{height}-{theme}-{phase}", image, arguments, checks)
                    if width == 1920:
                        dom_checks(driver, f"{theme} {phase} 1920×1080", checks)
        if arguments.docs:
            for theme in THEMES:
                open_fixed(driver, base, "story", theme, STORY, arguments)
                capture(driver, 1920, 1080)
                settle(driver)
                path = os.path.join(REPOSITORY, "docs", "screenshots", f"story-{theme}{arguments.docs_suffix}.png")
                capture(driver, 1920, 1080).save(path, optimize=True)
                checks.check(True, f"docs: {os.path.relpath(path, REPOSITORY)} written", "")
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
        checks.check(not errors, "no script error on the page", f"{errors}")
    finally:
        driver.quit()


def options(parser) -> None:
    parser.add_argument("--accept", action="store_true", help="write the pictures as the new references")
    parser.add_argument("--docs", action="store_true", help="also write docs/screenshots/story-{dark,light}.png")
    parser.add_argument("--docs-suffix", default="", help="appended to the docs pictures' names (story-dark-before)")


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], prepare, scenario, extra_arguments=options))
