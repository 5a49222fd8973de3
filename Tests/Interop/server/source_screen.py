"""A screen of a dashboard whose tiles sources feed, as the source tests watch it over a real socket."""

from __future__ import annotations

import json
import time
import urllib.request

import websockets

from rollboard_process import insecure_client_context
from screen_state import patch


def source_states(server, admin_token: str) -> dict:
    """The admin API's sources by id (state, reason, last success, whether this node polls)."""
    _, answer = server.request("GET", "/api/v1/admin/sources", token=admin_token)
    return {source["id"]: source for source in answer["sources"]}


def metrics_text(server) -> str:
    """The server's `/metrics` exposition."""
    return urllib.request.urlopen(urllib.request.Request(server.base_url + "/metrics"),
                                  context=server.ssl_context(), timeout=5).read().decode()


class SourceScreen:
    """A screen of one dashboard over a real socket: tile states as frames patch them, when each frame came, and the
    last `sources` message (which tiles are stale, and why)."""

    def __init__(self, port: int, dashboard: str):
        self.uri = f"wss://127.0.0.1:{port}/ws?dashboard={dashboard}"
        self.origin = f"https://127.0.0.1:{port}"
        self.states: dict = {}
        self.frame_times: list[float] = []
        self.stale: dict = {}
        self.task = None

    async def run(self) -> None:
        try:
            async with websockets.connect(self.uri, ssl=insecure_client_context(), origin=self.origin) as connection:
                async for message in connection:
                    if not isinstance(message, str):
                        continue
                    parsed = json.loads(message)
                    if parsed.get("type") in ("hello", "state"):
                        self.states = dict(parsed.get("tiles") or {})
                    elif parsed.get("type") == "sources":
                        self.stale = parsed["stale"]
                    elif "f" in parsed:
                        self.frame_times.append(time.monotonic())
                        for tile, entry in (parsed.get("t") or {}).items():
                            self.states[tile] = patch(self.states.get(tile), entry)
        except (OSError, websockets.ConnectionClosed):
            pass

    def target(self, tile: str):
        state = self.states.get(tile)
        return state.get("target") if isinstance(state, dict) else None
