"""A dashboard without a grid sizes its grid to its tiles (issue 33, point 10), in headless Chromium at 1920×1080.

The README's playlist example writes `config/dashboards/ops.yaml` with one counter and no `grid`. The test serves
exactly that file and a two-tile dashboard without a grid, and checks:

- `/api/v1/dashboards` (the page's layout) gives `ops` a 1 × 1 grid and the pair a 2 × 1 one;
- on `/d/ops` the one tile fills the board (at least 95 % of its width and height), its title "Open tickets" is
  written whole (not cut with "…": the title's box is as wide as its text) and a posted value shows in it;
- on `/d/pair` the two tiles share the board's width, each at least 45 % of it and the board's full height.

Screenshot: `reports/browser/grid-from-tiles.png`.

Usage: test_grid_from_tiles.py --binary .build/debug/rollboard
"""

import json
import os
import sys
import urllib.request

from browser_session import PRODUCER_TOKEN as TOKEN, REPOSITORY, body_data, run
from rollboard_process import Checks, RollboardProcess, insecure_client_context
from test_dashboard import post_json, start_browser, wait_for

OPS = """id: ops
title: Operations
tiles:
  - { id: tickets, type: counter, title: Open tickets, format: "%d" }
"""

PAIR = """id: pair
title: Pair
tiles:
  - { id: left, type: counter, title: Left, format: "%d" }
  - { id: right, type: counter, title: Right, format: "%d" }
"""

BOXES = """
const board = document.querySelector('.board') || document.querySelector('main');
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
return {
  board: board ? box(board) : null,
  tiles: Array.prototype.map.call(document.querySelectorAll('[data-tile-id]'), function (tile) {
    const title = tile.querySelector('.tile__title');
    return {id: tile.dataset.tileId, box: box(tile), empty: tile.dataset.empty || null,
            text: tile.querySelector('.tile__body').textContent,
            title: title.textContent, cut: title.scrollWidth > title.clientWidth + 1};
  }),
};
"""


def prepare(config: str) -> None:
    for name, text in (("ops.yaml", OPS), ("pair.yaml", PAIR)):
        with open(os.path.join(config, "dashboards", name), "w", encoding="utf-8") as handle:
            handle.write(text)


def grids(base, timeout):
    request = urllib.request.Request(f"{base}/api/v1/dashboards")
    with urllib.request.urlopen(request, timeout=timeout, context=insecure_client_context()) as response:
        listed = json.load(response)
    dashboards = listed.get("dashboards", listed) if isinstance(listed, dict) else listed
    return {entry.get("id"): entry.get("grid") for entry in dashboards if isinstance(entry, dict)}


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    try:
        found = grids(base, arguments.timeout)
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        found = {"error": str(error)}
    checks.check(found.get("ops") == {"columns": 1, "rows": 1} and found.get("pair") == {"columns": 2, "rows": 1},
                 "without a grid, one tile gets a 1 × 1 grid and two tiles a 2 × 1 one",
                 f"ops {found.get('ops')}, pair {found.get('pair')} ({found.get('error', '')})")
    driver = start_browser(arguments)
    try:
        driver.get(f"{base}/d/ops")
        wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        status, _ = post_json(base, TOKEN, "/api/v1/metrics/tickets", {"value": 42}, arguments.timeout)
        state = wait_for(lambda: (lambda s: s if any("42" in t["text"] for t in s["tiles"]) else None)(
            driver.execute_script(BOXES)), arguments.timeout) or driver.execute_script(BOXES)
        board, tiles = state["board"], state["tiles"]
        tile = tiles[0] if tiles else None
        checks.check(status == 202 and board is not None and tile is not None
                     and tile["box"][2] >= 0.95 * board[2] and tile["box"][3] >= 0.95 * board[3],
                     "the README's one-tile ops dashboard fills the board", f"board {board}, tiles {tiles}")
        checks.check(tile is not None and tile["title"] == "Open tickets" and not tile["cut"] and "42" in tile["text"],
                     "its title \"Open tickets\" is written whole and the posted 42 shows", f"{tile}")
        os.makedirs(os.path.join(REPOSITORY, "reports", "browser"), exist_ok=True)
        driver.save_screenshot(os.path.join(REPOSITORY, "reports", "browser", "grid-from-tiles.png"))

        driver.get(f"{base}/d/pair")
        wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        state = driver.execute_script(BOXES)
        board, tiles = state["board"], state["tiles"]
        checks.check(len(tiles) == 2 and all(t["box"][2] >= 0.45 * board[2] and t["box"][3] >= 0.95 * board[3]
                                              for t in tiles),
                     "two tiles without a grid share the board's width, each its full height", f"board {board}, {tiles}")
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
        checks.check(not errors, "no script error on the page", f"{errors}")
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], prepare, scenario,
                 server_arguments=None))
