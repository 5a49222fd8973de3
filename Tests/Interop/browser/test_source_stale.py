"""A failing source on the wall, read from across a room: headless Chromium as a 1920×1080 TV, both themes.

The demo dashboard's `visitors` is fed by a JSON source whose upstream cannot be reached (a closed loopback port).
The page must show "stale: cannot connect" on that tile (`data-source-stale`), inside the viewport, uncovered, its text
at least as tall as the tile's title and at a contrast of at least 4.5:1; the other tiles carry no such mark.
Screenshots: `reports/browser/source-stale-{dark,light}.png`.

Usage: test_source_stale.py --binary .build/debug/rollboard
"""

import os
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cluster"))

from browser_session import REPOSITORY, run  # noqa: E402
from legibility import legible, measure, screen_1080p  # noqa: E402
from rollboard_process import Checks, RollboardProcess  # noqa: E402
from test_dashboard import start_browser, wait_for  # noqa: E402

THEMES = ("dark", "light")
SHOTS = os.path.join(REPOSITORY, "reports", "browser")


def closed_port() -> int:
    """A loopback port nothing listens on (bound, read back, released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare(config: str) -> None:
    os.makedirs(os.path.join(config, "sources"), exist_ok=True)
    with open(os.path.join(config, "sources", "visitors.yaml"), "w", encoding="utf-8") as handle:
        handle.write(f"type: json\nurl: http://127.0.0.1:{closed_port()}/stats\nevery: 5s\n"
                     "metrics:\n  - {metric: visitors, pointer: /visitors}\n")


def source_stale(driver, tile):
    return driver.execute_script(
        f"const t = document.querySelector('[data-tile-id={tile}]'); return t ? t.dataset.sourceStale ?? null : null")


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    driver = start_browser(arguments)
    try:
        screen_1080p(driver)
        for theme in THEMES:
            driver.get(f"{server.base_url}/d/demo?theme={theme}")
            marked = wait_for(lambda: source_stale(driver, "visitors") == "cannot connect", arguments.timeout)
            driver.save_screenshot(os.path.join(SHOTS, f"source-stale-{theme}.png"))
            checks.check(bool(marked), f"{theme}: the visitors tile is marked with its source's reason",
                         f"data-source-stale={source_stale(driver, 'visitors')!r}")
            badge = measure(driver, "[data-tile-id=visitors] .tile__source")
            checks.check(bool(badge) and badge["text"] == "stale: cannot connect",
                         f"{theme}: the badge reads 'stale: cannot connect'", f"{badge and badge['text']!r}")
            ok, detail = legible(badge, measure(driver, "[data-tile-id=visitors] .tile__title"))
            checks.check(ok, f"{theme}: the badge is as large as its tile's title, on screen, with contrast", detail)
            checks.check(source_stale(driver, "revenue") is None, f"{theme}: a tile without a source has no such mark")
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], prepare, scenario))
