"""Three `rollboard serve --redis` nodes sharing one Redis stream, tested end to end with real WebSocket screens.

Starts its own `redis-server` (append-only file, `appendfsync always`, in a temporary folder) on a free loopback
port, three nodes on free ports (each its own data folder, one shared config: the shipped `config/` plus a
`cluster` dashboard of two odometers and a counter, `fifo`, short moves, a deep backlog and a long maxLag so that
every screen plays every value), and two screens per node. Then:

a. values posted round-robin to the three nodes, serially (the acknowledged order is known) and concurrently: every
   screen plays, per metric, exactly the acknowledged values in the order of their seqs and ends on the last; frames'
   `c` ends on the newest seq; every node's GET agrees; every node and screen has the same epoch; a screen moved
   from one node to another with `since=EPOCH:SEQ` is replayed exactly what it missed; an operator's announcement
   and reload posted to one node reach the screens of every node;
b. SIGKILL one node while posts continue on the others, restart it (same port and data folder): its old screens
   come back with `since=EPOCH:SEQ`, two new ones connect; all of them end on the same final values (a replayed
   screen plays exactly what it missed; a new screen plays, after its hello, every later value in order); GET agrees;
   a playlist held on its second entry before the kill is held there on every node, the restarted one too;
c. Redis stopped with SIGTERM for `--seconds`: every post to every node (and an announcement) is refused with 503
   `redis_unavailable`,
   /readyz 503, /healthz 200, `rollboard_redis_up 0`, screens stay open and get `status` `stale`; Redis restarted on
   the same port and folder: every node is ready again within a bound, screens get `status` `live`, posts are
   acknowledged with seqs above every earlier one, every acknowledged value is there (screens' sequences, final
   values, each node's GET history — the restarted node's checked on its own, the stricter reading) and no refused
   value shows anywhere;
d. no node died unexpectedly, each stops on SIGTERM with status 0, and each node's open descriptors at the end are
   within a small margin of its count before.
k. viewer keys and admin tokens are the cluster's, not a node's: a key made on one node opens a screen of a
   dashboard behind a key on every node, with the admin token every node was given; revoked on another node, its
   screens on every node close with 1008 within a second; a key revoked while a node is down (part b) is refused by
   that node once it is back, and a key made meanwhile opens screens there; a node started with `--redis` and no
   admin token (one it would generate) refuses to start, saying why.

Usage: test_cluster.py --binary .build/debug/rollboard [--redis-server redis-server] [--seconds 6]
(`--seconds`: how long Redis stays down in part c.) Prints PASS/FAIL lines and `N passed, M failed`; exit 1 on any
failure.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import sys
import tempfile
import threading
import json
import subprocess
import time
import traceback

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_support import (  # noqa: E402
    ADMIN_TOKEN, CONTEXT, Checks, ClusterNode, RedisServer, Screen, cluster_arguments, is_subsequence, prometheus_has,
    prometheus_value, start_node, write_config)

TOKEN = "cluster-test-token-0123456789abcdef"
VAULT = "id: vault\ntitle: Vault\naccess: key\ntiles:\n  - {id: vault_total, type: counter, format: \"%d\"}\n"


class KeyScreen:
    """A screen of the `vault` dashboard (behind a key) that records its hello and how it was closed."""

    def __init__(self, node: ClusterNode, key: str | None):
        self.uri = f"wss://127.0.0.1:{node.port}/ws?dashboard=vault" + (f"&key={key}" if key else "")
        self.origin = f"https://127.0.0.1:{node.port}"
        self.hello = False
        self.close: tuple[int | None, str | None] | None = None
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        try:
            async with websockets.connect(self.uri, ssl=CONTEXT, origin=self.origin, open_timeout=10) as socket:
                try:
                    async for message in socket:
                        if isinstance(message, str) and json.loads(message).get("type") == "hello":
                            self.hello = True
                except websockets.ConnectionClosed:
                    pass
                self.close = (socket.close_code, socket.close_reason)
        except Exception as error:  # noqa: BLE001
            self.close = (None, repr(error))

    async def settled(self, timeout: float = 10.0) -> None:
        """Waits until the screen has its hello or was closed."""
        deadline = time.monotonic() + timeout
        while not self.hello and self.close is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    def stop(self) -> None:
        if not self.task.done():
            self.task.cancel()
DASHBOARD_ID = "cluster"
METRICS = ["alpha", "beta", "gamma"]
DASHBOARD = f"""id: {DASHBOARD_ID}
title: Cluster test
grid: {{columns: 3, rows: 1}}
tiles:
  - id: alpha
    type: odometer
    maxColumns: 10
    maxDuration: 0.25
    queue: fifo
    backlog: 10000
    maxLag: 3600
  - id: beta
    type: odometer
    maxColumns: 10
    decimals: 2
    maxDuration: 0.25
    queue: fifo
    backlog: 10000
    maxLag: 3600
  - id: gamma
    type: counter
    format: "%d"
    duration: 0.3
    queue: fifo
    backlog: 10000
    maxLag: 3600
"""
PLAYLIST = f"""id: wall
title: Cluster wall
entries:
  - {{dashboard: {DASHBOARD_ID}, seconds: 3600}}
  - {{dashboard: demo, seconds: 3600}}
