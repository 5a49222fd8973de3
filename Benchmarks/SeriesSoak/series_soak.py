#!/usr/bin/env python3
"""Posts for minutes on end: does the server's memory stay flat while every metric keeps its series, and does a
restart serve again at once with every series intact?

A real `rollboard serve` (the binary given) with one dashboard of 100 tiles: 50 odometers posted values and 50
counters posted increments. Producer processes, each with its own keep-alive TLS connection, post `--rate` single
writes a second in all, spread evenly over the 100 metrics, for `--seconds`. `seriesRetention` is set to
`--retention` seconds (default 120, the smallest allowed is 60) so the raw changes reach their bound within the run
and the pruning runs all along; the journal compacts at its default size unless `--compaction-bytes` says
another.

Every `--every` seconds it prints: posts acknowledged a second, errors, latency p50/p99 of the producers' writes,
the server's resident memory (VmRSS, then its anonymous part, RssAnon: heap and stacks, and its file-backed part,
RssFile), its data folder on disk, and the raw points and per-minute buckets one value metric and one increment
metric hold. At the end the server is killed with SIGKILL and started again: it prints how
long until it answered `/readyz` and whether four metrics' series (raw and per minute) are the same as before.

A benchmark: it prints numbers and says whether the series stayed within their bounds and came back intact; it is
not part of CI.

Usage: series_soak.py --binary .build/release/rollboard [--seconds 600] [--rate 1000] [--producers 4]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import queue
import random
import shutil
import ssl
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "Interop", "server"))

from rollboard_process import RollboardProcess  # noqa: E402

TOKEN = "series-soak-token-0123456789abcdef"
METRICS = 100
VALUES = [f"v{index:02d}" for index in range(METRICS // 2)]
TOTALS = [f"t{index:02d}" for index in range(METRICS // 2)]


def dashboard() -> str:
    tiles = [f"  - {{id: {metric}, type: odometer, maxColumns: 6}}\n" for metric in VALUES]
    tiles += [f"  - {{id: {metric}, type: counter}}\n" for metric in TOTALS]
    return "id: soak\ntitle: Soak\ngrid: {columns: 10, rows: 10}\ntiles:\n" + "".join(tiles)


def producer(port: int, rate: float, until: float, seed: int, results, counts) -> None:
    """Posts `rate` writes a second until `until` (monotonic), alternating value and increment metrics; adds to
    `counts` (acknowledged, errors) as it goes and puts `(second, acknowledged, errors, [latencies])` for every whole
    second it ran (the latencies' sample)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    generator = random.Random(seed)
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    interval = 1 / rate
    next_at = time.monotonic()
    second = int(next_at)
    acknowledged, errors, latencies = 0, 0, []
    count = 0
    # Stops at `until` even when behind its schedule (a loaded machine), so no write lands after the restart's
    # "before" reading.
    while next_at < until and time.monotonic() < until:
        now = time.monotonic()
        if now < next_at:
            time.sleep(next_at - now)
        if int(time.monotonic()) != second:
            with counts.get_lock():
                counts[0] += acknowledged
                counts[1] += errors
            results.put((second, acknowledged, errors, latencies))
            second, acknowledged, errors, latencies = int(time.monotonic()), 0, 0, []
        if count % 2 == 0:
            metric, body = generator.choice(VALUES), {"value": generator.randrange(0, 999_999)}
        else:
            metric, body = generator.choice(TOTALS), {"increment": generator.randrange(1, 4)}
        count += 1
        started = time.monotonic()
        try:
            connection.request("POST", f"/api/v1/metrics/{metric}", json.dumps(body), headers)
            response = connection.getresponse()
            response.read()
            if response.status == 202:
                acknowledged += 1
            else:
                errors += 1
        except (OSError, http.client.HTTPException):
            errors += 1
            connection.close()
            connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
        latencies.append(time.monotonic() - started)
        next_at += interval
    with counts.get_lock():
        counts[0] += acknowledged
        counts[1] += errors
    results.put((second, acknowledged, errors, latencies))


def resident_kib(pid: int) -> dict[str, int]:
    """The process's resident memory in KiB from /proc/PID/status: `VmRSS` and its parts `RssAnon` (heap, stacks),
    `RssFile` (the binary, libraries, mapped files) and `RssShmem`."""
    fields = {"VmRSS": 0, "RssAnon": 0, "RssFile": 0, "RssShmem": 0}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            name = line.split(":")[0]
            if name in fields:
                fields[name] = int(line.split()[1])
    return fields


def folder_bytes(path: str) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(root, name))
            except OSError:
                pass
    return total


