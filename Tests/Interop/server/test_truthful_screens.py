"""Screens that are never told something untrue, against the real server, read by Python `websockets` screens.

A server runs on a copy of config/ with two more dashboards, `firma` (an odometer with `delta: previous`, a status
wheel, a counter) and `lager`, both public at first. Then:

- a status wheel that was never set is `null` in `hello` (the page shows "—", not its first label); its first
  value is shown at once: the next frames never pass through the first label;
- `delta: previous` comes back after a reload (a fresh `hello`) and after a restart (a new screen's `hello`), from
  the stored previous value;
- a reload that makes `firma` `access: key` closes its screen that came without a key (1008 `viewer key required`)
  and keeps the one that came with a key for it; `GET /api/v1/screens` no longer lists the closed one;
- a reload with `dashboardAccess: key` in `server.yaml` closes the screen of `lager` (which follows the default),
  and the keyed screen of `firma` stays;
- a key revoked through the admin API closes the screen that came with it (1008 `viewer key revoked`);
- operators reach every screen and a playlist's screens: an announcement to a playlist reaches its screen and not a
  dashboard's; one to every screen reaches both; `GET /api/v1/dashboards` (the list at `/`) lists the playlist, the
  start-up banner prints its `/p/` address, and the pid file the banner names is the server's.

Usage: test_truthful_screens.py --binary .build/debug/rollboard
"""

import asyncio
import json
import os
import signal
import sys

import websockets

from rollboard_process import (
    Background, Checks, RollboardProcess, insecure_client_context, served_checks, until)

TOKEN = "truthful-producer-token-0123456789"
ADMIN = "truthful-admin-token-0123456789abcdef"
FIRMA = """id: firma
title: Firma
locale: de-DE
tiles:
  - {id: umsatz, type: odometer, title: Umsatz, decimals: 0, columns: 6, delta: previous}
  - id: status
    type: wheel
    title: Status
    contents: [Betriebsbereit, Gestört, Ausfall]
    colors: {Betriebsbereit: "#2e7d32", Gestört: "#f9a825", Ausfall: "#c62828"}
  - {id: bestellungen, type: counter, title: Bestellungen, format: "%d"}
"""
RUNDGANG = "id: rundgang\ntitle: Rundgang\nentries:\n  - {dashboard: firma, seconds: 600}\n  - {dashboard: lager, seconds: 5}\n"
LAGER = "id: lager\ntitle: Lager\ntiles:\n  - {id: paletten, type: counter, format: \"%d\"}\n"


class Screen(Background):
    """A screen that records its `hello`s, the tile states its frames patch in, and how it was closed."""

    def __init__(self, port: int, dashboard: str, key: str | None = None, playlist: bool = False):
        query = f"{'playlist' if playlist else 'dashboard'}={dashboard}" + (f"&key={key}" if key else "")
        self.uri = f"wss://127.0.0.1:{port}/ws?{query}&name=test-{dashboard}{'-key' if key else ''}"
        self.origin = f"https://127.0.0.1:{port}"
        self.hellos: list[dict] = []
        self.patches: dict[str, list] = {}
        self.announcements: list[dict] = []
        self.close_code: int | None = None
        self.close_reason: str | None = None
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        try:
            async with websockets.connect(self.uri, ssl=insecure_client_context(), origin=self.origin) as socket:
                try:
                    async for message in socket:
                        if not isinstance(message, str):
                            continue
                        data = json.loads(message)
                        if data.get("type") == "hello":
                            self.hellos.append(data)
                        elif data.get("type") == "announce":
                            self.announcements.append(data)
                        elif "f" in data:
                            for tile, patch in data.get("t", {}).items():
                                self.patches.setdefault(tile, []).append(patch)
                except websockets.ConnectionClosed:
                    pass
                self.close_code = socket.close_code
                self.close_reason = socket.close_reason
        except websockets.InvalidStatus as refused:
            self.close_code = refused.response.status_code

    def tile(self, tile: str) -> object:
        return self.hellos[-1]["tiles"].get(tile, "missing") if self.hellos else "no hello"


def post(server: RollboardProcess, path: str, body: dict):
    return server.request("POST", path, body, token=TOKEN)


