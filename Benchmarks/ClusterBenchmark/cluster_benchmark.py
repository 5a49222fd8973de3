"""Cluster benchmark: `rollboard serve --redis` nodes sharing one Redis stream, measured from the outside.

Starts its own `redis-server` (append-only file, `appendfsync everysec` unless `--appendfsync always`) on a free
loopback port, N nodes on free ports (one shared config: the shipped `config/` plus a `bench` dashboard), and
`--screens-per-node` WebSocket screens per node (Python `websockets`, TLS without verification). Then measures:

1. post→frame latency: values posted one at a time, `--rate` per second on average (Poisson arrivals), round-robin over the nodes; for each post
   the time from just before the request to the first frame (or `state`/`hello`) a screen receives whose `c` is at
   least the seq in the 202 — for screens on a DIFFERENT node than the one posted to (cross-node) and on the same
   node — plus post→202;
2. throughput: K producer processes, each with one keep-alive HTTPS connection to one node (round-robin), posting
   single values as fast as they are acknowledged for `--duration` seconds; acknowledged posts per second, errors,
   202 latency; then whether every screen reached the last acknowledged value of every metric (and how long after
   the last 202 it took).

Prints the machine facts, the exact command and a table. Needs no root.

Usage: cluster_benchmark.py --binary .build/release/rollboard [--nodes 3] [--screens-per-node 2] [--duration 10]
       [--producers 4] [--latency-posts 300] [--rate 20] [--fps 30] [--redis-server redis-server]
       [--appendfsync everysec|always]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import http.client
import json
import multiprocessing
import os
import platform
import random
import shlex
import shutil
import sys
import tempfile
import threading
import time
import traceback

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(REPOSITORY, "Tests", "Interop", "cluster"))
from cluster_support import (  # noqa: E402
    CONTEXT, ClusterNode, RedisServer, Screen, https_request, percentile, prometheus_sum, prometheus_value, write_config)

TOKEN = "cluster-benchmark-token-0123456789abcdef"
DASHBOARD_ID = "bench"
LATENCY_METRIC = "lat"
LOAD_METRICS = ["load0", "load1", "load2", "load3"]
METRICS = [LATENCY_METRIC] + LOAD_METRICS


def dashboard_yaml() -> str:
    tiles = f"""  - id: {LATENCY_METRIC}
    type: odometer
    maxColumns: 12
    maxDuration: 0.3
    queue: latest
"""
    for metric in LOAD_METRICS:
        tiles += f"""  - id: {metric}
    type: odometer
    maxColumns: 12
    maxDuration: 0.3
    queue: latest
"""
    return f"""id: {DASHBOARD_ID}
