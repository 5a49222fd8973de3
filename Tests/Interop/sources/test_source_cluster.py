"""One poller per cluster: three `rollboard serve --redis` nodes on one redis-server and one JSON source (every 2 s)
against the scripted upstream, which counts its requests. Checks:

- exactly one node polls (the admin API of each says `polledHere`; the upstream sees about one request per period,
  not three);
- a value set on the upstream reaches a screen on every node; the upstream failing marks the tile stale with the
  reason on the screens of every node (the health travels the change log), and recovering clears it everywhere;
- the polling node is SIGKILLed: another node holds the lease and polls within two periods, the upstream is still
  asked about once per period, and a new value reaches the screens of the two nodes left.

Usage: test_source_cluster.py --binary .build/debug/rollboard [--redis-server redis-server]
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))

from rollboard_process import (  # noqa: E402
    Checks, RollboardProcess, config_folder, free_port, run_with_tool, until, wait_until_listening)
from source_screen import SourceScreen  # noqa: E402

TOKEN = "source-cluster-producer-token-0123456789"
ADMIN = "source-cluster-admin-token-0123456789abcdef"
EVERY = 2.0


def upstream_count(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/count", timeout=5) as response:
        return json.loads(response.read())["count"]


def upstream_set(port: int, value: float) -> None:
    urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/set?v={value}", data=b"", method="POST"),
                           timeout=5).read()


def upstream_fail(port: int, on: bool) -> None:
    urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/fail?on={1 if on else 0}", data=b"",
                                                  method="POST"), timeout=5).read()


def polled_here(node) -> bool:
    try:
        _, answer = node.request("GET", "/api/v1/admin/sources", token=ADMIN, timeout=2)
        return answer["sources"][0]["polledHere"] and answer["sources"][0]["state"] == "up"
    except (OSError, KeyError, TypeError):
        return False


async def scenario(binary: str, redis_binary: str, checks: Checks) -> None:
    folder = tempfile.mkdtemp(prefix="rollboard-source-cluster-")
    redis_port, upstream_port = free_port(), free_port()
    redis = subprocess.Popen([redis_binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", folder], stdout=subprocess.DEVNULL)
    upstream = subprocess.Popen([sys.executable, os.path.join(HERE, "upstream.py"), "--port", str(upstream_port)])
    nodes = []
    try:
        for port in (redis_port, upstream_port):
            wait_until_listening(port)
        upstream_set(upstream_port, 5)
        config = config_folder(folder, ADMIN)
        with open(os.path.join(config, "dashboards", "ops.yaml"), "w") as handle:
            handle.write("id: ops\ntitle: Ops\ntiles:\n  - {id: pulled, type: odometer, metric: pulled, decimals: 0}\n")
        with open(os.path.join(config, "sources", "pulled.yaml"), "w") as handle:
            handle.write(f"type: json\nurl: http://127.0.0.1:{upstream_port}/value\nevery: {EVERY}s\n"
                         "metrics:\n  - {metric: pulled, pointer: /value}\n")
        for name in ("a", "b", "c"):
            node = RollboardProcess(binary, os.path.join(folder, name), TOKEN, config=config,
                                    extra_arguments=["--redis", f"redis://127.0.0.1:{redis_port}"])
            node.start()
            nodes.append(node)
        screens = [SourceScreen(node.port, "ops") for node in nodes]
        tasks = [asyncio.create_task(screen.run()) for screen in screens]

        checks.check(await until(lambda: sum(polled_here(node) for node in nodes) == 1, 10),
                     "exactly one node holds the lease and polls", f"{[polled_here(node) for node in nodes]}")
        before = upstream_count(upstream_port)
        await asyncio.sleep(6 * EVERY)
        asked = upstream_count(upstream_port) - before
        checks.check(4 <= asked <= 8, f"the upstream is asked about once per period by the cluster ({asked} in 6 periods)")
        checks.check(sum(polled_here(node) for node in nodes) == 1, "still one poller after 6 periods")
        upstream_set(upstream_port, 10)
        checks.check(await until(lambda: all(screen.target("pulled") == 10 for screen in screens), 10),
                     "a new value reaches a screen on every node",
                     f"{[screen.target('pulled') for screen in screens]}")

        upstream_fail(upstream_port, True)
        reason = {"pulled": "upstream answered HTTP 503"}
        checks.check(await until(lambda: all(screen.stale == reason for screen in screens), 10),
                     "the source failing: the screens of every node show the tile stale with the reason",
                     f"{[screen.stale for screen in screens]}")
        states = []
        for node in nodes:
            _, answer = node.request("GET", "/api/v1/admin/sources", token=ADMIN)
            states.append((answer["sources"][0]["state"], answer["sources"][0]["reason"]))
        checks.check(states == [("down", "upstream answered HTTP 503")] * 3,
                     "and every node's admin API says down with the reason", f"{states}")
        upstream_fail(upstream_port, False)
        checks.check(await until(lambda: all(screen.stale == {} for screen in screens), 10),
                     "and every node's screens clear it when it recovers", f"{[screen.stale for screen in screens]}")

        holder = next(node for node in nodes if polled_here(node))
        others = [node for node in nodes if node is not holder]
        holder.kill()
        killed = time.monotonic()
        took_over = await until(lambda: sum(polled_here(node) for node in others) == 1, 4 * EVERY)
        elapsed = time.monotonic() - killed
        checks.check(took_over and elapsed <= 2 * EVERY + 0.5,
                     f"after SIGKILL of the poller another node polls within two periods ({elapsed:.1f} s)")
        upstream_set(upstream_port, 20)
        left = [screen for node, screen in zip(nodes, screens) if node is not holder]
        checks.check(await until(lambda: all(screen.target("pulled") == 20 for screen in left), 10),
                     "a new value reaches the screens of the nodes left",
                     f"{[screen.target('pulled') for screen in left]}")
        before = upstream_count(upstream_port)
        await asyncio.sleep(5 * EVERY)
        asked = upstream_count(upstream_port) - before
        checks.check(3 <= asked <= 7, f"and the upstream is still asked about once per period ({asked} in 5 periods)")
        for task in tasks:
            task.cancel()
    finally:
        for node in nodes:
            node.stop()
        if checks.failed:
            for node in nodes:
                print(node.read_log()[-1500:])
        upstream.kill()
        upstream.wait()
        redis.terminate()
        redis.wait()


if __name__ == "__main__":
    sys.exit(run_with_tool(scenario, "--redis-server", "redis-server"))
