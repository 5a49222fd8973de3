"""Redis restarted without its data: three `rollboard serve --redis` nodes recover by themselves.

Starts its own `redis-server` with no persistence (`--save '' --appendonly no`) and three nodes (the shipped `config/`
plus a `recovery` dashboard: a counter and a leaderboard), one WebSocket screen per node. Producers post keyed
increments of `recovery_total` and keyed leaderboard increments round-robin to the nodes, retrying on the next node
whatever is not acknowledged. Mid-run the test kills redis-server (SIGKILL) and starts it again, empty, on the same
port. Then:

- no node is restarted by hand (same processes, none exited);
- within `--recover-within` seconds every node accepts posts again (each node's first 202 after the restart is
  printed);
- every node and every screen ends on the same total (the sum of the acknowledged increments, each counted once)
  and the same board;
- the screens stayed connected (no close), went stale and live again (the time until every screen is live again is
  printed);
- `/metrics`: every node counts one recovery (`rollboard_redis_recoveries_total` 1), exactly one node seeded Redis
  (`rollboard_redis_recovery_seeds_total` summed over the nodes is 1).

On main at d4bcbc0 (before nodes recovered by themselves) this fails: every node logs "Redis lost this cluster's
changes (epoch none …); restart the nodes" and halts; for the whole `--recover-within` no node accepts a post (every
try answered 503 `redis_history_lost`), 300-odd posts stay unacknowledged, the screens stay "stale" and `/metrics`
has no recovery counter.

Usage: test_redis_recovery.py --binary .build/debug/rollboard [--redis-server redis-server] [--recover-within 20]
Prints PASS/FAIL lines and `N passed, M failed`; exit 1 on any failure.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_support import (  # noqa: E402
    Checks, ClusterNode, RedisServer, Screen, begin_run, cluster_arguments, prometheus_sum,
    prometheus_value, run_cluster_scenario, start_node, write_config)
from test_cluster_leaderboards import shown, top  # noqa: E402

TOKEN = "cluster-recovery-token-0123456789abcdef"
DASHBOARD = """id: recovery
title: Recovery
tiles:
  - {id: recovery_total, type: counter, format: "%.2f", queue: fifo, maxLag: 60}
  - {id: recovery_leaders, type: leaderboard, size: 4, duration: 0.3}
