"""Hot reload with SIGHUP against the real server, read by Python `websockets` screens (a peer we did not write).

A server runs on a copy of config/ with a second dashboard. Then:

- the second dashboard's tile gets a new title and the server gets SIGHUP: its screen receives a fresh `hello` with
  the new title, while a screen on the demo dashboard gets no new `hello` and stays connected;
- a broken file and SIGHUP: the server logs the problem with its file, tile and field, keeps the configuration in
  force (the dashboard still reads as before) and both screens stay connected;
- the second dashboard's file is removed and SIGHUP: its screen is closed with 4404.

Usage: test_config_reload.py --binary .build/debug/rollboard
"""

import asyncio
import json
import os
import signal
import sys

import websockets

from rollboard_process import (
    Checks, RollboardProcess, insecure_client_context, served_checks, until)

TOKEN = "config-reload-producer-token-0123456789"
SECOND = "id: second\ntitle: Second\ntiles:\n  - {id: tickets, type: counter}\n"


class Screen:
    """A screen that records the `hello`s it gets and how it was closed."""

    def __init__(self, port: int, dashboard: str):
        self.uri = f"wss://127.0.0.1:{port}/ws?dashboard={dashboard}"
        self.origin = f"https://127.0.0.1:{port}"
        self.hellos: list[dict] = []
        self.close_code: int | None = None
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        async with websockets.connect(self.uri, ssl=insecure_client_context(), origin=self.origin) as socket:
            try:
                async for message in socket:
                    if isinstance(message, str) and message.startswith('{"type":"hello"'):
                        self.hellos.append(json.loads(message))
            except websockets.ConnectionClosed:
                pass
            self.close_code = socket.close_code

    def start(self) -> None:
        self.task = asyncio.create_task(self.run())


async def scenario(server: RollboardProcess, config: str, checks: Checks) -> None:
    second = Screen(server.port, "second")
    demo = Screen(server.port, "demo")
    second.start()
    demo.start()
    checks.check(await until(lambda: second.hellos and demo.hellos), "both screens get their hello")

    with open(os.path.join(config, "dashboards", "second.yaml"), "w") as handle:
        handle.write(SECOND.replace("title: Second", "title: Tickets today"))
    server.process.send_signal(signal.SIGHUP)
    fresh = await until(lambda: len(second.hellos) >= 2)
    title = second.hellos[-1]["dashboard"]["title"] if second.hellos else None
    checks.check(fresh and title == "Tickets today", "SIGHUP with a changed tile title: a fresh hello with the new title",
                 f"{len(second.hellos)} hellos, title {title!r}")
    await asyncio.sleep(1.0)
    checks.check(len(demo.hellos) == 1 and demo.close_code is None,
                 "the unchanged dashboard's screen gets no new hello and stays", f"{len(demo.hellos)} hellos")

    with open(os.path.join(config, "dashboards", "second.yaml"), "w") as handle:
        handle.write("id: second\ntitle: Broken\ntiles:\n  - {id: tickets, type: counter, duration: -4}\n")
    server.process.send_signal(signal.SIGHUP)
    logged = await until(lambda: "configuration reload refused" in server.read_log())
    log = server.read_log()
    status, layout = server.request("GET", "/api/v1/dashboards/second")
    named = any(f'second.yaml: tile {quote}tickets{quote}: duration' in log for quote in ('"', '\\"'))
    checks.check(logged and named,
                 "a broken file is refused and logged with its file, tile and field", log[-600:])
    checks.check(status == 200 and layout.get("title") == "Tickets today" and len(second.hellos) == 2
                 and second.close_code is None and demo.close_code is None,
                 "the configuration in force stays and the screens stay connected",
                 f"status {status}, title {layout.get('title') if isinstance(layout, dict) else layout!r}")

    os.remove(os.path.join(config, "dashboards", "second.yaml"))
    server.process.send_signal(signal.SIGHUP)
    closed = await until(lambda: second.close_code is not None)
    checks.check(closed and second.close_code == 4404, "a removed dashboard's screen is closed with 4404",
                 f"close {second.close_code}")
    checks.check(demo.close_code is None, "the demo screen stays connected")
    for screen in (second, demo):
        if screen.task and not screen.task.done():
            screen.task.cancel()


def main() -> int:
    with served_checks("rollboard-reload-", TOKEN, {"dashboards/second.yaml": SECOND}) as run:
        asyncio.run(scenario(run.server, run.config, run.checks))
    return run.checks.finish()


if __name__ == "__main__":
    sys.exit(main())
