"""A node on Redis loses Redis, in headless Chromium: the page says updates are paused, and says so no longer once the
node has caught up.

A real `redis-server` (append-only, `appendfsync always`) and one `rollboard serve` whose `server.yaml` names it.
Chromium opens /d/demo. Then:

- with Redis up, `data-feed` on <body> is `live` and the "Updates paused" badge is hidden;
- Redis stopped: a post gets 503 `redis_unavailable`, the page stays connected, `data-feed` turns `stale` and the badge
  shows (screenshot `reports/browser/feed-stale.png`), the tiles keep their values;
- Redis started again: the badge goes, `data-feed` is `live`, and a value posted then reaches the page's odometer.

Usage: test_feed_stale.py --binary .build/debug/rollboard [--redis-server redis-server]
"""

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cluster"))

from browser_session import PRODUCER_TOKEN as TOKEN, REPOSITORY, body_data, run  # noqa: E402
from cluster_support import RedisServer  # noqa: E402
from rollboard_process import Checks, RollboardProcess  # noqa: E402
from test_dashboard import post_value, start_browser, wait_for  # noqa: E402

REDIS_FOLDER = tempfile.mkdtemp(prefix="rollboard-feed-redis-")
REDIS = RedisServer(shutil.which("redis-server") or "/usr/bin/redis-server", REDIS_FOLDER)


def prepare(config: str) -> None:
    """Starts Redis and points the server at it."""
    REDIS.start()
    with open(os.path.join(config, "server.yaml"), "a", encoding="utf-8") as settings:
        settings.write(f"\nredis:\n  url: {REDIS.url}\n  keyPrefix: feed-test\n"
                       # a node on Redis takes its admin token from the configuration, never a generated one
                       "adminTokens: [feed-test-admin-token-0123456789abcdef]\n")


def badge_shown(driver) -> bool:
    return driver.execute_script(
        "const b = document.getElementById('feed-stale'); if (!b || b.hidden) return false;"
        " const r = b.getBoundingClientRect(); return getComputedStyle(b).display !== 'none' && r.width > 0 && r.height > 0")


def revenue(driver):
    """The value the revenue odometer heads for (`data-target`), as a number, or None."""
    text = driver.execute_script(
        "const t = document.querySelector('[data-tile-id=revenue]'); return t ? t.dataset.target ?? null : null")
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    driver = start_browser(arguments)
    try:
        driver.get(f"{base}/d/demo")
        opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        status, _ = post_value(base, TOKEN, "revenue", 1234.5, arguments.timeout)
        shown = wait_for(lambda: revenue(driver) == 1234.5, arguments.timeout)
        checks.check(opened and status == 202 and body_data(driver, "feed") == "live" and not badge_shown(driver),
                     "with Redis up the page is connected, live, without the badge, and shows a posted value",
                     f"open={opened}, post {status}, value={revenue(driver)!r}, feed={body_data(driver, 'feed')!r}")
        checks.check(bool(shown), "the posted value reaches the page through Redis", f"value={revenue(driver)!r}")

        REDIS.stop()
        status, body = post_value(base, TOKEN, "revenue", 99, arguments.timeout)
        checks.check(status == 503 and isinstance(body, dict) and body.get("error") == "redis_unavailable",
                     "with Redis stopped a post is refused 503 redis_unavailable", f"{status} {body!r}")
        stale = wait_for(lambda: body_data(driver, "feed") == "stale" and badge_shown(driver), arguments.timeout)
        os.makedirs(os.path.join(REPOSITORY, "reports", "browser"), exist_ok=True)
        driver.save_screenshot(os.path.join(REPOSITORY, "reports", "browser", "feed-stale.png"))
        checks.check(bool(stale) and body_data(driver, "connection") == "open" and revenue(driver) == 1234.5,
                     "the page stays connected, keeps its values and shows the Updates paused badge",
                     f"feed={body_data(driver, 'feed')!r}, badge={badge_shown(driver)}, "
                     f"connection={body_data(driver, 'connection')!r}, value={revenue(driver)!r}")

        REDIS.start()
        live = wait_for(lambda: body_data(driver, "feed") == "live" and not badge_shown(driver), arguments.timeout)
        checks.check(bool(live), "once the node caught up the badge goes and the page is live again",
                     f"feed={body_data(driver, 'feed')!r}, badge={badge_shown(driver)}")
        status, _ = post_value(base, TOKEN, "revenue", 4321.5, arguments.timeout)
        arrived = wait_for(lambda: revenue(driver) == 4321.5, arguments.timeout)
        checks.check(status == 202 and bool(arrived), "a value posted after Redis returned reaches the page",
                     f"post {status}, value={revenue(driver)!r}")
    finally:
        driver.quit()


if __name__ == "__main__":
    try:
        status = run(__doc__.splitlines()[0], prepare, scenario)
    finally:
        REDIS.stop()
        shutil.rmtree(REDIS_FOLDER, ignore_errors=True)
    sys.exit(status)