async def wheel_and_delta(server: RollboardProcess, config: str, checks: Checks) -> None:
    screen = Screen(server.port, "firma").start()
    checks.check(await until(lambda: screen.hellos), "a screen of firma gets its hello")
    checks.check(screen.tile("status") is None, "a wheel that was never set is null in hello (not its first label)",
                 f"{screen.tile('status')!r}")
    status, body = post(server, "/api/v1/wheels/status", {"index": 2})
    checks.check(status == 202, "a wheel index is accepted", f"{status} {body!r}")
    shown = await until(lambda: any(isinstance(p, dict) and p.get("p") == 2000 for p in screen.patches.get("status", [])))
    passed = [p.get("p") for p in screen.patches.get("status", []) if isinstance(p, dict)]
    checks.check(shown and passed[0] == 2000, "the first value of a never-set wheel shows at once, not via its first label",
                 f"positions {passed}")

    for value in (100, 150):
        status, body = post(server, "/api/v1/metrics/umsatz", {"value": value})
        checks.check(status == 202, f"umsatz {value} is accepted", f"{status} {body!r}")
    delta_live = await until(lambda: any(isinstance(p, dict) and p.get("delta") == 50
                                         for p in screen.patches.get("umsatz", [])))
    checks.check(delta_live, "a live screen gets the delta to the previous value (+50)")

    with open(os.path.join(config, "dashboards", "firma.yaml"), "w", encoding="utf-8") as handle:
        handle.write(FIRMA.replace("title: Firma", "title: Firma GmbH"))
    server.process.send_signal(signal.SIGHUP)
    fresh = await until(lambda: len(screen.hellos) >= 2)
    umsatz = screen.tile("umsatz")
    checks.check(fresh and isinstance(umsatz, dict) and umsatz.get("delta") == 50 and umsatz.get("trend") == "up",
                 "after a reload the fresh hello still carries the delta arrow (+50, up)", f"{umsatz!r}")
    screen.stop()

    server.stop()
    server.start()
    again = Screen(server.port, "firma").start()
    checks.check(await until(lambda: again.hellos), "after a restart a new screen gets its hello")
    umsatz = again.tile("umsatz")
    checks.check(isinstance(umsatz, dict) and umsatz.get("delta") == 50 and umsatz.get("trend") == "up",
                 "after a restart the hello carries the delta arrow from the stored previous value", f"{umsatz!r}")
    wheel = again.tile("status")
    checks.check(isinstance(wheel, dict) and wheel.get("p") == 2000, "after a restart the wheel shows its stored value",
                 f"{wheel!r}")
    again.stop()


async def narrowing(server: RollboardProcess, config: str, checks: Checks) -> None:
    status, created = server.request("POST", "/api/v1/admin/keys", {"name": "firma TV", "dashboards": ["firma"]},
                                     token=ADMIN)
    checks.check(status == 201 and created.get("key", "").startswith("rbv_"), "an admin creates a key for firma",
                 f"{status} {created!r}")
    secret = created.get("key") if isinstance(created, dict) else None
    open_screen = Screen(server.port, "firma").start()
    keyed = Screen(server.port, "firma", key=secret).start()
    lager = Screen(server.port, "lager").start()
    checks.check(await until(lambda: open_screen.hellos and keyed.hellos and lager.hellos),
                 "three screens connect: firma without a key, firma with its key, lager")
    _, listed = server.request("GET", "/api/v1/screens", token=ADMIN)
    names = sorted(s.get("name") for s in listed.get("screens", [])) if isinstance(listed, dict) else []
    checks.check("test-firma" in names, "the open screen of firma is listed", f"{names}")

    with open(os.path.join(config, "dashboards", "firma.yaml"), "a", encoding="utf-8") as handle:
        handle.write("access: key\n")
    server.process.send_signal(signal.SIGHUP)
    closed = await until(lambda: open_screen.close_code is not None)
    checks.check(closed and open_screen.close_code == 1008 and open_screen.close_reason == "viewer key required",
                 "a reload making firma access: key closes its screen without a key: 1008 viewer key required",
                 f"{open_screen.close_code} {open_screen.close_reason!r}")
    await asyncio.sleep(0.5)
    checks.check(keyed.close_code is None and lager.close_code is None,
                 "the screen with a key for firma and the screen of lager stay",
                 f"keyed {keyed.close_code}, lager {lager.close_code}")
    _, listed = server.request("GET", "/api/v1/screens", token=ADMIN)
    names = sorted(s.get("name") for s in listed.get("screens", [])) if isinstance(listed, dict) else []
    checks.check("test-firma" not in names and "test-firma-key" in names,
                 "GET /api/v1/screens no longer lists the closed screen", f"{names}")
    status, _ = post(server, "/api/v1/metrics/umsatz", {"value": 175})
    before = len(open_screen.patches.get("umsatz", []))
    await asyncio.sleep(0.5)
    checks.check(len(open_screen.patches.get("umsatz", [])) == before, "the closed screen receives no new values")

    settings_path = os.path.join(config, "server.yaml")
    with open(settings_path, encoding="utf-8") as handle:
        settings = handle.read()
    checks.check("dashboardAccess: public" in settings, "the shipped server.yaml says dashboardAccess: public")
    with open(settings_path, "w", encoding="utf-8") as handle:
        handle.write(settings.replace("dashboardAccess: public", "dashboardAccess: key"))
    server.process.send_signal(signal.SIGHUP)
    closed = await until(lambda: lager.close_code is not None)
    checks.check(closed and lager.close_code == 1008 and lager.close_reason == "viewer key required",
                 "a reload with dashboardAccess: key closes lager's screen: 1008 viewer key required",
                 f"{lager.close_code} {lager.close_reason!r}")
    checks.check(keyed.close_code is None, "the keyed screen of firma stays")

    late = Screen(server.port, "lager", key=secret).start()
    await until(lambda: late.close_code is not None or late.hellos, 5)
    checks.check(late.close_code == 1008 and not late.hellos,
                 "a key for firma does not open lager now that lager needs a key: 1008",
                 f"{late.close_code} {late.close_reason!r}")

    key_id = created.get("id")
    status, revoked = server.request("DELETE", f"/api/v1/admin/keys/{key_id}", token=ADMIN)
    checks.check(status == 200 and revoked.get("closedScreens") == 1, "revoking the key answers 200 with 1 screen",
                 f"{status} {revoked!r}")
    closed = await until(lambda: keyed.close_code is not None)
    checks.check(closed and keyed.close_code == 1008 and keyed.close_reason == "viewer key revoked",
                 "the screen that came with the key is closed: 1008 viewer key revoked",
                 f"{keyed.close_code} {keyed.close_reason!r}")
    for screen in (open_screen, keyed, lager, late):
        screen.stop()


