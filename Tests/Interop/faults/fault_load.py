"""The fault suite's load: producers posting keyed increments (`orders`, a counter) and keyed leaderboard increments
(`leaders`) at a steady rate, round-robin over the nodes, each retrying a key that was not acknowledged on the next
node until it is; and screens on every node that reconnect like the page does (with `since`), recording what they
show and when their feed is live."""

from __future__ import annotations

import asyncio
import http.client
import random
import threading
import time

from cluster_support import CONTEXT, Screen, https_request
from test_cluster_leaderboards import shown

COUNTER = "orders"
BOARD = "leaders"
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Emma", "Farid"]
DASHBOARD_ID = "faults"
DASHBOARD = f"""id: {DASHBOARD_ID}
title: Faults
tiles:
  - {{id: {COUNTER}, type: counter, format: "%d", duration: 0.3, queue: latest}}
  - {{id: {BOARD}, type: leaderboard, size: 4, duration: 0.3}}
"""
REQUEST_TIMEOUT = 3.0


class Ledger:
    """Every key the producers made: its amount (a number, or a board increment), and its first acknowledgement."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.amounts: dict[str, object] = {}
        self.acks: dict[str, dict] = {}
        self.failures: list[tuple[float, str, str, str]] = []  # (time, key, node, what)

    def expected_total(self) -> int:
        with self.lock:
            return sum(amount for key, amount in self.amounts.items() if key.startswith("o") and key in self.acks)

    def expected_board(self) -> dict[str, float]:
        board = {name: 0.0 for name in NAMES}
        with self.lock:
            for key, amount in self.amounts.items():
                if key.startswith("b") and key in self.acks:
                    for name, value in amount.items():
                        board[name] += value
        return board

    def unacknowledged(self) -> list[str]:
        with self.lock:
            return [key for key in self.amounts if key not in self.acks]

    def first_ack_after(self, moment: float) -> dict | None:
        with self.lock:
            after = [ack for key, ack in self.acks.items() if key.startswith("o") and ack["at"] >= moment]
        return min(after, key=lambda ack: ack["at"]) if after else None


class Producer:
    """One thread posting a new key every `interval` seconds; a key not acknowledged is retried on the next node
    (after `interval`) until it is. `pause()` stops making new keys once the current one is acknowledged."""

    def __init__(self, name: str, kind: str, nodes: list, token: str, ledger: Ledger, interval: float = 0.2):
        self.name = name
        self.kind = kind  # "o" (counter increments) or "b" (leaderboard increments)
        self.nodes = nodes
        self.token = token
        self.ledger = ledger
        self.interval = interval
        self.random = random.Random(name)
        self.count = 0
        self.turn = 0
        self.making = threading.Event()
        self.stopping = threading.Event()
        self.connections: dict[int, http.client.HTTPSConnection] = {}
        self.thread = threading.Thread(target=self.run, name=f"producer-{name}", daemon=True)
        self.pending: str | None = None

    def start(self) -> None:
        self.making.set()
        self.thread.start()

    def resume(self) -> None:
        self.making.set()

    def pause(self) -> None:
        self.making.clear()

    def stop(self) -> None:
        self.stopping.set()
        self.making.set()
        self.thread.join(REQUEST_TIMEOUT * 3)
        for connection in self.connections.values():
            connection.close()

    def idle(self) -> bool:
        return not self.making.is_set() and self.pending is None

    def new_key(self) -> str:
        key = f"{self.kind}-{self.name}-{self.count}"
        self.count += 1
        if self.kind == "o":
            amount = self.random.randint(1, 9)
        else:
            amount = {name: float(self.random.randint(1, 5))
                      for name in self.random.sample(NAMES, self.random.randint(1, 2))}
        with self.ledger.lock:
            self.ledger.amounts[key] = amount
        return key

    def post(self, node, key: str) -> tuple[int | None, object]:
        amount = self.ledger.amounts[key]
        path, body = ((f"/api/v1/metrics/{COUNTER}", {"increment": amount}) if self.kind == "o"
                      else (f"/api/v1/leaderboards/{BOARD}", {"increment": amount}))
        connection = self.connections.get(node.port)
        if connection is None:
            connection = http.client.HTTPSConnection("127.0.0.1", node.port, context=CONTEXT, timeout=REQUEST_TIMEOUT)
            self.connections[node.port] = connection
        try:
            return https_request(node.port, "POST", path, body, self.token, connection=connection,
                                 headers={"Idempotency-Key": key})
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            self.connections.pop(node.port, None)
            return None, f"{type(error).__name__}: {error}"

    def run(self) -> None:
        while not self.stopping.is_set():
            began = time.monotonic()
            if self.pending is None:
                if not self.making.is_set():
                    self.making.wait(0.2)
                    continue
                self.pending = self.new_key()
            node = self.nodes[self.turn % len(self.nodes)]
            self.turn += 1
            status, body = self.post(node, self.pending)
            now = time.monotonic()
            if status == 202 and isinstance(body, dict):
                with self.ledger.lock:
                    self.ledger.acks.setdefault(self.pending, {"at": now, "node": node.name, "seq": body.get("seq"),
                                                               "value": body.get("value"), "key": self.pending})
                self.pending = None
            else:
                what = f"{status} {body.get('error') if isinstance(body, dict) else body}"
                with self.ledger.lock:
                    self.ledger.failures.append((now, self.pending, node.name, what[:160]))
            self.stopping.wait(max(0.0, self.interval - (time.monotonic() - began)))


class LiveScreen:
    """A `Screen` of the faults dashboard on one node, reconnected (with `since`) 0.5 s after its socket ends, as
    the page does. Remembers, per message, when it showed which counter target with its feed live."""

    def __init__(self, name: str, node):
        self.node = node
        self.screen = Screen(name, node.port, DASHBOARD_ID, [COUNTER])
        self.screen.on_message = self._message
        self.feed = "stale"
        self.board = None
        self.shown: list[tuple[float, float | None, str]] = []  # (time, counter target, feed)
        self.connections = 0
        self.task: asyncio.Task | None = None

    @property
    def name(self) -> str:
        return self.screen.name

    def _message(self, now: float, raw: dict, decoder) -> None:
        kind = raw.get("type")
        if kind == "hello":
            self.feed = raw.get("feed") or "live"
        elif kind == "status":
            self.feed = raw.get("feed") or self.feed
        state = decoder.wire.get(COUNTER)
        target = state.get("target") if isinstance(state, dict) else None
        board = decoder.wire.get(BOARD)
        self.board = board if isinstance(board, dict) and "n" in board else None
        self.shown.append((now, target, self.feed))

    async def start(self) -> None:
        await self.screen.connect()
        self.connections += 1
        self.task = asyncio.create_task(self._keep())

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            if self.screen.open:
                continue
            self.feed = "closed"
            await asyncio.sleep(0.5)
            try:
                await self.screen.connect(since=self.screen.since(), timeout=5)
                self.connections += 1
            except Exception:  # noqa: BLE001
                await self.screen.close()

    @property
    def live(self) -> bool:
        return self.screen.open and self.feed == "live"

    def live_since(self, moment: float, threshold: float) -> float | None:
        """When it first showed, with its feed live, a counter target of at least `threshold` at or after `moment`."""
        for at, target, feed in self.shown:
            if at >= moment and feed == "live" and target is not None and target >= threshold:
                return at
        return None

    def target(self) -> float | None:
        return self.screen.current_targets()[COUNTER]

    def rows(self):
        return shown(self.board)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
        await self.screen.close()
