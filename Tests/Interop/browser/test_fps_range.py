#!/usr/bin/env python3
"""The page asks only for frame rates the server gives, as its `hello` says (`fpsRange`, docs/protocol.md).

The server runs with `maxFPS: 24` (and `defaultFPS: 20`). A page opened with `?fps=45` (a rate the server would
refuse in the WebSocket URL) connects, runs at 24 and stays connected; one opened with `?fps=10` runs at 10, one
without at 20. Each says so in `data-fps`, and the operators' list (`GET /api/v1/screens`) shows each screen at that
rate.

    .venv/bin/python Tests/Interop/browser/test_fps_range.py --binary .build/debug/rollboard
"""

import os
import re
import sys
import time

from browser_session import body_data, run
from test_dashboard import start_browser, wait_for

ADMIN = "fps-range-admin-token-0123456789abc"
MAX_FPS = 24
DEFAULT_FPS = 20


def prepare(config):
    path = os.path.join(config, "server.yaml")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    with open(path, "w", encoding="utf-8") as handle:
        text = re.sub(r"(?m)^(\s*)maxFPS: \d+", rf"\g<1>maxFPS: {MAX_FPS}", text)
        handle.write(re.sub(r"(?m)^(\s*)defaultFPS: \d+", rf"\g<1>defaultFPS: {DEFAULT_FPS}", text))


def listed(server, name):
    status, body = server.request("GET", "/api/v1/screens", token=ADMIN)
    screens = body.get("screens", []) if status == 200 and isinstance(body, dict) else []
    return next((screen for screen in screens if screen.get("name") == name), None)


def scenario(server, arguments, checks):
    for asked, expected, name in ((45, MAX_FPS, "Fast TV"), (10, 10, "Slow TV"), (None, DEFAULT_FPS, "Plain TV")):
        driver = start_browser(arguments)
        try:
            wanted = "" if asked is None else f"fps={asked}&"
            page = "without ?fps" if asked is None else f"?fps={asked}"
            driver.get(f"{server.base_url}/d/demo?{wanted}name={name.replace(' ', '%20')}")
            opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
            screen = wait_for(lambda: (lambda s: s if s and s.get("fps") == expected else None)(listed(server, name)),
                              arguments.timeout)
            checks.check(bool(opened) and bool(screen) and body_data(driver, "fps") == str(expected),
                         f"{page} on a server whose screens get at most {MAX_FPS} fps: the page runs at {expected}",
                         f"connection {body_data(driver, 'connection')!r}, data-fps {body_data(driver, 'fps')!r}, "
                         f"listed {listed(server, name)!r}")
            time.sleep(2)  # a refused URL would close the socket and leave the page reconnecting
            checks.check(body_data(driver, "connection") == "open", f"{page}: the connection stays open",
                         f"connection {body_data(driver, 'connection')!r}")
            errors = [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
            checks.check(not errors, f"{page}: no script errors", f"{errors[:3]}")
        finally:
            driver.quit()


if __name__ == "__main__":
    sys.exit(run("The page asks only for the frame rates its hello allows", prepare, scenario, admin_token=ADMIN))
