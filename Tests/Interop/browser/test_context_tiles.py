"""The tiles that tell the story behind a number (issue 22), in headless Chromium against a real server.

A dashboard `context` holds an arc gauge (0…200, lower is better: goal 100, warning 150, critical 180) and a bar
gauge whose dial ends at its goal (no `max`). The test checks from the DOM:

- before any value each gauge shows "—" (`data-empty="true"`) and no dial;
- a posted value moves the arc's needle: frames caught on the way stand strictly between the old and the new place,
  and it comes to rest exactly on the value's place (`data-fraction`), with the text and the threshold colour
  (`data-status`) the server sent; the SVG needle's tip stands 180° × fraction round from min; the aria-live region says
  "Latency: 170 ms";
- the bar gauge fills to value / goal, its fill scaled by that fraction;
- a calm screen (`?motion=reduced`) shows the same gauge jumping: no place between the old and the new one;
- a clock in the dashboard's `timeZone` (Europe/Berlin) shows Berlin's time to the second (`data-time`, checked
  against Python's zoneinfo) and the date in its language (`de-DE`), turns every second, and two screens (one calm)
  turn together;
- a leaderboard (three lines) shows "—" before a board, then the posted board best first; after an increment that
  reshuffles it, a row that slides stands between its old and new lines (`data-line`), a row that must pass another
  fades out and in on its new line, the name entering the top fades in on its line while the one leaving fades out,
  and the rows end on their new ranks (`data-rank`, `data-rows`) with the totals
  the server added up; a calm screen jumps (no line in between).

Screenshot: `reports/browser/context-tiles.png`.

Usage: test_context_tiles.py --binary .build/debug/rollboard
"""

import math
import os
import sys
import time
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from browser_session import PRODUCER_TOKEN as TOKEN, body_data, browsers, run, save_report, watch_both
from rollboard_process import Checks, RollboardProcess
from test_dashboard import post_json, wait_for

LAYOUT = """
id: context
title: Context
timeZone: Europe/Berlin
grid: { columns: 2, rows: 2 }
tiles:
  - {id: latency, type: gauge, title: Latency, style: arc, min: 0, max: 200, suffix: " ms", duration: 2,
     lowerIsBetter: true, goal: 100, warning: 150, critical: 180, position: {column: 1, row: 1}}
  - {id: signups, type: gauge, title: Sign-ups, style: bar, goal: 400, position: {column: 2, row: 1}}
  - {id: now, type: clock, title: Berlin, locale: de-DE, position: {column: 1, row: 2}}
  - {id: leaders, type: leaderboard, title: Sales, size: 3, duration: 2, easing: linear, position: {column: 2, row: 2}}
"""

BOARD = """
const tile = document.querySelector('[data-tile-id="leaders"]');
if (!tile) return null;
const rows = Array.prototype.map.call(tile.querySelectorAll('.lb-row'), function (row) {
  return {name: row.dataset.name, rank: row.dataset.rank, line: Number(row.dataset.line), text: row.dataset.text,
          opacity: Number(row.style.opacity), shown: row.querySelector('.lb-row__name').textContent};
});
return {empty: tile.dataset.empty || null, rows: tile.dataset.rows === undefined ? null : tile.dataset.rows, each: rows};
"""

GAUGE = """
const tile = document.querySelector('[data-tile-id="' + arguments[0] + '"]');
if (!tile) return null;
const needle = tile.querySelector('.gauge__needle');
const fill = tile.querySelector('.gauge__bar-fill');
return {
  empty: tile.dataset.empty || null, fraction: tile.dataset.fraction === undefined ? null : Number(tile.dataset.fraction),
  text: tile.dataset.text || null, status: tile.dataset.status || null,
  needle: needle ? [needle.getAttribute('x1'), needle.getAttribute('y1'), needle.getAttribute('x2'), needle.getAttribute('y2')].map(Number) : null,
  fill: fill ? fill.style.transform : null,
  dialShown: tile.querySelector('.gauge__dial, .gauge__bar').style.visibility !== 'hidden',
};
"""


def prepare(config: str) -> None:
    with open(os.path.join(config, "dashboards", "context.yaml"), "w", encoding="utf-8") as handle:
        handle.write(LAYOUT)


def gauge(driver, tile):
    return driver.execute_script(GAUGE, tile) or {}


def watch(driver, tile, until, seconds):
    """Every place the gauge shows until `until(state)` holds or `seconds` pass; the last state."""
    places = []
    deadline = time.monotonic() + seconds
    state = gauge(driver, tile)
    while time.monotonic() < deadline:
        state = gauge(driver, tile)
        if state.get("fraction") is not None:
            places.append(state["fraction"])
        if until(state):
            break
        time.sleep(0.02)
    return places, state


CLOCK = """
const tile = document.querySelector('[data-tile-id="now"]');
return tile ? [tile.dataset.time || null, tile.dataset.date || null, tile.dataset.empty || null] : null;
"""


