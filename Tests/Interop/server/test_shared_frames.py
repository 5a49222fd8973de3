"""Shared frames and one compression context per stream, checked by a WebSocket peer we did not write (Python
`websockets`, whose inflater keeps its window between messages as a browser's does).

A dashboard of four odometers is kept moving by a batch of values every second. Screens:

- three that offer permessage-deflate as browsers do (the server keeps its context: no `server_no_context_takeover`
  in the answer), connected before the values start;
- one that joins mid-stream, which must be primed (a binary message) before its first frame;
- one that asks for `server_no_context_takeover` (each frame compressed alone);
- one without compression.

Every screen must decode every message (a wrong primer or a frame coded against a window the screen does not have
fails the connection), every frame number must carry the same text on every screen, every screen must end at rest on
the last values, and the frames sent with the stream's context must be smaller than those compressed alone.

Usage: test_shared_frames.py --binary .build/debug/rollboard
"""

import asyncio
import os
import sys

import websockets
from websockets.extensions import permessage_deflate

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rollboard_process import (  # noqa: E402
    Checks, RollboardProcess, insecure_client_context, served_checks)
from screen_state import ScreenState  # noqa: E402

TOKEN = "shared-frames-producer-token-0123456789"
TILES = [f"k{index}" for index in range(1, 5)]
DASHBOARD = """id: shared
title: Shared frames
tiles:
""" + "".join(f"""  - id: {tile}
    type: odometer
    columns: 8
    decimals: 2
""" for tile in TILES)

# Compressed payload sizes per frame, by the connection that received them.
compressed_sizes: dict[int, list[int]] = {}
original_decode = permessage_deflate.PerMessageDeflate.decode


def recording_decode(self, frame, *, max_size=None):
    if frame.rsv1 and frame.opcode == websockets.frames.Opcode.TEXT:
        compressed_sizes.setdefault(id(self), []).append(len(frame.data))
    return original_decode(self, frame, max_size=max_size)


permessage_deflate.PerMessageDeflate.decode = recording_decode


class Screen:
    """One screen: every message decoded, frames by number, the primers it got, its tiles' final states."""

    def __init__(self, name: str, port: int, compression: str):
        self.name = name
        self.port = port
        self.compression = compression
        self.frames: dict[int, str] = {}
        self.primers_before_first_frame = 0
        self.state = ScreenState()
        self.extensions = ""
        self.error: str | None = None
        self.ready = asyncio.Event()
        self.deflate_id: int | None = None

    async def run(self, stop: asyncio.Event) -> None:
        uri = f"wss://127.0.0.1:{self.port}/ws?dashboard=shared&protocol=2"
        options = {}
        if self.compression == "none":
            options["compression"] = None
        elif self.compression == "alone":
            options["extensions"] = [permessage_deflate.ClientPerMessageDeflateFactory(
                server_no_context_takeover=True, client_max_window_bits=True)]
        try:
            async with websockets.connect(uri, ssl=insecure_client_context(), max_size=None,
                                          origin=f"https://127.0.0.1:{self.port}", **options) as socket:
                self.extensions = socket.response.headers.get("Sec-WebSocket-Extensions", "")
                deflate = [ext for ext in socket.protocol.extensions
                           if isinstance(ext, permessage_deflate.PerMessageDeflate)]
                self.deflate_id = id(deflate[0]) if deflate else None
                while not stop.is_set():
                    try:
                        message = await asyncio.wait_for(socket.recv(), 0.5)
                    except asyncio.TimeoutError:
                        continue
                    if isinstance(message, bytes):
                        if not self.frames:
                            self.primers_before_first_frame += 1
                        continue
                    if message.startswith('{"f":'):
                        self.frames[int(message[5:message.index(",")])] = message
                    self.state.read(message)
                    self.ready.set()
        except Exception as error:  # noqa: BLE001 - reported as a failed check
            self.error = f"{type(error).__name__}: {error}"
            self.ready.set()

    def reading(self, tile: str) -> tuple[bool, int]:
        """Whether the tile's columns rest on whole digits, and the cents they show."""
        columns = (self.state.wire.get(tile) or {}).get("d", [])
        cents = 0
        for position in columns:
            cents = cents * 10 + position // 1000
        return all(position % 1000 == 0 for position in columns), cents


