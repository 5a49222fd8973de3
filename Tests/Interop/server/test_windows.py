"""Windows of a metric through the real server, read by a Python `websockets` screen.

A dashboard `kasse` in a time zone where it is about noon now (an `Etc/GMT±N` name, so both checks below fall on
the same local days whenever the test runs) shows the metric `verkauf` three ways: `heute` (window: today,
aggregate: sum, compare: yesterday), `viertel` (window: "last 15m", aggregate: count) and `stand` (the latest value).

Yesterday is made real with faketime: the server runs a day behind its wall clock and takes an increment of 10,
then 23 hours behind and takes 100 (later in yesterday than this moment of it). Back on the real clock:

- a screen's `hello` shows `heute` and `viertel` as null (the page shows "—"), and `stand` as 110;
- after increments of 5 and 7 the screen's frames bring `heute` to 12 with "+20 %" versus "this time yesterday"
  (10 by this time yesterday; the 100 came later in the day), `viertel` to 2, and `stand` to 122;
- a screen that connects after a restart is shown the same numbers and arrow from the stored series;
- Chromium on `/d/kasse` paints it: "—" for the empty windows at first, then "12", "▲ +20 %" beside the title and
  "vs this time yesterday" under it (a screenshot goes to reports/browser/windows.png).

Usage: test_windows.py --binary .build/debug/rollboard   (needs Debian's faketime)
"""

import argparse
import asyncio
import datetime
import json
import os
import shutil
import sys
import tempfile

import websockets
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from rollboard_process import Background, Checks, RollboardProcess, insecure_client_context, until
from screen_state import patch

TOKEN = "windows-producer-token-0123456789"
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"


def noon_zone() -> str:
    """An IANA `Etc/GMT±N` zone where the local hour is about 12 now (`Etc/GMT-3` is three hours ahead of UTC)."""
    ahead = 12 - datetime.datetime.now(datetime.timezone.utc).hour
    return "Etc/UTC" if ahead == 0 else f"Etc/GMT{'-' if ahead > 0 else '+'}{abs(ahead)}"


def dashboard(zone: str) -> str:
    return f"""id: kasse
title: Kasse
timeZone: {zone}
motion: reduced
grid: {{columns: 3, rows: 3}}
tiles:
  - {{id: heute, type: counter, metric: verkauf, format: "%d", window: today, aggregate: sum, compare: yesterday}}
  - {{id: viertel, type: counter, metric: verkauf, format: "%d", window: "last 15m", aggregate: count}}
  - {{id: stand, type: counter, metric: verkauf, format: "%d"}}
"""


class Screen(Background):
    """A screen of `kasse` that keeps every tile's state as its `hello` and frames leave it."""

    def __init__(self, port: int):
        self.uri = f"wss://127.0.0.1:{port}/ws?dashboard=kasse&name=test-windows"
        self.origin = f"https://127.0.0.1:{port}"
        self.hello: dict | None = None
        self.states: dict = {}
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        async with websockets.connect(self.uri, ssl=insecure_client_context(), origin=self.origin) as socket:
            async for message in socket:
                if not isinstance(message, str):
                    continue
                data = json.loads(message)
                if data.get("type") == "hello":
                    self.hello = data
                    self.states = dict(data["tiles"])
                elif "f" in data:
                    for tile, entry in data.get("t", {}).items():
                        self.states[tile] = patch(self.states.get(tile), entry)


def increment(server: RollboardProcess, amount: float, checks: Checks) -> None:
    status, body = server.request("POST", "/api/v1/metrics/verkauf", {"increment": amount}, token=TOKEN)
    checks.check(status == 202, f"an increment of {amount} is accepted", f"{status} {body!r}")


def faked(binary: str, data: str, config: str, offset: str) -> RollboardProcess:
    """A server whose wall clock runs `offset` behind (libfaketime; its monotonic clock is left alone). The preset
    FAKETIME_SHARED keeps libfaketime from setting it in the environment itself, which moves the environment and
    leaves a Swift program without its arguments."""
    environment = {"LD_PRELOAD": LIBFAKETIME, "FAKETIME": offset, "FAKETIME_DONT_FAKE_MONOTONIC": "1",
                   "FAKETIME_SHARED": "/rollboard-none /rollboard-none"}
    return RollboardProcess(binary, data, TOKEN, config=config, environment=environment)


def start_browser(arguments) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = arguments.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--ignore-certificate-errors",
                 "--window-size=1280,720"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(arguments.chromedriver), options=options)


def painted(driver, tile: str) -> dict:
    """What the page shows for `tile`: whether it is empty ("—"), its number's text and its change arrow."""
    return driver.execute_script("""
        const tile = document.querySelector(`[data-tile-id="${arguments[0]}"]`);
        if (!tile) return {};
        const change = tile.querySelector(".tile__change");
        const versus = tile.querySelector(".tile__versus");
        const body = tile.querySelector(".tile__body");
        return {empty: tile.dataset.empty || null, number: body ? body.textContent.trim() : null,
                change: change && !change.hidden ? change.textContent : null,
                versus: versus && !versus.hidden ? versus.textContent : null,
                title: tile.querySelector(".tile__title").getBoundingClientRect().width};
    """, tile)


