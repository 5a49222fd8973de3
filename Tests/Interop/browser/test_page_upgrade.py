"""An upgrade does not leave old pages behind, seen in headless Chromium against a real server.

The server serves a copy of public/ (`--public-dir`) with a short reload spread (`--page-reload-spread`). Chromium
opens /d/demo with a name, a viewer key, a theme and kiosk. Then a page file changes and the server restarts on the
same port (an upgrade):

- the screen reconnects, sees the new build in the hello and reloads itself within the spread (a marker set in the
  page is gone), on exactly the same address, with its name, key, theme and kiosk, now running the new build; so
  does a playlist screen (/p/wall, a hello every 2 s), which follows its playlist again;
- it does not reload a second time (the marker set again stays);
- a screen opened on the new server (its build matches) never reloads;
- no reload loop: a screen that already reloaded once for the new build (sessionStorage says so) and still runs the
  old one stays as it is (`data-upgrade="done"`);
- the build is reproducible from the files alone (the same on every node serving them): this script computes it too.
- the page's HTML carries the build (`<meta name="rollboard-build">`) and its ETag changes with it.

Usage: test_page_upgrade.py --binary .build/debug/rollboard
"""

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import time
import urllib.parse

from selenium.common.exceptions import WebDriverException

from browser_session import PRODUCER_TOKEN, REPOSITORY, body_data, browsers
from rollboard_process import Checks, RollboardProcess
from test_dashboard import wait_for
from test_remote_control import add_playlist

ADMIN = "page-upgrade-admin-token-0123456789"
SPREAD = 4.0


def files_build(public):
    """The build as StaticPage computes it: SHA-256 over each file's relative path, a NUL, the SHA-256 of its contents
    and a newline, in path order (hidden files left out); its first 8 bytes in hex."""
    paths = []
    for folder, folders, files in os.walk(public):
        folders[:] = [name for name in folders if not name.startswith(".")]
        paths += [os.path.relpath(os.path.join(folder, name), public) for name in files if not name.startswith(".")]
    manifest = b""
    for path in sorted(paths):
        with open(os.path.join(public, path), "rb") as handle:
            manifest += path.encode() + b"\0" + hashlib.sha256(handle.read()).digest() + b"\n"
    return hashlib.sha256(manifest).hexdigest()[:16]


def page_build(server):
    """The build stamped in /d/demo's HTML, and the response's ETag."""
    import re
    import urllib.request
    with urllib.request.urlopen(server.base_url + "/d/demo", context=server.ssl_context(), timeout=10) as response:
        html = response.read().decode()
        match = re.search(r'<meta name="rollboard-build" content="([^"]*)">', html)
        return (match.group(1) if match else None), response.headers.get("ETag")


def marked(driver):
    return driver.execute_script("return window.rollboardMarker === 1")


def listed_names(server):
    status, body = server.request("GET", "/api/v1/screens", token=ADMIN)
    return sorted(screen.get("name") for screen in body.get("screens", [])) if status == 200 else []


