"""Protocol 2 as a screen reads it: every tile's wire state kept as frames patch it, handed out in the long form
(`digits` and `position` as numbers of digits), so tests can reason about what a screen shows."""

from __future__ import annotations

import json


def patch(old: dict | None, entry) -> dict | None:
    """A tile's wire state patched by one frame entry: null, the column shorthand, or a member patch."""
    if entry is None:
        return None
    if isinstance(entry, list):
        entry = {"d": entry}
    state = dict(old or {})
    if "n" in entry:
        state["d"] = [0] * entry["n"]
    for name, value in entry.items():
        if name in ("n", "d"):
            continue
        if value is None:
            state.pop(name, None)
        else:
            state[name] = value
    if entry.get("d"):
        first, *positions = entry["d"]
        columns = list(state.get("d", []))
        for offset, position in enumerate(positions):
            if first + offset < len(columns):
                columns[first + offset] = position
            else:
                columns.append(position)
        state["d"] = columns
    return state


def long_form(state: dict | None) -> dict | None:
    """A wire state with `digits` and `position` in digits."""
    if state is None:
        return None
    shown = {name: value for name, value in state.items() if name not in ("d", "n", "p")}
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
