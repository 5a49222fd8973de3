"""Protocol 2 as a screen reads it: every tile's wire state kept as frames patch it, handed out in the long form
(`digits` and `position` as numbers of digits), so tests can reason about what a screen shows."""

from __future__ import annotations

import json


def patch(old: dict | None, entry) -> dict | None:
    """A tile's wire state patched by one frame entry: null, the motion shorthand, or a member patch (`d` sets every
    column and its velocity `v`, `m` moves the columns: corrections added to the velocities from column `i` on, then
    every column moved by its velocity)."""
    if entry is None:
        return None
    if isinstance(entry, list):
        entry = {"m": entry}
    state = dict(old or {})
    for name, value in entry.items():
        if name in ("d", "v", "m"):
            continue
        if value is None:
            state.pop(name, None)
        else:
            state[name] = value
    if "d" in entry:
        state["d"] = list(entry["d"])
        state["v"] = list(entry.get("v") or [0] * len(entry["d"]))
    if "m" in entry:
        columns = list(state.get("d", []))
        velocities = list(state.get("v") or [0] * len(columns))
        if entry["m"]:
            first, *corrections = entry["m"]
            for offset, correction in enumerate(corrections):
                velocities[first + offset] += correction
        state["d"] = [(position + velocity) % 10000 for position, velocity in zip(columns, velocities)]
        state["v"] = velocities
    return state


def long_form(state: dict | None) -> dict | None:
    """A wire state with `digits` and `position` in digits."""
    if state is None:
        return None
    shown = {name: value for name, value in state.items() if name not in ("d", "v", "p")}
    if "d" in state:
        shown["digits"] = [position / 1000 for position in state["d"]]
    if "p" in state:
        shown["position"] = state["p"] / 1000
    return shown


class ScreenState:
    """Every tile's state as one screen knows it."""

    def __init__(self) -> None:
        self.wire: dict[str, dict | None] = {}

    def read(self, message: str | bytes) -> dict | None:
        """One message from the server in the long form: `hello`, or a `frame` with the whole states of the tiles it
        changed (a `state` message becomes a frame with every tile); `None` for a binary primer."""
        if isinstance(message, (bytes, bytearray)):
            return None
        payload = json.loads(message)
        if "f" in payload:
            changed = {}
            for tile, entry in (payload.get("t") or {}).items():
                self.wire[tile] = patch(self.wire.get(tile), entry)
                changed[tile] = long_form(self.wire[tile])
            return {"type": "frame", "seq": payload["f"], "tiles": changed}
        if payload.get("type") in ("hello", "state"):
            self.wire = {tile: patch(None, entry) for tile, entry in (payload.get("tiles") or {}).items()}
            shown = dict(payload, tiles={tile: long_form(state) for tile, state in self.wire.items()})
            if payload["type"] == "state":
                shown["type"] = "frame"
            return shown
        return payload