"""
FD_MARGIN = 5
READY_BOUND = 7.0   # seconds for every node to be ready again after Redis returns (contract: ~5 s backoff)
LIVE_BOUND = 10.0   # seconds for every screen to get `status` `live` after Redis returns
STALE_GRACE = 2.0   # seconds a node may take to notice that Redis is gone


class Ledger:
    """Every post made and what it got; values are unique over the run."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counter = itertools.count(1)
        self.acks: list[dict] = []      # {seq, metric, value, node, phase, at}
        self.refused: list[dict] = []   # {metric, value, node, phase, status, body, seconds}
        self.serial_seqs: list[int] = []

    def value_for(self, metric: str) -> float:
        number = next(self.counter)
        if metric == "beta":
            return round(1000 + number * 1.37, 2)
        if metric == "gamma":
            return 5000 + number * 3
        return 100000 + number * 11

    def post(self, node: ClusterNode, metric: str, phase: str, serial: bool = False) -> tuple[int | None, object]:
        value = self.value_for(metric)
        begin = time.monotonic()
        try:
            status, body = node.request("POST", f"/api/v1/metrics/{metric}", {"value": value}, TOKEN, timeout=15)
        except OSError as error:
            status, body = None, f"{type(error).__name__}: {error}"
        took = time.monotonic() - begin
        with self.lock:
            if status == 202 and isinstance(body, dict) and isinstance(body.get("seq"), int):
                self.acks.append({"seq": body["seq"], "metric": metric, "value": value, "node": node.name,
                                  "phase": phase, "at": time.monotonic(), "echo": body.get("value")})
                if serial:
                    self.serial_seqs.append(body["seq"])
            else:
                self.refused.append({"metric": metric, "value": value, "node": node.name, "phase": phase,
                                     "status": status, "body": body, "seconds": took})
        return status, body

    def expected(self) -> dict[str, list[float]]:
        ordered = sorted(self.acks, key=lambda ack: ack["seq"])
        return {metric: [ack["value"] for ack in ordered if ack["metric"] == metric] for metric in METRICS}

    def last(self) -> dict[str, dict]:
        result = {}
        for ack in sorted(self.acks, key=lambda ack: ack["seq"]):
            result[ack["metric"]] = ack
        return result

    def max_seq(self) -> int:
        return max((ack["seq"] for ack in self.acks), default=0)

    def phase(self, name: str) -> tuple[list[dict], list[dict]]:
        return ([ack for ack in self.acks if ack["phase"] == name],
                [refusal for refusal in self.refused if refusal["phase"] == name])