title: Cluster benchmark
grid: {{columns: {len(METRICS)}, rows: 1}}
tiles:
{tiles}"""


# ------------------------------------------------------------------------------------------------- producers


def producer(index: int, port: int, metrics: list[str], count: int, start_at: float, end_at: float,
             results) -> None:
    """One producer process: single-value posts over one keep-alive connection until `end_at`."""
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=CONTEXT, timeout=15)
    latencies: list[float] = []
    errors: dict[str, int] = {}
    last: dict[str, tuple[int, int]] = {}
    acknowledged = 0
    number = 0
    while time.monotonic() < start_at:
        time.sleep(0.001)
    first = time.monotonic()
    while time.monotonic() < end_at:
        metric = metrics[number % len(metrics)]
        value = 1 + number * count + index
        number += 1
        begin = time.monotonic()
        try:
            status, body = https_request(port, "POST", f"/api/v1/metrics/{metric}", {"value": value}, TOKEN,
                                         connection=connection)
        except (OSError, http.client.HTTPException) as error:
            errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1
            connection.close()
            connection = http.client.HTTPSConnection("127.0.0.1", port, context=CONTEXT, timeout=15)
            continue
        took = time.monotonic() - begin
        if status == 202 and isinstance(body, dict):
            acknowledged += 1
            latencies.append(took)
            seq = body.get("seq")
            if metric not in last or seq > last[metric][0]:
                last[metric] = (seq, value)
        else:
            key = f"{status} {body.get('error') if isinstance(body, dict) else ''}".strip()
            errors[key] = errors.get(key, 0) + 1
    connection.close()
    results.put({"index": index, "acknowledged": acknowledged, "latencies": latencies, "errors": errors,
                 "last": last, "first": first, "end": time.monotonic()})


# ------------------------------------------------------------------------------------------------- benchmark


class Recorder:
    """Per screen: (arrival, c) of every message that carried one, c kept as a running maximum."""

    def __init__(self, screen: Screen):
        self.times: list[float] = []
        self.cs: list[int] = []
        screen.on_message = self.note

    def note(self, now: float, raw: dict, _decoder) -> None:
        c = raw.get("c")
        if c is None and raw.get("type") == "hello":
            c = (raw.get("changes") or {}).get("seq")
        if c is None:
            return
        if self.cs and c < self.cs[-1]:
            c = self.cs[-1]
        self.times.append(now)
        self.cs.append(c)

    def first_at_least(self, seq: int) -> float | None:
        index = bisect.bisect_left(self.cs, seq)
        return self.times[index] if index < len(self.times) else None


async def measure_latency(nodes: list[ClusterNode], screens: dict[str, list[Screen]],
                          recorders: dict[Screen, Recorder], posts: int, rate: float) -> dict:
    samples: list[tuple[str, float, int]] = []  # (node name, t0, seq)
    post_to_202: list[float] = []
    failures: list[str] = []

    def run() -> None:
        connections = {node.name: http.client.HTTPSConnection("127.0.0.1", node.port, context=CONTEXT, timeout=15)
                       for node in nodes}
        rng = random.Random(1)
        due = time.monotonic()
        for number in range(posts):
            node = nodes[number % len(nodes)]
            value = 10_000_000 + number
            t0 = time.monotonic()
            try:
                status, body = https_request(node.port, "POST", f"/api/v1/metrics/{LATENCY_METRIC}",
                                             {"value": value}, TOKEN, connection=connections[node.name])
            except (OSError, http.client.HTTPException) as error:
                failures.append(f"{node.name}: {error}")
                connections[node.name] = http.client.HTTPSConnection("127.0.0.1", node.port, context=CONTEXT,
                                                                     timeout=15)
                continue
            if status == 202:
                post_to_202.append(time.monotonic() - t0)
                samples.append((node.name, t0, body["seq"]))
            else:
                failures.append(f"{node.name}: {status} {body}")
            # Poisson arrivals: no phase lock between the posts and the servers' frame clocks.
            due += rng.expovariate(rate)
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        for connection in connections.values():
            connection.close()

    await asyncio.to_thread(run)
    await asyncio.sleep(3.0)
    cross: list[float] = []
    same: list[float] = []
    missing_cross = missing_same = 0
    for name, t0, seq in samples:
        for node_name, node_screens in screens.items():
            for screen in node_screens:
                arrived = recorders[screen].first_at_least(seq)
                if node_name == name:
                    if arrived is None:
                        missing_same += 1
                    else:
                        same.append(arrived - t0)
                else:
                    if arrived is None:
                        missing_cross += 1
                    else:
                        cross.append(arrived - t0)
    return {"cross": cross, "same": same, "post": post_to_202, "missing_cross": missing_cross,
            "missing_same": missing_same, "failures": failures, "posts": len(samples)}


async def measure_throughput(nodes: list[ClusterNode], screens: list[Screen], producers: int, duration: float,
                             catch_up_bound: float) -> dict:
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    start_at = time.monotonic() + 3.0  # spawned interpreters need a moment to import
    end_at = start_at + duration
    processes = []
    for index in range(producers):
        node = nodes[index % len(nodes)]
        process = context.Process(target=producer, args=(index, node.port, LOAD_METRICS, producers, start_at,
                                                          end_at, results), daemon=True)
        process.start()
        processes.append(process)
    collected = []
    try:
        for _ in processes:
            collected.append(await asyncio.to_thread(results.get, True, duration + 60))
    finally:
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
    acknowledged = sum(result["acknowledged"] for result in collected)
    errors: dict[str, int] = {}
    for result in collected:
        for key, count in result["errors"].items():
            errors[key] = errors.get(key, 0) + count
    latencies = [latency for result in collected for latency in result["latencies"]]
    last: dict[str, tuple[int, int]] = {}
    for result in collected:
        for metric, (seq, value) in result["last"].items():
            if metric not in last or seq > last[metric][0]:
                last[metric] = (seq, value)
    window = max(result["end"] for result in collected) - min(result["first"] for result in collected)
    finished = max(result["end"] for result in collected)
    newest = max((seq for seq, _ in last.values()), default=0)
    caught = None
    while time.monotonic() - finished < catch_up_bound:
        if all(screen.open and screen.last_c is not None and screen.last_c >= newest
               and all(screen.current_targets().get(metric) == value for metric, (_, value) in last.items())
               for screen in screens):
            caught = time.monotonic() - finished
            break
        await asyncio.sleep(0.05)
    behind = [screen.name for screen in screens
              if not all(screen.current_targets().get(metric) == value for metric, (_, value) in last.items())]
    return {"acknowledged": acknowledged, "window": window, "errors": errors, "latencies": latencies,
            "caught": caught, "behind": behind, "per_producer": [r["acknowledged"] for r in collected]}


def machine_facts() -> list[str]:
    model = "?"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = "?"
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemTotal"):
                    memory = f"{int(line.split()[1]) // 1024} MiB"
                    break
    except OSError:
        pass
    return [f"cores: {os.cpu_count()} ({model}), memory {memory}",
            f"kernel: {platform.system()} {platform.release()}, Python {platform.python_version()}"]


def row(label: str, values: list[float], missing: int | None = None) -> str:
    if not values:
        return f"  {label:<34} {0:>6}  {'—':>8} {'—':>8} {'—':>8} {'—':>8}" + \
            (f" {missing:>8}" if missing is not None else "")
    ms = [value * 1000 for value in values]
    text = (f"  {label:<34} {len(ms):>6}  {percentile(ms, 0.5):>8.1f} {percentile(ms, 0.9):>8.1f} "
            f"{percentile(ms, 0.99):>8.1f} {max(ms):>8.1f}")
    if missing is not None:
        text += f" {missing:>8}"
    return text


async def run(arguments, nodes: list[ClusterNode], redis: RedisServer) -> int:
    screens: dict[str, list[Screen]] = {}
    recorders: dict[Screen, Recorder] = {}
    for node in nodes:
        screens[node.name] = []
        for index in range(arguments.screens_per_node):
            screen = Screen(f"{node.name}/s{index}", node.port, DASHBOARD_ID, METRICS, fps=arguments.fps)
            recorders[screen] = Recorder(screen)
            await screen.connect()
            screens[node.name].append(screen)
    every_screen = [screen for group in screens.values() for screen in group]
    try:
        # Warm up every node's Redis connections and TLS session caches.
        for node in nodes:
            for _ in range(5):
                await asyncio.to_thread(node.request, "POST", f"/api/v1/metrics/{LATENCY_METRIC}", {"value": 1},
                                        TOKEN)
        await asyncio.sleep(1.0)

        print(f"\nlatency: {arguments.latency_posts} posts at {arguments.rate:g}/s round-robin over {len(nodes)} nodes "
              f"…", flush=True)
        latency = await measure_latency(nodes, screens, recorders, arguments.latency_posts, arguments.rate)
        print(f"throughput: {arguments.producers} producer processes for {arguments.duration:g} s …", flush=True)
        throughput = await measure_throughput(nodes, every_screen, arguments.producers, arguments.duration,
                                              arguments.catch_up)
        lags = {}
        commands = {}
        for node in nodes:
            status, text = await asyncio.to_thread(node.text, "/metrics")
            if status == 200:
                lags[node.name] = prometheus_value(text, "rollboard_stream_lag_seconds")
                total = prometheus_sum(text, "rollboard_redis_command_seconds_sum")
                count = prometheus_sum(text, "rollboard_redis_command_seconds_count")
                commands[node.name] = (total / count * 1000) if total is not None and count else None
        closed = [screen.name for screen in every_screen if not screen.open]
    finally:
        await asyncio.gather(*(screen.close() for screen in every_screen), return_exceptions=True)

    print("\npost→frame latency (ms): first message with c ≥ the 202's seq, from just before the POST")
    print(f"  {'':<34} {'n':>6}  {'p50':>8} {'p90':>8} {'p99':>8} {'max':>8} {'missing':>8}")
    print(row("cross-node (screens on other nodes)", latency["cross"], latency["missing_cross"]))
    print(row("same node (screens on that node)", latency["same"], latency["missing_same"]))
    print(row("POST → 202", latency["post"]))
    if latency["failures"]:
        print(f"  {len(latency['failures'])} latency posts failed, e.g. {latency['failures'][:3]}")

    ack = throughput["acknowledged"]
    window = throughput["window"]
    print(f"\nthroughput: {arguments.producers} producers (processes, one keep-alive HTTPS connection each, "
          f"single-value posts, round-robin over {len(nodes)} nodes)")
    print(f"  acknowledged {ack} in {window:.2f} s = {ack / window if window else 0:.0f} posts/s; "
          f"per producer {throughput['per_producer']}")
    print(f"  errors: {throughput['errors'] or 'none'}")
    print(f"  {'':<34} {'n':>6}  {'p50':>8} {'p90':>8} {'p99':>8} {'max':>8}")
    print(row("POST → 202 under load (ms)", throughput["latencies"]))
    if throughput["caught"] is not None:
        print(f"  screens kept up: yes — all {len(every_screen)} on every metric's last acknowledged value "
              f"{throughput['caught']:.2f} s after the last 202")
    else:
        print(f"  screens kept up: NO — {len(throughput['behind'])} of {len(every_screen)} screens not on the final "
              f"values {arguments.catch_up:g} s after the last 202: {throughput['behind'][:6]}")
    if closed:
        print(f"  screens closed during the run: {closed}")
    print(f"\nper node at the end: rollboard_stream_lag_seconds {lags}; mean Redis command (ms) "
          f"{ {name: (round(value, 3) if value is not None else None) for name, value in commands.items()} }")
    problems = bool(latency["failures"] or throughput["errors"] or throughput["caught"] is None or closed
                    or latency["missing_cross"] or latency["missing_same"])
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--screens-per-node", type=int, default=2)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of the throughput run")
    parser.add_argument("--producers", type=int, default=4)
    parser.add_argument("--latency-posts", type=int, default=300)
    parser.add_argument("--rate", type=float, default=20.0, help="latency posts per second")
    parser.add_argument("--fps", type=int, default=30, help="the screens' frame rate")
    parser.add_argument("--catch-up", type=float, default=20.0, help="seconds screens get to reach the final values")
    parser.add_argument("--redis-server", default="redis-server")
    parser.add_argument("--appendfsync", choices=["everysec", "always"], default="everysec")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)

    print("Rollboard cluster benchmark")
    print("command: " + " ".join(shlex.quote(part) for part in [sys.executable] + sys.argv))
    for line in machine_facts():
        print(line)
    build = "release" if "/release/" in binary else ("debug" if "/debug/" in binary else "unknown")
    print(f"binary: {binary} ({build} build)")

    folder = tempfile.mkdtemp(prefix="rollboard-cluster-bench-")
    redis = RedisServer(arguments.redis_server, os.path.join(folder, "redis"), appendfsync=arguments.appendfsync)
    nodes: list[ClusterNode] = []
    status = 1
    try:
        config = write_config(folder, dashboard_yaml(), DASHBOARD_ID)
        redis.start()
        print(f"redis: {redis.version()} on 127.0.0.1:{redis.port}, appendonly yes, appendfsync {arguments.appendfsync}")
        for index in range(arguments.nodes):
            node = ClusterNode(binary, os.path.join(folder, f"node{index}"), TOKEN, redis.url, config=config,
                               name=f"node{index}")
            node.log_path = os.path.join(folder, f"node{index}.log")
            node.start()
            nodes.append(node)
        for node in nodes:
            deadline = time.monotonic() + 20
            while node.request("GET", "/readyz")[0] != 200:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{node.name} not ready: {node.read_log()}")
                time.sleep(0.1)
        print(f"nodes: {arguments.nodes} on ports {[node.port for node in nodes]}; screens: "
              f"{arguments.screens_per_node} per node at {arguments.fps} fps")
        status = asyncio.run(run(arguments, nodes, redis))
        dead = [node.name for node in nodes if not node.alive()]
        if dead:
            print(f"nodes that died: {dead}")
            status = 1
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        for node in nodes:
            print(f"---- {node.name} log (tail)\n{node.read_log()[-2000:]}")
        print(f"---- redis log (tail)\n{redis.read_log()[-1000:]}")
        status = 1
    finally:
        for node in nodes:
            node.stop()
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
