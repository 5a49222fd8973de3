"""A leaderboard that reads right while it moves (issue 33, point 8), in headless Chromium against a real server.

Two leaderboards get the board of the issue, `{"Alice":10,"Bob":9,"Carol":8,"Dan":7,"Eve":6,"Frank":5}`, then
`{"increment":{"Frank":20}}`: on `top5` (size 5) Frank enters the top at rank 1 and Eve leaves; on `top10` (size 10)
Frank climbs from line 5 to line 0 past the five others. The page records every painted frame
(requestAnimationFrame: each row's rank as written, line, opacity and the boxes of its rank, name and score) while
the rows move, and the test checks every frame:

- the ranks written in the rows shown (opacity above 0.02), read top to bottom, never repeat (the board has no tie)
  and rise down the rows;
- a row's rank is the rank of a line it stands next to (rank − 1 is its line rounded down or up): the number moves
  with its row;
- no two rows shown draw their text over each other (their rank, name and score boxes do not overlap);
- a row entering the top (Frank on `top5`) is only ever shown on its own line (line 0);
- every text of a row shown stays inside the tile's box;
- at rest both boards read Frank 25 first, then Alice … in order, ranks 1, 2, 3 …

Usage: test_leaderboard_motion.py --binary .build/debug/rollboard
"""

import math
import os
import sys
import time

from browser_session import PRODUCER_TOKEN as TOKEN, body_data, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import post_json, start_browser, wait_for

LAYOUT = """
id: standings
title: Standings
grid: { columns: 2, rows: 1 }
tiles:
  - {id: top5, type: leaderboard, title: Top five, size: 5, duration: 2, easing: linear, position: {column: 1, row: 1}}
  - {id: top10, type: leaderboard, title: Top ten, size: 10, duration: 2, easing: linear, position: {column: 2, row: 1}}
"""

BOARD = {"Alice": 10, "Bob": 9, "Carol": 8, "Dan": 7, "Eve": 6, "Frank": 5}

RECORD = """
window.__frames = [];
window.__recording = true;
function box(element) {
  const r = element.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
}
function frame() {
  if (!window.__recording) return;
  const tiles = {};
  ['top5', 'top10'].forEach(function (id) {
    const tile = document.querySelector('[data-tile-id="' + id + '"]');
    if (!tile) return;
    tiles[id] = {
      tile: box(tile),
      rows: Array.prototype.map.call(tile.querySelectorAll('.lb-row'), function (row) {
        return {name: row.dataset.name, rank: row.querySelector('.lb-row__rank').textContent,
                line: Number(row.dataset.line), opacity: Number(getComputedStyle(row).opacity),
                texts: ['.lb-row__rank', '.lb-row__name', '.lb-row__score'].map(function (part) {
                  return box(row.querySelector(part));
                })};
      }),
    };
  });
  window.__frames.push(tiles);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
"""

RESTING = """
return ['top5', 'top10'].map(function (id) {
  const tile = document.querySelector('[data-tile-id="' + id + '"]');
  if (!tile) return null;
  const moving = Array.prototype.some.call(tile.querySelectorAll('.lb-row'), function (row) {
    return Number(row.style.opacity) > 0 && (Number(row.style.opacity) < 1 || Number(row.dataset.line) % 1 !== 0);
  });
  return moving ? null : tile.dataset.rows || null;
});
"""


def prepare(config: str) -> None:
    with open(os.path.join(config, "dashboards", "standings.yaml"), "w", encoding="utf-8") as handle:
        handle.write(LAYOUT)


def overlap(a, b, slack=1.0) -> bool:
    """Whether boxes [left, top, right, bottom] overlap by more than `slack` px both ways."""
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def inside(inner, outer, slack=0.5) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


