"""A chart tile (issue 22) in headless Chromium against a real server.

A dashboard `charts` holds a line chart (`window: "last 10m"`, `step: 1m`: 10 points; a 2 s linear move; goal 50,
warning 20, critical 10) and a bar chart of per-minute sums fed by increments. The test checks from the DOM:

- before any value the chart shows "—" (`data-empty="true"`) and no points;
- a first value is one point, the newest (`data-values` ends on it, one known value, `data-text` written);
- a second value in the same minute moves that point: values caught on the way lie strictly between the two, it
  rests exactly on the new one, and no point is added (no slide: `data-shift` stays 0);
- a value in the next minute adds a point: the plot slides left, frames caught on the way show a shift strictly
  between 0 and 1 step, the range (`data-low`, `data-high`) eases through values between the old and the new extent,
  and at rest the two points are exactly the two values posted (no value in between, shift 0);
- a calm screen (`?motion=reduced`) gains the same point in one jump: never a shift between 0 and 1;
- the bar chart's newest bar is the sum of the minute's increments (3 + 4 = 7);
- an odometer with `trend: 24h` has no sparkline before a value, then 24 hourly points with the newest drawn
  (`data-spark`, a path in `.tile__spark`);
- the SVG is painted: a line path through the points, the goal line visible, and a band for each threshold the range
  reaches (none for 40…80; the critical and warning bands, each on its part of the range, once a 5 pulls it down).

Waits for the next wall-clock minute once (at most a minute). Screenshot: `reports/browser/chart-tile.png`.

Usage: test_chart_tile.py --binary .build/debug/rollboard
"""

import os
import sys
import time

from browser_session import PRODUCER_TOKEN as TOKEN, body_data, browsers, run, save_report, watch_both
from rollboard_process import Checks, RollboardProcess
from test_dashboard import post_json, wait_for

LAYOUT = """
id: charts
title: Charts
grid: { columns: 3, rows: 1 }
tiles:
  - {id: level, type: chart, title: Level, style: line, window: "last 10m", step: 1m, duration: 2, easing: linear,
     goal: 50, warning: 20, critical: 10, position: {column: 1, row: 1}}
  - {id: orders, type: chart, title: Orders per minute, style: bars, window: "last 10m", step: 1m,
     aggregate: sum, position: {column: 2, row: 1}}
  - {id: visits, type: odometer, title: Visits, columns: 4, trend: 24h, position: {column: 3, row: 1}}
"""

CHART = """
const tile = document.querySelector('[data-tile-id="' + arguments[0] + '"]');
if (!tile) return null;
const d = tile.dataset;
const line = tile.querySelector('.chart__line');
const goal = tile.querySelector('.chart__goal');
return {
  empty: d.empty || null, values: d.values === undefined ? null : d.values, known: d.known === undefined ? null : Number(d.known),
  shift: d.shift === undefined ? null : Number(d.shift), low: d.low === undefined ? null : Number(d.low),
  high: d.high === undefined ? null : Number(d.high), text: d.text || null, status: d.status || null,
  path: line ? line.getAttribute('d') : null, goal: goal ? goal.getAttribute('visibility') : null,
  bands: Array.from(tile.querySelectorAll('.chart__band')).filter((band) => band.getAttribute('visibility') !== 'hidden').length,
  placed: Array.from(tile.querySelectorAll('.chart__band')).filter((band) => band.getAttribute('visibility') !== 'hidden')
    .map((band) => [band.getAttribute('class'), Number(band.getAttribute('y')), Number(band.getAttribute('height'))]),
};
"""

SPARK = """
const tile = document.querySelector('[data-tile-id="visits"]');
const path = tile ? tile.querySelector('.tile__spark path') : null;
return tile ? {spark: tile.dataset.spark === undefined ? null : tile.dataset.spark,
               path: path && path.closest('svg').style.display !== 'none' ? path.getAttribute('d') : null} : null;
"""


def prepare(config: str) -> None:
    with open(os.path.join(config, "dashboards", "charts.yaml"), "w", encoding="utf-8") as handle:
        handle.write(LAYOUT)


def chart(driver, tile="level"):
    return driver.execute_script(CHART, tile) or {}


def watch(driver, until, seconds, tile="level"):
    """Every chart state seen until `until(state)` holds or `seconds` pass; the states and the last one."""
    states = []
    deadline = time.monotonic() + seconds
    state = chart(driver, tile)
    while time.monotonic() < deadline:
        state = chart(driver, tile)
        states.append(state)
        if until(state):
            break
        time.sleep(0.02)
    return states, state


def newest(state):
    values = (state.get("values") or "").split(",")
    return float(values[-1]) if values and values[-1] else None


