"""Increments on three `rollboard serve --redis` nodes sharing one Redis: the exact total everywhere.

Starts its own `redis-server` and three nodes (the shipped `config/` plus a `tally` dashboard: one counter), and one
WebSocket screen per node. Then:

a. writers post increments of `tally_total` round-robin to the three nodes, all at once, each with its own
   Idempotency-Key; a third of them is retried at once on another node with the same key. Every answer's seq is
   new and its total is the previous answer's total (by seq) plus its own amount; a retry on another node gets the
   same seq and total; every node's GET and every screen end on exactly the sum of the amounts, and every node
   answers the same series (raw points and minute rollups).
b. one node is killed with SIGKILL and restarted while the others keep taking increments: afterwards every node and
   screen agree on the exact total and the same series again, and a key first answered by a surviving node is
   answered from Redis by the restarted one (same seq, nothing applied).

Usage: test_cluster_increments.py --binary .build/debug/rollboard [--redis-server redis-server] [--per-writer 25]
Prints PASS/FAIL lines and `N passed, M failed`; exit 1 on any failure.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import random
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_support import (  # noqa: E402
    Checks, ClusterNode, Screen, begin_run, cluster_arguments, run_cluster_scenario, start_node, write_config)

TOKEN = "cluster-increment-token-0123456789abcdef"
DASHBOARD = """id: tally
title: Tally
tiles:
  - {id: tally_total, type: counter, format: "%.2f", queue: fifo, maxLag: 60}
