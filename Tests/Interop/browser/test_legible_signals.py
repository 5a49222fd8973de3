"""What changes the meaning of the numbers can be read from across a room: headless Chromium as a 1920×1080 TV, in
the dark and the light theme.

A real `redis-server` and one `rollboard serve` on it, the demo dashboard with `revenue` stale after 2 s and
`visitors` without a lag bound (`maxDuration: 0`), and a playlist of the demo and a second dashboard. The test puts
the page in every state that changes what its numbers mean, and measures from the DOM, for each signal, that it
shows inside the viewport, uncovered, with its rendered text at least as tall as a tile title (the tallest on the page
for page-wide signals, its own tile's for a tile's badge) and a contrast of at least 4.5:1:

- "Updates paused" (Redis stopped: the node's feed is stale), on /d/demo;
- "no update for …" on `revenue` (no new value for 2 s), on /d/demo;
- "catching up" on `visitors` (two posted moves of 25 s each: further behind than 6 s), on /d/demo;
- "Playlist held" (an admin holds the playlist), on /p/wall in kiosk mode (no header);
- the calm-mode Play button on the carousel (`?motion=reduced`), on /p/wall;
- "Connection lost — reconnecting" (the server stopped, then started again), on /d/demo.

Screenshots: `reports/browser/legible-{dark,light}.png` (the dashboard), `legible-playlist-{dark,light}.png` and
`legible-connection-{dark,light}.png`.

Usage: test_legible_signals.py --binary .build/debug/rollboard
"""

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cluster"))

from browser_session import PRODUCER_TOKEN as TOKEN, REPOSITORY, body_data, run  # noqa: E402
from cluster_support import RedisServer  # noqa: E402
from legibility import largest_title, legible, measure, screen_1080p  # noqa: E402
from rollboard_process import Checks, RollboardProcess  # noqa: E402
from test_dashboard import post_json, start_browser, wait_for  # noqa: E402
from test_remote_control import add_playlist  # noqa: E402

ADMIN = "legible-signals-admin-token-0123456789abcdef"
THEMES = ("dark", "light")
SHOTS = os.path.join(REPOSITORY, "reports", "browser")
REDIS_FOLDER = tempfile.mkdtemp(prefix="rollboard-legible-redis-")
REDIS = RedisServer(shutil.which("redis-server") or "/usr/bin/redis-server", REDIS_FOLDER)


def prepare(config: str) -> None:
    """Redis for the server; `revenue` stale after 2 s; `visitors` without a lag bound; the playlist `wall`."""
    REDIS.start()
    with open(os.path.join(config, "server.yaml"), "a", encoding="utf-8") as settings:
        settings.write(f"\nredis:\n  url: {REDIS.url}\n  keyPrefix: legible-test\n"
                       # a node on Redis takes its admin token from the configuration, never a generated one
                       "adminTokens: [legible-test-admin-token-0123456789abcdef]\n")
    path = os.path.join(config, "dashboards", "demo.yaml")
    with open(path, encoding="utf-8") as handle:
        demo = handle.read()
    for old, new in (("    staleAfter: 300\n", "    staleAfter: 2\n"),
                     ("    columns: 5\n", "    columns: 5\n    maxDuration: 0\n")):
        if old not in demo:
            raise RuntimeError(f"config/dashboards/demo.yaml changed: no {old.strip()!r}")
        demo = demo.replace(old, new, 1)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(demo)
    add_playlist(config)


def tile_data(driver, tile, name):
    return driver.execute_script(
        f"const t = document.querySelector('[data-tile-id={tile}]'); return t ? t.dataset.{name} ?? null : null")