def known(state):
    return [float(value) for value in (state.get("values") or "").split(",") if value]


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    with browsers(arguments, 2) as (driver, calm):
        # Two posts must land in one minute and the third in the next: start at least 8 s before a minute ends.
        if time.time() % 60 > 52:
            time.sleep(60 - time.time() % 60 + 0.3)
        driver.get(f"{base}/d/charts")
        calm.get(f"{base}/d/charts?motion=reduced")
        opened = wait_for(lambda: body_data(driver, "connection") == "open"
                          and body_data(calm, "connection") == "open", arguments.timeout)
        before = chart(driver)
        checks.check(bool(opened) and before.get("empty") == "true" and before.get("values") is None,
                     "before any value the chart shows — and no point", f"{before}")

        status, body = post_json(base, TOKEN, "/api/v1/metrics/level", {"value": 30}, arguments.timeout)
        _, state = watch(driver, lambda s: s.get("text") == "30", arguments.timeout)
        checks.check(status == 202 and newest(state) == 30 and state.get("known") == 1 and state.get("empty") == "false",
                     "a first value is one point, the newest, written \"30\"", f"{status} {body} {state}")
        minute = int(time.time() // 60)

        status, body = post_json(base, TOKEN, "/api/v1/metrics/level", {"value": 40}, arguments.timeout)
        states, state = watch(driver, lambda s: newest(s) == 40 and s.get("text") == "40", arguments.timeout)
        between = [newest(s) for s in states if newest(s) is not None and 30 < newest(s) < 40]
        same_minute = int(time.time() // 60) == minute
        checks.check(same_minute and status == 202 and known(state) == [40] and state.get("shift") == 0
                     and len(set(between)) >= 3 and all(s.get("shift") == 0 for s in states),
                     "a second value in the same minute moves the newest point through values between 30 and 40 and "
                     "rests on 40, with no new point and no slide",
                     f"same minute {same_minute}, {state}, {len(set(between))} values between")

        time.sleep(60 - time.time() % 60 + 0.3)
        status, body = post_json(base, TOKEN, "/api/v1/metrics/level", {"value": 80}, arguments.timeout)

        def settled(s):
            return known(s) == [40, 80] and s.get("shift") == 0 and s.get("text") == "80"

        states, calm_states, state, calm_state = watch_both(driver, calm, chart, settled, arguments.timeout, 0.02)
        values = (state.get("values") or "").split(",")
        checks.check(status == 202 and settled(state) and len(values) == 10 and values[-2:] == ["40", "80"]
                     and state.get("low") == 40 and state.get("high") == 80,
                     "a value in the next minute adds a point: at rest the last two of ten points are exactly 40 and "
                     "80, the range 40…80", f"{status} {body} {state}")
        shifts = [s.get("shift") for s in states if s.get("shift") is not None and 0 < s.get("shift") < 1]
        checks.check(len(set(shifts)) >= 3 and shifts == sorted(shifts),
                     "on its way the plot slides left through shifts between 0 and 1 step, never back",
                     f"{len(shifts)} shifts, {sorted(set(shifts))[:8]}…")
        highs = [s.get("high") for s in states if s.get("high") is not None and 40 < s.get("high") < 80]
        checks.check(len(set(highs)) >= 3, "the range's top eases from 44 (40 alone, ± a tenth: a goal is no anchor) towards 80",
                     f"{sorted(set(highs))[:8]}")
        calm_shifts = [s.get("shift") for s in calm_states if s.get("shift") not in (None, 0)]
        checks.check(settled(calm_state) and not calm_shifts and len(calm_states) > 20,
                     "a calm screen gains the point in one jump: no shift between 0 and 1",
                     f"{calm_state} {calm_shifts[:5]} ({len(calm_states)} samples)")
        checks.check(state.get("path", "").startswith("M") and state.get("path", "").count("L") >= 1
                     and state.get("goal") == "visible" and state.get("bands") == 0,
                     "the SVG line runs through the points; the goal line shows; no threshold band lies in 40…80",
                     f"path {state.get('path')!r}, goal {state.get('goal')}, bands {state.get('bands')}")

        for amount in (3, 4):
            status, body = post_json(base, TOKEN, "/api/v1/metrics/orders", {"increment": amount}, arguments.timeout)
        _, bars = watch(driver, lambda s: newest(s) == 7, arguments.timeout, tile="orders")
        checks.check(status == 202 and newest(bars) == 7 and bars.get("known") == 1 and bars.get("text") == "7",
                     "the bar chart's newest bar is the minute's sum of increments, 3 + 4 = 7", f"{status} {body} {bars}")

        # A low value pulls the range down over both thresholds: the critical band (below 10) and the warning band
        # (10…20) show, placed on the range the plot rests on.
        status, body = post_json(base, TOKEN, "/api/v1/metrics/level", {"value": 5}, arguments.timeout)
        _, low = watch(driver, lambda s: s.get("text") == "5" and s.get("low") == 5 and s.get("shift") == 0,
                       arguments.timeout)

        def y(value):
            return 96 - (value - low.get("low", 0)) / (low.get("high", 1) - low.get("low", 0)) * 92

        expected = [["chart__band chart__band--critical", y(10), y(5) - y(10)],
                    ["chart__band chart__band--warning", y(20), y(10) - y(20)]]
        placed = low.get("placed") or []
        checks.check(status == 202 and low.get("bands") == 2 and len(placed) == 2
                     and all(got[0] == want[0] and abs(got[1] - want[1]) < 0.011 and abs(got[2] - want[2]) < 0.011
                             for got, want in zip(sorted(placed), sorted(expected))),
                     "a value of 5 brings the critical band (5…10) and the warning band (10…20) into the plot, each on "
                     "its part of the range", f"{status} {body} {low}")

        spark_before = driver.execute_script(SPARK) or {}
        status, body = post_json(base, TOKEN, "/api/v1/metrics/visits", {"value": 1234}, arguments.timeout)
        wait_for(lambda: (driver.execute_script(SPARK) or {}).get("spark"), arguments.timeout)
        spark = driver.execute_script(SPARK) or {}
        heights = (spark.get("spark") or "").split(",")
        checks.check(spark_before.get("spark") is None and not spark_before.get("path")
                     and status == 202 and len(heights) == 24 and heights[-1] == "50" and heights[:-1] == [""] * 23
                     and (spark.get("path") or "").startswith("M"),
                     "an odometer with trend: 24h shows no sparkline before a value, then 24 hourly points: the newest "
                     "drawn, the others gaps", f"before {spark_before}, after {spark}")

        save_report(driver, checks, "chart-tile.png")


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], prepare, scenario))
