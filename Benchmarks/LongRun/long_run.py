#!/usr/bin/env python3
"""A wall left alone for hours: does one node on Redis stay flat?

Starts its own `redis-server` (append-only, `appendfsync everysec`) and a scripted JSON upstream on loopback, then
one `rollboard serve --redis` node with the shipped `config/` plus a `longrun` dashboard: 10 odometers fed by posted
values, 10 counters fed by keyed increments (`Idempotency-Key`), a leaderboard fed by keyed leaderboard increments,
and an odometer fed by a JSON source (`every: 5s`) whose upstream value changes every few seconds.

`--screens` WebSocket screens (Python `websockets`, spread over `--screen-processes` processes) watch the dashboard
at `--fps`; `--producers` processes post `--rate` writes a second in all (values, increments and leaderboard
increments in turn), each with its own keep-alive TLS connection.

Every `--every` seconds (300 by default) it prints one line: elapsed time, the node's resident memory (VmRSS), its
open descriptors, Redis's `used_memory`, the change stream's length (`XLEN`), the node's data folder on disk (its
snapshot and journal), frames a second received by all screens, posts acknowledged a second, post latency p50 and p99,
errors, and screens that closed. At the end it says whether memory and descriptors stayed flat (the last reading
within `--flat` of the first one taken after `--warmup` seconds), whether nothing was dropped (no post error, no
screen closed, the counters' totals equal to every acknowledged increment) and exits 1 when either fails.

A benchmark: it prints numbers; it is not part of CI (a run of hours is the point). Needs no root.

Usage: long_run.py --binary .build/release/rollboard [--hours 6] [--screens 300] [--rate 20] [--every 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import random
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPOSITORY, "Tests", "Interop", "cluster"))

from cluster_support import (ClusterNode, RedisServer, https_request, percentile,  # noqa: E402
                             prometheus_sum, write_config)
from rollboard_process import free_port, insecure_client_context, terminate, wait_until_listening  # noqa: E402

TOKEN = "long-run-producer-token-0123456789abcdef"
DASHBOARD = "longrun"
VALUES = [f"lr_value_{index}" for index in range(10)]
TOTALS = [f"lr_total_{index}" for index in range(10)]
BOARD = "lr_leaders"
PULLED = "lr_pulled"
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]


def dashboard_yaml() -> str:
    tiles = [f"  - {{id: {metric}, type: odometer, maxColumns: 7}}\n" for metric in VALUES]
    tiles += [f"  - {{id: {metric}, type: counter}}\n" for metric in TOTALS]
    tiles.append(f"  - {{id: {BOARD}, type: leaderboard, size: 5}}\n")
    tiles.append(f"  - {{id: {PULLED}, type: odometer, metric: {PULLED}, decimals: 0}}\n")
    return f"id: {DASHBOARD}\ntitle: Long run\ngrid: {{columns: 6, rows: 4}}\ntiles:\n" + "".join(tiles)


# ------------------------------------------------------------------------------------------------------- producers


def producer(port: int, rate: float, until: float, seed: int, latencies, counts, acknowledged_total) -> None:
    """Posts `rate` writes a second until `until` (wall clock): a value, a keyed increment of 1, a keyed leaderboard
    increment of 1, in turn. A write that fails is retried with the same key until acknowledged (so the totals are
    exact). Adds to `counts` (acknowledged, errors), puts each write's latency in `latencies`, and adds each
    acknowledged increment to `acknowledged_total` (counters, leaderboard)."""
    import http.client  # noqa: PLC0415

    context = insecure_client_context()
    generator = random.Random(seed)
    connection = None
    interval = 1 / rate
    next_at = time.time()
    step = 0
    while time.time() < until:
        now = time.time()
        if now < next_at:
            time.sleep(next_at - now)
        next_at += interval
        step += 1
        kind = step % 3
        key = f"lr-{seed}-{step}"
        if kind == 0:
            path, body = f"/api/v1/metrics/{generator.choice(VALUES)}", {"value": generator.randint(0, 999999)}
        elif kind == 1:
            path, body = f"/api/v1/metrics/{generator.choice(TOTALS)}", {"increment": 1}
        else:
            path, body = f"/api/v1/leaderboards/{BOARD}", {"increment": {generator.choice(NAMES): 1}}
        while True:
            if connection is None:
                connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
            started = time.monotonic()
            try:
                status, answer = https_request(port, "POST", path, body, TOKEN, connection=connection,
                                          headers={"Idempotency-Key": key} if kind else None)
            except OSError as error:
                status, answer = None, error
                connection.close()
                connection = None
            if status == 202:
                latencies.put(time.monotonic() - started)
                with counts.get_lock():
                    counts[0] += 1
                if kind:
                    with acknowledged_total.get_lock():
                        acknowledged_total[kind - 1] += 1
                break
            with counts.get_lock():
                counts[1] += 1
                if counts[1] <= 3:
                    print(f"a write failed: {path} {status} {answer if status else ''}", file=sys.stderr, flush=True)
            if time.time() >= until + 60:
                return
            time.sleep(0.5)


class LatencyDrain:
    """Takes the producers' latencies off their queue as they come (a thread), so a reading holds exactly the writes
    acknowledged since the one before it. Read only at each reading, the queue's pipe filled within seconds, and the
    producers then sent minutes of latencies at once at every reading, beside their posts."""

    def __init__(self, source) -> None:
        self.source = source
        self.lock = threading.Lock()
        self.taken: list[float] = []
        threading.Thread(target=self.run, daemon=True).start()

    def run(self) -> None:
        while True:
            value = self.source.get()
            with self.lock:
                self.taken.append(value)

    def take(self) -> list[float]:
        with self.lock:
            values, self.taken = self.taken, []
        return values


# --------------------------------------------------------------------------------------------------------- screens


def screen_process(port: int, screens: int, fps: int, until: float, frames, closed, seed: int) -> None:
    """`screens` WebSocket screens on the long-run dashboard until `until` (wall clock). Counts every text message in
    `frames` and every close before the end in `closed`; a closed screen opens again after a second."""
    import websockets  # noqa: PLC0415

    context = insecure_client_context()

    async def one(index: int) -> None:
        await asyncio.sleep(index * 0.05)
        uri = f"wss://127.0.0.1:{port}/ws?dashboard={DASHBOARD}&fps={fps}"
        while time.time() < until:
            try:
                async with websockets.connect(uri, ssl=context, max_size=None, open_timeout=20, ping_interval=None,
                                              origin=f"https://127.0.0.1:{port}") as socket:
                    received = 0
                    while time.time() < until:
                        try:
                            message = await asyncio.wait_for(socket.recv(), timeout=max(0.1, until - time.time()))
                        except asyncio.TimeoutError:
                            break
                        if isinstance(message, str):
                            received += 1
                            if received == 50:
                                with frames.get_lock():
                                    frames.value += received
                                received = 0
                    with frames.get_lock():
                        frames.value += received
                    if time.time() >= until:
                        return
            except Exception:  # noqa: BLE001
                pass
            if time.time() < until:
                with closed.get_lock():
                    closed.value += 1
                await asyncio.sleep(1)

    async def main() -> None:
        random.seed(seed)
        await asyncio.gather(*(one(index) for index in range(screens)))

    asyncio.run(main())


# ---------------------------------------------------------------------------------------------------------- readings


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def folder_bytes(path: str) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(root, name))
            except OSError:
                pass
    return total


def redis_used_memory(redis: RedisServer) -> int:
    for line in (redis.command("INFO", "memory") or "").splitlines():
        if line.startswith("used_memory:"):
            return int(line.split(":", 1)[1])
    return 0


def upstream_mover(port: int, until: float) -> None:
    """Changes the upstream's value every 3 s, so the source commits a change now and then."""
    value = 100
    while time.time() < until:
        value += 1
        try:
            urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/set?v={value}", method="POST"),
                                   timeout=5).read()
        except OSError:
            pass
        time.sleep(3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--redis-server", default="redis-server")
    parser.add_argument("--hours", type=float, default=6.0)
    parser.add_argument("--seconds", type=float, help="the run's length in seconds (overrides --hours)")
    parser.add_argument("--screens", type=int, default=300)
    parser.add_argument("--screen-processes", type=int, default=4)
    parser.add_argument("--fps", type=int, default=30)
    parser.add_argument("--producers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=20.0, help="writes a second, all producers together")
    parser.add_argument("--every", type=float, default=300.0, help="seconds between readings")
    parser.add_argument("--warmup", type=float, default=600.0, help="seconds before the reading flatness counts from")
    parser.add_argument("--flat", type=float, default=0.15, help="the largest growth called flat (0.15: 15 %%)")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    seconds = arguments.seconds if arguments.seconds else arguments.hours * 3600

    folder = tempfile.mkdtemp(prefix="rollboard-long-run-")
    redis = RedisServer(arguments.redis_server, os.path.join(folder, "redis"), appendfsync="everysec")
    upstream_port = free_port()
    upstream = None
    node = None
    workers: list[multiprocessing.Process] = []
    try:
        redis.start()
        upstream = subprocess.Popen([sys.executable, os.path.join(REPOSITORY, "Tests", "Interop", "sources",
                                                                  "upstream.py"), "--port", str(upstream_port)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until_listening(upstream_port)
        config = write_config(folder, dashboard_yaml(), DASHBOARD)
        # Every screen comes from 127.0.0.1: no limit per client address (the shipped 256 would refuse the rest).
        server_yaml = os.path.join(config, "server.yaml")
        with open(server_yaml) as handle:
            text = handle.read()
        with open(server_yaml, "w") as handle:
            handle.write(text.replace("maxConnectionsPerAddress: 256", "maxConnectionsPerAddress: 0"))
        os.makedirs(os.path.join(config, "sources"), exist_ok=True)
        with open(os.path.join(config, "sources", "longrun.yaml"), "w") as handle:
            handle.write(f"type: json\nurl: http://127.0.0.1:{upstream_port}/value\nevery: 5s\n"
                         f"metrics:\n  - {{metric: {PULLED}, pointer: /value}}\n")
        node = ClusterNode(binary, os.path.join(folder, "node"), TOKEN, redis.url, config=config, name="node")
        node.log_path = os.path.join(folder, "node.log")
        node.start()

        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Linux {platform.release()}; "
              f"redis {redis.version()}")
        print(f"command: {' '.join(sys.argv)}")
        print(f"one node, {arguments.screens} screens at {arguments.fps} fps, {arguments.rate:g} writes/s "
              f"({arguments.producers} producers), a JSON source every 5 s, {seconds / 3600:.2f} h, "
              f"a reading every {arguments.every:g} s")

        until = time.time() + seconds
        frames = multiprocessing.Value("q", 0)
        closed = multiprocessing.Value("q", 0)
        counts = multiprocessing.Array("q", 2)  # acknowledged, errors
        increments = multiprocessing.Array("q", 2)  # counters, leaderboard
        latencies: multiprocessing.Queue = multiprocessing.Queue()
        per_process = [arguments.screens // arguments.screen_processes] * arguments.screen_processes
        per_process[0] += arguments.screens - sum(per_process)
        for index, count in enumerate(per_process):
            workers.append(multiprocessing.Process(
                target=screen_process, daemon=True,
                args=(node.port, count, arguments.fps, until, frames, closed, index)))
        for index in range(arguments.producers):
            workers.append(multiprocessing.Process(target=producer, daemon=True,
                                                   args=(node.port, arguments.rate / arguments.producers, until,
                                                         index + 1, latencies, counts, increments)))
        drain = LatencyDrain(latencies)
        for worker in workers:
            worker.start()
        threading.Thread(target=upstream_mover, args=(upstream_port, until), daemon=True).start()

        header = (f"{'elapsed':>8} {'RSS MiB':>8} {'fds':>5} {'redis MiB':>9} {'stream':>7} {'data MiB':>8} "
                  f"{'AOF MiB':>7} "
                  f"{'frames/s':>9} {'posts/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} {'closed':>6}")
        print(header)
        started = time.time()
        last_at, last_frames, last_acknowledged = started, 0, 0
        readings = []
        while time.time() < until:
            time.sleep(min(arguments.every, max(0.0, until - time.time())))
            now = time.time()
            sample = drain.take()
            span = max(1e-6, now - last_at)
            reading = {
                "elapsed": now - started,
                "rss": rss_kib(node.pid) / 1024,
                "fds": node.fd_count(),
                "redis": redis_used_memory(redis) / 1048576,
                "stream": int(redis.command("XLEN", "{rollboard}:changes") or 0),
                "data": folder_bytes(node.data_dir) / 1048576,
                "aof": folder_bytes(redis.directory) / 1048576,
                "fps": (frames.value - last_frames) / span,
                "posts": (counts[0] - last_acknowledged) / span,
                "p50": percentile(sample, 0.5) * 1000 if sample else float("nan"),
                "p99": percentile(sample, 0.99) * 1000 if sample else float("nan"),
                "errors": counts[1],
                "closed": closed.value,
            }
            readings.append(reading)
            last_at, last_frames, last_acknowledged = now, frames.value, counts[0]
            print(f"{reading['elapsed'] / 60:7.1f}m {reading['rss']:8.1f} {reading['fds']:5d} "
                  f"{reading['redis']:9.1f} {reading['stream']:7d} {reading['data']:8.2f} {reading['aof']:7.2f} "
                  f"{reading['fps']:9.0f} "
                  f"{reading['posts']:7.1f} {reading['p50']:7.1f} {reading['p99']:7.1f} {reading['errors']:6d} "
                  f"{reading['closed']:6d}",
                  flush=True)
        for worker in workers:
            worker.join(timeout=120)

        # The counters' totals and the leaderboard's scores against every acknowledged increment.
        time.sleep(2)
        counted = 0
        for metric in TOTALS:
            status, body = https_request(node.port, "GET", f"/api/v1/metrics/{metric}")
            counted += int((body or {}).get("value") or 0) if status == 200 else 0
        status, body = https_request(node.port, "GET", f"/api/v1/leaderboards/{BOARD}")
        scored = sum(int(score) for score in ((body or {}).get("entries") or {}).values()) if status == 200 else 0
        _, metrics_text = node.text("/metrics")
        dropped = prometheus_sum(metrics_text, "rollboard_frames_dropped_total") or 0

        warm = [reading for reading in readings if reading["elapsed"] >= arguments.warmup] or readings[-1:]
        first, last = warm[0], readings[-1]
        rss_growth = (last["rss"] - first["rss"]) / max(1.0, first["rss"])
        flat = rss_growth <= arguments.flat and last["fds"] <= first["fds"] + 10
        exact = counted == increments[0] and scored == increments[1]
        nothing_dropped = counts[1] == 0 and closed.value == 0 and exact
        print(f"memory: {first['rss']:.1f} MiB after warm-up, {last['rss']:.1f} MiB at the end "
              f"({rss_growth * 100:+.1f} %); descriptors {first['fds']} -> {last['fds']}: "
              f"{'flat' if flat else 'NOT FLAT'}")
        print(f"writes acknowledged {counts[0]}, errors {counts[1]}, screens closed {closed.value}; counters "
              f"{counted} of {increments[0]} acknowledged increments, leaderboard {scored} of {increments[1]}; "
              f"frames dropped (server) {dropped:.0f}: {'nothing dropped' if nothing_dropped else 'SOMETHING DROPPED'}")
        return 0 if flat and nothing_dropped else 1
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        if node is not None:
            node.stop()
        terminate(upstream, 5)
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
