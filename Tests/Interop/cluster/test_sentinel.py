"""Redis fails over under Sentinel: two `rollboard serve` nodes follow the promoted replica, lose nothing acknowledged
(`redis.ackReplicas: 1`), and never write to the old primary when it comes back as a replica.

Starts its own Redis primary (append-only), one replica, three `redis-sentinel` processes (down-after 1000 ms,
failover-timeout 3000 ms) and two nodes whose `server.yaml` says `redis: {sentinels: [...], master: rb,
ackReplicas: 1}`, all on free loopback ports in a temp folder. Then:

a. producers post keyed increments to both nodes at a steady rate; a post that is not acknowledged is retried with
   the same Idempotency-Key (on the other node) until it is;
b. the primary is killed with SIGKILL: Sentinel promotes the replica, and each node writes to the new primary within
   seconds (the time from the kill to its first post written there is printed for each node, next to the time
   Sentinel took). The new primary has no replica left, so with `ackReplicas: 1` those posts are answered
   `503 redis_unreplicated`, never 202;
   Before the kill, each node reads the stream on the replica (`CLIENT LIST` there), so no node applies a change the
   replica did not get;
c. the old primary is restarted on its port and data: Sentinel turns it into a replica of the new primary, the
   retried keys are acknowledged, and every acknowledged key is counted exactly once (both nodes' GET shows exactly
   the sum of the amounts), again after more posts; no node connected to the old primary (`CLIENT LIST`) or sent it
   a script (`INFO commandstats`: the replication stream brings only its effects).

With `--ack-replicas 0` (a measurement, not in CI) the nodes acknowledge without `WAIT`: the posts after the
promotion are acknowledged at once, and instead of checking exact totals the script prints how much acknowledged
increment the failover lost on each node.

Usage: test_sentinel.py --binary .build/debug/rollboard [--redis-server redis-server] [--redis-sentinel redis-sentinel]
       [--ack-replicas 1]
Prints PASS/FAIL lines and `N passed, M failed`; exit 1 on any failure.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_support import (  # noqa: E402
    RedisServer, begin_run, clean_up, cluster_arguments, free_port, start_node, terminate, write_config)

TOKEN = "sentinel-increment-token-0123456789abcdef"
MASTER = "rb"
METRIC = "tally_total"
DASHBOARD = """id: tally
title: Tally
tiles:
  - {id: tally_total, type: counter, format: "%.2f", queue: fifo, maxLag: 60}
