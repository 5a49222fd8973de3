#!/usr/bin/env python3
"""Page soak: headless Chromium shows the demo dashboard for many minutes with every tile moving and one server
restart half-way; the page must not grow.

A producer posts new values to every metric tile and the wheel twice a second (the carousel turns by itself). Every
`--sample` seconds, after a garbage collection (DevTools `HeapProfiler.collectGarbage`), the page's JS heap and DOM
node count are read (`Performance.getMetrics`: JSHeapUsedSize, Nodes). Half-way the server is stopped (SIGTERM) and
started again on the same port and data folder; the page must reconnect by itself.

Checks: the least-squares slope of the heap and of the node count over the second half stays under `--heap-slope`
bytes per minute and `--node-slope` nodes per minute; no console error (apart from the WebSocket connection failures
Chromium logs while the server is down, which are counted and bounded); boot.js recorded no script error; the page
reconnected after the restart; and at the end the last posted values are on screen (odometers, counters, wheel).

Usage: test_page_soak.py --binary .build/debug/rollboard [--minutes 10]
"""

import os
import random
import sys
import threading
import time

from browser_session import PRODUCER_TOKEN, body_data, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import normalised, start_browser, wait_for

METRICS = {"revenue": 2, "visitors": 0, "temperature": 1}  # odometers and their decimals
COUNTERS = ["orders", "conversion"]
WHEEL = ("status", ["Operational", "Degraded", "Partial outage", "Major outage", "Maintenance"])


def slope(points):
    """Least-squares slope of [(x, y)]."""
    count = len(points)
    mean_x = sum(x for x, _ in points) / count
    mean_y = sum(y for _, y in points) / count
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


