"""The fault suite: three `rollboard serve` nodes on a Redis primary with one replica and three Sentinels, producers
posting keyed increments and keyed leaderboard increments at a steady rate round-robin over the nodes, and
WebSocket screens (wss) on every node. One fault at a time, each followed by a check:

  kill-primary     kill -9 the primary; Sentinel promotes the replica; the old primary is started again (Sentinel
                   turns it into a replica)
  restart-empty    the primary is killed and started again at once without its data (the replica resyncs, empty)
  sigstop          SIGSTOP one node for 10 s, then SIGCONT
  partition        one node cut from Redis for 20 s by the proxy in front of every Redis server, then healed
  rolling-restart  every node in turn: SIGTERM, started again on the same port and data folder, ready

After each: the producers retry every key that was not acknowledged (on the next node) until it is; every
acknowledged key is counted exactly once (each node's counter and board are exactly the sum of the acknowledged
keys); every node and every screen end on the same totals and boards; no node was restarted by hand (but by the
rolling restart); the time until every screen is live again (open, feed live, showing a total acknowledged after
the fault ended) is printed. A primary kill with `ackReplicas` ≥ 1 loses no acknowledged change; with 0 the loss
is measured and printed.

`--redis-mode sentinel` (the default) gives the nodes `redis: {sentinels: [...], master: rollboard}` (and
`ackReplicas`, default 1); `--redis-mode direct` gives them `redis: {url: ...}` of the first primary's proxy, so a
failover cannot be followed.

Usage: test_faults.py --binary .build/debug/rollboard [--redis-mode sentinel|direct] [--fault NAME ...]
       [--ack-replicas N] [--redis-server redis-server] [--redis-sentinel redis-sentinel]
Prints PASS/FAIL lines and `N passed, M failed`; exit 1 on any failure.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cluster"))
sys.path.insert(0, HERE)
from cluster_support import begin_run, cluster_arguments, start_node, write_config  # noqa: E402
from fault_checks import FaultChecks  # noqa: E402
from fault_load import BOARD, DASHBOARD, DASHBOARD_ID, NAMES, LiveScreen, Ledger, Producer  # noqa: E402
from fault_steps import FAULTS, FaultSteps  # noqa: E402
from redis_set import MASTER_NAME, RedisSet  # noqa: E402

TOKEN = "fault-suite-token-0123456789abcdef"


def arguments():
    def more(parser) -> None:
        parser.add_argument("--redis-sentinel", default="redis-sentinel")
        parser.add_argument("--redis-mode", choices=["sentinel", "direct"], default="sentinel")
        parser.add_argument("--fault", action="append", choices=list(FAULTS), dest="faults",
                            help="a fault to run (several allowed; default: all, in the order listed)")
        parser.add_argument("--ack-replicas", type=int, default=None,
                            help="redis.ackReplicas (default 1 with Sentinel; left out in direct mode)")
    parsed = cluster_arguments(__doc__.split("\n\n")[0], more)
    parsed.faults = [name for name in FAULTS if name in (parsed.faults or FAULTS)]
    if parsed.ack_replicas is None:
        parsed.ack_replicas = 1 if parsed.redis_mode == "sentinel" else 0
    return parsed


def redis_settings(mode: str, redis: RedisSet, ack_replicas: int) -> str:
    """The `redis:` of server.yaml, in the issue's syntax (one flow mapping)."""
    if mode == "sentinel":
        sentinels = ", ".join(f'"{address}"' for address in redis.sentinel_addresses)
        fields = [f"sentinels: [{sentinels}]", f"master: {MASTER_NAME}"]
    else:
        fields = [f'url: "redis://127.0.0.1:{redis.members[0].front.port}"']
    if ack_replicas:
        fields.append(f"ackReplicas: {ack_replicas}")
    return "{" + ", ".join(fields) + "}"


