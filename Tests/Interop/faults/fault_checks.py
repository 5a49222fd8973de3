"""The check after each fault, as a mixin of the suite: screens live again (timed), producers' keys all
acknowledged after retries, each counted exactly once on every node and screen, no node restarted by hand."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from cluster_support import start_node
from fault_load import BOARD, COUNTER
from test_cluster_leaderboards import top

LIVE_WINDOW = 30.0     # seconds after a fault ended within which every screen must be live again
DRAIN_SECONDS = 30.0   # seconds the producers get to have every key acknowledged once they stop making new ones
AGREE_SECONDS = 20.0   # seconds for every node and screen to show the totals of the acknowledged keys
AFTERWARDS_SECONDS = 2.0  # seconds of new keys after the check, which must be acknowledged and counted too
LOSS_WINDOW = 10.0     # keys acknowledged this long before a primary kill are probed for a loss


class FaultChecks:
    summaries: dict[str, str]
    pids: dict[str, int]
    rejoin: asyncio.Task | None = None

    def note(self, name: str, text: str) -> None:
        if not hasattr(self, "summaries"):
            self.summaries = {}
        self.summaries[name] = "; ".join(filter(None, [self.summaries.get(name), text]))

    async def settle(self, name: str, began: float, ended: float, restarted: list) -> bool:
        """The check after a fault; whether the cluster took every key afterwards (if not, a later fault would
        only measure the same breakage)."""
        await self.time_live(name, began, ended)
        if self.rejoin is not None:
            # The producers keep posting until the Redis set is whole again (a restarted primary turned replica).
            rejoined = await self.rejoin
            self.rejoin = None
            print(f"  the other Redis server is a replica in sync again "
                  f"{'(not within 45 s)' if rejoined is None else f'{rejoined:.1f} s after the fault began'}")
        drained = await self.drain(name, began)
        await self.agree(name, began)
        await self.redis_holds(name)
        self.untouched(name, restarted)
        if name == "warm-up" or not drained:
            for producer in self.producers:
                producer.resume()
            return drained
        await self.fresh_node(name)
        for producer in self.producers:
            producer.resume()
        later = time.monotonic()
        await asyncio.sleep(AFTERWARDS_SECONDS)
        label = f"{name} ({AFTERWARDS_SECONDS:.0f} s of new keys after the check)"
        drained = await self.drain(label, later)
        await self.agree(label, later)
        for producer in self.producers:
            producer.resume()
        return drained

    async def redis_holds(self, name: str) -> None:
        """The primary's `{P}:seq` is at least every node's last sequence, and its epoch is theirs: Redis holds every
        change a node acknowledged (a primary that lost some, or a stale one, is behind)."""
        primary = self.redis.primary()
        try:
            held = (primary.command("GET", "{rollboard}:epoch"), primary.command("GET", "{rollboard}:seq")) \
                if primary else (None, None)
        except OSError as error:
            held = (f"{error}", None)
        seen = {}
        for node in self.nodes:
            try:
                status, body = await asyncio.to_thread(node.request, "GET", "/healthz", None, None, None, None, 3)
                seen[node.name] = (body.get("epoch"), body.get("seq")) if status == 200 else (status, None)
            except OSError as error:
                seen[node.name] = (f"{error}", None)
        epoch, seq = held[0], int(held[1]) if isinstance(held[1], str) and held[1].isdigit() else None
        fine = seq is not None and all(value[0] == epoch and isinstance(value[1], int) and value[1] <= seq
                                       for value in seen.values())
        newest = max((value[1] for value in seen.values() if isinstance(value[1], int)), default=None)
        if not fine and seq is not None and newest is not None and newest > seq:
            print(f"  Redis ({primary.name}) lacks {newest - seq} changes the nodes acknowledged: its sequence is {seq}, "
                  f"the nodes' {newest}")
            self.note(name, f"Redis lacks {newest - seq} acknowledged changes")
        self.check(fine, f"{name}: the primary holds every change the nodes acknowledged (its epoch, and a sequence "
                   "at least every node's)", f"Redis {primary.name if primary else None} epoch {epoch} seq {seq}; "
                   f"nodes {seen}")

    async def fresh_node(self, name: str) -> None:
        """A node started now, on an empty data folder, reads from Redis exactly the acknowledged totals."""
        started: list = []
        total, board = None, None
        try:
            node = await asyncio.to_thread(start_node, started, self.options.binary, self.folder, self.token, None,
                                           self.config, f"fresh-{name}")
            ready = await self.wait_ready(node, 10)
            total, board = await asyncio.to_thread(self.read_node, node)
            print(f"  a node started on an empty folder is ready after {ready} s and reads {total}")
        except Exception as error:  # noqa: BLE001
            total = f"{type(error).__name__}: {error}"[:300]
        finally:
            for node in started:
                await asyncio.to_thread(node.stop)
        expected = self.ledger.expected_total()
        self.check(total == expected and board == self.ledger.expected_board(),
                   f"{name}: a node started now on an empty folder reads the acknowledged totals ({expected}) from "
                   "Redis", f"read {total}, {board}")

    async def time_live(self, name: str, began: float, ended: float) -> None:
        deadline = ended + LIVE_WINDOW
        times: dict[str, float | None] = {}
        while True:
            first = self.ledger.first_ack_after(ended)
            if first is not None:
                times = {screen.name: screen.live_since(ended, first["value"]) for screen in self.screens}
                if all(value is not None for value in times.values()):
                    break
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        live = [value for value in times.values() if value is not None]
        every = max(live) - ended if live and len(live) == len(self.screens) else None
        per_node = {node.name: [None if times.get(screen.name) is None else round(times[screen.name] - ended, 2)
                                for screen in self.screens if screen.node is node] for node in self.nodes}
        if name == "warm-up":
            self.check(every is not None, "warm-up: every screen shows the producers' totals, its feed live",
                       f"{per_node}")
            return
        if every is None:
            feeds = Counter(screen.feed for screen in self.screens)
            print(f"  screens live after the fault ended (s): {per_node}; not every screen within {LIVE_WINDOW:.0f} s "
                  f"(their feeds now: {dict(feeds)}; no total acknowledged after the fault: {first is None})")
            self.note(name, f"screens not all live within {LIVE_WINDOW:.0f} s")
        else:
            print(f"  every screen live again {every:.2f} s after the fault ended ({max(live) - began:.2f} s after it "
                  f"began); per node (s): {per_node}")
            self.note(name, f"every screen live {every:.2f} s after the fault ended ({max(live) - began:.1f} s after "
                      "it began)")
        self.check(every is not None, f"{name}: every screen is live again (open, feed live, a total acknowledged "
                   f"after the fault) within {LIVE_WINDOW:.0f} s", f"{per_node}")

    async def drain(self, name: str, began: float) -> bool:
        for producer in self.producers:
            producer.pause()
        start = time.monotonic()
        while time.monotonic() - start < DRAIN_SECONDS and not all(p.idle() for p in self.producers):
            await asyncio.sleep(0.1)
        pending = self.ledger.unacknowledged()
        with self.ledger.lock:
            failures = [failure for failure in self.ledger.failures if failure[0] >= began]
        kinds = Counter((node, what) for _, _, node, what in failures)
        if failures:
            spans = {}
            for at, _, node, what in failures:
                first, last = spans.get((node, what), (at, at))
                spans[(node, what)] = (min(first, at), max(last, at))
            print("  refused posts since the fault began (node, answer: count, from–to s after the fault began):")
            for (node, what), count in kinds.most_common(8):
                first, last = spans[(node, what)]
                print(f"    {node} {what}: {count}, {first - began:.1f}–{last - began:.1f} s")
        retried = len({key for _, key, _, _ in failures})
        print(f"  {len(self.ledger.acks)} keys acknowledged so far; {retried} keys retried since the fault began; "
              f"{len(pending)} never acknowledged")
        if name != "warm-up":
            self.note(name, f"{len(failures)} refused posts, {retried} keys retried, {len(pending)} never acknowledged")
        return self.check(not pending, f"{name}: the producers' retries get every key acknowledged within "
                          f"{DRAIN_SECONDS:.0f} s of stopping new ones", f"{len(pending)} not: {pending[:4]}")

    def read_node(self, node) -> tuple[object, object]:
        try:
            status, body = node.request("GET", f"/api/v1/metrics/{COUNTER}", timeout=3)
            total = body.get("value") if status == 200 and isinstance(body, dict) else f"{status}"
            status, body = node.request("GET", f"/api/v1/leaderboards/{BOARD}", timeout=3)
            board = body.get("entries") if status == 200 and isinstance(body, dict) else f"{status}"
        except OSError as error:
            return f"{error}", None
        return total, board

    async def agree(self, name: str, began: float, probed: bool = False) -> None:
        total = self.ledger.expected_total()
        board = self.ledger.expected_board()
        rows = top(board)
        start = time.monotonic()
        while True:
            read = {node.name: await asyncio.to_thread(self.read_node, node) for node in self.nodes}
            shown = {screen.name: (screen.target(), screen.rows()) for screen in self.screens}
            nodes_agree = all(value == (total, board) for value in read.values())
            screens_agree = all(value == (total, rows) for value in shown.values())
            if (nodes_agree and screens_agree) or time.monotonic() - start > AGREE_SECONDS:
                break
            await asyncio.sleep(0.3)
        totals = {name_: value[0] for name_, value in read.items()}
        lost = [total - value for value in totals.values() if isinstance(value, (int, float))]
        if name == "kill-primary" and not probed and await self.measure_loss(began, totals, total):
            await self.agree(name, began, probed=True)
            return
        self.check(all(value[0] == total for value in read.values()),
                   f"{name}: every node's {COUNTER} is exactly the sum of the acknowledged keys ({total}): each counted "
                   "once", f"{totals}; short by {lost}")
        self.check(all(value[1] == board for value in read.values()),
                   f"{name}: every node's {BOARD} board is exactly the sum of the acknowledged keys",
                   f"expected {board}, read { {n: v[1] for n, v in read.items()} }")
        self.check(screens_agree, f"{name}: every screen ends on that total and on the same rows {rows}",
                   f"{ {n: v for n, v in shown.items() if v != (total, rows)} }")

    async def measure_loss(self, began: float, totals: dict, expected: float) -> bool:
        """After a primary kill: how much acknowledged work the nodes' totals lack, and which keys acknowledged just
        before the kill a retry applies again (Redis no longer remembers them: the retry repairs the loss). Whether
        a retry applied any."""
        values = [value for value in totals.values() if isinstance(value, (int, float))]
        short = expected - max(values) if values else None
        with self.ledger.lock:
            recent = [ack for ack in self.ledger.acks.values() if began - LOSS_WINDOW <= ack["at"] <= began]
        reapplied = 0
        if short:
            for ack in recent:
                producer = next(p for p in self.producers if ack["key"].startswith(p.kind))
                status, body = await asyncio.to_thread(producer.post, self.nodes[0], ack["key"])
                if status == 202 and isinstance(body, dict) and body.get("seq") != ack["seq"]:
                    reapplied += 1
            print(f"  acknowledged changes lost by the failover: the nodes' total is {short} short; of the "
                  f"{len(recent)} keys acknowledged in the {LOSS_WINDOW:.0f} s before the kill, {reapplied} were "
                  "applied again by a retry (Redis had lost them)")
            self.note("kill-primary", f"lost {short} of the total ({reapplied} of {len(recent)} recent keys)")
        else:
            print(f"  the nodes' totals lack no acknowledged change ({len(recent)} keys acknowledged in the "
                  f"{LOSS_WINDOW:.0f} s before the kill)")
            self.note("kill-primary", "the nodes' totals lack nothing")
        if self.options.ack_replicas >= 1:
            self.check(not short, f"kill-primary: with ackReplicas {self.options.ack_replicas} no acknowledged change "
                       "is lost", f"short by {short}")
        return reapplied > 0

    def untouched(self, name: str, restarted: list) -> None:
        pids = {node.name: node.pid for node in self.nodes}
        alive = all(node.alive() for node in self.nodes)
        before = getattr(self, "pids", None)
        if before is not None:
            changed = sorted(node for node in pids if pids[node] != before[node])
            wanted = sorted(node.name for node in restarted)
            self.check(alive and changed == wanted, f"{name}: every node is running; restarted: {wanted or 'none'}",
                       f"alive {alive}, restarted {changed}")
        self.pids = pids