class Cluster:
    def __init__(self, nodes: list[ClusterNode], redis: RedisServer, checks: Checks):
        self.nodes = nodes
        self.redis = redis
        self.checks = checks
        self.ledger = Ledger()
        self.screens: dict[str, list[Screen]] = {node.name: [] for node in nodes}
        self.fds_before: dict[str, int] = {}

    def check(self, condition: bool, name: str, detail: str = "") -> bool:
        self.checks.check(condition, name, detail)
        return condition

    def all_screens(self) -> list[Screen]:
        return [screen for screens in self.screens.values() for screen in screens]

    async def open_screen(self, node: ClusterNode, label: str, since: str | None = None,
                          screen: Screen | None = None) -> Screen:
        screen = screen or Screen(f"{node.name}/{label}", node.port, DASHBOARD_ID, METRICS)
        await screen.connect(since=since)
        if screen not in self.screens[node.name]:
            self.screens[node.name].append(screen)
        return screen

    async def wait_ready(self, node: ClusterNode, timeout: float) -> float | None:
        begin = time.monotonic()
        while time.monotonic() - begin < timeout:
            try:
                status, _ = await asyncio.to_thread(node.request, "GET", "/readyz", timeout=3)
                if status == 200:
                    return time.monotonic() - begin
            except OSError:
                pass
            await asyncio.sleep(0.1)
        return None

    async def settle(self, timeout: float = 25.0) -> float | None:
        """Waits until every open screen shows, per metric, the last acknowledged value and `c` the newest seq."""
        begin = time.monotonic()
        last = self.ledger.last()
        final = {metric: ack["value"] for metric, ack in last.items()}
        newest = self.ledger.max_seq()
        while time.monotonic() - begin < timeout:
            if all(all(screen.current_targets().get(metric) == value for metric, value in final.items())
                   and screen.last_c == newest for screen in self.all_screens() if screen.open):
                return time.monotonic() - begin
            await asyncio.sleep(0.1)
        return None

    async def gets_agree(self, timeout: float = 10.0) -> tuple[bool, str]:
        """Polls GET /api/v1/metrics/{id} on every node until value and seq are the last acknowledged ones."""
        last = self.ledger.last()
        begin = time.monotonic()
        detail = ""
        while time.monotonic() - begin < timeout:
            wrong = []
            for node in self.nodes:
                for metric, ack in last.items():
                    try:
                        status, body = await asyncio.to_thread(node.request, "GET", f"/api/v1/metrics/{metric}")
                    except OSError as error:
                        wrong.append(f"{node.name} {metric}: {error}")
                        continue
                    if status != 200 or body.get("value") != ack["value"] or body.get("seq") != ack["seq"]:
                        shown = body if status != 200 else {"value": body.get("value"), "seq": body.get("seq")}
                        wrong.append(f"{node.name} {metric}: {status} {shown} != value {ack['value']} "
                                     f"seq {ack['seq']}")
            if not wrong:
                return True, f"{time.monotonic() - begin:.2f} s"
            detail = "; ".join(wrong[:6])
            await asyncio.sleep(0.2)
        return False, detail

    def metrics_text(self, node: ClusterNode) -> str:
        status, text = node.text("/metrics")
        return text if status == 200 else ""

    def sequences_exact(self, screens: list[Screen], label: str) -> None:
        """Every screen in `screens` played, per metric, exactly the acknowledged values in seq order."""
        expected = self.ledger.expected()
        wrong = []
        for screen in screens:
            for metric in METRICS:
                if screen.targets[metric] != expected[metric]:
                    got = screen.targets[metric]
                    first = next((i for i, (a, b) in enumerate(zip(got, expected[metric])) if a != b),
                                 min(len(got), len(expected[metric])))
                    wrong.append(f"{screen.name} {metric}: {len(got)} targets vs {len(expected[metric])} "
                                 f"acknowledged, first difference at {first}: "
                                 f"got {got[first:first + 3]} expected {expected[metric][first:first + 3]}")
        self.check(not wrong, f"{label}: every screen played exactly the acknowledged values of each metric in seq "
                   f"order ({len(screens)} screens, {sum(len(v) for v in expected.values())} values)",
                   "; ".join(wrong[:4]))

    def final_values(self, screens: list[Screen], label: str) -> None:
        final = {metric: ack["value"] for metric, ack in self.ledger.last().items()}
        newest = self.ledger.max_seq()
        wrong = [f"{screen.name}: {screen.current_targets()} c={screen.last_c}" for screen in screens
                 if screen.current_targets() != final or screen.last_c != newest]
        self.check(not wrong, f"{label}: every screen ends on the last acknowledged value of each metric, and its "
                   f"frames' c on the newest seq {newest}", f"final {final}; " + "; ".join(wrong[:4]))
        backwards = [f"{screen.name}: {screen.c_backwards[:3]}" for screen in screens if screen.c_backwards]
        self.check(not backwards, f"{label}: no screen's `c` ever went backwards", "; ".join(backwards))

    # ------------------------------------------------------------------------------------------------ phases

    async def start(self) -> None:
        for node in self.nodes:
            waited = await self.wait_ready(node, 20)
            self.check(waited is not None, f"{node.name}: /readyz 200 with Redis up")
        epochs = {}
        for node in self.nodes:
            status, body = await asyncio.to_thread(node.request, "GET", "/healthz")
            epochs[node.name] = body.get("epoch") if status == 200 and isinstance(body, dict) else None
        self.epoch = epochs[self.nodes[0].name]
        self.check(self.epoch is not None and len(set(epochs.values())) == 1,
                   "every node's /healthz has the same epoch", f"{epochs}")
        for node in self.nodes:
            text = await asyncio.to_thread(self.metrics_text, node)
            missing = [name for name in ("rollboard_redis_command_seconds", "rollboard_stream_lag_seconds")
                       if not prometheus_has(text, name)]
            up = prometheus_value(text, "rollboard_redis_up")
            self.check(up == 1 and not missing, f"{node.name}: /metrics has rollboard_redis_up 1, "
                       "rollboard_redis_command_seconds and rollboard_stream_lag_seconds",
                       f"redis_up={up} missing={missing}")
        for node in self.nodes:
            for index in range(2):
                await self.open_screen(node, f"screen{index}")
        hello_epochs = {screen.name: screen.epoch for screen in self.all_screens()}
        self.check(set(hello_epochs.values()) == {self.epoch},
                   "every screen's hello.changes.epoch is the cluster's epoch", f"{hello_epochs} vs {self.epoch}")
        # One value per metric so that every connection a node keeps to Redis exists before descriptors are counted.
        for index, metric in enumerate(METRICS):
            await asyncio.to_thread(self.ledger.post, self.nodes[index], metric, "warm-up", True)
        await self.settle()
        await asyncio.sleep(1.0)
        for node in self.nodes:
            self.fds_before[node.name] = node.fd_count()

    async def phase_a(self) -> None:
        print("-- a. posts round-robin over the three nodes, serially and concurrently")
        for index in range(36):
            node = self.nodes[index % 3]
            metric = METRICS[(index // 3) % 3]
            await asyncio.to_thread(self.ledger.post, node, metric, "a-serial", True)
        acks, refused = self.ledger.phase("a-serial")
        self.check(len(acks) == 36 and not refused, "a: 36 serial posts round-robin: every one 202",
                   f"{len(acks)} acknowledged, refused {refused[:3]}")
        echo = [ack for ack in acks if ack["echo"] != ack["value"]]
        self.check(not echo, "a: every 202 echoes the posted value", f"{echo[:3]}")
        seqs = self.ledger.serial_seqs
        self.check(all(b > a for a, b in zip(seqs, seqs[1:])),
                   "a: serial posts get strictly increasing cluster seqs", f"{seqs}")

        def worker(node: ClusterNode, count: int) -> None:
            for index in range(count):
                self.ledger.post(node, METRICS[index % 3], "a-concurrent")

        await asyncio.gather(*(asyncio.to_thread(worker, node, 15) for node in self.nodes))
        acks, refused = self.ledger.phase("a-concurrent")
        self.check(len(acks) == 45 and not refused, "a: 3 × 15 concurrent posts: every one 202",
                   f"{len(acks)} acknowledged, refused {refused[:3]}")
        all_seqs = [ack["seq"] for ack in self.ledger.acks]
        self.check(len(all_seqs) == len(set(all_seqs)), "a: no seq was given to two acknowledged values")

        took = await self.settle()
        self.check(took is not None, "a: every screen reaches the final values",
                   f"{[(s.name, s.current_targets(), s.last_c) for s in self.all_screens()]}")
        print(f"  settled {took if took is None else round(took, 2)} s after the last 202")
        self.sequences_exact(self.all_screens(), "a")
        self.final_values(self.all_screens(), "a")
        agree, detail = await self.gets_agree()
        self.check(agree, "a: GET /api/v1/metrics/{id} agrees (value and seq) on all three nodes", detail)

        # A screen that a load balancer moves to another node comes back there with since=EPOCH:SEQ and is shown
        # exactly what it missed (docs/cluster.md: "replay", or "none" when nothing was missed).
        mover = Screen("mover", self.nodes[0].port, DASHBOARD_ID, METRICS)
        await mover.connect()
        since = mover.since()
        await mover.close()
        for index in range(6):
            await asyncio.to_thread(self.ledger.post, self.nodes[index % 3], METRICS[index % 3], "a-moved", True)
        mover.port = self.nodes[1].port
        await mover.connect(since=since)
        final = {metric: ack["value"] for metric, ack in self.ledger.last().items()}
        deadline = time.monotonic() + 15
        while mover.current_targets() != final and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        seq = int(since.rsplit(":", 1)[1])
        ordered = sorted(self.ledger.acks, key=lambda ack: ack["seq"])
        wrong = []
        for metric in METRICS:
            stood = [ack["value"] for ack in ordered if ack["metric"] == metric and ack["seq"] <= seq][-1:]
            want = stood + [ack["value"] for ack in ordered if ack["metric"] == metric and ack["seq"] > seq]
            # The hello may already head for the first missed value (its columns still on the old one).
            if mover.segments[-1][metric] not in (want, want[1:]):
                wrong.append(f"{metric}: {mover.segments[-1][metric]} vs {want}")
        resume = mover.hellos[-1]["resume"]
        self.check(resume == "replay" and not wrong, "a: a screen moved from node0 to node1 with since= is replayed "
                   "exactly the 6 values it missed (resume replay)", f"resume {resume}; " + "; ".join(wrong))
        await mover.close()
        await self.settle()
        await self.operator_commands()

    async def operator_commands(self) -> None:
        """An announcement posted to node1 and a reload posted to node2 reach every screen of every node."""
        screens = [screen for screen in self.all_screens() if screen.open]
        seen = {screen.name: (len(screen.announcements), len(screen.reloads)) for screen in screens}
        path = f"/api/v1/admin/dashboards/{DASHBOARD_ID}"
        status, body = await asyncio.to_thread(
            self.nodes[1].request, "POST", path + "/announce", {"text": "Cluster drill", "seconds": 20}, ADMIN_TOKEN)
        announced = isinstance(body, dict) and isinstance(body.get("seq"), int) and body["seq"] > self.ledger.max_seq()
        self.check(status == 202 and announced, "a: an announcement posted to node1 is 202 with the next seq",
                   f"{status} {body}")
        status, body = await asyncio.to_thread(self.nodes[2].request, "POST", path + "/reload", None, ADMIN_TOKEN)
        self.check(status == 202 and isinstance(body, dict) and isinstance(body.get("seq"), int),
                   "a: a reload posted to node2 is 202 with a seq", f"{status} {body}")
        deadline = time.monotonic() + 10
        missing: list[str] = []
        while time.monotonic() < deadline:
            missing = [screen.name for screen in screens if len(screen.announcements) == seen[screen.name][0]
                       or len(screen.reloads) == seen[screen.name][1]]
            if not missing:
                break
            await asyncio.sleep(0.05)
        self.check(not missing, "a: every screen on every node gets the announcement and the reload", f"{missing}")
        wrong = []
        for screen in screens:
            for _, message in screen.announcements[seen[screen.name][0]:]:
                seconds = message.get("seconds")
                if message.get("text") != "Cluster drill" or not isinstance(seconds, (int, float)) \
                        or not 15 < seconds <= 20:
                    wrong.append(f"{screen.name}: {message}")
        self.check(not wrong, "a: each shows the announcement's text for what is left of its 20 s", "; ".join(wrong))

    async def phase_b(self) -> None:
        print("-- b. SIGKILL one node while the others take posts; restart it")
        victim = self.nodes[2]
        survivors = self.nodes[:2]
        old_screens = list(self.screens[victim.name])
        stop = threading.Event()

        def poster() -> None:
            index = 0
            while not stop.is_set():
                self.ledger.post(survivors[index % 2], METRICS[(index // 2) % 3], "b-background", True)
                index += 1
                time.sleep(0.1)

        # An operator shows the playlist's second entry and holds it; the node killed below must start it held.
        for action, body in (("show", {"entry": 1}), ("hold", None)):
            status, answer = await asyncio.to_thread(
                survivors[0].request, "POST", f"/api/v1/admin/playlists/wall/{action}", body, ADMIN_TOKEN)
            self.check(status == 202, f"b: playlist {action} on {survivors[0].name} is 202", f"{status} {answer}")
        thread = threading.Thread(target=poster, daemon=True)
        thread.start()
        try:
            await asyncio.sleep(1.0)
            await asyncio.to_thread(victim.kill)
            killed_at = time.monotonic()
            self.check(victim.exit_codes[-1:] == [-9], f"b: {victim.name} ended by SIGKILL",
                       f"{victim.exit_codes}")
            deadline = time.monotonic() + 5
            while any(screen.open for screen in old_screens) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            self.check(not any(screen.open for screen in old_screens),
                       f"b: the screens of {victim.name} saw their connection end")
            await self.keys_while_down(survivors[0])
            await asyncio.sleep(1.5)
            await asyncio.to_thread(victim.start)
            restarted = time.monotonic() - killed_at
            ready = await self.wait_ready(victim, 15)
            self.check(ready is not None, f"b: the restarted {victim.name} answers /readyz 200",
                       "not within 15 s")
            print(f"  {victim.name} restarted {restarted:.2f} s after the kill, ready {ready} s later")
            await self.keys_after_restart(victim)
            states = {}
            for node in self.nodes:
                status, answer = await asyncio.to_thread(node.request, "GET", "/api/v1/admin/playlists", None,
                                                         ADMIN_TOKEN)
                wall = next((p for p in (answer or {}).get("playlists", []) if p.get("id") == "wall"), {}) \
                    if isinstance(answer, dict) else {}
                states[node.name] = (status, wall.get("current"), wall.get("held"))
            self.check(all(state == (200, 1, True) for state in states.values()),
                       f"b: the playlist held before the kill is held on its second entry on every node, the "
                       f"restarted {victim.name} too", f"{states}")
            await asyncio.sleep(0.5)
            for screen in old_screens:
                since = screen.since()
                hello = await self.open_screen(victim, "", since=since, screen=screen)
                print(f"  {screen.name} reconnected with since={since}: resume={screen.hellos[-1]['resume']}")
                del hello
            fresh = [await self.open_screen(victim, f"fresh{index}") for index in range(2)]
            self.fresh = fresh
            self.resumed = old_screens
            await asyncio.sleep(1.0)
        finally:
            stop.set()
            await asyncio.to_thread(thread.join, 20)
        for index in range(9):
            await asyncio.to_thread(self.ledger.post, self.nodes[index % 3], METRICS[index % 3], "b-after", True)
        acks, refused = self.ledger.phase("b-background")
        self.check(len(acks) > 20 and not refused,
                   "b: posts to the two other nodes are all 202 while the node is down and restarting",
                   f"{len(acks)} acknowledged, refused {refused[:3]}")
        acks, refused = self.ledger.phase("b-after")
        self.check(len(acks) == 9 and not refused, "b: 9 posts round-robin after the restart: every one 202",
                   f"refused {refused[:3]}")
        seqs = self.ledger.serial_seqs
        self.check(all(b > a for a, b in zip(seqs, seqs[1:])), "b: serial posts' seqs still strictly increase")

        took = await self.settle()
        self.check(took is not None, "b: every screen (old, resumed, new) reaches the final values",
                   f"{[(s.name, s.current_targets(), s.last_c) for s in self.all_screens()]}")
        print(f"  settled {took if took is None else round(took, 2)} s after the last 202")
        self.check({screen.epoch for screen in self.all_screens()} == {self.epoch},
                   "b: the restarted node's hellos carry the same epoch")
        survivors_screens = [screen for node in survivors for screen in self.screens[node.name]]
        self.sequences_exact(survivors_screens, "b (screens of the nodes that stayed up)")
        self.check_restarted_screens("b")
        self.final_values(self.all_screens(), "b")
        agree, detail = await self.gets_agree()
        self.check(agree, "b: GET /api/v1/metrics/{id} agrees (value and seq) on all three nodes", detail)
        self.fds_before[victim.name] = victim.fd_count()

    def check_restarted_screens(self, label: str) -> None:
        """The killed node's screens. One that came back with `since=EPOCH:S` shows, on its new connection, a
        contiguous run of the acknowledged values in seq order that holds every value after S (`replay`: it starts
        where its tile stood at S, which may still have had values up to S queued; `full` or `none`: from its hello
        on, like a new screen)."""
        ordered = sorted(self.ledger.acks, key=lambda ack: ack["seq"])
        resumed_modes = [screen.hellos[-1]["resume"] for screen in self.resumed]
        wrong = []
        for screen in self.resumed:
            hello = screen.hellos[-1]
            since = int(hello["since"].rsplit(":", 1)[1]) if hello.get("since") else 0
            segment = screen.segments[-1]
            for metric in METRICS:
                got = segment[metric]
                full = [ack for ack in ordered if ack["metric"] == metric]
                values = [ack["value"] for ack in full]
                start = values.index(got[0]) if got and got[0] in values else None
                first_missed = next((index for index, ack in enumerate(full) if ack["seq"] > since), len(full))
                if start is None or got != values[start:]:
                    wrong.append(f"{screen.name} {metric} ({hello['resume']}): {got[:4]}… ({len(got)}) not a "
                                 "contiguous run of the acknowledged values up to the last")
                elif hello["resume"] == "replay" and start > first_missed:
                    wrong.append(f"{screen.name} {metric} (replay from {since}): starts at value {start}, after the "
                                 f"first missed one {first_missed}")
        self.check(not wrong, f"{label}: the screens that came back with since= (resume {resumed_modes}) show the "
                   "tiles as they stood, then every later acknowledged value in seq order", "; ".join(wrong[:4]))
        expected = self.ledger.expected()
        wrong = []
        for screen in self.fresh:
            for metric in METRICS:
                got = screen.targets[metric]
                full = expected[metric]
                start = full.index(got[0]) if got and got[0] in full else None
                if start is None or got != full[start:]:
                    wrong.append(f"{screen.name} {metric}: {got[:4]}… ({len(got)}) not a contiguous suffix of "
                                 f"the acknowledged values")
        self.check(not wrong, f"{label}: the restarted node's new screens play, from their hello on, every "
                   "acknowledged value in seq order", "; ".join(wrong[:4]))

    async def start_late_node(self) -> tuple[ClusterNode, Screen]:
        """A fourth node started while Redis is down: it serves at once (alive, not ready, refusing posts), and its
        screens get a hello with no values and the feed stale. Nothing in it waits for Redis."""
        first = self.nodes[0]
        late = ClusterNode(first.binary, first.data_dir + "-late", first.token, self.redis.url, config=first.config,
                           name="late")
        late.log_path = first.log_path.replace(".log", "-late.log")
        begin = time.monotonic()
        await asyncio.to_thread(late.start, 15)
        print(f"  a node started while Redis is down answers /healthz after {time.monotonic() - begin:.2f} s")
        ready, body = await asyncio.to_thread(late.request, "GET", "/readyz")
        self.check(ready == 503 and isinstance(body, dict) and body.get("error") == "redis_unavailable",
                   "c: a node started while Redis is down serves: /healthz 200, /readyz 503 redis_unavailable",
                   f"{ready} {body}")
        status, body = self.ledger.post(late, METRICS[0], "c-late-refused")
        self.check(status == 503, "c: a post to the node that has not reached Redis yet is 503", f"{status} {body}")
        screen = Screen("late/s", late.port, DASHBOARD_ID, METRICS)
        hello = await screen.connect()
        await asyncio.sleep(0.3)
        tiles_empty = all(value is None for value in screen.current_targets().values())
        self.check(tiles_empty and hello.get("feed") == "stale" and ("stale" in [feed for _, feed in screen.statuses]),
                   "c: its screen's hello shows no value (\u2014) and says the feed is stale (then its status), "
                   "never an invented number",
                   f"targets {screen.current_targets()} statuses {screen.statuses} hello {hello}")
        return late, screen

    async def finish_late_node(self, late: ClusterNode, screen: Screen) -> None:
        """Once Redis is back the late node opens: ready, the cluster's epoch, its screen on the final values."""
        ready = await self.wait_ready(late, READY_BOUND)
        self.check(ready is not None, f"c: the late node's /readyz is 200 once Redis answers (within {READY_BOUND} s)",
                   f"{ready}")
        status, body = await asyncio.to_thread(late.request, "GET", "/healthz")
        epoch = body.get("epoch") if status == 200 and isinstance(body, dict) else None
        self.check(epoch == self.epoch, "c: the late node has the cluster's epoch", f"{epoch} vs {self.epoch}")
        final = {metric: ack["value"] for metric, ack in self.ledger.last().items()}
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and screen.current_targets() != final:
            await asyncio.sleep(0.1)
        self.check(screen.current_targets() == final and "live" in [feed for _, feed in screen.statuses],
                   "c: the screen that waited on the late node shows the final values, and the feed live",
                   f"{screen.current_targets()} vs {final}; statuses {screen.statuses}")
        await screen.close()
        code = await asyncio.to_thread(late.stop)
        self.check(code == 0, "c: the late node exits 0 on SIGTERM", f"{code}")

    async def phase_c(self, seconds: float) -> None:
        print(f"-- c. Redis stopped (SIGTERM) for {seconds:.0f} s, then restarted on the same port and folder")
        before_max = self.ledger.max_seq()
        screens = [screen for screen in self.all_screens() if screen.open]
        status_counts = {screen.name: len(screen.statuses) for screen in screens}
        code = await asyncio.to_thread(self.redis.stop)
        stopped_at = time.monotonic()
        self.check(code == 0, "c: redis-server exits 0 on SIGTERM", f"{code}")

        def outage() -> dict:
            record = {"posts": [], "readyz": [], "healthz": [], "redis_up": []}
            index = 0
            while time.monotonic() - stopped_at < seconds:
                node = self.nodes[index % 3]
                metric = METRICS[(index // 3) % 3]
                begin = time.monotonic()
                status, body = self.ledger.post(node, metric, "c-outage")
                record["posts"].append((node.name, status, body, time.monotonic() - begin))
                elapsed = time.monotonic() - stopped_at
                try:
                    record["readyz"].append((node.name, elapsed, node.request("GET", "/readyz", timeout=5)[0]))
                    record["healthz"].append((node.name, node.request("GET", "/healthz", timeout=5)[0]))
                    if index % 3 == 0 or elapsed > seconds - 1.5:
                        up = prometheus_value(self.metrics_text(node), "rollboard_redis_up")
                        record["redis_up"].append((node.name, elapsed, up))
                except OSError as error:
                    record["readyz"].append((node.name, elapsed, f"{error}"))
                index += 1
                time.sleep(0.05)
            return record

        record = await asyncio.to_thread(outage)
        status, body = await asyncio.to_thread(
            self.nodes[0].request, "POST", f"/api/v1/admin/dashboards/{DASHBOARD_ID}/announce",
            {"text": "Not now", "seconds": 5}, ADMIN_TOKEN)
        self.check(status == 503 and isinstance(body, dict) and body.get("error") == "redis_unavailable",
                   "c: an announcement during the outage is 503 redis_unavailable", f"{status} {body}")
        posts = record["posts"]
        per_node = {node.name: 0 for node in self.nodes}
        wrong = []
        for name, status, body, took in posts:
            if status == 503 and isinstance(body, dict) and body.get("error") == "redis_unavailable":
                per_node[name] += 1
            else:
                wrong.append(f"{name}: {status} {body}")
        slowest = max((took for *_, took in posts), default=0)
        print(f"  {len(posts)} posts during the outage, refused per node {per_node}, slowest answer {slowest:.2f} s")
        self.check(not wrong and all(per_node.values()),
                   "c: every post during the outage, on every node, is 503 redis_unavailable (never 202)",
                   f"{len(wrong)} others: {wrong[:4]}")
        late = [(name, round(at, 2), status) for name, at, status in record["readyz"] if at >= STALE_GRACE
                and status != 503]
        seen = {name for name, at, status in record["readyz"] if at >= STALE_GRACE}
        self.check(not late and seen == set(per_node),
                   f"c: /readyz is 503 on every node while Redis is down (from {STALE_GRACE:.0f} s after the stop)",
                   f"{late[:6]}")
        self.check(all(status == 200 for _, status in record["healthz"]) and record["healthz"],
                   "c: /healthz stays 200 on every node", f"{[s for s in record['healthz'] if s[1] != 200][:4]}")
        ups = {}
        for name, at, up in record["redis_up"]:
            if at >= STALE_GRACE:
                ups.setdefault(name, set()).add(up)
        self.check(set(ups) == set(per_node) and all(values == {0.0} for values in ups.values()),
                   "c: /metrics says rollboard_redis_up 0 on every node while Redis is down", f"{ups}")
        stale = {}
        for screen in screens:
            news = screen.statuses[status_counts[screen.name]:]
            stale[screen.name] = next((round(at - stopped_at, 2) for at, feed in news if feed == "stale"), None)
        self.check(all(value is not None for value in stale.values()),
                   "c: every open screen gets status stale during the outage", f"{stale}")
        print(f"  status stale after (s): {sorted(stale.values(), key=lambda v: v if v is not None else 1e9)}")
        closed = [screen.name for screen in screens if not screen.open]
        self.check(not closed, "c: every screen stays open through the outage", f"{closed}")

        late, late_screen = await self.start_late_node()

        # A node retrying at the right moment reconnects, and its screens hear "live", while `start` still waits for
        # Redis to have loaded its file: a live counts from the moment Redis was started, not from `start`'s return.
        starting_at = time.monotonic()
        await asyncio.to_thread(self.redis.start)
        restarted_at = time.monotonic()
        readiness = await asyncio.gather(*(self.wait_ready(node, LIVE_BOUND + 5) for node in self.nodes))
        print(f"  Redis back; nodes ready after (s): {[r if r is None else round(r, 2) for r in readiness]}")
        self.check(all(r is not None and r <= READY_BOUND for r in readiness),
                   f"c: every node's /readyz is 200 again within {READY_BOUND:.0f} s of Redis restarting",
                   f"{readiness}")
        deadline = restarted_at + LIVE_BOUND
        live = {}
        while time.monotonic() < deadline:
            live = {}
            for screen in screens:
                news = [(at, feed) for at, feed in screen.statuses[status_counts[screen.name]:]]
                stale_at = next((at for at, feed in news if feed == "stale"), None)
                live_at = next((at for at, feed in news if feed == "live" and at >= starting_at
                                and stale_at is not None and at > stale_at), None)
                live[screen.name] = None if live_at is None else round(live_at - restarted_at, 2)
            if all(value is not None for value in live.values()):
                break
            await asyncio.sleep(0.1)
        self.check(all(value is not None for value in live.values()),
                   f"c: every screen gets status live (after its stale) within {LIVE_BOUND:.0f} s of Redis restarting",
                   f"{live}")
        for node, ready in zip(self.nodes, readiness):
            times = [value for name, value in live.items() if name.startswith(node.name + "/")]
            print(f"  {node.name}: /readyz 200 after {ready if ready is None else round(ready, 2)} s, screens live "
                  f"after {times} s")
        for node in self.nodes:
            up = prometheus_value(await asyncio.to_thread(self.metrics_text, node), "rollboard_redis_up")
            self.check(up == 1, f"c: {node.name}: rollboard_redis_up 1 again", f"{up}")
        epochs = {}
        for node in self.nodes:
            status, body = await asyncio.to_thread(node.request, "GET", "/healthz")
            epochs[node.name] = body.get("epoch") if status == 200 and isinstance(body, dict) else None
        hellos = {screen.name: sorted(set(screen.epochs)) for screen in self.all_screens()}
        self.check(set(epochs.values()) == {self.epoch} and all(v == [self.epoch] for v in hellos.values()),
                   "c: the epoch is unchanged after Redis restarted (/healthz and every hello)",
                   f"{epochs} {hellos} vs {self.epoch}")

        for index in range(9):
            await asyncio.to_thread(self.ledger.post, self.nodes[index % 3], METRICS[(index + 1) % 3], "c-after", True)
        acks, refused = self.ledger.phase("c-after")
        self.check(len(acks) == 9 and not refused, "c: 9 posts round-robin after Redis returned: every one 202",
                   f"refused {refused[:3]}")
        self.check(all(ack["seq"] > before_max for ack in acks),
                   f"c: seqs after the outage are above every earlier one ({before_max})",
                   f"{[ack['seq'] for ack in acks]}")
        seqs = self.ledger.serial_seqs
        self.check(all(b > a for a, b in zip(seqs, seqs[1:])), "c: acknowledged seqs never went backwards",
                   f"{seqs}")
        took = await self.settle()
        self.check(took is not None, "c: every screen reaches the final values after the outage",
                   f"{[(s.name, s.current_targets(), s.last_c) for s in self.all_screens()]}")
        survivors_screens = [screen for node in self.nodes[:2] for screen in self.screens[node.name]]
        self.sequences_exact(survivors_screens, "c (screens open since the start)")
        self.check_restarted_screens("c")
        self.final_values(self.all_screens(), "c")
        agree, detail = await self.gets_agree()
        self.check(agree, "c: GET /api/v1/metrics/{id} agrees (value and seq) on all three nodes", detail)
        await self.finish_late_node(late, late_screen)

        refused_values = {refusal["value"] for refusal in self.ledger.refused}
        shown = [(screen.name, metric, value) for screen in self.all_screens() for metric in METRICS
                 for value in screen.targets[metric] if value in refused_values]
        missing: dict[str, list[str]] = {}
        stray = []
        for node in self.nodes:
            for metric in METRICS:
                status, body = await asyncio.to_thread(node.request, "GET", f"/api/v1/metrics/{metric}")
                history = {entry.get("seq"): entry.get("value") for entry in (body or {}).get("history", [])} \
                    if status == 200 and isinstance(body, dict) else {}
                for ack in self.ledger.acks:
                    if ack["metric"] == metric and history.get(ack["seq"]) != ack["value"]:
                        missing.setdefault(node.name, []).append(f"{metric} seq {ack['seq']}")
                stray += [f"{node.name} {metric} {value}" for value in history.values() if value in refused_values]
        count = len(self.ledger.acks)
        victim = self.nodes[2].name
        kept = {name: items for name, items in missing.items() if name != victim}
        self.check(not kept, f"c: the history (GET /api/v1/metrics/{{id}}) of every node that was never restarted "
                   f"holds every one of the {count} acknowledged values with its seq",
                   "; ".join(f"{name}: {len(items)} missing, e.g. {items[:4]}" for name, items in kept.items()))
        lost = missing.get(victim, [])
        self.check(not lost, f"c: the restarted {victim}'s history holds every acknowledged value too (stricter "
                   "reading: a value's history is the same on every node)",
                   f"{len(lost)} of {count} missing, e.g. {lost[:4]}")
        self.check(not shown and not stray, "c: no refused value shows on a screen or in any history",
                   f"{shown[:3]} {stray[:3]}")

    async def phase_d(self) -> None:
        print("-- d. processes and descriptors")
        dead = [f"{node.name}: {node.process.returncode}" for node in self.nodes if not node.alive()]
        self.check(not dead, "d: no node process died", f"{dead}")
        unexpected = [(screen.name, screen.closes) for node in self.nodes[:2] for screen in self.screens[node.name]
                      if screen.closes]
        unexpected += [(screen.name, screen.closes[1:]) for screen in self.resumed if len(screen.closes) > 1]
        unexpected += [(screen.name, screen.closes) for screen in self.fresh if screen.closes]
        self.check(not unexpected, "d: no screen was closed except by the node's SIGKILL", f"{unexpected[:3]}")
        await asyncio.sleep(1.5)
        growth = {}
        for node in self.nodes:
            after = node.fd_count()
            growth[node.name] = (self.fds_before[node.name], after)
        print(f"  open descriptors (before, after): {growth}")
        self.check(all(after - before <= FD_MARGIN for before, after in growth.values()),
                   f"d: each node's open descriptors stay within {FD_MARGIN} of the count before", f"{growth}")

    async def create_key(self, node: ClusterNode, name: str) -> tuple[str, str]:
        status, answer = await asyncio.to_thread(
            node.request, "POST", "/api/v1/admin/keys", {"name": name, "dashboards": ["vault"]}, ADMIN_TOKEN)
        self.check(status == 201 and isinstance(answer, dict) and answer.get("key", "").startswith("rbv_"),
                   f"k: key {name!r} created on {node.name} with the cluster's admin token", f"{status} {answer}")
        return (answer or {}).get("id", ""), (answer or {}).get("key", "")

    async def phase_k(self) -> None:
        print("-- k. viewer keys and admin tokens are the cluster's")
        key_id, secret = await self.create_key(self.nodes[0], "wall A")
        screens = {node.name: KeyScreen(node, secret) for node in self.nodes}
        keyless = KeyScreen(self.nodes[1], None)
        for screen in [*screens.values(), keyless]:
            await screen.settled()
        self.check(all(screen.hello for screen in screens.values()),
                   "k: a key made on node0 opens the vault dashboard on every node",
                   f"{[(name, screen.hello, screen.close) for name, screen in screens.items()]}")
        self.check(keyless.close is not None and keyless.close[0] == 1008 and not keyless.hello,
                   "k: without a key the vault dashboard is refused (1008)", f"{keyless.close}")
        for node in self.nodes:
            status, listed = await asyncio.to_thread(node.request, "GET", "/api/v1/admin/keys", None, ADMIN_TOKEN)
            ids = [key.get("id") for key in (listed or {}).get("keys", [])] if isinstance(listed, dict) else []
            self.check(status == 200 and key_id in ids, f"k: {node.name} lists the key", f"{status} {ids}")
        revoked_at = time.monotonic()
        status, answer = await asyncio.to_thread(
            self.nodes[1].request, "DELETE", f"/api/v1/admin/keys/{key_id}", None, ADMIN_TOKEN)
        self.check(status == 200 and isinstance(answer, dict) and answer.get("revoked") is True,
                   "k: node1 revokes the key made on node0", f"{status} {answer}")
        # node1 holds one of the three screens: the answer counts it as this node's, and claims no total it cannot know.
        self.check(isinstance(answer, dict) and "closedScreens" in answer and answer["closedScreens"] is None
                   and answer.get("closedScreensHere") == 1,
                   "k: the revocation's answer counts the answering node's screens (closedScreensHere 1) and gives no "
                   "cluster total (closedScreens null)", f"{answer}")
        while time.monotonic() - revoked_at < 5 and any(screen.close is None for screen in screens.values()):
            await asyncio.sleep(0.02)
        took = time.monotonic() - revoked_at
        closes = {name: screen.close for name, screen in screens.items()}
        self.check(all(close == (1008, "viewer key revoked") for close in closes.values()) and took < 1.0,
                   "k: the revocation closes the key's screens on every node with 1008 within a second",
                   f"{closes} after {took:.2f} s")
        print(f"  the key's screens on all three nodes closed {took:.3f} s after the revocation was sent")
        late = KeyScreen(self.nodes[2], secret)
        await late.settled()
        self.check(late.close is not None and late.close[0] == 1008 and not late.hello,
                   "k: the revoked key opens nothing on a third node", f"{late.close}")
        # For part b: a key revoked, and one created, while a node is down.
        self.key_to_revoke = await self.create_key(self.nodes[0], "wall B")
        for screen in [*screens.values(), keyless, late]:
            screen.stop()

    async def keys_while_down(self, survivor: ClusterNode) -> None:
        status, answer = await asyncio.to_thread(
            survivor.request, "DELETE", f"/api/v1/admin/keys/{self.key_to_revoke[0]}", None, ADMIN_TOKEN)
        self.check(status == 200, f"k: {survivor.name} revokes key B while a node is down", f"{status} {answer}")
        self.key_made_while_down = await self.create_key(survivor, "wall C")

    async def keys_after_restart(self, victim: ClusterNode) -> None:
        revoked = KeyScreen(victim, self.key_to_revoke[1])
        made = KeyScreen(victim, self.key_made_while_down[1])
        for screen in (revoked, made):
            await screen.settled()
        self.check(revoked.close is not None and revoked.close[0] == 1008 and not revoked.hello,
                   f"k: the restarted {victim.name} refuses the key revoked while it was down", f"{revoked.close}")
        self.check(made.hello, f"k: the restarted {victim.name} opens with the key made while it was down",
                   f"{made.close}")
        for screen in (revoked, made):
            screen.stop()

    async def close_screens(self) -> None:
        await asyncio.gather(*(screen.close() for screen in self.all_screens()), return_exceptions=True)


async def scenario(cluster: Cluster, seconds: float) -> None:
    cluster.fresh = []
    cluster.resumed = []
    try:
        await cluster.start()
        await cluster.phase_a()
        await cluster.phase_k()
        await cluster.phase_b()
        await cluster.phase_c(seconds)
        await cluster.phase_d()
    finally:
        await cluster.close_screens()


def main() -> int:
    def options(parser) -> None:
        parser.add_argument("--seconds", type=float, default=6.0, help="how long Redis stays down in part c")
        parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, data)")

    arguments = cluster_arguments(__doc__.split("\n\n")[0], options)
    binary = arguments.binary
    checks = Checks()
    folder = tempfile.mkdtemp(prefix="rollboard-cluster-")
    redis = RedisServer(arguments.redis_server, os.path.join(folder, "redis"))
    nodes: list[ClusterNode] = []
    started = time.monotonic()
    try:
        config = write_config(folder, DASHBOARD, DASHBOARD_ID, {"historyLength": "1000"})
        os.makedirs(os.path.join(config, "playlists"), exist_ok=True)
        with open(os.path.join(config, "playlists", "wall.yaml"), "w") as handle:
            handle.write(PLAYLIST)
        with open(os.path.join(config, "dashboards", "vault.yaml"), "w") as handle:
            handle.write(VAULT)
        redis.start()
        print(f"redis-server {redis.version()} on port {redis.port} (appendonly yes, appendfsync always)")
        try:
            lonely = subprocess.run(
                [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--redis", redis.url, "--config", config,
                 "--data-dir", os.path.join(folder, "no-admin-token")],
                env={key: value for key, value in dict(os.environ, ROLLBOARD_PRODUCER_TOKEN=TOKEN).items()
                     if key != "ROLLBOARD_ADMIN_TOKEN"},
                capture_output=True, text=True, timeout=20)
            code, said = lonely.returncode, (lonely.stdout + lonely.stderr).strip()
        except subprocess.TimeoutExpired:
            code, said = None, "it started and was still serving after 20 s"
        checks.check(code not in (None, 0) and "same tokens" in said and "ROLLBOARD_ADMIN_TOKEN" in said,
                     "k: a node with --redis and no admin token of the cluster's refuses to start, saying why",
                     f"exit {code}: {said[-300:]}")
        for index in range(3):
            start_node(nodes, binary, folder, TOKEN, redis.url, config, f"node{index}")
        print(f"nodes on ports {[node.port for node in nodes]}")
        cluster = Cluster(nodes, redis, checks)
        asyncio.run(scenario(cluster, arguments.seconds))
    except Exception:  # noqa: BLE001
        checks.check(False, "the scenario ran to its end", traceback.format_exc())
    finally:
        for node in nodes:
            alive = node.alive()
            code = node.stop()
            checks.check(alive and code == 0, f"{node.name} was running at the end and exits 0 on SIGTERM",
                         f"alive={alive} exit={code} history={node.exit_codes}")
        redis.stop()
        if checks.failed:
            for node in nodes:
                log = node.read_log()
                # A crash's report starts with what went wrong; its tail is only the other threads' stacks.
                crash = min((index for index in (log.find("Fatal error"), log.find("Program crashed")) if index >= 0),
                            default=-1)
                if crash >= 0:
                    print(f"---- {node.name} log (the crash)\n{log[max(0, crash - 1500):crash + 4000]}")
                else:
                    print(f"---- {node.name} log (tail)\n{log[-2500:]}")
            print(f"---- redis log (tail)\n{redis.read_log()[-1500:]}")
        print(f"run took {time.monotonic() - started:.1f} s")
        if arguments.keep or os.environ.get("ROLLBOARD_KEEP_TMP"):
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