async def wait_painted(driver, tile: str, wanted: dict, seconds: float = 10.0) -> bool:
    return await until(lambda: all(painted(driver, tile).get(key) == value for key, value in wanted.items()), seconds)


def summary(state) -> dict | None:
    if not isinstance(state, dict):
        return state
    return {name: state.get(name) for name in ("text", "deltaText", "versus", "trend") if name in state}


async def scenario(arguments, folder: str, checks: Checks) -> None:
    binary = arguments.binary
    config = os.path.join(folder, "config")
    data = os.path.join(folder, "data")
    zone = noon_zone()
    print(f"dashboard time zone {zone}")
    for offset, amount in (("-1d", 10), ("-23h", 100)):
        server = faked(binary, data, config, offset)
        server.start()
        try:
            increment(server, amount, checks)
            _, stored = server.request("GET", "/api/v1/metrics/verkauf")
            committed = datetime.datetime.fromisoformat(stored["updatedAt"].replace("Z", "+00:00"))
            behind = datetime.datetime.now(datetime.timezone.utc) - committed
            checks.check(abs(behind.total_seconds() - (86_400 if offset == "-1d" else 82_800)) < 120,
                         f"the faked server commits {offset} in the past", f"{stored['updatedAt']}")
        finally:
            server.stop()

    server = RollboardProcess(binary, data, TOKEN, config=config)
    server.start()
    driver = start_browser(arguments)
    try:
        driver.get(f"{server.base_url}/d/kasse")
        for tile in ("heute", "viertel"):
            checks.check(await wait_painted(driver, tile, {"empty": "true", "change": None, "versus": None}),
                         f"Chromium shows — for the empty window {tile}", f"{painted(driver, tile)}")
        screen = Screen(server.port).start()
        checks.check(await until(lambda: screen.hello is not None), "a screen of kasse gets its hello")
        checks.check(screen.states.get("heute") is None and screen.states.get("viertel") is None,
                     "windows without a change today or in the last 15 minutes are null in hello (the page shows —)",
                     f"{summary(screen.states.get('heute'))} {summary(screen.states.get('viertel'))}")
        checks.check(summary(screen.states.get("stand")) == {"text": "110"}, "the plain tile shows the latest value",
                     f"{summary(screen.states.get('stand'))}")
        increment(server, 5, checks)
        increment(server, 7, checks)
        wanted = {"text": "12", "deltaText": "+20 %", "versus": "this time yesterday", "trend": "up"}
        reached = await until(lambda: summary(screen.states.get("heute")) == wanted)
        checks.check(reached, "today's sum is 12, +20 % vs this time yesterday (10 then; the 100 came later that day)",
                     f"{summary(screen.states.get('heute'))}")
        checks.check(await until(lambda: summary(screen.states.get("viertel")) == {"text": "2"}),
                     "the last 15 minutes hold two changes", f"{summary(screen.states.get('viertel'))}")
        checks.check(await until(lambda: summary(screen.states.get("stand")) == {"text": "122"}),
                     "the plain tile shows the running total", f"{summary(screen.states.get('stand'))}")
        wanted_page = {"empty": "false", "number": "12", "change": "\u25B2 +20 %", "versus": "vs this time yesterday"}
        checks.check(await wait_painted(driver, "heute", wanted_page),
                     "Chromium paints 12, \"\u25B2 +20 %\" and \"vs this time yesterday\"", f"{painted(driver, 'heute')}")
        checks.check(painted(driver, "heute").get("title", 0) > 40, "the tile's title keeps its room beside the arrow",
                     f"{painted(driver, 'heute')}")
        os.makedirs(os.path.join(REPOSITORY, "reports", "browser"), exist_ok=True)
        driver.save_screenshot(os.path.join(REPOSITORY, "reports", "browser", "windows.png"))
        screen.stop()
        server.stop()
        server.start()
        again = Screen(server.port).start()
        checks.check(await until(lambda: again.hello is not None), "after a restart a screen gets its hello")
        checks.check(summary(again.states.get("heute")) == wanted,
                     "after a restart the hello shows today's sum and its arrow from the stored series",
                     f"{summary(again.states.get('heute'))}")
        again.stop()
    finally:
        driver.quit()
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--chromedriver", default=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    args = parser.parse_args()
    if not os.path.exists(LIBFAKETIME):
        print(f"needs {LIBFAKETIME} (apt-get install faketime)", file=sys.stderr)
        return 2
    checks = Checks()
    with tempfile.TemporaryDirectory() as folder:
        config = os.path.join(folder, "config")
        shutil.copytree(os.path.join(REPOSITORY, "config"), config)
        with open(os.path.join(config, "dashboards", "kasse.yaml"), "w", encoding="utf-8") as handle:
            handle.write(dashboard(noon_zone()))
        asyncio.run(scenario(args, folder, checks))
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
