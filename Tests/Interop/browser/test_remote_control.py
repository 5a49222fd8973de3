"""Remote control of a wall screen, seen in headless Chromium against a real server.

Chromium opens /d/demo?name=Lobby TV. Then, with the admin token:

- `GET /api/v1/screens` lists it with that name, Chromium's user agent, its address and rate;
- an announcement covers the screen with its text, and goes away after its seconds;
- identify shows the screen's name over it;
- reload reloads the page (a marker set in the page is gone, the page is connected again), and the page, opened
  again without `?name=`, is still listed as "Lobby TV" (the name is remembered in localStorage);
- a playlist page (/p/wall: demo and a second dashboard, 2 s each) switches from one dashboard to the other by
  itself, painting the new dashboard's tiles, and an admin's hold shows on the page and stops the rotation.

A screenshot of the announcement is written to reports/browser/announcement.png.

Usage: test_remote_control.py --binary .build/debug/rollboard
"""

import os
import sys
import time

from browser_session import REPOSITORY, body_data, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import start_browser, wait_for

ADMIN = "remote-control-admin-token-0123456789"


def listed_screens(server):
    status, body = server.request("GET", "/api/v1/screens", token=ADMIN)
    return body.get("screens", []) if status == 200 and isinstance(body, dict) else []


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    driver = start_browser(arguments)
    try:
        driver.get(f"{base}/d/demo?name=Lobby%20TV")
        opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        checks.check(opened, "Chromium opens the demo dashboard")

        screens = wait_for(lambda: listed_screens(server), arguments.timeout) or []
        screen = screens[0] if screens else {}
        checks.check(len(screens) == 1 and screen.get("name") == "Lobby TV" and "Chrome" in (screen.get("userAgent") or "")
                     and screen.get("address") == "127.0.0.1" and screen.get("fps") == 30 and screen.get("dashboard") == "demo",
                     "GET /api/v1/screens lists the page with its name, Chromium's user agent, address and rate",
                     f"{screens}")

        status, body = server.request("POST", "/api/v1/admin/dashboards/demo/announce",
                                      {"text": "Fire drill at 3 pm", "seconds": 3}, token=ADMIN)
        shown = wait_for(lambda: body_data(driver, "overlay") == "announce", arguments.timeout)
        text = driver.execute_script("return document.getElementById('overlay-text').textContent")
        visible = driver.execute_script(
            "const r = document.getElementById('overlay').getBoundingClientRect();"
            "return !document.getElementById('overlay').hidden && r.width >= innerWidth && r.height >= innerHeight")
        checks.check(status == 202 and shown and text == "Fire drill at 3 pm" and visible,
                     "an announcement covers the whole screen with its text",
                     f"status {status} {body}, overlay={body_data(driver, 'overlay')!r}, text={text!r}, covers={visible}")
        if shown:
            os.makedirs(os.path.dirname(arguments.screenshot), exist_ok=True)
            driver.save_screenshot(arguments.screenshot)
        gone = wait_for(lambda: body_data(driver, "overlay") is None, 3 + arguments.timeout)
        checks.check(gone, "the announcement goes away after its seconds")

        status, _ = server.request("POST", f"/api/v1/admin/screens/{screen.get('id')}/identify", {"seconds": 2},
                                   token=ADMIN)
        identified = wait_for(lambda: body_data(driver, "overlay") == "identify", arguments.timeout)
        text = driver.execute_script("return document.getElementById('overlay-text').textContent")
        checks.check(status == 202 and identified and text == "Lobby TV", "identify shows the screen's name over it",
                     f"status {status}, overlay={body_data(driver, 'overlay')!r}, text={text!r}")

        driver.execute_script("window.rollboardMarker = 1")
        status, _ = server.request("POST", "/api/v1/admin/dashboards/demo/reload", token=ADMIN)
        reloaded = wait_for(lambda: driver.execute_script("return window.rollboardMarker === undefined")
                            and body_data(driver, "connection") == "open", arguments.timeout)
        checks.check(status == 202 and reloaded, "reload reloads the page, which connects again")

        driver.get(f"{base}/d/demo")
        wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)

        def names():
            return [entry.get("name") for entry in listed_screens(server)]

        wait_for(lambda: names() == ["Lobby TV"], arguments.timeout)  # the previous page's socket closes meanwhile
        names = names()
        checks.check(names == ["Lobby TV"], "opened again without ?name=, the page is still listed as Lobby TV",
                     f"names {names}: {listed_screens(server)}")

        driver.get(f"{base}/p/wall")
        first = wait_for(lambda: body_data(driver, "connection") == "open" and body_data(driver, "dashboard"),
                         arguments.timeout)
        other = "second" if first == "demo" else "demo"
        switched = wait_for(lambda: body_data(driver, "dashboard") == other, 3 + arguments.timeout)
        tile = "tickets" if other == "second" else "revenue"
        painted = wait_for(lambda: driver.execute_script(f"return !!document.querySelector('[data-tile-id={tile}]')"),
                           arguments.timeout)
        dots = driver.execute_script("return document.querySelectorAll('#playlist .playlist__dot').length")
        checks.check(first in ("demo", "second") and switched and painted and dots == 2,
                     "a playlist page switches to the next dashboard by itself and paints its tiles",
                     f"first {first!r}, now {body_data(driver, 'dashboard')!r}, tile {tile} painted={painted}, {dots} dots")
        status, body = server.request("POST", "/api/v1/admin/playlists/wall/hold", token=ADMIN)
        held = wait_for(lambda: body_data(driver, "playlistHeld") == "true", arguments.timeout)
        showing = body_data(driver, "dashboard")
        time.sleep(4.5)
        checks.check(status == 202 and held and body_data(driver, "dashboard") == showing,
                     "an admin's hold shows on the page and the dashboard stays",
                     f"status {status} {body}, held={held}, {showing!r} → {body_data(driver, 'dashboard')!r}")
    finally:
        driver.quit()


def add_playlist(config: str) -> None:
    """A second dashboard and a playlist of both, 2 s each."""
    with open(os.path.join(config, "dashboards", "second.yaml"), "w") as handle:
        handle.write("id: second\ntitle: Second\ntiles:\n  - {id: tickets, type: counter}\n")
    os.makedirs(os.path.join(config, "playlists"))
    with open(os.path.join(config, "playlists", "wall.yaml"), "w") as handle:
        handle.write("id: wall\ntitle: Lobby wall\nentries:\n  - {dashboard: demo, seconds: 2}\n"
                     "  - {dashboard: second, seconds: 2}\n")


def screenshot_argument(parser) -> None:
    parser.add_argument("--screenshot", default=os.path.join(REPOSITORY, "reports", "browser", "announcement.png"))


if __name__ == "__main__":
    sys.exit(run(__doc__, add_playlist, scenario, admin_token=ADMIN, extra_arguments=screenshot_argument))
