"""What a screen is told is what was posted: numbers rounded as the docs say, names and texts bounded, locales known.

Against the real server, read by a Python `websockets` screen (Tests/Interop/server/screen_state.py):

- every tile that writes a number — a `%d` counter, an odometer, a gauge, a chart's newest point, a leaderboard's
  scores — shows 0.5, 1.5, 2.5, -0.5, -2.5, 2103.5, 0.9, -0.9, -0.4 rounded half away from zero at rest (1, 2, 3,
  −1, −3, 2,104, 1, −1, 0): never truncated (0.9 is not 0) and never "−0";
- a leaderboard name of 40 KB (`a` and 20,000 combining marks), a text of 30 KB, a name with ESC, a slide with BEL
  and a name of zero-width characters only are refused with 422 naming the field, and nothing of them is stored;
- a clock with `locale: xx-YY` (and a dashboard with it) stops the server from starting, the error naming the file,
  the tile and the field, as a counter's unknown locale does.

Usage: test_shown_values.py --binary .build/debug/rollboard
"""

import asyncio
import json
import os
import shutil
import sys

import websockets

from rollboard_process import (
    Background, Checks, RollboardProcess, binary_arguments, insecure_client_context, scratch_folder, serving, until,
    write_config)
from screen_state import ScreenState, long_form

TOKEN = "shown-values-producer-token-0123456789"
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
MINUS = "\u2212"
DASHBOARD = """id: zahlen
title: Zahlen
tiles:
  - {id: orders, type: counter, format: "%d", grouping: "#,##0", duration: 0.3}
  - {id: visits, type: odometer, maxColumns: 8, maxDuration: 0.3}
  - {id: load, type: gauge, min: -5000, max: 5000, grouping: "#,##0", duration: 0.3}
  - {id: level, type: chart, window: "last 5m", step: 1m}
  - {id: sellers, type: leaderboard, size: 20, grouping: "#,##0", duration: 0.3}
  - {id: notice, type: text}
  - {id: lobby, type: carousel, slides: [{text: Welcome}]}
"""
# A value and the whole number every tile shows for it.
VALUES = [
    (0.5, "1"), (1.5, "2"), (2.5, "3"), (-0.5, MINUS + "1"), (-2.5, MINUS + "3"), (2103.5, "2,104"), (0.9, "1"),
    (-0.9, MINUS + "1"), (-0.4, "0"), (2103.4, "2,103"),
]


def odometer_text(state: dict) -> str:
    """The digits an odometer rests on, with its sign and without leading zeros."""
    digits = "".join(str(int(round(position)) % 10) for position in state["digits"]).lstrip("0") or "0"
    return (MINUS if state.get("negative") else "") + digits


class Screen(Background):
    """One `websockets` screen of `zahlen`, its tiles' states kept as frames patch them."""

    def __init__(self, port: int):
        self.uri = f"wss://127.0.0.1:{port}/ws?dashboard=zahlen&name=shown-values"
        self.origin = f"https://127.0.0.1:{port}"
        self.state = ScreenState()
        self.tiles: dict = {}
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        async with websockets.connect(self.uri, ssl=insecure_client_context(), origin=self.origin) as socket:
            async for message in socket:
                shown = self.state.read(message)
                if shown and shown.get("type") in ("hello", "frame"):
                    for tile in self.state.wire:
                        self.tiles[tile] = long_form(self.state.wire[tile])


async def numbers(server: RollboardProcess, checks: Checks) -> None:
    screen = Screen(server.port).start()
    checks.check(await until(lambda: "orders" in screen.tiles), "a screen of zahlen gets its hello")
    for value, text in VALUES:
        for metric in ("orders", "visits", "load", "level"):
            status, body = server.request("POST", f"/api/v1/metrics/{metric}", {"value": value, "animated": False},
                                          token=TOKEN)
            checks.check(status == 202, f"{metric} {value} is accepted", f"{status} {body!r}")
        await until(lambda: all((screen.tiles.get(tile) or {}).get("target") == value
                                for tile in ("orders", "load", "level")))
        await asyncio.sleep(0.8)  # the odometer's roll (maxDuration 0.3 s) and any count have come to rest
        tiles = screen.tiles
        checks.check((tiles.get("orders") or {}).get("text") == text, f"the %d counter shows {value} as {text}",
                     f"{tiles.get('orders')!r}")
        checks.check((tiles.get("load") or {}).get("text") == text, f"the gauge writes {value} as {text}",
                     f"{tiles.get('load')!r}")
        checks.check((tiles.get("level") or {}).get("text") == text, f"the chart writes {value} as {text}",
                     f"{tiles.get('level')!r}")
        visits = tiles.get("visits") or {"digits": []}
        checks.check(odometer_text(visits) == text.replace(",", ""), f"the odometer rests on {value} as {text}",
                     f"{visits!r}")
    board = {f"v{index}": value for index, (value, _) in enumerate(VALUES)}
    status, body = server.request("POST", "/api/v1/leaderboards/sellers", {"entries": board}, token=TOKEN)
    checks.check(status == 202, "a board of every value is accepted", f"{status} {body!r}")
    await until(lambda: len((screen.tiles.get("sellers") or {}).get("n", [])) == len(VALUES))
    await asyncio.sleep(1.0)  # the rows' move (duration 0.3 s) has come to rest
    rows = screen.tiles.get("sellers") or {}
    shown = dict(zip(rows.get("n", []), rows.get("t", [])))
    for index, (value, text) in enumerate(VALUES):
        checks.check(shown.get(f"v{index}") == text, f"the leaderboard writes a score of {value} as {text}",
                     f"{shown.get(f'v{index}')!r}")
    screen.stop()