def problems_in(frames, tile_id, entering):
    """Every way the frames of `tile_id` read wrong, as short strings (at most a few of each kind)."""
    found = {"repeat": [], "order": [], "rank off its line": [], "text over text": [], "entering off its line": [],
             "outside the tile": []}
    for index, frame in enumerate(frames):
        tile = frame.get(tile_id)
        if not tile:
            continue
        shown = sorted((row for row in tile["rows"] if row["opacity"] > 0.02), key=lambda row: row["line"])
        ranks = [row["rank"] for row in shown]
        label = f"frame {index}: " + ", ".join(f"{row['rank']} {row['name']}@{row['line']:.2f}" for row in shown)
        if len(set(ranks)) != len(ranks):
            found["repeat"].append(label)
        numbers = [int(rank) if rank.isdigit() else -1 for rank in ranks]
        if numbers != sorted(numbers):
            found["order"].append(label)
        for row in shown:
            rank = int(row["rank"]) if row["rank"].isdigit() else -1
            if rank - 1 not in (math.floor(row["line"] + 1e-6), math.ceil(row["line"] - 1e-6)):
                found["rank off its line"].append(label)
                break
        for upper, lower in zip(shown, shown[1:]):
            if any(overlap(a, b) for a in upper["texts"] for b in lower["texts"]):
                found["text over text"].append(f"{label} ({upper['name']} / {lower['name']})")
        for row in shown:
            if row["name"] == entering and abs(row["line"]) > 1e-6:
                found["entering off its line"].append(label)
            if not all(inside(text, tile["tile"]) for text in row["texts"]):
                found["outside the tile"].append(f"{label} ({row['name']} {row['texts']} in {tile['tile']})")
    return found


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    driver = start_browser(arguments)
    try:
        driver.get(f"{base}/d/standings")
        opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        statuses = [post_json(base, TOKEN, f"/api/v1/leaderboards/{tile}", {"entries": BOARD}, arguments.timeout)[0]
                    for tile in ("top5", "top10")]
        first = wait_for(lambda: driver.execute_script(RESTING) == ["Alice|Bob|Carol|Dan|Eve",
                                                                    "Alice|Bob|Carol|Dan|Eve|Frank"], arguments.timeout)
        checks.check(bool(opened) and statuses == [202, 202] and bool(first),
                     "both boards show the posted board at rest", f"{statuses} {driver.execute_script(RESTING)}")
        driver.execute_script(RECORD)
        statuses = [post_json(base, TOKEN, f"/api/v1/leaderboards/{tile}", {"increment": {"Frank": 20}},
                              arguments.timeout)[0] for tile in ("top5", "top10")]
        rested = wait_for(lambda: driver.execute_script(RESTING) == ["Frank|Alice|Bob|Carol|Dan",
                                                                     "Frank|Alice|Bob|Carol|Dan|Eve"],
                          arguments.timeout)
        time.sleep(0.3)
        frames = driver.execute_script("window.__recording = false; return window.__frames;") or []
        moving = [frame for frame in frames
                  if any(0 < row["line"] % 1 or 0 < row["opacity"] < 1 for tile in frame.values() for row in tile["rows"])]
        checks.check(statuses == [202, 202] and bool(rested) and len(moving) >= 30,
                     "after Frank's +20 both boards come to rest with Frank first; frames were caught on the way",
                     f"{statuses} {driver.execute_script(RESTING)}, {len(frames)} frames, {len(moving)} moving")
        last = frames[-1] if frames else {}
        for tile_id in ("top5", "top10"):
            rows = sorted((row for row in last.get(tile_id, {}).get("rows", []) if row["opacity"] > 0.99),
                          key=lambda row: row["line"])
            reading = [(row["rank"], row["name"]) for row in rows]
            expected = list(zip(map(str, range(1, 7)), ["Frank", "Alice", "Bob", "Carol", "Dan", "Eve"]))
            checks.check(reading == expected[:len(rows)] and len(rows) == (5 if tile_id == "top5" else 6),
                         f"{tile_id} rests reading 1 Frank, 2 Alice, 3 Bob … on lines 0, 1, 2 …", f"{reading}")
        for tile_id, entering, story in (("top5", "Frank", "Frank enters the top five at rank 1, Eve leaves"),
                                         ("top10", None, "Frank climbs from line 5 to line 0 past five rows")):
            found = problems_in(frames, tile_id, entering)
            for kind, sentence in (
                    ("repeat", "no rank is written twice in the rows shown"),
                    ("order", "the ranks rise down the rows"),
                    ("rank off its line", "every row's rank is the rank of a line it stands next to"),
                    ("text over text", "no two rows shown draw their text over each other"),
                    ("entering off its line", "the entering row appears only on its own line"),
                    ("outside the tile", "every row's text stays inside the tile")):
                checks.check(not found[kind], f"{tile_id} ({story}): {sentence}",
                             f"{len(found[kind])} frames, e.g. {found[kind][:3]}")
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
        checks.check(not errors, "no script error on the page", f"{errors}")
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], prepare, scenario))
