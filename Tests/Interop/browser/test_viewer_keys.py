"""Viewer keys, seen by peers we did not write: headless Chromium (the page) and Python `websockets` (a screen).

A server whose dashboards all need a viewer key (`dashboardAccess: key`) is started with an admin token. Then:

- Chromium on /d/demo without a key gets the 401 page; `/api/v1/metrics/revenue` answers 401;
- an admin creates a key for `demo`; Chromium on /d/demo?key=… connects and paints the tiles, and the list at
  /?key=… links to it with the key; a `websockets` screen with the key gets its hello, one without is closed 1008;
- the admin revokes the key: the open page says its key was revoked and stops, the `websockets` screen is closed
  with 1008 "viewer key revoked", and reopening the page gets the 403 page;
- the secret appears nowhere in the server's log, nor in the store (which holds its SHA-256).

Usage: test_viewer_keys.py --binary .build/debug/rollboard
"""

import asyncio
import hashlib
import os
import sys
import urllib.parse

import websockets

from browser_session import PRODUCER_TOKEN as TOKEN, body_data, run
from rollboard_process import Checks, RollboardProcess, insecure_client_context
from test_dashboard import start_browser, wait_for

ADMIN = "viewer-keys-admin-token-0123456789"


async def screen_close(port: int, key: str | None, wait: float = 10.0):
    """Opens a screen on `demo` (with `key` if given), reads until the server closes it or `wait` passes;
    returns (got a hello, close code, close reason)."""
    query = {"dashboard": "demo", "protocol": "2"}
    if key:
        query["key"] = key
    uri = f"wss://127.0.0.1:{port}/ws?{urllib.parse.urlencode(query)}"
    hello = False
    async with websockets.connect(uri, ssl=insecure_client_context(), origin=f"https://127.0.0.1:{port}") as socket:
        try:
            while True:
                message = await asyncio.wait_for(socket.recv(), wait)
                hello = hello or (isinstance(message, str) and message.startswith('{"type":"hello"'))
        except websockets.ConnectionClosed as closed:
            return hello, closed.rcvd.code if closed.rcvd else None, closed.rcvd.reason if closed.rcvd else ""
        except asyncio.TimeoutError:
            return hello, None, ""


async def open_until_revoked(port: int, key: str, revoke) -> tuple:
    """A keyed screen that must get its hello, then be closed when `revoke()` (run in a thread) revokes its key."""
    screen = asyncio.create_task(screen_close(port, key, wait=15.0))
    await asyncio.sleep(1.0)
    await asyncio.to_thread(revoke)
    return await screen


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    status, _ = server.request("GET", "/api/v1/metrics/revenue")
    checks.check(status == 401, "a value shown only on a keyed dashboard reads 401 without a key", f"got {status}")
    status, body = server.request("POST", "/api/v1/admin/keys", {"name": "x"}, token=TOKEN)
    checks.check(status == 403, "a producer token cannot create viewer keys", f"got {status} {body}")
    status, created = server.request("POST", "/api/v1/admin/keys", {"name": "lobby TV", "dashboards": ["demo"]},
                                     token=ADMIN)
    checks.check(status == 201 and str(created.get("key", "")).startswith("rbv_"),
                 "an admin creates a viewer key for demo (201, secret shown once)", f"got {status} {created}")
    if status != 201:
        return
    secret, key_id = created["key"], created["id"]
    status, _ = server.request("GET", "/api/v1/metrics/revenue?key=" + secret)
    checks.check(status == 200, "the key reads the dashboard's values", f"got {status}")

    driver = start_browser(arguments)
    try:
        driver.get(f"{base}/d/demo")
        refusal = wait_for(lambda: body_data(driver, "refusal"), arguments.timeout)
        checks.check(refusal == "viewer_key_required", "Chromium without a key gets the 'needs a viewer key' page",
                     f"data-refusal={refusal!r}")

        driver.get(f"{base}/?key={secret}")
        link = wait_for(lambda: driver.execute_script(
            "return document.querySelector('[data-dashboard-id=demo]')?.getAttribute('href')"), arguments.timeout)
        checks.check(link is not None and f"key={secret}" in link, "the list opened with the key links to demo with it",
                     f"href={link!r}")

        driver.get(f"{base}/d/demo?key={secret}")
        opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        tiles = driver.execute_script("return document.querySelectorAll('[data-tile-id]').length")
        checks.check(opened and tiles > 0, "Chromium with the key connects and paints the dashboard",
                     f"connection={body_data(driver, 'connection')!r}, {tiles} tiles")

        hello, code, reason = asyncio.run(screen_close(server.port, None))
        checks.check(not hello and code == 1008 and reason == "viewer key required",
                     "a websockets screen without a key is closed with 1008 'viewer key required'",
                     f"hello={hello}, close {code} {reason!r}")

        def revoke():
            status, body = server.request("DELETE", f"/api/v1/admin/keys/{key_id}", token=ADMIN)
            checks.check(status == 200 and body.get("closedScreens") == 2,
                         "revoking the key answers 200 and closes its two screens (Chromium and websockets)",
                         f"got {status} {body}")

        hello, code, reason = asyncio.run(open_until_revoked(server.port, secret, revoke))
        checks.check(hello and code == 1008 and reason == "viewer key revoked",
                     "the websockets screen got its hello, then 1008 'viewer key revoked' when the key was revoked",
                     f"hello={hello}, close {code} {reason!r}")
        revoked = wait_for(lambda: body_data(driver, "viewerKey") == "revoked", arguments.timeout)
        message = driver.execute_script("return document.getElementById('board')?.textContent ?? ''")
        checks.check(revoked and body_data(driver, "connection") == "closed" and "revoked" in message,
                     "the open page says its viewer key was revoked and stops",
                     f"data-viewer-key={body_data(driver, 'viewerKey')!r}, board says {message[:80]!r}")

        driver.get(f"{base}/d/demo?key={secret}")
        refusal = wait_for(lambda: body_data(driver, "refusal"), arguments.timeout)
        checks.check(refusal == "invalid_viewer_key", "reopening the page with the revoked key gets the 403 page",
                     f"data-refusal={refusal!r}")
    finally:
        driver.quit()

    log = server.read_log()
    # Keys travel the change log: the store's journal (and snapshot) hold each key's SHA-256, never the secret.
    stored = b""
    store = os.path.join(server.data_dir, "store")
    for name in sorted(os.listdir(store)):
        with open(os.path.join(store, name), "rb") as handle:
            stored += handle.read()
    digest = hashlib.sha256(secret.encode()).hexdigest().encode()
    checks.check(secret not in log and secret[4:] not in log, "the secret is not in the server's log")
    checks.check(secret.encode() not in stored and secret[4:].encode() not in stored and digest in stored,
                 "the store holds the key's SHA-256 and no secret", f"{len(stored)} bytes in {store}")


def close_every_dashboard(config: str) -> None:
    """`dashboardAccess: key` in the copied server.yaml."""
    server_yaml = os.path.join(config, "server.yaml")
    with open(server_yaml) as handle:
        settings = handle.read()
    if "\ndashboardAccess: public" not in settings:
        raise SystemExit("config/server.yaml no longer says dashboardAccess: public; update this test")
    with open(server_yaml, "w") as handle:
        handle.write(settings.replace("\ndashboardAccess: public", "\ndashboardAccess: key"))


if __name__ == "__main__":
    sys.exit(run(__doc__, close_every_dashboard, scenario, admin_token=ADMIN))