def texts(server: RollboardProcess, checks: Checks) -> None:
    status, _ = server.request("POST", "/api/v1/leaderboards/sellers", {"entries": {"Ann": 1}}, token=TOKEN)
    checks.check(status == 202, "a board of one name is accepted")
    refusals = [
        ("/api/v1/leaderboards/sellers", {"entries": {"a" + "\u0301" * 20_000: 1}},
         '"]: name is 40001 bytes; at most 400'),
        ("/api/v1/leaderboards/sellers", {"increment": {"Bob\u001b[2J": 1}},
         'increment["Bob\\u001b[2J"]: name holds the control character U+001B; none is allowed'),
        ("/api/v1/leaderboards/sellers", {"entries": {"\u200b\u200d": 1}},
         ': name shows nothing (only white space, zero-width characters or combining marks)'),
        ("/api/v1/texts/notice", {"text": "a" + "\u0301" * 15_000}, "text: text is 30001 bytes; at most 2000"),
        ("/api/v1/texts/notice", {"text": "Deploy\u0000freeze"},
         "text: text holds the control character U+0000; none is allowed (a text may hold newlines, U+000A)"),
        ("/api/v1/carousels/lobby/slides", {"slides": [{"text": "ok"}, {"text": "Ring\u0007"}]},
         "slides[1].text: text holds the control character U+0007"),
    ]
    for path, body, detail in refusals:
        raw = json.dumps(body, ensure_ascii=False).encode()  # UTF-8 as a producer sends it: 40 KB, not 120 KB of \u
        status, answer = server.request("POST", path, raw=raw, token=TOKEN)
        got = answer.get("detail", "") if isinstance(answer, dict) else str(answer)
        checks.check(status == 422 and detail in got, f"{path} refuses {detail!r} with 422",
                     f"{status} {str(answer)[:300]!r}")
    status, board = server.request("GET", "/api/v1/leaderboards/sellers", token=TOKEN)
    checks.check(status == 200 and board.get("entries") == {"Ann": 1}, "nothing refused was stored",
                 f"{status} {str(board)[:300]!r}")
    status, body = server.request("POST", "/api/v1/texts/notice", {"text": "Deploy freeze\nuntil 3"}, token=TOKEN)
    checks.check(status == 202, "a text with a newline is accepted", f"{status} {body!r}")


def locales(binary: str, folder: str, checks: Checks) -> None:
    for name, dashboard, problem in [
        ("clock", "id: uhr\ntiles:\n  - {id: now, type: clock, locale: xx-YY}\n",
         'uhr.yaml: tile "now": locale: "xx-YY" is not a locale the server knows'),
        ("dashboard", "id: uhr\nlocale: xx-YY\ntiles:\n  - {id: now, type: clock}\n",
         'uhr.yaml: locale: "xx-YY" is not a locale the server knows'),
        ("counter", "id: uhr\ntiles:\n  - {id: n, type: counter, locale: xx-YY}\n",
         'uhr.yaml: tile "n": locale: must be one of en-US'),
    ]:
        config = os.path.join(folder, f"config-{name}")
        shutil.copytree(os.path.join(REPOSITORY, "config"), config)
        with open(os.path.join(config, "dashboards", "uhr.yaml"), "w", encoding="utf-8") as handle:
            handle.write(dashboard)
        server = RollboardProcess(binary, os.path.join(folder, f"data-{name}"), TOKEN, config=config)
        try:
            server.start(timeout=15)
            started, log = True, ""
        except RuntimeError as refused:
            started, log = False, str(refused)
        finally:
            server.stop()
        checks.check(not started and problem in log, f"a {name} with locale xx-YY stops the server, naming it",
                     log[-600:])


def main() -> int:
    arguments = binary_arguments()
    checks = Checks()
    with scratch_folder("rollboard-shown-") as folder:
        config = write_config(folder, {"dashboards/zahlen.yaml": DASHBOARD})
        with serving(arguments.binary, TOKEN, folder, config) as server:
            asyncio.run(numbers(server, checks))
            texts(server, checks)
        locales(arguments.binary, folder, checks)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