class Producer(threading.Thread):
    """Posts a value to every metric tile and an index to the wheel twice a second; remembers the last ones."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server = server
        self.stopping = threading.Event()
        self.last = {}
        self.failures = 0

    def post(self, path, body):
        try:
            status, _ = self.server.request("POST", path, body, token=PRODUCER_TOKEN, timeout=5)
        except OSError:
            status = None
        if status != 202:
            self.failures += 1  # the server is restarting
        return status == 202

    def round_of_values(self):
        # Values of one width, so the odometers keep their columns and the node count is steady unless something leaks.
        values = {"revenue": round(random.uniform(10000, 99999), 2), "visitors": random.randrange(10000, 99999),
                  "temperature": round(random.uniform(18, 29.8), 1), "orders": random.randrange(10000, 99999),
                  "conversion": round(random.uniform(1, 4.98), 2)}
        for metric, value in values.items():
            if self.post(f"/api/v1/metrics/{metric}", {"value": value}):
                self.last[metric] = value
        index = random.randrange(0, len(WHEEL[1]))
        if self.post(f"/api/v1/wheels/{WHEEL[0]}", {"index": index}):
            self.last[WHEEL[0]] = index

    def run(self):
        while not self.stopping.is_set():
            self.round_of_values()
            self.stopping.wait(0.5)

    def stop(self):
        self.stopping.set()
        self.join(timeout=15)


def tile(driver, tile_id):
    return driver.execute_script(
        "const t = document.querySelector(`[data-tile-id=\"${arguments[0]}\"]`); return t ? Object.assign({}, t.dataset) : {}",
        tile_id)


def shows_last_values(driver, last):
    """The tiles whose shown value is not the last posted one (empty when all are)."""
    wrong = []
    for metric, decimals in METRICS.items():
        shown = tile(driver, metric)
        if shown.get("atRest") != "true" or normalised(shown.get("digits", "")) != normalised(f"{last[metric]:.{decimals}f}"):
            wrong.append(f"{metric}: {shown.get('digits')!r} for {last[metric]}")
    for metric in COUNTERS:
        shown = tile(driver, metric)
        # Compared as numbers: the page writes JavaScript's spelling of the target ("2" for a posted 2.0).
        try:
            target = float(shown.get("target"))
        except (TypeError, ValueError):
            target = None
        if target != float(last[metric]):
            wrong.append(f"{metric}: target {shown.get('target')!r} for {last[metric]}")
    shown = tile(driver, WHEEL[0])
    if shown.get("top") != WHEEL[1][last[WHEEL[0]]] or shown.get("position") not in (str(last[WHEEL[0]]), f"{last[WHEEL[0]]}.0"):
        wrong.append(f"wheel: {shown.get('top')!r} at {shown.get('position')!r}")
    return wrong


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    driver = start_browser(arguments)
    producer = Producer(server)
    heap, nodes = [], []
    try:
        driver.get(f"{server.base_url}/d/demo?name=Soak")
        opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        checks.check(opened, "Chromium opens the demo dashboard")
        driver.execute_cdp_cmd("Performance.enable", {})
        producer.start()
        started = time.monotonic()
        duration = arguments.minutes * 60
        restarted = reconnected = False
        while time.monotonic() - started < duration:
            elapsed = time.monotonic() - started
            if not restarted and elapsed >= duration / 2:
                restarted = True
                server.stop()
                time.sleep(2)
                server.start()
                reconnected = bool(wait_for(lambda: body_data(driver, "connection") == "open", 60))
                print(f"  {elapsed / 60:.1f} min: server restarted; page connected again: {reconnected}", flush=True)
            driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
            metrics = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
            minute = (time.monotonic() - started) / 60
            heap.append((minute, metrics["JSHeapUsedSize"]))
            nodes.append((minute, metrics["Nodes"]))
            print(f"  {minute:5.1f} min: heap {metrics['JSHeapUsedSize'] / 1024:8.0f} KiB, {metrics['Nodes']:5.0f} nodes, "
                  f"listeners {metrics.get('JSEventListeners', 0):4.0f}", flush=True)
            time.sleep(arguments.sample)
        producer.stop()
        checks.check(restarted and reconnected, "after the server restart the page connects again by itself")

        second_half = [point for point in heap if point[0] >= arguments.minutes / 2]
        heap_slope = slope(second_half) if len(second_half) >= 3 else float("inf")
        node_half = [point for point in nodes if point[0] >= arguments.minutes / 2]
        node_slope = slope(node_half) if len(node_half) >= 3 else float("inf")
        print(f"  second half: heap slope {heap_slope / 1024:.1f} KiB/min over {len(second_half)} samples, "
              f"node slope {node_slope:.2f} nodes/min")
        checks.check(heap_slope < arguments.heap_slope, f"JS heap flat over the second half (< {arguments.heap_slope / 1024:.0f} KiB/min)",
                     f"{heap_slope / 1024:.1f} KiB/min")
        checks.check(node_slope < arguments.node_slope, f"DOM node count flat over the second half (< {arguments.node_slope} nodes/min)",
                     f"{node_slope:.2f} nodes/min")

        producer.round_of_values()  # one last round, then everything must come to rest on it
        wrong = wait_for(lambda: not shows_last_values(driver, producer.last), arguments.timeout)
        checks.check(bool(wrong), "the last posted values are on screen at the end",
                     "; ".join(shows_last_values(driver, producer.last)))
        log = driver.get_log("browser")
        severe = [entry["message"] for entry in log if entry.get("level") == "SEVERE"]
        connection_failures = [message for message in severe if "WebSocket connection to" in message]
        other = [message for message in severe if message not in connection_failures]
        script_error = driver.execute_script("return document.documentElement.dataset.scriptError || null")
        checks.check(not other and script_error is None and len(connection_failures) <= 10,
                     "no console errors (only the WebSocket failures while the server was down)",
                     f"errors {other[:3]!r}, script error {script_error!r}, {len(connection_failures)} connection failures")
    finally:
        producer.stop()
        driver.quit()


def arguments_of_soak(parser):
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--heap-slope", type=float, default=64 * 1024, help="bytes per minute")
    parser.add_argument("--node-slope", type=float, default=4.0, help="nodes per minute")


if __name__ == "__main__":
    sys.exit(run(__doc__, lambda config: None, scenario, extra_arguments=arguments_of_soak))