def series(server: RollboardProcess, metric: str, step: str) -> list:
    now = int(time.time())
    target = f"/api/v1/metrics/{metric}/series?from={now - 6 * 3600}&to={now + 3600}&step={step}"
    answered = []
    while target:  # page by page: an answer holds at most 1,000 points or buckets
        status, body = server.request("GET", target, timeout=30)
        if status != 200 or not isinstance(body, dict):
            return []
        answered += body.get("points" if step == "raw" else "buckets") or []
        target = body.get("next")
    return answered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--rate", type=float, default=1000, help="writes a second, all producers together")
    parser.add_argument("--producers", type=int, default=4)
    parser.add_argument("--retention", type=int, default=120, help="seriesRetention in seconds (at least 60)")
    parser.add_argument("--every", type=float, default=30, help="seconds between two lines")
    parser.add_argument("--compaction-bytes", type=int, default=None,
                        help="journalCompactionBytes (by default the server's own, 8 MiB): smaller compacts more often")
    arguments = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="rollboard-soak-")
    config = os.path.join(folder, "config")
    os.makedirs(os.path.join(config, "dashboards"))
    with open(os.path.join(config, "server.yaml"), "w", encoding="utf-8") as handle:
        handle.write(f"seriesRetention: {arguments.retention}\nlimits:\n  producerRequestsPerSecond: 0\n")
        if arguments.compaction_bytes:
            handle.write(f"journalCompactionBytes: {arguments.compaction_bytes}\n")
    with open(os.path.join(config, "dashboards", "soak.yaml"), "w", encoding="utf-8") as handle:
        handle.write(dashboard())
    data = os.path.join(folder, "data")
    server = RollboardProcess(os.path.abspath(arguments.binary), data, TOKEN, config=config)
    server.start()
    ok = True
    try:
        results = multiprocessing.Queue()
        counts = multiprocessing.Array("q", 2)
        started = time.monotonic()
        until = started + arguments.seconds
        workers = [multiprocessing.Process(target=producer, args=(server.port, arguments.rate / arguments.producers,
                                                                  until, index, results, counts))
                   for index in range(arguments.producers)]
        for worker in workers:
            worker.start()
        print(f"{arguments.rate:.0f} writes/s for {arguments.seconds:.0f} s over {METRICS} metrics (half increments), "
              f"{arguments.producers} producers, seriesRetention {arguments.retention} s, journal compacted past "
              f"{arguments.compaction_bytes or 'the default'} bytes")
        print(f"{'t (s)':>6} {'acked/s':>8} {'errors':>7} {'p50 ms':>7} {'p99 ms':>7} {'RSS MiB':>8} "
              f"{'anon MiB':>8} {'file MiB':>8} {'disk MiB':>9} {'raw v00':>8} {'raw t00':>8} {'1m t00':>7}")
        rows = []
        acknowledged_total = errors_total = 0
        bound = (arguments.rate / METRICS) * (arguments.retention + 5) * 1.5
        next_line = started + arguments.every
        while any(worker.is_alive() for worker in workers):
            time.sleep(max(0.0, min(next_line, until + 5) - time.monotonic()))
            latencies: list[float] = []
            while True:
                try:
                    latencies += results.get_nowait()[3]
                except queue.Empty:
                    break
            with counts.get_lock():
                acknowledged, errors = counts[0] - acknowledged_total, counts[1] - errors_total
            acknowledged_total += acknowledged
            errors_total += errors
            elapsed = time.monotonic() - started
            window = arguments.every if not rows else elapsed - rows[-1][0]
            quantiles = statistics.quantiles(latencies, n=100) if len(latencies) > 100 else [0] * 99
            raw_values, raw_totals = len(series(server, "v00", "raw")), len(series(server, "t00", "raw"))
            minutes = len(series(server, "t00", "1m"))
            resident = resident_kib(server.process.pid)
            rss, anonymous, mapped = (resident[name] / 1024 for name in ("VmRSS", "RssAnon", "RssFile"))
            disk = folder_bytes(data) / 2**20
            rows.append((elapsed, rss, anonymous))
            print(f"{elapsed:6.0f} {acknowledged / max(window, 1e-9):8.0f} {errors:7d} {quantiles[49] * 1000:7.1f} "
                  f"{quantiles[98] * 1000:7.1f} {rss:8.1f} {anonymous:8.1f} {mapped:8.1f} {disk:9.1f} {raw_values:8d} "
                  f"{raw_totals:8d} {minutes:7d}",
                  flush=True)
            if max(raw_values, raw_totals) > bound:
                ok = False
                print(f"  raw points beyond the retention's bound ({bound:.0f})")
            next_line += arguments.every
            if elapsed > arguments.seconds + 10:
                break
        for worker in workers:
            worker.join(timeout=10)
        acknowledged_total, errors_total = counts[0], counts[1]
        seconds = time.monotonic() - started
        print(f"acknowledged {acknowledged_total} writes in {seconds:.0f} s ({acknowledged_total / seconds:.0f}/s), "
              f"{errors_total} errors")
        later = [(rss, anonymous) for elapsed, rss, anonymous in rows if elapsed >= 120]
        if later:
            print(f"RSS after the first two minutes: {min(rss for rss, _ in later):.1f} to "
                  f"{max(rss for rss, _ in later):.1f} MiB (last {later[-1][0]:.1f}; first line {rows[0][1]:.1f}), "
                  f"of which anonymous {min(anon for _, anon in later):.1f} to {max(anon for _, anon in later):.1f}")

        probes = ["v00", "v25", "t00", "t25"]
        before = {(metric, step): series(server, metric, step) for metric in probes for step in ("raw", "1m")}
        server.kill()
        killed = time.monotonic()
        server.start(timeout=60)
        healthy = time.monotonic() - killed
        while server.request("GET", "/readyz")[0] != 200 and time.monotonic() - killed < 60:
            time.sleep(0.05)
        ready = time.monotonic() - killed
        after = {(metric, step): series(server, metric, step) for metric in probes for step in ("raw", "1m")}
        same = before == after and all(before.values())
        for key in before:
            if before[key] != after[key]:
                gone = [point for point in before[key] if point not in after[key]]
                new = [point for point in after[key] if point not in before[key]]
                print(f"  {key}: {len(before[key])} before, {len(after[key])} after; only before {gone[:3]}, "
                      f"only after {new[:3]}")
        ok = ok and same and ready <= 2
        print(f"SIGKILL, then start again: /healthz after {healthy:.2f} s, /readyz after {ready:.2f} s "
              f"(data folder {folder_bytes(data) / 2**20:.1f} MiB)")
        print(f"series of {', '.join(probes)} (raw and per minute) after the restart: "
              f"{'identical' if same else 'DIFFERENT'} "
              f"({sum(len(points) for points in before.values())} points and buckets compared)")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print("soak: " + ("series within bounds, restart within 2 s, series intact" if ok else "NOT as expected"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