def check_clock(driver, calm, checks: Checks) -> None:
    """Berlin's time to the second, the date in German, a turn every second, two screens turning together."""
    berlin = ZoneInfo("Europe/Berlin")
    seen, offsets, together = [], [], []
    deadline = time.monotonic() + 3.2
    while time.monotonic() < deadline:
        shown, date, empty = driver.execute_script(CLOCK) or [None, None, None]
        now = datetime.now(timezone.utc).astimezone(berlin)
        calm_shown = (calm.execute_script(CLOCK) or [None])[0]
        if shown and (not seen or seen[-1] != shown):
            seen.append(shown)
        if shown:
            hours, minutes, seconds = (int(part) for part in shown.split(":"))
            wall = now.hour * 3600 + now.minute * 60 + now.second + now.microsecond / 1e6
            offsets.append((wall - (hours * 3600 + minutes * 60 + seconds)) % 86400)
            together.append(shown == calm_shown)
        time.sleep(0.05)
    today = datetime.now(timezone.utc).astimezone(berlin)
    checks.check(len(seen) >= 3 and all(0 <= offset < 1.3 for offset in offsets) and empty == "false",
                 "the clock shows Berlin's time to the second (HH:MM:SS, never ahead, at most 1.3 s behind) and turns "
                 "every second", f"seen {seen}, offsets out of range {[round(o, 3) for o in offsets if not 0 <= o < 1.3]}, "
                 f"first {[round(o, 2) for o in offsets[:8]]}…")
    checks.check(date is not None and str(today.day) in date and str(today.year) in date
                 and any(name in date for name in ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag",
                                                    "Samstag", "Sonntag")),
                 "the date is written in the clock's language (de-DE)", f"{date!r}")
    checks.check(sum(together) >= 0.8 * len(together) and len(together) > 10,
                 "a calm screen shows the same second at the same moment (the server turns both)",
                 f"{sum(together)} of {len(together)} samples equal")


def board(driver):
    return driver.execute_script(BOARD) or {}


def watch_board(driver, until, seconds):
    """Every board state seen until `until(state)` holds or `seconds` pass; the states and the last one."""
    states = []
    deadline = time.monotonic() + seconds
    state = board(driver)
    while time.monotonic() < deadline:
        state = board(driver)
        states.append(state)
        if until(state):
            break
        time.sleep(0.02)
    return states, state


def lines_of(states, name):
    return [row["line"] for state in states for row in state.get("each", []) if row["name"] == name]


def check_leaderboard(base, driver, calm, arguments, checks: Checks) -> None:
    """A board, then a reshuffle: rows slide to their new ranks, one enters, one leaves; a calm screen jumps."""
    before = board(driver)
    checks.check(before.get("empty") == "true" and not before.get("each") and before.get("rows") is None,
                 "before any board the leaderboard shows — and no row", f"{before}")
    status, body = post_json(base, TOKEN, "/api/v1/leaderboards/leaders",
                             {"entries": {"Bob": 20, "Alice": 30, "Carol": 10, "Dave": 5}}, arguments.timeout)
    _, state = watch_board(driver, lambda s: s.get("rows") == "Alice|Bob|Carol", arguments.timeout)
    ranks = {row["name"]: (row["rank"], row["line"], row["text"]) for row in state.get("each", [])}
    checks.check(status == 202 and ranks == {"Alice": ("1", 0, "30"), "Bob": ("2", 1, "20"), "Carol": ("3", 2, "10")},
                 "the posted board shows its best three, highest first, on lines 0, 1, 2", f"{status} {body} {state}")
    _, calm_state = watch_board(calm, lambda s: s.get("rows") == "Alice|Bob|Carol", arguments.timeout)

    status, body = post_json(base, TOKEN, "/api/v1/leaderboards/leaders",
                             {"increment": {"Carol": 25, "Dave": 40}}, arguments.timeout)
    def settled(s):
        return (s.get("rows") == "Dave|Carol|Alice" and len(s.get("each", [])) == 3
                and all(row["line"] in (0, 1, 2) and row["opacity"] == 1 for row in s.get("each", [])))

    # Both screens are sampled in turn while the rows move, so the calm one is seen during the motion too.
    states, calm_states, state, calm_state = watch_both(driver, calm, board, settled, arguments.timeout, 0.01)
    final = {row["name"]: (row["rank"], row["line"], row["text"]) for row in state.get("each", [])}
    checks.check(status == 202 and body.get("entries") == {"Dave": 45, "Carol": 35, "Alice": 30, "Bob": 20}
                 and final == {"Dave": ("1", 0, "45"), "Carol": ("2", 1, "35"), "Alice": ("3", 2, "30")},
                 "after the reshuffle the rows rest on their new ranks: Dave 45, Carol 35, Alice 30 (Bob gone)",
                 f"{status} {body} {state}")
    carol = [(row["line"], row["opacity"]) for s in states for row in s.get("each", []) if row["name"] == "Carol"]
    alice = [line for line in lines_of(states, "Alice") if 0 < line < 2]
    dave = [(row["line"], row["opacity"]) for s in states for row in s.get("each", []) if row["name"] == "Dave"]
    checks.check(all(line in (1, 2) for line, opacity in carol if opacity > 0)
                 and any(line == 2 and 0 < opacity < 1 for line, opacity in carol)
                 and any(line == 1 and 0 < opacity < 1 for line, opacity in carol),
                 "Carol, who must pass Alice, fades out on line 2 and in on line 1, never shown between them",
                 f"{sorted(set(carol))[:10]}")
    checks.check(len(set(alice)) >= 3 and all(line == 0 for line, opacity in dave if opacity > 0)
                 and any(0 < opacity < 1 for _, opacity in dave),
                 "Alice slides down to line 2 while Dave, entering the top, fades in on his own line 0",
                 f"Alice {sorted(set(alice))[:8]}, Dave {sorted(set(dave))[:8]}")
    bob = [row["opacity"] for s in states for row in s.get("each", []) if row["name"] == "Bob"]
    checks.check(any(0 < opacity < 1 for opacity in bob),
                 "Bob, leaving the top, fades out on his way", f"{sorted(set(bob))[:8]}")
    between = [line for line in lines_of(calm_states, "Alice") if 0 < line < 2]
    checks.check(settled(calm_state) and not between and len(calm_states) > 20,
                 "a calm screen shows the new order at once, no row between lines (sampled alongside the moving one)",
                 f"{calm_state} {between} ({len(calm_states)} samples)")


