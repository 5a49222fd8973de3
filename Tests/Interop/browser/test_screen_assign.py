"""Assigning screens remotely (`POST /api/v1/admin/screens/{screen}/assign`), in headless Chromium, on a server whose
dashboards all need a viewer key (a playlist `wall` of demo and `second` added):

- unknown dashboards and playlists are 422 naming `show.dashboard` / `show.playlist`, a bad theme 400 naming it;
- a screen opened by URL (`/d/demo?name=Hall&key=…`, a key for every dashboard) is assigned to `second` and follows
  within a second (measured, printed), keeping its name and key;
- a theme and kiosk change applies (`second` → demo, light, kiosk);
- a TV paired on /tv to demo is assigned to the playlist `wall`, then (addressed by its id from /api/v1/screens) to
  `second`, and follows each time; its key is limited to the latest target (it no longer reads demo's values);
- the TV's browser restarts with the same profile, opens /tv and comes back to `second`.

Usage: test_screen_assign.py --binary .build/debug/rollboard
"""

import json
import shutil
import sys
import tempfile
import time
import urllib.parse

from browser_session import body_data, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import start_browser, wait_for
from test_remote_control import add_playlist
from test_tv_pairing import ADMIN, open_tv, pair, path_of, shown_code, stored_pairing
from test_viewer_keys import close_every_dashboard

FOLLOW_LIMIT = 1.0


def prepare(config: str) -> None:
    add_playlist(config)
    close_every_dashboard(config)


def assign(server, screen, body):
    return server.request("POST", f"/api/v1/admin/screens/{urllib.parse.quote(str(screen))}/assign", body, token=ADMIN)


def follow(driver, prefix, timeout):
    """Seconds until `driver` is on a page starting with `prefix` and connected; None when it is not in `timeout`."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if path_of(driver).startswith(prefix) and body_data(driver, "connection") == "open":
            return time.monotonic() - started
        time.sleep(0.02)
    return None


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    started = time.monotonic()
    status, created = server.request("POST", "/api/v1/admin/keys", {"name": "hall key"}, token=ADMIN)
    checks.check(status == 201, "an admin creates a key for every dashboard", f"got {status}")
    hall_key = created.get("key", "") if isinstance(created, dict) else ""

    for body, field, expected in [({"show": {"dashboard": "nope"}}, "show.dashboard", 422),
                                  ({"show": {"playlist": "nope"}}, "show.playlist", 422),
                                  ({"show": {"dashboard": "second"}, "theme": "blue"}, "theme", 400)]:
        status, answer = assign(server, "Hall", body)
        checks.check(status == expected and field in answer.get("detail", ""),
                     f"an assignment with a bad {field} is {expected} naming it", f"got {status} {answer}")

    profile = tempfile.mkdtemp(prefix="rollboard-assign-profile-")
    hall = tv = None
    try:
        hall = start_browser(arguments)
        hall.get(f"{base}/d/demo?name=Hall&key={hall_key}")
        checks.check(bool(follow(hall, "/d/demo", arguments.timeout) is not None), "the hall screen opens demo by URL")
        status, body = assign(server, "Hall", {"show": {"dashboard": "second"}})
        took = follow(hall, "/d/second?", arguments.timeout)
        where = path_of(hall)
        print(f"URL-opened screen followed its assignment in {took if took is None else round(took, 3)} s")
        checks.check(status == 202 and body.get("url") == "/d/second?name=Hall" and body.get("keys") == []
                     and took is not None and took < FOLLOW_LIMIT and "key=rbv_" in where
                     and body_data(hall, "dashboard") == "second",
                     f"a screen opened by URL is assigned to second and follows within {FOLLOW_LIMIT} s, keeping its "
                     "name and key", f"{status} {body}, took {took}, at {where.split('key=')[0]}")

        status, body = assign(server, "Hall", {"show": {"dashboard": "demo"}, "theme": "light", "kiosk": True})
        took = follow(hall, "/d/demo?", arguments.timeout)
        theme, kiosk = hall.execute_script("const r = document.documentElement;"
                                           "return [r.dataset.theme ?? null, r.dataset.kiosk ?? null]")
        checks.check(status == 202 and took is not None and theme == "light" and kiosk == "",
                     "a theme and kiosk change applies", f"{status} {body}, theme={theme!r}, kiosk={kiosk!r}")

        tv = open_tv(arguments, profile, base, arguments.timeout)
        code = wait_for(lambda: shown_code(tv), arguments.timeout)
        status, paired, _ = pair(server, code or "")
        checks.check(status == 201 and follow(tv, "/d/demo?", arguments.timeout) is not None,
                     "a TV paired on /tv opens demo", f"{status} {paired}")
        key_id = paired.get("keyId") if isinstance(paired, dict) else None
        secret = json.loads(stored_pairing(tv) or "{}").get("key", "")

        status, body = assign(server, "Lobby TV", {"show": {"playlist": "wall"}})
        took = follow(tv, "/p/wall?", arguments.timeout)
        stored = json.loads(stored_pairing(tv) or "{}")
        print(f"paired TV followed its assignment to a playlist in {took if took is None else round(took, 3)} s")
        checks.check(status == 202 and body.get("keys") == [key_id] and took is not None and took < FOLLOW_LIMIT
                     and stored.get("url", "").startswith("/p/wall?") and stored.get("key") == secret,
                     "the paired TV is assigned to the playlist wall, follows within a second, and keeps it as its "
                     "pairing", f"{status} {body}, took {took}, stored {stored.get('url', '').split('key=')[0]}")

        screens = server.request("GET", "/api/v1/screens", token=ADMIN)[1].get("screens", [])
        tv_id = next((screen["id"] for screen in screens if screen.get("name") == "Lobby TV"), None)
        status, body = assign(server, tv_id, {"show": {"dashboard": "second"}, "theme": "dark"})
        took = follow(tv, "/d/second?", arguments.timeout)
        stored = json.loads(stored_pairing(tv) or "{}")
        checks.check(status == 202 and body.get("screen") == "Lobby TV" and took is not None
                     and stored.get("url", "").startswith("/d/second?name=Lobby%20TV&theme=dark"),
                     "addressed by its id, the TV is assigned to second and follows", f"{status} {body}, took {took}")
        demo_status, _ = server.request("GET", "/api/v1/metrics/revenue?key=" + secret)
        second_status, _ = server.request("GET", "/api/v1/metrics/tickets?key=" + secret)
        checks.check(demo_status in (401, 403) and second_status == 200,
                     "the TV's key opens its latest target only (demo's values refused)",
                     f"revenue {demo_status}, tickets {second_status}")

        tv.quit()
        tv = open_tv(arguments, profile, base, arguments.timeout)
        back = follow(tv, "/d/second?", arguments.timeout)
        checks.check(back is not None, "the restarted browser opens /tv and comes back to the latest assignment",
                     f"at {path_of(tv).split('key=')[0]}")
        elapsed = time.monotonic() - started
        checks.check(elapsed < 60, "the scenario runs under 60 s", f"{elapsed:.1f} s")
    finally:
        for driver in (hall, tv):
            if driver:
                driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run(__doc__, prepare, scenario, admin_token=ADMIN))