class Suite(FaultSteps, FaultChecks):
    """The running cluster, its load, and the results per fault."""

    def __init__(self, options, checks, folder: str, redis: RedisSet, nodes: list):
        self.options = options
        self.checks = checks
        self.folder = folder
        self.redis = redis
        self.nodes = nodes
        self.ledger = Ledger()
        self.producers: list[Producer] = []
        self.screens: list[LiveScreen] = []
        self.results: list[tuple[str, str]] = []
        self.summaries: dict[str, str] = {}
        self.rejoin = None
        self.token = TOKEN
        self.config = ""

    def check(self, condition: bool, name: str, detail: str = "") -> bool:
        self.checks.check(condition, name, detail)
        return condition

    async def run(self) -> None:
        self.producers = [Producer("p0", "o", self.nodes, TOKEN, self.ledger),
                          Producer("p1", "o", self.nodes, TOKEN, self.ledger),
                          Producer("p2", "b", self.nodes, TOKEN, self.ledger)]
        for node in self.nodes:
            for index in range(2):
                screen = LiveScreen(f"{node.name}/s{index}", node)
                await screen.start()
                self.screens.append(screen)
        status, body = await asyncio.to_thread(self.nodes[0].request, "POST", f"/api/v1/leaderboards/{BOARD}",
                                               {"entries": {name: 0 for name in NAMES}}, TOKEN)
        self.check(status == 202, "the leaderboard starts with every name at 0", f"{status} {body}")
        for producer in self.producers:
            producer.start()
        try:
            await asyncio.sleep(3)
            await self.settle("warm-up", time.monotonic(), time.monotonic(), [])
            for index, name in enumerate(self.options.faults):
                failed_before = self.checks.failed
                print(f"\n-- {name}: {FAULTS[name]}")
                began, ended, restarted = await getattr(self, "fault_" + name.replace("-", "_"))()
                whole = await self.settle(name, began, ended, restarted)
                self.results.append((name, "PASS" if self.checks.failed == failed_before else "FAIL"))
                rest = self.options.faults[index + 1:]
                if not whole and rest:
                    print(f"\n-- the cluster no longer takes every change after {name}: {', '.join(rest)} not run "
                          "(they would measure the same breakage; run them alone)")
                    self.results += [(later, "SKIP") for later in rest]
                    break
        finally:
            for producer in self.producers:
                await asyncio.to_thread(producer.stop)
            for screen in self.screens:
                await screen.stop()
        print("\nfault summary:")
        for name, verdict in self.results:
            print(f"  {verdict} {name}: {self.summaries.get(name, '')}")


def log_tail(text: str, lines: int = 14) -> str:
    """The last `lines` distinct lines of a log (a line repeated in a row shown once, with its count), without the
    time stamps."""
    folded: list[list] = []
    for line in text.splitlines():
        bare = line.split(" ", 1)[1] if line[:4].isdigit() and " " in line else line
        if folded and folded[-1][0] == bare:
            folded[-1][1] += 1
        else:
            folded.append([bare, 1])
    return "\n".join(bare if count == 1 else f"{bare}  (×{count})" for bare, count in folded[-lines:])


def main() -> int:
    options = arguments()
    checks, folder, _, nodes, started = begin_run("rollboard-faults-", options.redis_server)
    redis = RedisSet(folder, options.redis_server, options.redis_sentinel)
    print(f"redis mode {options.redis_mode}, ackReplicas {options.ack_replicas}, faults {options.faults}")
    suite = None
    try:
        redis.start()
        print(f"Redis set up {time.monotonic() - started:.1f} s after the start")
        config = write_config(folder, DASHBOARD, DASHBOARD_ID,
                              {"redis": redis_settings(options.redis_mode, redis, options.ack_replicas)})
        for index in range(3):
            start_node(nodes, options.binary, folder, TOKEN, None, config, f"node{index}")
        suite = Suite(options, checks, folder, redis, nodes)
        suite.config = config
        asyncio.run(suite.run())
    except Exception:  # noqa: BLE001
        checks.check(False, "the suite ran to its end", traceback.format_exc())
    finally:
        for node in nodes:
            if node.alive():
                code = node.stop()
                checks.check(code == 0, f"{node.name} exits 0 on SIGTERM at the end", f"exit={code}")
        if checks.failed:
            for node in nodes:
                print(f"---- {node.name} log (tail, repeats folded)\n{log_tail(node.read_log())}")
            print(redis.logs())
        redis.stop()
        print(f"run took {time.monotonic() - started:.1f} s")
        if not os.environ.get("ROLLBOARD_KEEP_FAULTS"):
            shutil.rmtree(folder, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
