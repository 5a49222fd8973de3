#!/usr/bin/env python3
"""Do scheduled sources cost the screens anything? One `rollboard serve` with N JSON sources (each its own upstream
path, fetched every `--every` seconds, every answer a new value, so every fetch commits) and 100 screens (Python
`websockets`) on a dashboard whose 8 odometers a producer moves continuously. For each screen the gaps between
consecutive frames are collected over `--seconds`; the p50/p99/max over all screens, the frames per second per
screen and the server's CPU time are printed, once without sources and once with them, in one sitting.

A benchmark: it prints numbers and checks only that frames arrived.

Usage: sources_load.py --binary .build/release/rollboard [--sources 200] [--every 5] [--screens 100] [--seconds 30]
"""

import argparse
import asyncio
import http.server
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time

import websockets

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPOSITORY, "Tests", "Interop", "server"))
from rollboard_process import RollboardProcess, insecure_client_context  # noqa: E402

TOKEN = "sources-benchmark-token-0123456789abcdef"
MOVING = [f"move{index}" for index in range(8)]


class Upstream(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests = 0
        self.lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802
        with self.server.lock:
            self.server.requests += 1
        body = json.dumps({"v": random.randrange(1, 1_000_000)}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the fetch was given up (a node stopping): nothing to answer

    def log_message(self, *_):
        pass


def write_config(folder, sources, every, upstream_port):
    config = os.path.join(folder, "config")
    os.makedirs(os.path.join(config, "dashboards"))
    columns = 10
    rows = 1 + (sources + columns - 1) // columns
    tiles = "".join(f"  - {{id: {metric}, type: odometer, maxColumns: 8}}\n" for metric in MOVING)
    with open(os.path.join(config, "dashboards", "load.yaml"), "w") as handle:
        handle.write(f"id: load\ntitle: Load\ngrid: {{columns: 4, rows: 2}}\ntiles:\n{tiles}")
    if sources:
        fed = "".join(f"  - {{id: src{index}, type: counter}}\n" for index in range(sources))
        with open(os.path.join(config, "dashboards", "fed.yaml"), "w") as handle:
            handle.write(f"id: fed\ntitle: Fed\ngrid: {{columns: {columns}, rows: {rows}}}\ntiles:\n{fed}")
        os.makedirs(os.path.join(config, "sources"))
        for index in range(sources):
            with open(os.path.join(config, "sources", f"s{index:03d}.yaml"), "w") as handle:
                handle.write(f"type: json\nurl: http://127.0.0.1:{upstream_port}/s/{index}\nevery: {every}s\n"
                             f"metrics:\n  - metric: src{index}\n    pointer: /v\n")
    return config


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def screen(port, gaps, counts, stop):
    uri = f"wss://127.0.0.1:{port}/ws?dashboard=load"
    async with websockets.connect(uri, ssl=insecure_client_context(), max_size=None,
                                  origin=f"https://127.0.0.1:{port}", ping_interval=None) as socket:
        last = None
        mine = []
        frames = 0
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(socket.recv(), 1)
            except asyncio.TimeoutError:
                continue
            now = time.monotonic()
            if isinstance(message, str) and message.startswith('{"f"'):
                if last is not None:
                    mine.append(now - last)
                last = now
                frames += 1
        gaps.extend(mine)
        counts.append(frames)


def producer(server, stop):
    while not stop.is_set():
        for metric in MOVING:
            try:
                server.request("POST", f"/api/v1/metrics/{metric}", {"value": random.randrange(10_000_000, 99_999_999)},
                               token=TOKEN, timeout=5)
            except OSError:
                pass
        stop.wait(1.0)


async def measure(server, arguments):
    stop_screens = asyncio.Event()
    gaps, counts = [], []
    tasks = [asyncio.create_task(screen(server.port, gaps, counts, stop_screens)) for _ in range(arguments.screens)]
    await asyncio.sleep(arguments.warmup)
    gaps.clear()
    begin_cpu, begin = cpu_seconds(server.process.pid), time.monotonic()
    await asyncio.sleep(arguments.seconds)
    stop_screens.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.monotonic() - begin
    return gaps, counts, (cpu_seconds(server.process.pid) - begin_cpu) / wall


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))] if ordered else float("nan")


def run_once(arguments, sources, upstream):
    folder = tempfile.mkdtemp(prefix="rollboard-sources-bench-")
    try:
        config = write_config(folder, sources, arguments.every, upstream.server_address[1])
        server = RollboardProcess(arguments.binary, os.path.join(folder, "data"), TOKEN, config=config)
        server.start()
        stop = threading.Event()
        thread = threading.Thread(target=producer, args=(server, stop), daemon=True)
        thread.start()
        requests_before = upstream.requests
        try:
            gaps, counts, cpu = asyncio.run(measure(server, arguments))
        finally:
            stop.set()
            thread.join(timeout=10)
            server.stop()
        fetches = upstream.requests - requests_before
        fps = sum(counts) / len(counts) / (arguments.seconds + arguments.warmup) if counts else 0
        print(f"  {sources:4d} sources every {arguments.every:g} s: frame gaps p50 {percentile(gaps, 0.5) * 1000:6.1f} ms, "
              f"p99 {percentile(gaps, 0.99) * 1000:6.1f} ms, max {max(gaps, default=float('nan')) * 1000:6.1f} ms over "
              f"{len(gaps)} gaps of {len(counts)} screens; {fps:5.1f} frames/s per screen; server CPU "
              f"{cpu * 100:5.1f} %; {fetches} upstream fetches", flush=True)
        return bool(gaps)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--sources", type=int, default=200)
    parser.add_argument("--every", type=float, default=5)
    parser.add_argument("--screens", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=5)
    arguments = parser.parse_args()
    upstream = Upstream()
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    ok = run_once(arguments, 0, upstream) and run_once(arguments, arguments.sources, upstream)
    upstream.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