async def scenario(server: RollboardProcess, checks: Checks) -> None:
    stop = asyncio.Event()
    early = [Screen(f"browser-like {index}", server.port, "takeover") for index in range(3)]
    alone = Screen("server_no_context_takeover", server.port, "alone")
    plain = Screen("uncompressed", server.port, "none")
    late = Screen("joins mid-stream", server.port, "takeover")
    tasks = [asyncio.create_task(screen.run(stop)) for screen in early + [alone, plain]]
    for screen in early + [alone, plain]:
        await asyncio.wait_for(screen.ready.wait(), 10)

    values = {}
    for second in range(8):
        band = 100_000 if second % 2 == 0 else 600_000
        values = {tile: round(band + index * 1111.11 + second * 123.45, 2) for index, tile in enumerate(TILES)}
        body = {"updates": [{"id": tile, "value": value, "interval": 1} for tile, value in values.items()]}
        status, answer = await asyncio.to_thread(server.request, "POST", "/api/v1/metrics", body, TOKEN)
        if status != 202:
            raise RuntimeError(f"POST answered {status}: {answer}")
        if second == 3:
            tasks.append(asyncio.create_task(late.run(stop)))
        await asyncio.sleep(1)
    await asyncio.sleep(2)
    stop.set()
    await asyncio.gather(*tasks)

    screens = early + [alone, plain, late]
    for screen in screens:
        checks.check(screen.error is None, f"{screen.name}: every message decoded, the connection stayed open",
                     screen.error or "")
    for screen in early + [late]:
        checks.check("permessage-deflate" in screen.extensions and "server_no_context_takeover" not in screen.extensions,
                     f"{screen.name}: the server keeps its context", screen.extensions)
    checks.check("server_no_context_takeover" in alone.extensions, "a screen that asks gets server_no_context_takeover",
                 alone.extensions)
    checks.check(late.primers_before_first_frame == 1, "the screen that joins mid-stream is primed once before its frames",
                 f"{late.primers_before_first_frame} primers")
    checks.check(all(screen.primers_before_first_frame == 0 for screen in [alone, plain]),
                 "screens that do not keep the server's context get no primer")

    reference = early[0].frames
    checks.check(len(reference) >= 200, "the stream sent a frame on every tick", f"{len(reference)} frames")
    for screen in screens[1:]:
        common = set(reference) & set(screen.frames)
        differing = [number for number in common if reference[number] != screen.frames[number]]
        checks.check(len(common) >= (80 if screen is late else 200) and not differing,
                     f"{screen.name}: the same text for every frame number",
                     f"{len(common)} frames in common, {len(differing)} differ")

    for screen in screens:
        readings = {tile: screen.reading(tile) for tile in TILES}
        checks.check(all(rest and cents == round(values[tile] * 100) for tile, (rest, cents) in readings.items()),
                     f"{screen.name}: at rest on the last values", f"{readings}")

    carried = compressed_sizes.get(early[0].deflate_id, [])
    fresh = compressed_sizes.get(alone.deflate_id, [])
    plain_sizes = [len(text.encode()) for text in reference.values()]
    if carried and fresh and plain_sizes:
        mean = lambda sizes: sum(sizes) / len(sizes)  # noqa: E731
        print(f"  frame payload bytes: uncompressed {mean(plain_sizes):.0f}, compressed alone {mean(fresh):.0f}, "
              f"with the stream's context {mean(carried):.0f} (mean over {len(carried)} frames)")
        checks.check(mean(carried) < mean(fresh), "frames coded with the stream's context are smaller than alone")
    else:
        checks.check(False, "compressed frame sizes were recorded", f"{len(carried)} / {len(fresh)}")


def main() -> int:
    with served_checks("rollboard-shared-", TOKEN, {"dashboards/shared.yaml": DASHBOARD}, whole=False) as run:
        asyncio.run(scenario(run.server, run.checks))
    return run.checks.finish()


if __name__ == "__main__":
    sys.exit(main())
