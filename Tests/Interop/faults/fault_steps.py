"""The five faults, as a mixin of the suite (which holds `redis`, `nodes`, `check`). Each returns when the fault
began, when it ended (the moment from which the cluster may be whole again), and the nodes it restarted."""

from __future__ import annotations

import asyncio
import os
import signal
import time

FAULTS = {
    "kill-primary": "kill -9 the Redis primary; Sentinel promotes the replica; the old primary is started again",
    "restart-empty": "the Redis primary killed and started again at once without its data",
    "sigstop": "SIGSTOP one node for 10 s, then SIGCONT",
    "partition": "one node cut from Redis for 20 s by the proxy in front of every Redis server, then healed",
    "rolling-restart": "every node in turn: SIGTERM, started again on its port and data folder, ready",
}
PAUSE_SECONDS = 10.0
PARTITION_SECONDS = 20.0
FAILOVER_BOUND = 30.0
READY_BOUND = 20.0


class FaultSteps:

    async def fault_kill_primary(self):
        old = self.redis.primary()
        if not self.check(old is not None, "kill-primary: the Sentinels agree on a primary"):
            return time.monotonic(), time.monotonic(), []
        began = time.monotonic()
        await asyncio.to_thread(old.kill)
        try:
            took = await asyncio.to_thread(self.redis.wait,
                                           lambda: self.redis.primary() not in (None, old), FAILOVER_BOUND, "failover")
        except RuntimeError:
            took = None
        ended = time.monotonic()
        self.check(took is not None, f"kill-primary: the Sentinels promote the replica within {FAILOVER_BOUND:.0f} s",
                   f"{took}")
        print(f"  {old.name} killed; the Sentinels named {self.redis.other(old).name} primary after "
              f"{took if took is None else round(took, 2)} s")
        self.note("kill-primary", f"failover {took if took is None else round(took, 2)} s")
        old.replica_of = None
        await asyncio.to_thread(old.start)
        print(f"  {old.name} started again ({time.monotonic() - began:.2f} s after the kill) with its own data, "
              "as a primary; the Sentinels turn it into a replica")
        self.rejoin = asyncio.create_task(asyncio.to_thread(self.wait_replica, old, began))
        return began, ended, []

    def wait_replica(self, member, began: float) -> float | None:
        try:
            self.redis.wait(lambda: member.info("replication").get("role") == "slave"
                            and member.info("replication").get("master_link_status") == "up", 45,
                            f"{member.name} a replica in sync")
        except RuntimeError:
            return None
        return time.monotonic() - began

    async def fault_restart_empty(self):
        primary = self.redis.primary()
        if not self.check(primary is not None, "restart-empty: the Sentinels agree on a primary"):
            return time.monotonic(), time.monotonic(), []
        replica = self.redis.other(primary)
        began = time.monotonic()
        await asyncio.to_thread(primary.kill)
        primary.forget_data()
        primary.replica_of = None
        await asyncio.to_thread(primary.start)
        ended = time.monotonic()
        size = await asyncio.to_thread(primary.dbsize)
        print(f"  {primary.name} killed and started again without its data in {ended - began:.2f} s (DBSIZE {size})")
        self.rejoin = asyncio.create_task(asyncio.to_thread(self.wait_replica, replica, began))
        return began, ended, []

    async def fault_sigstop(self):
        victim = self.nodes[1]
        began = time.monotonic()
        os.kill(victim.pid, signal.SIGSTOP)
        await asyncio.sleep(PAUSE_SECONDS)
        os.kill(victim.pid, signal.SIGCONT)
        ended = time.monotonic()
        print(f"  {victim.name} stopped for {ended - began:.1f} s, then continued")
        return began, ended, []

    async def fault_partition(self):
        victim = self.nodes[2]
        began = time.monotonic()
        dropped = [await asyncio.to_thread(member.front.cut, victim.pid) for member in self.redis.members]
        await asyncio.sleep(PARTITION_SECONDS)
        for member in self.redis.members:
            await asyncio.to_thread(member.front.heal)
        ended = time.monotonic()
        refused = sum(member.front.refused for member in self.redis.members)
        print(f"  {victim.name} cut from Redis for {ended - began:.1f} s: {sum(dropped)} connections dropped, "
              f"{refused} new ones refused so far; healed")
        stale = {screen.name: next((round(at - began, 2) for at, _, feed in screen.shown
                                    if began <= at <= ended and feed == "stale"), None)
                 for screen in self.screens if screen.node is victim}
        self.check(all(value is not None for value in stale.values()),
                   f"partition: the screens of {victim.name} are told the feed is stale (\"Updates paused\") during the cut",
                   f"{stale}")
        print(f"  its screens told stale after (s): {stale}")
        return began, ended, []

    async def fault_rolling_restart(self):
        began = time.monotonic()
        for node in self.nodes:
            stop_began = time.monotonic()
            code = await asyncio.to_thread(node.stop)
            self.check(code == 0, f"rolling-restart: {node.name} exits 0 on SIGTERM", f"exit={code}")
            stopped = time.monotonic() - stop_began
            await asyncio.to_thread(node.start)
            ready = await self.wait_ready(node, READY_BOUND)
            self.check(ready is not None, f"rolling-restart: {node.name} is ready (/readyz 200) within "
                       f"{READY_BOUND:.0f} s of its start", f"{ready}")
            ready_after = "never" if ready is None else f"{time.monotonic() - stop_began:.2f} s after its SIGTERM"
            back = await self.node_screens_live(node, time.monotonic(), READY_BOUND)
            print(f"  {node.name}: stopped in {stopped:.2f} s, ready {ready_after}, its screens live again "
                  f"{'never' if back is None else f'{back - stop_began:.2f} s after it'}")
        return began, time.monotonic(), list(self.nodes)

    async def node_screens_live(self, node, moment: float, seconds: float) -> float | None:
        """When every screen of `node` showed, live, a total acknowledged after `moment` (None past `seconds`)."""
        while time.monotonic() - moment < seconds:
            first = self.ledger.first_ack_after(moment)
            if first is not None:
                times = [screen.live_since(moment, first["value"]) for screen in self.screens if screen.node is node]
                if all(value is not None for value in times):
                    return max(times)
            await asyncio.sleep(0.1)
        return None

    async def wait_ready(self, node, seconds: float) -> float | None:
        begin = time.monotonic()
        while time.monotonic() - begin < seconds:
            try:
                status, _ = await asyncio.to_thread(node.request, "GET", "/readyz", None, None, None, None, 3)
                if status == 200:
                    return round(time.monotonic() - begin, 2)
            except OSError:
                pass
            await asyncio.sleep(0.1)
        return None