def check_signal(checks: Checks, driver, name: str, selector: str, title_selector=None) -> None:
    """`selector`'s text against a tile title: `title_selector`'s, else the tallest on the page."""
    title = measure(driver, title_selector) if title_selector else largest_title(driver)
    ok, detail = legible(measure(driver, selector), title)
    checks.check(ok, name, detail)


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    os.makedirs(SHOTS, exist_ok=True)
    driver = start_browser(arguments)
    try:
        screen_1080p(driver)
        posts = [post_json(base, TOKEN, "/api/v1/metrics/revenue", {"value": 1234.5}, arguments.timeout)[0]]
        for value in (12345, 54321):  # fifo: 50 s of moves, so further behind than 6 s for about 44 s
            posts.append(post_json(base, TOKEN, "/api/v1/metrics/visitors", {"value": value, "interval": 25},
                                   arguments.timeout)[0])
        checks.check(posts == [202, 202, 202], "the values are posted", f"statuses {posts}")
        REDIS.stop()

        for theme in THEMES:
            driver.get(f"{base}/d/demo?theme={theme}")
            ready = wait_for(lambda: body_data(driver, "feed") == "stale" and tile_data(driver, "revenue", "stale") == "true"
                             and tile_data(driver, "visitors", "behind") == "true", arguments.timeout)
            driver.save_screenshot(os.path.join(SHOTS, f"legible-{theme}.png"))
            checks.check(bool(ready), f"{theme}: the feed is stale, revenue is stale and visitors is behind",
                         f"feed={body_data(driver, 'feed')!r}, revenue stale={tile_data(driver, 'revenue', 'stale')!r}, "
                         f"visitors behind={tile_data(driver, 'visitors', 'behind')!r}")
            check_signal(checks, driver, f"{theme}: 'Updates paused' is as large as a tile title, on screen",
                         "#feed-stale")
            check_signal(checks, driver, f"{theme}: 'no update for …' is as large as its tile's title",
                         "[data-tile-id=revenue] .tile__stale", "[data-tile-id=revenue] .tile__title")
            check_signal(checks, driver, f"{theme}: 'catching up' is as large as its tile's title",
                         "[data-tile-id=visitors] .tile__behind", "[data-tile-id=visitors] .tile__title")

        REDIS.start()
        driver.get(f"{base}/d/demo")
        live = wait_for(lambda: body_data(driver, "feed") == "live", arguments.timeout)
        checks.check(bool(live), "Redis back: the feed is live again", f"feed={body_data(driver, 'feed')!r}")
        # Writes are taken once the node says it is ready (its connection for writes is back), which a screen's feed
        # does not tell; CI once saw a hold refused 503 just after the feed turned live.
        ready_for_writes = wait_for(lambda: server.request("GET", "/readyz")[0] == 200, arguments.timeout)
        checks.check(bool(ready_for_writes), "Redis back: the node is ready for writes (/readyz 200)",
                     f"{server.request('GET', '/readyz')}")

        held = False
        for theme in THEMES:
            driver.get(f"{base}/p/wall?kiosk&motion=reduced&theme={theme}")
            on_demo = wait_for(lambda: body_data(driver, "connection") == "open"
                               and body_data(driver, "dashboard") == "demo", 8 + arguments.timeout)
            if not held:
                status, body = server.request("POST", "/api/v1/admin/playlists/wall/hold", token=ADMIN)
                shown, _ = server.request("POST", "/api/v1/admin/playlists/wall/show", {"entry": 0}, token=ADMIN)
                held = status == 202 and shown == 202
                checks.check(held, "an admin holds the playlist on the demo dashboard", f"hold {status} {body}, show {shown}")
            ready = wait_for(lambda: body_data(driver, "playlistHeld") == "true" and body_data(driver, "dashboard") == "demo"
                             and (measure(driver, "[data-tile-id=news] .carousel__play") or {}).get("displayed"),
                             arguments.timeout)
            driver.save_screenshot(os.path.join(SHOTS, f"legible-playlist-{theme}.png"))
            checks.check(bool(on_demo and ready), f"{theme}: the playlist shows the demo, held, calm",
                         f"dashboard={body_data(driver, 'dashboard')!r}, held={body_data(driver, 'playlistHeld')!r}")
            check_signal(checks, driver, f"{theme}: 'Playlist held' shows in kiosk mode, as large as a tile title",
                         "#playlist-held")
            check_signal(checks, driver, f"{theme}: the calm-mode Play button is as large as its tile's title",
                         "[data-tile-id=news] .carousel__play", "[data-tile-id=news] .tile__title")

        for theme in THEMES:
            driver.get(f"{base}/d/demo?theme={theme}")
            opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
            server.stop()
            lost = wait_for(lambda: body_data(driver, "connection") == "reconnecting", arguments.timeout)
            driver.save_screenshot(os.path.join(SHOTS, f"legible-connection-{theme}.png"))
            checks.check(bool(opened and lost), f"{theme}: the server stopped, the page is reconnecting",
                         f"connection={body_data(driver, 'connection')!r}")
            check_signal(checks, driver, f"{theme}: 'Connection lost' is as large as a tile title, on screen",
                         "#banner-text")
            server.start()
    finally:
        driver.quit()


if __name__ == "__main__":
    try:
        status = run(__doc__.splitlines()[0], prepare, scenario, admin_token=ADMIN)
    finally:
        REDIS.stop()
        shutil.rmtree(REDIS_FOLDER, ignore_errors=True)
    sys.exit(status)