def scenario(server, public, arguments, checks, start_server):
    build, etag = page_build(server)
    checks.check(bool(build) and build == files_build(public),
                 "the dashboard page carries its build in <meta name=\"rollboard-build\">, a hash of the files alone",
                 f"{build!r}, computed {files_build(public)!r}")
    status, created = server.request("POST", "/api/v1/admin/keys", {"name": "wall", "dashboards": ["demo"]},
                                     token=ADMIN)
    checks.check(status == 201, "an admin creates a viewer key for demo", f"got {status} {created}")
    key = created.get("key", "") if isinstance(created, dict) else ""
    address = f"{server.base_url}/d/demo?name=Wall%201&key={urllib.parse.quote(key)}&theme=light&kiosk"
    with browsers(arguments, 4) as (old, fresh, stuck, wall):
        old.get(address)
        opened = wait_for(lambda: body_data(old, "connection") == "open", arguments.timeout)
        checks.check(opened and body_data(old, "pageBuild") == build, "the screen opens, running the served build",
                     f"connection={body_data(old, 'connection')!r}, build={body_data(old, 'pageBuild')!r}")
        old.execute_script("window.rollboardMarker = 1")
        stuck.get(f"{server.base_url}/d/demo?name=Wall%203&key={urllib.parse.quote(key)}")
        wait_for(lambda: body_data(stuck, "connection") == "open", arguments.timeout)
        wall_address = f"{server.base_url}/p/wall?name=Wall%204&theme=dark"
        wall.get(wall_address)
        wait_for(lambda: body_data(wall, "playlist") == "wall", arguments.timeout)
        wall.execute_script("window.rollboardMarker = 1")

        with open(os.path.join(public, "css", "rollboard.css"), "a") as stylesheet:
            stylesheet.write("\n/* the next version */\n")
        # The stuck screen already reloaded once for the coming build (as a page the new server still served old would).
        stuck.execute_script(
            "sessionStorage.setItem('rollboard.reloadedForBuilds', JSON.stringify(['other', arguments[0]]));"
            "window.rollboardMarker = 1", files_build(public))
        server.stop()
        server = start_server()
        new_build, new_etag = page_build(server)
        checks.check(new_build and new_build != build and new_etag != etag,
                     "a changed page file is a new build, and the page's ETag changes with it",
                     f"{build} -> {new_build}, ETag {etag} -> {new_etag}")

        restarted = time.monotonic()
        reloaded = wait_for(lambda: not marked(old) and body_data(old, "connection") == "open", SPREAD + 15)
        seconds = time.monotonic() - restarted
        checks.check(reloaded and body_data(old, "pageBuild") == new_build,
                     f"the old screen reloads itself within the spread ({SPREAD:g} s after it reconnects), "
                     "and runs the new build", f"after {seconds:.1f} s, build={body_data(old, 'pageBuild')!r}")
        print(f"the old screen reloaded {seconds:.1f} s after the server came back")
        kept = old.execute_script(
            "return [location.href, document.documentElement.dataset.theme, 'kiosk' in document.documentElement.dataset]")
        checks.check(kept == [address, "light", True], "the reload keeps the address: name, key, theme and kiosk",
                     f"{kept}")
        names = wait_for(lambda: "Wall 1" in listed_names(server), arguments.timeout)
        checks.check(bool(names), "the reloaded screen is listed under its name", f"{listed_names(server)}")
        followed = wait_for(lambda: not marked(wall) and body_data(wall, "playlist") == "wall", arguments.timeout)
        checks.check(followed and wall.current_url == wall_address and body_data(wall, "pageBuild") == new_build,
                     "the playlist screen reloads too, on its address, and follows its playlist again",
                     f"url={wall.current_url}, playlist={body_data(wall, 'playlist')!r}")

        old.execute_script("window.rollboardMarker = 1")
        fresh.get(f"{server.base_url}/d/demo?name=Wall%202&key={urllib.parse.quote(key)}")
        opened = wait_for(lambda: body_data(fresh, "connection") == "open", arguments.timeout)
        fresh.execute_script("window.rollboardMarker = 1")
        checks.check(opened and body_data(fresh, "pageBuild") == new_build, "a screen opened on the new server runs its build")
        time.sleep(SPREAD + 1)
        remembered = old.execute_script("return sessionStorage.getItem('rollboard.reloadedForBuilds')")
        checks.check(marked(old) and body_data(old, "upgrade") is None and remembered == f'["{new_build}"]',
                     "the reloaded screen does not reload again, and remembers the build it reloaded for",
                     f"upgrade={body_data(old, 'upgrade')!r}, remembered {remembered}")
        checks.check(marked(fresh) and body_data(fresh, "upgrade") is None, "a screen whose build matches never reloads",
                     f"upgrade={body_data(fresh, 'upgrade')!r}")
        checks.check(marked(stuck) and body_data(stuck, "upgrade") == "done" and body_data(stuck, "pageBuild") == build,
                     "no reload loop: a screen that reloaded once for this build and is still older stays as it is",
                     f"marker={marked(stuck)}, upgrade={body_data(stuck, 'upgrade')!r}")
        errors = [entry for driver in (old, fresh, stuck, wall) for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"
                  and "WebSocket" not in entry.get("message", "")]
        checks.check(not errors, "no script error on the pages", f"{errors}")
    return server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--chromedriver", default=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    parser.add_argument("--window-size", default="1280,720")
    arguments = parser.parse_args()
    checks = Checks()
    folder = tempfile.mkdtemp(prefix="rollboard-upgrade-")
    server = None
    try:
        public = os.path.join(folder, "public")
        shutil.copytree(os.path.join(REPOSITORY, "public"), public)
        config = os.path.join(folder, "config")
        shutil.copytree(os.path.join(REPOSITORY, "config"), config)
        add_playlist(config)
        port = None

        def start_server():
            nonlocal server, port
            server = RollboardProcess(arguments.binary, os.path.join(folder, "data"), PRODUCER_TOKEN, config=config,
                                      port=port, environment={"ROLLBOARD_ADMIN_TOKEN": ADMIN},
                                      extra_arguments=["--public-dir", public, "--page-reload-spread", str(SPREAD)])
            port = server.port
            server.start()
            return server

        try:
            server = scenario(start_server(), public, arguments, checks, start_server)
        except WebDriverException as error:
            checks.check(False, "browser session", error.msg or str(error))
    finally:
        if server:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
