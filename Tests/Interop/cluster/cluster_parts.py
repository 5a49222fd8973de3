"""The later parts of test_cluster.py's scenario, as a mixin of its `Cluster` (which holds the nodes, Redis, the
screens, the ledger of acknowledged values and the checks): b. a node killed and restarted, c. Redis away and back,
k. viewer keys and admin tokens that belong to the cluster."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import websockets

from cluster_support import ADMIN_TOKEN, CONTEXT, ClusterNode, Screen, prometheus_value

DASHBOARD_ID = "cluster"
METRICS = ["alpha", "beta", "gamma"]
READY_BOUND = 7.0   # seconds for every node to be ready again after Redis returns (contract: ~5 s backoff)
LIVE_BOUND = 10.0   # seconds for every screen to get `status` `live` after Redis returns
STALE_GRACE = 2.0   # seconds a node may take to notice that Redis is gone


class KeyScreen:
    """A screen of the `vault` dashboard (behind a key) that records its hello and how it was closed."""

    def __init__(self, node: ClusterNode, key: str | None):
        self.uri = f"wss://127.0.0.1:{node.port}/ws?dashboard=vault" + (f"&key={key}" if key else "")
        self.origin = f"https://127.0.0.1:{node.port}"
        self.hello = False
        self.close: tuple[int | None, str | None] | None = None
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        try:
            async with websockets.connect(self.uri, ssl=CONTEXT, origin=self.origin, open_timeout=10) as socket:
                try:
                    async for message in socket:
                        if isinstance(message, str) and json.loads(message).get("type") == "hello":
                            self.hello = True
                except websockets.ConnectionClosed:
                    pass
                self.close = (socket.close_code, socket.close_reason)
        except Exception as error:  # noqa: BLE001
            self.close = (None, repr(error))

    async def settled(self, timeout: float = 10.0) -> None:
        """Waits until the screen has its hello or was closed."""
        deadline = time.monotonic() + timeout
        while not self.hello and self.close is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    def stop(self) -> None:
        if not self.task.done():
            self.task.cancel()


class LaterParts:
    """Parts b, c and k of the cluster scenario; `Cluster` provides the state and the shared checks they use."""

    async def phase_b(self) -> None:
        print("-- b. SIGKILL one node while the others take posts; restart it")
        victim = self.nodes[2]
        survivors = self.nodes[:2]
        old_screens = list(self.screens[victim.name])
        stop = threading.Event()

        def poster() -> None:
            index = 0
            while not stop.is_set():
                self.ledger.post(survivors[index % 2], METRICS[(index // 2) % 3], "b-background", True)
                index += 1
                time.sleep(0.1)

        # An operator shows the playlist's second entry and holds it; the node killed below must start it held.
        for action, body in (("show", {"entry": 1}), ("hold", None)):
            status, answer = await asyncio.to_thread(
                survivors[0].request, "POST", f"/api/v1/admin/playlists/wall/{action}", body, ADMIN_TOKEN)
            self.check(status == 202, f"b: playlist {action} on {survivors[0].name} is 202", f"{status} {answer}")
        thread = threading.Thread(target=poster, daemon=True)
        thread.start()
        try:
            await asyncio.sleep(1.0)
            await asyncio.to_thread(victim.kill)
            killed_at = time.monotonic()
            self.check(victim.exit_codes[-1:] == [-9], f"b: {victim.name} ended by SIGKILL",
                       f"{victim.exit_codes}")
            deadline = time.monotonic() + 5
            while any(screen.open for screen in old_screens) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            self.check(not any(screen.open for screen in old_screens),
                       f"b: the screens of {victim.name} saw their connection end")
            await self.keys_while_down(survivors[0])
            await asyncio.sleep(1.5)
            await asyncio.to_thread(victim.start)
            restarted = time.monotonic() - killed_at
            ready = await self.wait_ready(victim, 15)
            self.check(ready is not None, f"b: the restarted {victim.name} answers /readyz 200",
                       "not within 15 s")
            print(f"  {victim.name} restarted {restarted:.2f} s after the kill, ready {ready} s later")
            await self.keys_after_restart(victim)
            states = {}
            for node in self.nodes:
                status, answer = await asyncio.to_thread(node.request, "GET", "/api/v1/admin/playlists", None,
                                                         ADMIN_TOKEN)
                wall = next((p for p in (answer or {}).get("playlists", []) if p.get("id") == "wall"), {}) \
                    if isinstance(answer, dict) else {}
                states[node.name] = (status, wall.get("current"), wall.get("held"))
            self.check(all(state == (200, 1, True) for state in states.values()),
                       f"b: the playlist held before the kill is held on its second entry on every node, the "
                       f"restarted {victim.name} too", f"{states}")
            await asyncio.sleep(0.5)
            for screen in old_screens:
                since = screen.since()
                hello = await self.open_screen(victim, "", since=since, screen=screen)
                print(f"  {screen.name} reconnected with since={since}: resume={screen.hellos[-1]['resume']}")
                del hello
            fresh = [await self.open_screen(victim, f"fresh{index}") for index in range(2)]
            self.fresh = fresh
            self.resumed = old_screens
            await asyncio.sleep(1.0)
        finally:
            stop.set()
            await asyncio.to_thread(thread.join, 20)
        for index in range(9):
            await asyncio.to_thread(self.ledger.post, self.nodes[index % 3], METRICS[index % 3], "b-after", True)
        acks, refused = self.ledger.phase("b-background")
        self.check(len(acks) > 20 and not refused,
                   "b: posts to the two other nodes are all 202 while the node is down and restarting",
                   f"{len(acks)} acknowledged, refused {refused[:3]}")
        acks, refused = self.ledger.phase("b-after")
        self.check(len(acks) == 9 and not refused, "b: 9 posts round-robin after the restart: every one 202",
                   f"refused {refused[:3]}")
        seqs = self.ledger.serial_seqs
        self.check(all(b > a for a, b in zip(seqs, seqs[1:])), "b: serial posts' seqs still strictly increase")

        took = await self.settle()
        self.check(took is not None, "b: every screen (old, resumed, new) reaches the final values",
                   f"{[(s.name, s.current_targets(), s.last_c) for s in self.all_screens()]}")
        print(f"  settled {took if took is None else round(took, 2)} s after the last 202")
        self.check({screen.epoch for screen in self.all_screens()} == {self.epoch},
                   "b: the restarted node's hellos carry the same epoch")
        survivors_screens = [screen for node in survivors for screen in self.screens[node.name]]
        self.sequences_exact(survivors_screens, "b (screens of the nodes that stayed up)")
        self.check_restarted_screens("b")
        self.final_values(self.all_screens(), "b")
        agree, detail = await self.gets_agree()
        self.check(agree, "b: GET /api/v1/metrics/{id} agrees (value and seq) on all three nodes", detail)
        self.fds_before[victim.name] = victim.fd_count()

    def check_restarted_screens(self, label: str) -> None:
        """The killed node's screens. One that came back with `since=EPOCH:S` shows, on its new connection, a
        contiguous run of the acknowledged values in seq order that holds every value after S (`replay`: it starts
        where its tile stood at S, which may still have had values up to S queued; `full` or `none`: from its hello
        on, like a new screen)."""
        ordered = sorted(self.ledger.acks, key=lambda ack: ack["seq"])
        resumed_modes = [screen.hellos[-1]["resume"] for screen in self.resumed]
        wrong = []
        for screen in self.resumed:
            hello = screen.hellos[-1]
            since = int(hello["since"].rsplit(":", 1)[1]) if hello.get("since") else 0
            segment = screen.segments[-1]
            for metric in METRICS:
                got = segment[metric]
                full = [ack for ack in ordered if ack["metric"] == metric]
                values = [ack["value"] for ack in full]
                start = values.index(got[0]) if got and got[0] in values else None
                first_missed = next((index for index, ack in enumerate(full) if ack["seq"] > since), len(full))
                if start is None or got != values[start:]:
                    wrong.append(f"{screen.name} {metric} ({hello['resume']}): {got[:4]}… ({len(got)}) not a "
                                 "contiguous run of the acknowledged values up to the last")
                elif hello["resume"] == "replay" and start > first_missed:
                    wrong.append(f"{screen.name} {metric} (replay from {since}): starts at value {start}, after the "
                                 f"first missed one {first_missed}")
        self.check(not wrong, f"{label}: the screens that came back with since= (resume {resumed_modes}) show the "
                   "tiles as they stood, then every later acknowledged value in seq order", "; ".join(wrong[:4]))
        expected = self.ledger.expected()
        wrong = []
        for screen in self.fresh:
            for metric in METRICS:
                got = screen.targets[metric]
                full = expected[metric]
                start = full.index(got[0]) if got and got[0] in full else None
                if start is None or got != full[start:]:
                    wrong.append(f"{screen.name} {metric}: {got[:4]}… ({len(got)}) not a contiguous suffix of "
                                 f"the acknowledged values")
        self.check(not wrong, f"{label}: the restarted node's new screens play, from their hello on, every "
                   "acknowledged value in seq order", "; ".join(wrong[:4]))

    async def start_late_node(self) -> tuple[ClusterNode, Screen]:
        """A fourth node started while Redis is down: it serves at once (alive, not ready, refusing posts), and its
        screens get a hello with no values and the feed stale. Nothing in it waits for Redis."""
        first = self.nodes[0]
        late = ClusterNode(first.binary, first.data_dir + "-late", first.token, self.redis.url, config=first.config,
                           name="late")
        late.log_path = first.log_path.replace(".log", "-late.log")
        begin = time.monotonic()
        await asyncio.to_thread(late.start, 15)
        print(f"  a node started while Redis is down answers /healthz after {time.monotonic() - begin:.2f} s")
        ready, body = await asyncio.to_thread(late.request, "GET", "/readyz")
        self.check(ready == 503 and isinstance(body, dict) and body.get("error") == "redis_unavailable",
                   "c: a node started while Redis is down serves: /healthz 200, /readyz 503 redis_unavailable",
                   f"{ready} {body}")
        status, body = self.ledger.post(late, METRICS[0], "c-late-refused")
        self.check(status == 503, "c: a post to the node that has not reached Redis yet is 503", f"{status} {body}")
        screen = Screen("late/s", late.port, DASHBOARD_ID, METRICS)
        hello = await screen.connect()
        await asyncio.sleep(0.3)
        tiles_empty = all(value is None for value in screen.current_targets().values())
        self.check(tiles_empty and hello.get("feed") == "stale" and ("stale" in [feed for _, feed in screen.statuses]),
                   "c: its screen's hello shows no value (\u2014) and says the feed is stale (then its status), "
                   "never an invented number",
                   f"targets {screen.current_targets()} statuses {screen.statuses} hello {hello}")
        return late, screen

    async def finish_late_node(self, late: ClusterNode, screen: Screen) -> None:
        """Once Redis is back the late node opens: ready, the cluster's epoch, its screen on the final values."""
        ready = await self.wait_ready(late, READY_BOUND)
        self.check(ready is not None, f"c: the late node's /readyz is 200 once Redis answers (within {READY_BOUND} s)",
                   f"{ready}")
        status, body = await asyncio.to_thread(late.request, "GET", "/healthz")
        epoch = body.get("epoch") if status == 200 and isinstance(body, dict) else None
        self.check(epoch == self.epoch, "c: the late node has the cluster's epoch", f"{epoch} vs {self.epoch}")
        final = {metric: ack["value"] for metric, ack in self.ledger.last().items()}
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and screen.current_targets() != final:
            await asyncio.sleep(0.1)
        self.check(screen.current_targets() == final and "live" in [feed for _, feed in screen.statuses],
                   "c: the screen that waited on the late node shows the final values, and the feed live",
                   f"{screen.current_targets()} vs {final}; statuses {screen.statuses}")
        await screen.close()
        code = await asyncio.to_thread(late.stop)
        self.check(code == 0, "c: the late node exits 0 on SIGTERM", f"{code}")

    async def phase_c(self, seconds: float) -> None:
        print(f"-- c. Redis stopped (SIGTERM) for {seconds:.0f} s, then restarted on the same port and folder")
        before_max = self.ledger.max_seq()
        screens = [screen for screen in self.all_screens() if screen.open]
        status_counts = {screen.name: len(screen.statuses) for screen in screens}
        code = await asyncio.to_thread(self.redis.stop)
        stopped_at = time.monotonic()
        self.check(code == 0, "c: redis-server exits 0 on SIGTERM", f"{code}")

        def outage() -> dict:
            record = {"posts": [], "readyz": [], "healthz": [], "redis_up": []}
            index = 0
            while time.monotonic() - stopped_at < seconds:
                node = self.nodes[index % 3]
                metric = METRICS[(index // 3) % 3]
                begin = time.monotonic()
                status, body = self.ledger.post(node, metric, "c-outage")
                record["posts"].append((node.name, status, body, time.monotonic() - begin))
                elapsed = time.monotonic() - stopped_at
                try:
                    record["readyz"].append((node.name, elapsed, node.request("GET", "/readyz", timeout=5)[0]))
                    record["healthz"].append((node.name, node.request("GET", "/healthz", timeout=5)[0]))
                    if index % 3 == 0 or elapsed > seconds - 1.5:
                        up = prometheus_value(self.metrics_text(node), "rollboard_redis_up")
                        record["redis_up"].append((node.name, elapsed, up))
                except OSError as error:
                    record["readyz"].append((node.name, elapsed, f"{error}"))
                index += 1
                time.sleep(0.05)
            return record

        record = await asyncio.to_thread(outage)
        status, body = await asyncio.to_thread(
            self.nodes[0].request, "POST", f"/api/v1/admin/dashboards/{DASHBOARD_ID}/announce",
            {"text": "Not now", "seconds": 5}, ADMIN_TOKEN)
        self.check(status == 503 and isinstance(body, dict) and body.get("error") == "redis_unavailable",
                   "c: an announcement during the outage is 503 redis_unavailable", f"{status} {body}")
        posts = record["posts"]
        per_node = {node.name: 0 for node in self.nodes}
        wrong = []
        for name, status, body, took in posts:
            if status == 503 and isinstance(body, dict) and body.get("error") == "redis_unavailable":
                per_node[name] += 1
            else:
                wrong.append(f"{name}: {status} {body}")
        slowest = max((took for *_, took in posts), default=0)
        print(f"  {len(posts)} posts during the outage, refused per node {per_node}, slowest answer {slowest:.2f} s")
        self.check(not wrong and all(per_node.values()),
                   "c: every post during the outage, on every node, is 503 redis_unavailable (never 202)",
                   f"{len(wrong)} others: {wrong[:4]}")
        late = [(name, round(at, 2), status) for name, at, status in record["readyz"] if at >= STALE_GRACE
                and status != 503]
        seen = {name for name, at, status in record["readyz"] if at >= STALE_GRACE}
        self.check(not late and seen == set(per_node),
                   f"c: /readyz is 503 on every node while Redis is down (from {STALE_GRACE:.0f} s after the stop)",
                   f"{late[:6]}")
        self.check(all(status == 200 for _, status in record["healthz"]) and record["healthz"],
                   "c: /healthz stays 200 on every node", f"{[s for s in record['healthz'] if s[1] != 200][:4]}")
        ups = {}
        for name, at, up in record["redis_up"]:
            if at >= STALE_GRACE:
                ups.setdefault(name, set()).add(up)
        self.check(set(ups) == set(per_node) and all(values == {0.0} for values in ups.values()),
                   "c: /metrics says rollboard_redis_up 0 on every node while Redis is down", f"{ups}")
        stale = {}
        for screen in screens:
            news = screen.statuses[status_counts[screen.name]:]
            stale[screen.name] = next((round(at - stopped_at, 2) for at, feed in news if feed == "stale"), None)
        self.check(all(value is not None for value in stale.values()),
                   "c: every open screen gets status stale during the outage", f"{stale}")
        print(f"  status stale after (s): {sorted(stale.values(), key=lambda v: v if v is not None else 1e9)}")
        closed = [screen.name for screen in screens if not screen.open]
        self.check(not closed, "c: every screen stays open through the outage", f"{closed}")

        late, late_screen = await self.start_late_node()

        # A node retrying at the right moment reconnects, and its screens hear "live", while `start` still waits for
        # Redis to have loaded its file: a live counts from the moment Redis was started, not from `start`'s return.
        starting_at = time.monotonic()
        await asyncio.to_thread(self.redis.start)
        restarted_at = time.monotonic()
        readiness = await asyncio.gather(*(self.wait_ready(node, LIVE_BOUND + 5) for node in self.nodes))
        print(f"  Redis back; nodes ready after (s): {[r if r is None else round(r, 2) for r in readiness]}")
        self.check(all(r is not None and r <= READY_BOUND for r in readiness),
                   f"c: every node's /readyz is 200 again within {READY_BOUND:.0f} s of Redis restarting",
                   f"{readiness}")
        deadline = restarted_at + LIVE_BOUND
        live = {}
        while time.monotonic() < deadline:
            live = {}
            for screen in screens:
                news = [(at, feed) for at, feed in screen.statuses[status_counts[screen.name]:]]
                stale_at = next((at for at, feed in news if feed == "stale"), None)
                live_at = next((at for at, feed in news if feed == "live" and at >= starting_at
                                and stale_at is not None and at > stale_at), None)
                live[screen.name] = None if live_at is None else round(live_at - restarted_at, 2)
            if all(value is not None for value in live.values()):
                break
            await asyncio.sleep(0.1)
        self.check(all(value is not None for value in live.values()),
                   f"c: every screen gets status live (after its stale) within {LIVE_BOUND:.0f} s of Redis restarting",
                   f"{live}")
        for node, ready in zip(self.nodes, readiness):
            times = [value for name, value in live.items() if name.startswith(node.name + "/")]
            print(f"  {node.name}: /readyz 200 after {ready if ready is None else round(ready, 2)} s, screens live "
                  f"after {times} s")
        for node in self.nodes:
            up = prometheus_value(await asyncio.to_thread(self.metrics_text, node), "rollboard_redis_up")
            self.check(up == 1, f"c: {node.name}: rollboard_redis_up 1 again", f"{up}")
        epochs = {}
        for node in self.nodes:
            status, body = await asyncio.to_thread(node.request, "GET", "/healthz")
            epochs[node.name] = body.get("epoch") if status == 200 and isinstance(body, dict) else None
        hellos = {screen.name: sorted(set(screen.epochs)) for screen in self.all_screens()}
        self.check(set(epochs.values()) == {self.epoch} and all(v == [self.epoch] for v in hellos.values()),
                   "c: the epoch is unchanged after Redis restarted (/healthz and every hello)",
                   f"{epochs} {hellos} vs {self.epoch}")

        for index in range(9):
            await asyncio.to_thread(self.ledger.post, self.nodes[index % 3], METRICS[(index + 1) % 3], "c-after", True)
        acks, refused = self.ledger.phase("c-after")
        self.check(len(acks) == 9 and not refused, "c: 9 posts round-robin after Redis returned: every one 202",
                   f"refused {refused[:3]}")
        self.check(all(ack["seq"] > before_max for ack in acks),
                   f"c: seqs after the outage are above every earlier one ({before_max})",
                   f"{[ack['seq'] for ack in acks]}")
        seqs = self.ledger.serial_seqs
        self.check(all(b > a for a, b in zip(seqs, seqs[1:])), "c: acknowledged seqs never went backwards",
                   f"{seqs}")
        took = await self.settle()
        self.check(took is not None, "c: every screen reaches the final values after the outage",
                   f"{[(s.name, s.current_targets(), s.last_c) for s in self.all_screens()]}")
        survivors_screens = [screen for node in self.nodes[:2] for screen in self.screens[node.name]]
        self.sequences_exact(survivors_screens, "c (screens open since the start)")
        self.check_restarted_screens("c")
        self.final_values(self.all_screens(), "c")
        agree, detail = await self.gets_agree()
        self.check(agree, "c: GET /api/v1/metrics/{id} agrees (value and seq) on all three nodes", detail)
        await self.finish_late_node(late, late_screen)

        refused_values = {refusal["value"] for refusal in self.ledger.refused}
        shown = [(screen.name, metric, value) for screen in self.all_screens() for metric in METRICS
                 for value in screen.targets[metric] if value in refused_values]
        missing: dict[str, list[str]] = {}
        stray = []
        for node in self.nodes:
            for metric in METRICS:
                status, body = await asyncio.to_thread(node.request, "GET", f"/api/v1/metrics/{metric}")
                history = {entry.get("seq"): entry.get("value") for entry in (body or {}).get("history", [])} \
                    if status == 200 and isinstance(body, dict) else {}
                for ack in self.ledger.acks:
                    if ack["metric"] == metric and history.get(ack["seq"]) != ack["value"]:
                        missing.setdefault(node.name, []).append(f"{metric} seq {ack['seq']}")
                stray += [f"{node.name} {metric} {value}" for value in history.values() if value in refused_values]
        count = len(self.ledger.acks)
        victim = self.nodes[2].name
        kept = {name: items for name, items in missing.items() if name != victim}
        self.check(not kept, f"c: the history (GET /api/v1/metrics/{{id}}) of every node that was never restarted "
                   f"holds every one of the {count} acknowledged values with its seq",
                   "; ".join(f"{name}: {len(items)} missing, e.g. {items[:4]}" for name, items in kept.items()))
        lost = missing.get(victim, [])
        self.check(not lost, f"c: the restarted {victim}'s history holds every acknowledged value too (stricter "
                   "reading: a value's history is the same on every node)",
                   f"{len(lost)} of {count} missing, e.g. {lost[:4]}")
        self.check(not shown and not stray, "c: no refused value shows on a screen or in any history",
                   f"{shown[:3]} {stray[:3]}")

    async def create_key(self, node: ClusterNode, name: str) -> tuple[str, str]:
        status, answer = await asyncio.to_thread(
            node.request, "POST", "/api/v1/admin/keys", {"name": name, "dashboards": ["vault"]}, ADMIN_TOKEN)
        self.check(status == 201 and isinstance(answer, dict) and answer.get("key", "").startswith("rbv_"),
                   f"k: key {name!r} created on {node.name} with the cluster's admin token", f"{status} {answer}")
        return (answer or {}).get("id", ""), (answer or {}).get("key", "")

    async def phase_k(self) -> None:
        print("-- k. viewer keys and admin tokens are the cluster's")
        key_id, secret = await self.create_key(self.nodes[0], "wall A")
        screens = {node.name: KeyScreen(node, secret) for node in self.nodes}
        keyless = KeyScreen(self.nodes[1], None)
        for screen in [*screens.values(), keyless]:
            await screen.settled()
        self.check(all(screen.hello for screen in screens.values()),
                   "k: a key made on node0 opens the vault dashboard on every node",
                   f"{[(name, screen.hello, screen.close) for name, screen in screens.items()]}")
        self.check(keyless.close is not None and keyless.close[0] == 1008 and not keyless.hello,
                   "k: without a key the vault dashboard is refused (1008)", f"{keyless.close}")
        for node in self.nodes:
            status, listed = await asyncio.to_thread(node.request, "GET", "/api/v1/admin/keys", None, ADMIN_TOKEN)
            ids = [key.get("id") for key in (listed or {}).get("keys", [])] if isinstance(listed, dict) else []
            self.check(status == 200 and key_id in ids, f"k: {node.name} lists the key", f"{status} {ids}")
        revoked_at = time.monotonic()
        status, answer = await asyncio.to_thread(
            self.nodes[1].request, "DELETE", f"/api/v1/admin/keys/{key_id}", None, ADMIN_TOKEN)
        self.check(status == 200 and isinstance(answer, dict) and answer.get("revoked") is True,
                   "k: node1 revokes the key made on node0", f"{status} {answer}")
        # node1 holds one of the three screens: the answer counts it as this node's, and claims no total it cannot know.
        self.check(isinstance(answer, dict) and "closedScreens" in answer and answer["closedScreens"] is None
                   and answer.get("closedScreensHere") == 1,
                   "k: the revocation's answer counts the answering node's screens (closedScreensHere 1) and gives no "
                   "cluster total (closedScreens null)", f"{answer}")
        while time.monotonic() - revoked_at < 5 and any(screen.close is None for screen in screens.values()):
            await asyncio.sleep(0.02)
        took = time.monotonic() - revoked_at
        closes = {name: screen.close for name, screen in screens.items()}
        self.check(all(close == (1008, "viewer key revoked") for close in closes.values()) and took < 1.0,
                   "k: the revocation closes the key's screens on every node with 1008 within a second",
                   f"{closes} after {took:.2f} s")
        print(f"  the key's screens on all three nodes closed {took:.3f} s after the revocation was sent")
        late = KeyScreen(self.nodes[2], secret)
        await late.settled()
        self.check(late.close is not None and late.close[0] == 1008 and not late.hello,
                   "k: the revoked key opens nothing on a third node", f"{late.close}")
        # For part b: a key revoked, and one created, while a node is down.
        self.key_to_revoke = await self.create_key(self.nodes[0], "wall B")
        for screen in [*screens.values(), keyless, late]:
            screen.stop()

    async def keys_while_down(self, survivor: ClusterNode) -> None:
        status, answer = await asyncio.to_thread(
            survivor.request, "DELETE", f"/api/v1/admin/keys/{self.key_to_revoke[0]}", None, ADMIN_TOKEN)
        self.check(status == 200, f"k: {survivor.name} revokes key B while a node is down", f"{status} {answer}")
        self.key_made_while_down = await self.create_key(survivor, "wall C")

    async def keys_after_restart(self, victim: ClusterNode) -> None:
        revoked = KeyScreen(victim, self.key_to_revoke[1])
        made = KeyScreen(victim, self.key_made_while_down[1])
        for screen in (revoked, made):
            await screen.settled()
        self.check(revoked.close is not None and revoked.close[0] == 1008 and not revoked.hello,
                   f"k: the restarted {victim.name} refuses the key revoked while it was down", f"{revoked.close}")
        self.check(made.hello, f"k: the restarted {victim.name} opens with the key made while it was down",
                   f"{made.close}")
        for screen in (revoked, made):
            screen.stop()