def needle_turn(state):
    """How far the arc gauge's needle has turned from pointing at min (degrees, clockwise), from its line's ends; None
    without a needle or when the line does not start at the dial's centre (60, 62)."""
    ends = state.get("needle")
    if not ends or abs(ends[0] - 60) > 1e-9 or abs(ends[1] - 62) > 1e-9:
        return None
    return 180 - math.degrees(math.atan2(ends[1] - ends[3], ends[2] - ends[0]))


def scale(transform):
    """The factor of a `scaleX(…)` transform, or None."""
    if not transform or not transform.startswith("scaleX(") or not transform.endswith(")"):
        return None
    return float(transform[len("scaleX("):-1])


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    with browsers(arguments, 2) as (driver, calm):
        driver.get(f"{base}/d/context")
        calm.get(f"{base}/d/context?motion=reduced")
        opened = wait_for(lambda: body_data(driver, "connection") == "open"
                          and body_data(calm, "connection") == "open", arguments.timeout)
        empty = [gauge(driver, tile) for tile in ("latency", "signups")]
        checks.check(bool(opened) and all(state.get("empty") == "true" and not state.get("dialShown")
                                          and state.get("fraction") is None for state in empty),
                     "before any value both gauges show — and no dial", f"{empty}")

        status, body = post_json(base, TOKEN, "/api/v1/metrics/latency", {"value": 60}, arguments.timeout)
        first, state = watch(driver, "latency", lambda s: s.get("text") == "60 ms", arguments.timeout)
        checks.check(status == 202 and state.get("fraction") == 0.3 and state.get("text") == "60 ms"
                     and state.get("status") == "good" and needle_turn(state) is not None and abs(needle_turn(state) - 54) < 0.01,
                     "60 of 0…200 rests at 0.3 of the arc, needle turned 54°, \"60 ms\", good (below the goal 100)",
                     f"{status} {body} {state}")

        status, body = post_json(base, TOKEN, "/api/v1/metrics/latency", {"value": 170}, arguments.timeout)
        places, state = watch(driver, "latency", lambda s: s.get("text") == "170 ms", arguments.timeout)
        between = [place for place in places if 0.3 < place < 0.85]
        checks.check(status == 202 and state.get("fraction") == 0.85 and state.get("text") == "170 ms"
                     and state.get("status") == "warning",
                     "170 moves the needle to 0.85 of the arc, \"170 ms\", warning (150 ≤ 170 < 180)", f"{state}")
        announced = driver.execute_script("const a = document.getElementById('announcer'); return a ? a.textContent : null")
        checks.check(announced == "Latency: 170 ms", "screen readers are told the value the gauge heads for, with its suffix",
                     f"{announced!r}")
        checks.check(len(set(between)) >= 3 and places == sorted(places),
                     "on its way the needle passes places between 0.3 and 0.85, never turning back",
                     f"{len(places)} places seen, {len(set(between))} distinct between: {places[:12]}…")
        calm_places, calm_state = watch(calm, "latency", lambda s: s.get("fraction") == 0.85, 2)
        checks.check(calm_state.get("fraction") == 0.85 and not any(0.3 < place < 0.85 for place in calm_places),
                     "a calm screen shows the same gauge jump to 0.85, never a place in between",
                     f"{calm_state} {sorted(set(calm_places))}")

        status, body = post_json(base, TOKEN, "/api/v1/metrics/signups", {"value": 300}, arguments.timeout)
        _, bar = watch(driver, "signups", lambda s: s.get("text") == "300", arguments.timeout)
        checks.check(status == 202 and bar.get("fraction") == 0.75 and scale(bar.get("fill")) == 0.75
                     and bar.get("text") == "300" and bar.get("status") == "normal",
                     "a bar gauge without max ends at its goal: 300 of 400 fills 0.75 of the bar", f"{bar}")

        check_clock(driver, calm, checks)
        check_leaderboard(base, driver, calm, arguments, checks)

        save_report(driver, checks, "context-tiles.png")


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], prepare, scenario))
