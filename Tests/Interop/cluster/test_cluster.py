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
import threading
import subprocess
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_parts import DASHBOARD_ID, METRICS, LaterParts  # noqa: E402
from cluster_support import (  # noqa: E402
    ADMIN_TOKEN, Checks, ClusterNode, RedisServer, Screen, begin_run, cluster_arguments, is_subsequence,
    prometheus_has, prometheus_value, start_node, write_config)

TOKEN = "cluster-test-token-0123456789abcdef"
VAULT = "id: vault\ntitle: Vault\naccess: key\ntiles:\n  - {id: vault_total, type: counter, format: \"%d\"}\n"


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


class Cluster(LaterParts):
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
    checks, folder, redis, nodes, started = begin_run("rollboard-cluster-", arguments.redis_server)
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