"""
METRIC = "tally_total"


class Writers:
    """Posts increments with keys round-robin to the nodes from several threads; remembers every answer."""

    def __init__(self, nodes: list[ClusterNode]):
        self.nodes = nodes
        self.lock = threading.Lock()
        self.amounts: dict[str, float] = {}
        self.answers: dict[str, tuple[int, float]] = {}
        self.retry_mismatches: list[str] = []
        self.refusals: list[str] = []

    def post(self, node: ClusterNode, key: str, amount: float):
        try:
            status, body = node.request("POST", f"/api/v1/metrics/{METRIC}", {"increment": amount}, token=TOKEN,
                                        headers={"Idempotency-Key": key}, timeout=10)
        except OSError as error:
            return None, str(error)
        if status != 202:
            return None, f"{status} {body}"
        return (body["seq"], body["value"]), None

    def run(self, prefix: str, writers: int, per_writer: int, nodes: list[ClusterNode]) -> None:
        def writer(index: int) -> None:
            rng = random.Random(f"{prefix}{index}")
            for count in range(per_writer):
                key = f"{prefix}-{index}-{count}"
                amount = rng.randrange(1, 40) / 4
                node = nodes[(index + count) % len(nodes)]
                with self.lock:
                    self.amounts[key] = amount
                answer, problem = self.post(node, key, amount)
                with self.lock:
                    if answer:
                        self.answers[key] = answer
                    else:
                        self.refusals.append(f"{key} on {node.name}: {problem}")
                if count % 3 == 0 and answer:
                    other = nodes[(index + count + 1) % len(nodes)]
                    again, problem = self.post(other, key, amount)
                    if again != answer:
                        with self.lock:
                            self.retry_mismatches.append(f"{key}: {answer} on {node.name}, {again} {problem} on "
                                                         f"{other.name}")

        with concurrent.futures.ThreadPoolExecutor(writers) as pool:
            for future in [pool.submit(writer, index) for index in range(writers)]:
                future.result()

    def chain_problems(self) -> list[str]:
        """Answers ordered by seq: each total must be the previous total plus its own amount."""
        ordered = sorted((seq, total, key) for key, (seq, total) in self.answers.items())
        problems = []
        previous = 0.0
        seqs = [seq for seq, _, _ in ordered]
        if len(set(seqs)) != len(seqs):
            problems.append("two keys were answered with the same seq")
        for seq, total, key in ordered:
            if total != previous + self.amounts[key]:
                problems.append(f"seq {seq} ({key}): {previous} + {self.amounts[key]} != {total}")
            previous = total
        return problems


async def agree(nodes: list[ClusterNode], screens: list[Screen], expected: float, checks: Checks, label: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        values = [node.request("GET", f"/api/v1/metrics/{METRIC}")[1].get("value") for node in nodes]
        shown = [screen.current_targets()[METRIC] for screen in screens]
        if all(value == expected for value in values) and all(target == expected for target in shown):
            break
        await asyncio.sleep(0.2)
    checks.check(all(value == expected for value in values), f"{label}: every node's GET is exactly {expected}",
                 f"{values}")
    checks.check(all(target == expected for target in shown), f"{label}: every screen ends on exactly {expected}",
                 f"{shown}")


def same_series(nodes: list[ClusterNode], keys: int, checks: Checks, label: str) -> None:
    """Every node answers the same raw series and the same minute rollups, one point per key."""
    answers = []
    for node in nodes:
        # Page by page (an answer holds at most 1,000 points) through `next`.
        raw, target = {"points": []}, f"/api/v1/metrics/{METRIC}/series?from=0&to=4102444800"
        while target:
            page = node.request("GET", target)[1]
            raw["points"] += page.get("points") or []
            target = page.get("next")
        minutes = node.request("GET", f"/api/v1/metrics/{METRIC}/series?from={int(time.time()) - 3600}"
                                      f"&to={int(time.time()) + 60}&step=1m")[1]
        answers.append((raw.get("points"), minutes.get("buckets")))
    points = answers[0][0] or []
    checks.check(all(answer == answers[0] for answer in answers) and len(points) == keys,
                 f"{label}: every node answers the same series, one raw point per key ({keys})",
                 f"{[len(answer[0] or []) for answer in answers]}")


async def scenario(nodes: list[ClusterNode], per_writer: int, checks: Checks) -> None:
    screens = [Screen(f"screen{index}", node.port, "tally", [METRIC]) for index, node in enumerate(nodes)]
    for screen in screens:
        await screen.connect()
    try:
        writers = Writers(nodes)
        started = time.monotonic()
        await asyncio.to_thread(writers.run, "a", 6, per_writer, nodes)
        print(f"a: {len(writers.amounts)} increments in {time.monotonic() - started:.1f} s")
        checks.check(not writers.refusals, "a: every increment is accepted", "; ".join(writers.refusals[:3]))
        checks.check(not writers.retry_mismatches, "a: a retry on another node gets the first answer (seq, total)",
                     "; ".join(writers.retry_mismatches[:3]))
        problems = writers.chain_problems()
        checks.check(not problems, "a: ordered by seq, each answer's total is the previous one plus its amount",
                     "; ".join(problems[:3]))
        await agree(nodes, screens, sum(writers.amounts.values()), checks, "a")
        same_series(nodes, len(writers.amounts), checks, "a")

        victim = nodes[1]
        survivors = [nodes[0], nodes[2]]
        await screens[1].close()
        background = asyncio.create_task(asyncio.to_thread(writers.run, "b", 4, per_writer, survivors))
        await asyncio.sleep(0.3)
        victim.kill()
        await asyncio.sleep(0.5)
        victim.start()
        await background
        screens[1] = Screen("screen1-again", victim.port, "tally", [METRIC])
        await screens[1].connect()
        checks.check(not writers.refusals and not writers.retry_mismatches,
                     "b: increments on the surviving nodes are accepted, retries answered alike",
                     "; ".join((writers.refusals + writers.retry_mismatches)[:3]))
        problems = writers.chain_problems()
        checks.check(not problems, "b: the chain of totals has no gap or double count", "; ".join(problems[:3]))
        await agree(nodes, screens, sum(writers.amounts.values()), checks, "b")
        same_series(nodes, len(writers.amounts), checks, "b")
        key = "b-0-1"
        before = victim.request("GET", f"/api/v1/metrics/{METRIC}")[1]
        again, problem = writers.post(victim, key, writers.amounts[key])
        after = victim.request("GET", f"/api/v1/metrics/{METRIC}")[1]
        checks.check(again == writers.answers.get(key) and after["seq"] == before["seq"],
                     "b: the restarted node answers a key a survivor took with its first answer, applying nothing",
                     f"{again} {problem} vs {writers.answers.get(key)}; seq {before['seq']} -> {after['seq']}")
    finally:
        for screen in screens:
            await screen.close()


def main() -> int:
    arguments = cluster_arguments(
        __doc__.split("\n\n")[0], lambda parser: parser.add_argument("--per-writer", type=int, default=25))
    binary = arguments.binary
    checks, folder, redis, nodes, started = begin_run("rollboard-cluster-increments-", arguments.redis_server)
    def run() -> None:
        config = write_config(folder, DASHBOARD, "tally")
        redis.start()
        for index in range(3):
            start_node(nodes, binary, folder, TOKEN, redis.url, config, f"node{index}")
        asyncio.run(scenario(nodes, arguments.per_writer, checks))

    return run_cluster_scenario(checks, nodes, redis, folder, started, run)


if __name__ == "__main__":
    sys.exit(main())