"""
METRIC = "recovery_total"
BOARD = "recovery_leaders"
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Emma", "Farid"]


class Producers:
    """Threads that post keyed increments (a metric, a leaderboard) round-robin, each retried on the next node until
    it is acknowledged or `give_up_at` passes; remembers what was acknowledged and each node's first 202 after
    `restarted_at`."""

    def __init__(self, nodes: list[ClusterNode]):
        self.nodes = nodes
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.give_up_at = float("inf")
        self.restarted_at: float | None = None
        self.total = 0.0
        self.board: dict[str, float] = {}
        self.acknowledged = 0
        self.unacknowledged: list[str] = []
        self.refusals: dict[str, int] = {}
        self.first_accept: dict[str, float] = {}

    def _post(self, key: str, path: str, body: dict, start: int) -> bool:
        attempt = start
        while time.monotonic() < self.give_up_at:
            node = self.nodes[attempt % len(self.nodes)]
            attempt += 1
            try:
                status, answer = node.request("POST", path, body, token=TOKEN, headers={"Idempotency-Key": key},
                                              timeout=5)
            except OSError as error:
                status, answer = None, str(error)
            if status == 202:
                with self.lock:
                    if self.restarted_at is not None and node.name not in self.first_accept:
                        self.first_accept[node.name] = time.monotonic()
                return True
            reason = answer.get("error") if isinstance(answer, dict) else str(status)
            with self.lock:
                self.refusals[f"{status} {reason}"] = self.refusals.get(f"{status} {reason}", 0) + 1
            time.sleep(0.1)
        with self.lock:
            self.unacknowledged.append(key)
        return False

    def producer(self, index: int) -> None:
        rng = random.Random(index)
        count = 0
        while not self.stop.is_set():
            count += 1
            if count % 2:
                amount = rng.randrange(1, 40) / 4
                if self._post(f"m-{index}-{count}", f"/api/v1/metrics/{METRIC}", {"increment": amount}, index + count):
                    with self.lock:
                        self.total += amount
                        self.acknowledged += 1
            else:
                amounts = {name: rng.randint(1, 3) for name in rng.sample(NAMES, 2)}
                if self._post(f"b-{index}-{count}", f"/api/v1/leaderboards/{BOARD}", {"increment": amounts},
                              index + count):
                    with self.lock:
                        for name, amount in amounts.items():
                            self.board[name] = self.board.get(name, 0) + amount
                        self.acknowledged += 1
            time.sleep(0.02)


def restart_empty(redis: RedisServer) -> None:
    """SIGKILL redis-server and start it again on the same port: with no persistence it comes back empty."""
    redis.process.send_signal(signal.SIGKILL)
    redis.process.wait(timeout=10)
    redis.start()


async def agree(nodes, screens, leaders, producers, checks: Checks, within: float) -> None:
    expected_rows = top(producers.board)
    deadline = time.monotonic() + within
    while True:
        totals = [node.request("GET", f"/api/v1/metrics/{METRIC}")[1].get("value") for node in nodes]
        boards = [(node.request("GET", f"/api/v1/leaderboards/{BOARD}")[1] or {}).get("entries") for node in nodes]
        targets = [screen.current_targets()[METRIC] for screen in screens]
        rows = [shown(leaders.get(screen.name)) for screen in screens]
        done = (all(total == producers.total for total in totals) and all(board == producers.board for board in boards)
                and all(target == producers.total for target in targets) and all(row == expected_rows for row in rows))
        if done or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.25)
    checks.check(all(total == producers.total for total in totals),
                 f"every node's GET is the sum of the acknowledged increments, each once ({producers.total})",
                 f"{totals}")
    checks.check(all(board == producers.board for board in boards), "every node has the acknowledged board",
                 f"{boards} vs {producers.board}")
    checks.check(all(target == producers.total for target in targets),
                 f"every screen ends on exactly {producers.total}", f"{targets}")
    checks.check(all(row == expected_rows for row in rows), "every screen ends on the same board rows",
                 f"{rows} vs {expected_rows}")


async def scenario(nodes: list[ClusterNode], redis: RedisServer, checks: Checks, within: float) -> None:
    pids = [node.pid for node in nodes]
    leaders: dict[str, object] = {}
    screens = [Screen(f"screen{index}", node.port, "recovery", [METRIC]) for index, node in enumerate(nodes)]
    for screen in screens:
        screen.on_message = (lambda name: lambda now, raw, decoder: leaders.__setitem__(
            name, decoder.wire.get(BOARD)))(screen.name)
        await screen.connect()
    producers = Producers(nodes)
    threads = [threading.Thread(target=producers.producer, args=(index,), daemon=True) for index in range(4)]
    try:
        for thread in threads:
            thread.start()
        await asyncio.sleep(3)
        before = producers.acknowledged
        checks.check(before > 0, f"producers are acknowledged before the restart ({before})")
        killed = time.monotonic()
        restart_empty(redis)
        restarted = time.monotonic()
        producers.restarted_at = restarted
        print(f"redis-server killed and started empty in {restarted - killed:.2f} s ({before} changes acknowledged "
              f"before); times below are from when it answers again")
        producers.give_up_at = restarted + within
        while time.monotonic() < restarted + within and len(producers.first_accept) < len(nodes):
            await asyncio.sleep(0.1)
        await asyncio.sleep(2)
        producers.stop.set()
        for thread in threads:
            await asyncio.to_thread(thread.join, within + 10)
        accepts = {name: round(at - restarted, 2) for name, at in sorted(producers.first_accept.items())}
        print(f"first 202 per node after the restart (s): {accepts}; refusals meanwhile: {producers.refusals}")
        checks.check(len(accepts) == len(nodes), f"within {within:.0f} s every node accepts posts again",
                     f"{accepts}; refusals: {producers.refusals}")
        checks.check(not producers.unacknowledged, "every post is acknowledged once retried",
                     f"{len(producers.unacknowledged)} not: {producers.unacknowledged[:4]}")
        others = [reason for reason in producers.refusals if not reason.startswith(("503 ", "None "))]
        checks.check(not others, "meanwhile posts are only refused with 503 (or a connection error)", f"{others}")
        await agree(nodes, screens, leaders, producers, checks, within)
        lives = []
        for screen in screens:
            live = [at for at, feed in screen.statuses if at > restarted and feed == "live"]
            lives.append(live[0] - restarted if live else None)
        checks.check(all(live is not None for live in lives), "every screen is told live again",
                     f"{[(screen.name, screen.statuses[-3:]) for screen in screens]}")
        if all(live is not None for live in lives):
            print(f"time until every screen is live again: {max(lives):.2f} s (per screen {[round(x, 2) for x in lives]})")
        checks.check(all(not screen.closes for screen in screens), "no screen was disconnected",
                     f"{[screen.closes for screen in screens]}")
        texts = [node.text("/metrics")[1] for node in nodes]
        recoveries = [prometheus_value(text, "rollboard_redis_recoveries_total") for text in texts]
        seeds = sum(prometheus_sum(text, "rollboard_redis_recovery_seeds_total") or 0 for text in texts)
        lost = [prometheus_value(text, "rollboard_redis_recovery_lost_changes_total") for text in texts]
        print(f"/metrics: recoveries {recoveries}, seeds {seeds}, changes a node had that the seed lacked {lost}")
        for node in nodes:
            lines = [line for line in node.read_log().splitlines() if "recovered" in line]
            print(f"{node.name}: {lines[-1] if lines else 'no recovery logged'}")
        checks.check(recoveries == [1, 1, 1] and seeds == 1,
                     "/metrics: every node counts one recovery, one node seeded Redis", f"{recoveries}, {seeds}")
    finally:
        producers.stop.set()
        producers.give_up_at = 0
        for screen in screens:
            await screen.close()
    checks.check([node.pid for node in nodes] == pids and all(node.alive() and not node.exit_codes for node in nodes),
                 "no node was restarted by hand, none exited", f"{[node.exit_codes for node in nodes]}")


def main() -> int:
    arguments = cluster_arguments(
        __doc__.split("\n\n")[0],
        lambda parser: parser.add_argument("--recover-within", type=float, default=20.0))
    checks, folder, redis, nodes, started = begin_run("rollboard-redis-recovery-", arguments.redis_server)
    redis.persistent = False
    def run() -> None:
        config = write_config(folder, DASHBOARD, "recovery")
        redis.start()
        for index in range(3):
            start_node(nodes, arguments.binary, folder, TOKEN, redis.url, config, f"node{index}")
        asyncio.run(scenario(nodes, redis, checks, arguments.recover_within))

    return run_cluster_scenario(checks, nodes, redis, folder, started, run)


if __name__ == "__main__":
    sys.exit(main())