"""


class Sentinel:
    """A `redis-sentinel` child watching `MASTER` with short timeouts; its config file in `directory` (Sentinel
    rewrites it)."""

    def __init__(self, executable: str, directory: str, primary_port: int):
        self.executable = executable
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        os.makedirs(directory, exist_ok=True)
        self.config = os.path.join(directory, "sentinel.conf")
        with open(self.config, "w") as handle:
            handle.write(
                f"port {self.port}\nbind 127.0.0.1\nprotected-mode no\ndaemonize no\ndir {directory}\n"
                f"logfile {os.path.join(directory, 'sentinel.log')}\n"
                f"sentinel monitor {MASTER} 127.0.0.1 {primary_port} 2\n"
                f"sentinel down-after-milliseconds {MASTER} 1000\n"
                f"sentinel failover-timeout {MASTER} 3000\n"
                f"sentinel parallel-syncs {MASTER} 1\n")
        self.client = RedisServer("unused", directory, port=self.port)

    def start(self) -> None:
        self.process = subprocess.Popen([self.executable, self.config], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.STDOUT, start_new_session=True)

    def command(self, *args: str):
        return self.client.command(*args)

    def stop(self) -> None:
        terminate(self.process, 10)


class Producers:
    """Threads posting keyed increments to the nodes in turn; a post not acknowledged is retried with its key on the
    other node until it is. Remembers each key's amount and, per node, when it acknowledged each post."""

    def __init__(self, nodes: list):
        self.nodes = nodes
        self.lock = threading.Lock()
        self.amounts: dict[str, float] = {}
        self.written: list[tuple[str, float, float]] = []  # (node, started, answered): 202 or redis_unreplicated
        self.refusals: dict[str, int] = {}
        self.running = True
        self.threads: list[threading.Thread] = []

    def post_until_acknowledged(self, key: str, amount: float, first: int) -> None:
        attempt = first
        while True:
            node = self.nodes[attempt % len(self.nodes)]
            started = time.monotonic()
            try:
                status, body = node.request("POST", f"/api/v1/metrics/{METRIC}", {"increment": amount}, token=TOKEN,
                                            headers={"Idempotency-Key": key}, timeout=10)
            except OSError as error:
                status, body = 0, str(error)
            code = body.get("error", status) if isinstance(body, dict) else status
            if status in (202, 503) and code in (202, "redis_unreplicated"):
                with self.lock:  # written on the primary (with or without its replica's confirmation)
                    self.written.append((node.name, started, time.monotonic()))
            if status == 202:
                return
            with self.lock:
                self.refusals[str(code)] = self.refusals.get(str(code), 0) + 1
            attempt += 1
            time.sleep(0.05)

    def start(self, writers: int, prefix: str) -> None:
        def writer(index: int) -> None:
            rng = random.Random(f"{prefix}{index}")
            count = 0
            while self.running:
                key = f"{prefix}-{index}-{count}"
                amount = rng.randrange(1, 40) / 4
                with self.lock:
                    self.amounts[key] = amount
                self.post_until_acknowledged(key, amount, index + count)
                count += 1
                time.sleep(0.02)

        self.running = True
        self.threads = [threading.Thread(target=writer, args=(index,), daemon=True) for index in range(writers)]
        for thread in self.threads:
            thread.start()

    def stop(self, timeout: float = 30) -> bool:
        """Stops posting new keys; waits for the keys in flight to be acknowledged."""
        self.running = False
        deadline = time.monotonic() + timeout
        for thread in self.threads:
            thread.join(max(0.1, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self.threads)

    def first_written_after(self, name: str, instant: float) -> float | None:
        with self.lock:
            times = [answered for node, started, answered in self.written if node == name and started >= instant]
        return min(times) if times else None


def wait_for(condition, timeout: float, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
        except (OSError, RuntimeError, ValueError, TypeError):
            value = None
        if value:
            return value
        time.sleep(interval)
    return None


def watch_readiness(nodes: list, since: float, results: dict, timeout: float = 30) -> None:
    """For each node, seconds from `since` until `/readyz` answers 200 again after it answered otherwise (the node
    reconnected to a primary); polls every 50 ms."""
    down = {node.name: False for node in nodes}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(results) < len(nodes):
        for node in nodes:
            if node.name in results:
                continue
            try:
                ready = node.request("GET", "/readyz", timeout=2)[0] == 200
            except OSError:
                ready = False
            if not ready:
                down[node.name] = True
            elif down[node.name]:
                results[node.name] = time.monotonic() - since
        time.sleep(0.05)


def exact_totals(nodes: list, producers: Producers, checks, label: str, strict: bool = True) -> None:
    expected = round(sum(producers.amounts.values()), 2)
    if not strict:
        time.sleep(2)
        values = [node.request("GET", f"/api/v1/metrics/{METRIC}")[1].get("value") for node in nodes]
        print(f"{label}: {len(producers.amounts)} acknowledged keys, total {expected}; the nodes show {values}: lost "
              + ", ".join(f"{round(expected - value, 2)}" if value is not None else "?" for value in values))
        return
    values = wait_for(lambda: (lambda v: v if all(x == expected for x in v) else None)(
        [node.request("GET", f"/api/v1/metrics/{METRIC}")[1].get("value") for node in nodes]), 15)
    if values is None:
        values = [node.request("GET", f"/api/v1/metrics/{METRIC}")[1].get("value") for node in nodes]
    checks.check(all(value == expected for value in values),
                 f"{label}: every acknowledged key counted exactly once on both nodes ({len(producers.amounts)} keys,"
                 f" total {expected})", f"{values}")


def main() -> int:
    def add_arguments(parser) -> None:
        parser.add_argument("--redis-sentinel", default="redis-sentinel")
        parser.add_argument("--ack-replicas", type=int, default=1, choices=[0, 1])

    arguments = cluster_arguments(__doc__.splitlines()[0], add_arguments)
    strict = arguments.ack_replicas == 1
    checks, folder, primary, nodes, started = begin_run("rollboard-sentinel-", arguments.redis_server)
    replica = RedisServer(arguments.redis_server, os.path.join(folder, "replica"),
                          extra=["--replicaof", "127.0.0.1", str(primary.port)])
    sentinels: list[Sentinel] = []
    producers: Producers | None = None
    try:
        primary.start()
        replica.start()
        checks.check(wait_for(lambda: "master_link_status:up" in primary_info(replica), 15) is not None,
                     "the replica follows the primary")
        sentinels = [Sentinel(arguments.redis_sentinel, os.path.join(folder, f"sentinel{i}"), primary.port)
                     for i in range(3)]
        for sentinel in sentinels:
            sentinel.start()
        ready = wait_for(lambda: all(
            len(s.command("SENTINEL", "replicas", MASTER) or []) == 1
            and len(s.command("SENTINEL", "sentinels", MASTER) or []) == 2 for s in sentinels), 30, 0.2)
        checks.check(ready is not None, "three Sentinels watch the primary, know its replica and each other")
        addresses = ", ".join(f'"127.0.0.1:{s.port}"' for s in sentinels)
        config = write_config(folder, DASHBOARD, "tally", {
            "redis": f"{{sentinels: [{addresses}], master: {MASTER}, ackReplicas: {arguments.ack_replicas}}}"})
        node_a = start_node(nodes, arguments.binary, folder, TOKEN, None, config, "node-a")
        node_b = start_node(nodes, arguments.binary, folder, TOKEN, None, config, "node-b")
        producers = Producers([node_a, node_b])
        producers.start(4, "before")
        time.sleep(3)
        readers = [line for line in (replica.command("CLIENT", "LIST") or "").splitlines() if "name=rollboard" in line]
        checks.check(len(readers) == 2 and all("cmd=xread" in line for line in readers),
                     "each node reads the stream on the replica (it applies only what a failover keeps)",
                     "\n".join(readers))

        ready_again: dict[str, float] = {}
        killed = time.monotonic()
        watcher = threading.Thread(target=watch_readiness, args=(nodes, killed, ready_again), daemon=True)
        watcher.start()
        primary.process.send_signal(signal.SIGKILL)
        primary.process.wait(10)
        promoted = wait_for(lambda: (s := sentinels[0].command("SENTINEL", "get-master-addr-by-name", MASTER))
                            and s[1] == str(replica.port), 30, 0.05)
        promoted_after = time.monotonic() - killed
        checks.check(promoted is not None, f"Sentinel promoted the replica {promoted_after:.1f} s after the kill")
        followed = {}
        for node in nodes:
            answered = wait_for(lambda: producers.first_written_after(node.name, killed), 20)
            followed[node.name] = None if answered is None else answered - killed
        watcher.join(30)
        print("failover follow time (kill -9 to /readyz 200 on the new primary): "
              + ", ".join(f"{name} {value:.2f} s" for name, value in sorted(ready_again.items())))
        checks.check(len(ready_again) == len(nodes) and max(ready_again.values()) < promoted_after + 5,
                     "both nodes are ready again (connected to the new primary) within 5 s of the promotion",
                     f"{ready_again}")
        print("kill -9 to the node's first post written on the new primary (its answer waited ackTimeout): "
              + ", ".join(f"{name} {value:.2f} s" if value is not None else f"{name} never"
                          for name, value in followed.items())
              + f"; Sentinel promoted the replica after {promoted_after:.2f} s")
        checks.check(all(value is not None and value < promoted_after + 6 for value in followed.values()),
                     "both nodes write to the new primary within seconds of the promotion", f"{followed}")
        time.sleep(1)
        with producers.lock:
            refusals = dict(producers.refusals)
        checks.check((refusals.get("redis_unreplicated", 0) > 0) == strict,
                     "with no replica left, posts are answered 503 redis_unreplicated, not acknowledged" if strict
                     else "without ackReplicas, posts are acknowledged with no replica left", f"{refusals}")
        checks.check(all("following the new primary" in node.read_log() for node in nodes),
                     "each node logs that it follows the new primary")

        primary.start()
        demoted = wait_for(lambda: (role := primary.command("ROLE")) and role[0] == "slave"
                           and role[2] == replica.port and "master_link_status:up" in primary_info(primary), 30, 0.2)
        checks.check(demoted is not None, "the old primary came back and Sentinel made it a replica of the new one",
                     f"{primary.command('ROLE')}")
        time.sleep(1)
        checks.check(producers.stop(), "every key posted was acknowledged once the old primary replicates (retried "
                     "with its key)")
        print(f"refusals while failing over (each retried with its key): {producers.refusals}")
        exact_totals(nodes, producers, checks, "after the failover", strict)
        producers.start(4, "after")
        time.sleep(2)
        checks.check(producers.stop(), "posts after the old primary returned were acknowledged")
        exact_totals(nodes, producers, checks, "after more posts", strict)
        clients = primary.command("CLIENT", "LIST") or ""
        checks.check("name=rollboard" not in clients, "no node connected to the returned old primary",
                     "\n".join(line for line in clients.splitlines() if "name=rollboard" in line))
        stats = primary.command("INFO", "commandstats") or ""
        scripts = [line for line in stats.splitlines() if line.startswith("cmdstat_eval")]
        checks.check(not scripts, "no node sent the returned old primary a write (no EVAL in its command stats)",
                     f"{scripts}")
        sequence = "{rollboard}:seq"
        same = wait_for(lambda: primary.command("GET", sequence) == replica.command("GET", sequence), 10)
        checks.check(same is not None, "the old primary replicates the new primary's sequence",
                     f"{primary.command('GET', sequence)} vs {replica.command('GET', sequence)}")
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        checks.check(False, "the run finished without an exception")
    finally:
        if producers:
            producers.running = False
        for node in nodes:
            node.stop()
        for sentinel in sentinels:
            sentinel.stop()
        replica.stop()
        if checks.failed:
            for sentinel in sentinels[:1]:
                try:
                    with open(os.path.join(sentinel.directory, "sentinel.log")) as handle:
                        print(f"---- sentinel log (tail)\n{handle.read()[-2000:]}")
                except OSError:
                    pass
        clean_up(checks, nodes, primary, folder, started)
    return checks.finish()


def primary_info(server: RedisServer) -> str:
    return server.command("INFO", "replication") or ""


if __name__ == "__main__":
    sys.exit(main())
