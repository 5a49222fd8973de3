#!/usr/bin/env python3
"""What remembered idempotency keys cost: memory, the snapshot, and a restart.

A real `rollboard serve` (the binary given) with one dashboard of 100 counters. One keep-alive TLS connection posts
`--batches` batches of `--items` increments (spread over the 100 counters), each batch with its own
`Idempotency-Key` (and, with `--event-ids`, an `eventId` per item). It prints the server's resident memory (VmRSS
and RssAnon) before and after, and the store's files (snapshot, journal); then it kills the server with SIGKILL,
starts it again and prints how long until it answered `/readyz`, its memory then, and whether the first and the
last batch, posted again, are answered from memory. `--no-keys` posts the same batches without keys: what the
values, histories and series cost alone.

The journal compacts at `--compaction-bytes` (default 8 MiB, the server's default), so the snapshot holds the
remembered keys. `--budget` sets `idempotencyMemoryBytes` (leave it out for the server's default; a server that
does not know the setting refuses to start with it).

With `--redis`, a `redis-server` of its own (no persistence, a free loopback port) holds the keys instead: it
prints Redis's `used_memory` before and after, its number of keys, and how many the `{rollboard}:idem` hash holds.

A benchmark: it prints numbers, it is not part of CI.

Usage: idempotency_memory.py --binary .build/release/rollboard [--batches 1000] [--items 1000] [--budget BYTES]
       [--event-ids] [--redis] [--no-keys]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "Interop", "server"))

from rollboard_process import RollboardProcess, free_port, insecure_client_context  # noqa: E402

TOKEN = "idempotency-memory-token-0123456789"
COUNTERS = [f"c{index:03d}" for index in range(100)]


def dashboard() -> str:
    tiles = "".join(f"  - {{id: {metric}, type: counter}}\n" for metric in COUNTERS)
    return "id: keys\ntitle: Keys\ngrid: {columns: 10, rows: 10}\ntiles:\n" + tiles


def memory(pid: int) -> tuple[float, float]:
    """VmRSS and RssAnon of `pid`, in MiB."""
    fields = {}
    with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
        for line in handle:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "RssAnon"):
                fields[name] = int(rest.split()[0]) / 1024
    return fields.get("VmRSS", 0.0), fields.get("RssAnon", 0.0)


def redis_command(port: int, *arguments: str) -> str:
    return subprocess.run(["redis-cli", "-p", str(port), *arguments], capture_output=True, text=True,
                          check=True).stdout


def redis_used_memory(port: int) -> float:
    for line in redis_command(port, "INFO", "memory").splitlines():
        if line.startswith("used_memory:"):
            return int(line.split(":")[1]) / 1048576
    return 0.0


class Poster:
    """One keep-alive TLS connection to the server."""

    def __init__(self, port: int):
        self.port = port
        self.connection: http.client.HTTPSConnection | None = None

    def post(self, path: str, body: dict, key: str | None) -> tuple[int, dict, dict]:
        data = json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPSConnection(
                    "127.0.0.1", self.port, context=insecure_client_context(), timeout=60)
            try:
                self.connection.request("POST", path, data, headers)
                response = self.connection.getresponse()
                return response.status, json.loads(response.read() or b"null"), dict(response.getheaders())
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
                if attempt == 1:
                    raise
        raise RuntimeError("unreachable")


def batch(number: int, items: int, event_ids: bool) -> dict:
    updates = []
    for item in range(items):
        update = {"id": COUNTERS[item % len(COUNTERS)], "increment": 1}
        if event_ids:
            update["eventId"] = f"b{number}-i{item}"
        updates.append(update)
    return {"updates": updates}


def store_files(data: str) -> str:
    store = os.path.join(data, "store")
    sizes = []
    for name in ("snapshot", "journal"):
        path = os.path.join(store, name)
        size = os.path.getsize(path) if os.path.exists(path) else 0
        sizes.append(f"{name} {size / 1048576:.1f} MiB")
    return ", ".join(sizes)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--batches", type=int, default=1000)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--budget", type=int)
    parser.add_argument("--compaction-bytes", type=int, default=8 << 20)
    parser.add_argument("--event-ids", action="store_true")
    parser.add_argument("--redis", action="store_true")
    parser.add_argument("--no-keys", action="store_true", help="the same batches without an Idempotency-Key")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        config = os.path.join(folder, "config")
        os.makedirs(os.path.join(config, "dashboards"))
        with open(os.path.join(config, "dashboards", "keys.yaml"), "w", encoding="utf-8") as handle:
            handle.write(dashboard())
        settings = f"journalCompactionBytes: {args.compaction_bytes}\nlimits:\n  maxBodyBytes: 1048576\n  commitTimeout: 600\n"
        if args.budget:
            settings += f"idempotencyMemoryBytes: {args.budget}\n"
        redis = None
        redis_port = 0
        if args.redis:
            redis_port = free_port()
            redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=subprocess.DEVNULL)
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", redis_port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            settings += f"redis:\n  url: redis://127.0.0.1:{redis_port}\n"
        with open(os.path.join(config, "server.yaml"), "w", encoding="utf-8") as handle:
            handle.write(settings)
        data = os.path.join(folder, "data")
        environment = {"ROLLBOARD_ADMIN_TOKEN": "idempotency-memory-admin-0123456789"} if redis else {}
        server = RollboardProcess(args.binary, data, TOKEN, config=config, environment=environment)
        try:
            server.start()
            poster = Poster(server.port)
            poster.post("/api/v1/metrics", batch(-1, 10, False), "warm-up")
            rss, anon = memory(server.process.pid)
            print(f"before: VmRSS {rss:.1f} MiB, RssAnon {anon:.1f} MiB"
                  + (f", Redis used_memory {redis_used_memory(redis_port):.1f} MiB" if redis else ""))
            started = time.monotonic()
            first_seq = last_seq = 0
            for number in range(args.batches):
                status, answer, _ = poster.post("/api/v1/metrics", batch(number, args.items, args.event_ids),
                                                None if args.no_keys else f"batch-{number:06d}")
                if status != 202:
                    print(f"batch {number}: {status} {answer}")
                    return 1
                if number == 0:
                    first_seq = answer["seq"]
                last_seq = answer["seq"]
            seconds = time.monotonic() - started
            rss, anon = memory(server.process.pid)
            kind = "unkeyed" if args.no_keys else "keyed"
            print(f"after {args.batches} {kind} batches of {args.items} items in {seconds:.1f} s: "
                  f"VmRSS {rss:.1f} MiB, RssAnon {anon:.1f} MiB"
                  + (f", Redis used_memory {redis_used_memory(redis_port):.1f} MiB, "
                     f"Redis keys {redis_command(redis_port, 'DBSIZE').strip()}, "
                     f"remembered in {{rollboard}}:idem {redis_command(redis_port, 'HLEN', '{rollboard}:idem').strip()}"
                     if redis else f", {store_files(data)}"))
            server.kill()
            started = time.monotonic()
            server.start(timeout=300)
            while server.request("GET", "/readyz")[0] != 200 and time.monotonic() - started < 300:
                time.sleep(0.05)
            restart = time.monotonic() - started
            rss, anon = memory(server.process.pid)
            print(f"restart (SIGKILL, start until /readyz): {restart:.2f} s; VmRSS {rss:.1f} MiB, "
                  f"RssAnon {anon:.1f} MiB" + ("" if redis else f"; {store_files(data)}"))
            poster = Poster(server.port)
            for number, seq in () if args.no_keys else ((args.batches - 1, last_seq), (0, first_seq)):
                status, answer, headers = poster.post(
                    "/api/v1/metrics", batch(number, args.items, args.event_ids), f"batch-{number:06d}")
                remembered = status == 202 and answer["seq"] == seq
                print(f"batch {number} posted again: {status}, "
                      + ("answered from memory" if remembered else f"applied anew (seq {answer.get('seq')})"))
        finally:
            server.stop()
            if redis:
                redis.terminate()
                redis.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