async def operators(server: RollboardProcess, checks: Checks) -> None:
    log = server.read_log()
    checks.check(f"/p/rundgang  Rundgang (playlist: firma, lager)" in log,
                 "the start-up banner prints the playlist's /p/ address", log[-800:])
    pid_file = os.path.join(server.data_dir, "rollboard.pid")
    with open(pid_file, encoding="utf-8") as handle:
        pid = int(handle.read().strip())
    checks.check(pid == server.process.pid and f"kill -HUP $(cat {pid_file})" in log,
                 "the pid file holds the server's process id, and the banner says how to reload with it",
                 f"{pid} vs {server.process.pid}")
    status, listed = server.request("GET", "/api/v1/dashboards")
    playlists = listed.get("playlists") if isinstance(listed, dict) else None
    checks.check(status == 200 and playlists == [{"id": "rundgang", "title": "Rundgang", "entries": ["firma", "lager"]}],
                 "GET /api/v1/dashboards lists the playlist for the list at /", f"{status} {playlists!r}")

    touring = Screen(server.port, "rundgang", playlist=True).start()
    plain = Screen(server.port, "firma").start()
    checks.check(await until(lambda: touring.hellos and plain.hellos), "a playlist screen and a dashboard screen connect")
    status, answer = server.request("POST", "/api/v1/admin/playlists/rundgang/announce",
                                    {"text": "Betriebsversammlung um 15 Uhr", "seconds": 30}, token=ADMIN)
    checks.check(status == 202 and answer.get("playlist") == "rundgang", "an announcement to a playlist is 202",
                 f"{status} {answer!r}")
    reached = await until(lambda: touring.announcements)
    await asyncio.sleep(0.5)
    checks.check(reached and touring.announcements[0].get("text") == "Betriebsversammlung um 15 Uhr"
                 and not plain.announcements,
                 "it reaches the playlist's screen and not a screen of the same dashboard outside the playlist",
                 f"playlist {touring.announcements}, dashboard {plain.announcements}")
    status, answer = server.request("POST", "/api/v1/admin/announce", {"text": "Feueralarm-Probe", "seconds": 10},
                                    token=ADMIN)
    checks.check(status == 202 and answer.get("everywhere") is True, "an announcement to every screen is 202",
                 f"{status} {answer!r}")
    reached = await until(lambda: any(a.get("text") == "Feueralarm-Probe" for a in touring.announcements)
                          and any(a.get("text") == "Feueralarm-Probe" for a in plain.announcements))
    checks.check(reached, "it reaches the playlist's screen and the dashboard's screen")
    status, answer = server.request("POST", "/api/v1/admin/announce", {"text": "", "seconds": 10}, token=ADMIN)
    checks.check(status == 422 and isinstance(answer, dict) and "text" in answer.get("detail", ""),
                 "an empty announcement is refused 422 naming text", f"{status} {answer!r}")
    for screen in (touring, plain):
        screen.stop()


def main() -> int:
    files = {"dashboards/firma.yaml": FIRMA, "dashboards/lager.yaml": LAGER, "playlists/rundgang.yaml": RUNDGANG}
    with served_checks("rollboard-truthful-", TOKEN, files, environment={"ROLLBOARD_ADMIN_TOKEN": ADMIN}) as run:
        asyncio.run(operators(run.server, run.checks))
        asyncio.run(wheel_and_delta(run.server, run.config, run.checks))
        asyncio.run(narrowing(run.server, run.config, run.checks))
    return run.checks.finish()


if __name__ == "__main__":
    sys.exit(main())
