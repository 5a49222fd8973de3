"""Leaderboards on three nodes sharing one Redis: increments posted round-robin to every node, many at once, add
up to the exact totals on every node, and every screen of every node ends on the same rows (names, ranks, scores,
whole lines). Retries of keyed posts (`Idempotency-Key`) sent to the other nodes get the first answer and count
nothing, a key reused for another edit is refused naming it. A fourth node started afterwards, when the stream has
been trimmed to nothing, has the same board.

Usage: test_cluster_leaderboards.py --binary .build/debug/rollboard [--redis-server redis-server]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_support import (  # noqa: E402
    CONTEXT, Checks, ClusterNode, begin_run, clean_up, cluster_arguments, start_node, write_config)
from screen_state import ScreenState  # noqa: E402

TOKEN = "cluster-board-token-0123456789abcdef"
DASHBOARD_ID = "boards"
DASHBOARD = """
id: boards
title: Boards
tiles:
  - {id: leaders, type: leaderboard, size: 4, duration: 0.3}
"""
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Emma", "Farid"]


def top(board: dict[str, float], size: int = 4) -> list[tuple[str, str, int]]:
    """The rows a leaderboard of `size` shows for `board`: (name, score text, rank), best first, ties by name."""
    ranked = sorted(board.items(), key=lambda item: (-item[1], item[0]))[:size]
    rows = []
    for index, (name, score) in enumerate(ranked):
        rank = rows[-1][2] if index and ranked[index - 1][1] == score else index + 1
        rows.append((name, str(int(score)), rank))
    return rows


async def watch(port: int, seen: dict, key: str, stop: asyncio.Event) -> None:
    """One screen: keeps the newest `leaders` rows it was shown in `seen[key]`."""
    decoder = ScreenState()
    uri = f"wss://127.0.0.1:{port}/ws?dashboard={DASHBOARD_ID}&fps=30"
    async with websockets.connect(uri, ssl=CONTEXT, origin=f"https://127.0.0.1:{port}", ping_interval=None) as socket:
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(socket.recv(), 0.5)
            except asyncio.TimeoutError:
                continue
            decoder.read(message)
            state = decoder.wire.get("leaders")
            seen[key] = state if isinstance(state, dict) and "n" in state else None


def shown(state) -> list[tuple[str, str, int]] | None:
    """Rows at rest as (name, text, rank), or None while one is between lines or fading. The wire state holds one
    array per member (`n`, `t`, `r`, `y`, `o`), an entry per row."""
    if not state:
        return None
    rows = [dict(zip("ntryo", entry)) for entry in zip(*(state[key] for key in "ntryo"))]
    if not rows or any(row["y"] % 1000 or row["o"] != 1000 for row in rows):
        return None
    return [(row["n"], row["t"], row["r"]) for row in sorted(rows, key=lambda row: row["y"])]


async def scenario(nodes: list[ClusterNode], checks: Checks) -> dict[str, float]:
    seen: dict[str, object] = {}
    stop = asyncio.Event()
    screens = [asyncio.create_task(watch(node.port, seen, node.name, stop)) for node in nodes]
    await asyncio.sleep(1)
    checks.check(all(seen.get(node.name) is None for node in nodes),
                 "before any board every screen's leaderboard is null (the page shows —)", f"{seen}")

    expected = {"Ana": 10.0, "Ben": 20.0}
    status, body = nodes[0].request("POST", "/api/v1/leaderboards/leaders", {"entries": expected}, token=TOKEN)
    checks.check(status == 202, "a board is posted to node0", f"{status} {body}")

    generator = random.Random(22)
    posts = []
    for index in range(90):
        amounts = {name: generator.randint(1, 3) for name in generator.sample(NAMES, generator.randint(1, 2))}
        posts.append((nodes[index % 3], amounts))
        for name, amount in amounts.items():
            expected[name] = expected.get(name, 0) + amount

    def post(indexed):
        index, (node, amounts) = indexed
        # Every third post carries an Idempotency-Key; it is retried below on the two other nodes.
        headers = {"Idempotency-Key": f"sale-{index}"} if index % 3 == 0 else None
        return node.request("POST", "/api/v1/leaderboards/leaders", {"increment": amounts}, token=TOKEN,
                            headers=headers)

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=9) as pool:
        answers = await asyncio.get_running_loop().run_in_executor(
            None, lambda: list(pool.map(post, enumerate(posts))))
    took = time.monotonic() - started
    statuses = [status for status, _ in answers]
    checks.check(statuses == [202] * len(posts),
                 f"90 increments posted round-robin to three nodes, nine at a time, are all accepted ({took:.1f} s)",
                 f"{sorted(set(statuses))}")

    def retry(index):
        node, amounts = posts[index]
        others = [other for other in nodes if other is not node]
        return [other.request("POST", "/api/v1/leaderboards/leaders", {"increment": amounts}, token=TOKEN,
                              headers={"Idempotency-Key": f"sale-{index}"}) for other in others]

    keyed = list(range(0, len(posts), 3))
    with ThreadPoolExecutor(max_workers=6) as pool:
        retried = await asyncio.get_running_loop().run_in_executor(None, lambda: list(pool.map(retry, keyed)))
    wrong = [(index, answers[index][1].get("seq"), [(status, body.get("seq") if isinstance(body, dict) else body)
                                                     for status, body in again])
             for index, again in zip(keyed, retried)
             if any(status != 202 or body.get("seq") != answers[index][1].get("seq") for status, body in again)]
    checks.check(not wrong, f"{len(keyed)} keyed posts retried on both other nodes get the first answer's seq",
                 f"{wrong[:3]}")
    status, body = nodes[1].request("POST", "/api/v1/leaderboards/leaders", {"increment": {"Ana": 99}},
                                    token=TOKEN, headers={"Idempotency-Key": "sale-0"})
    checks.check(status == 422 and "Idempotency-Key" in json.dumps(body),
                 "a key reused for another edit is refused with 422 naming Idempotency-Key", f"{status} {body}")

    deadline = time.monotonic() + 15
    boards = {}
    while time.monotonic() < deadline:
        boards = {node.name: (node.request("GET", "/api/v1/leaderboards/leaders")[1] or {}).get("entries")
                  for node in nodes}
        if all(board == expected for board in boards.values()):
            break
        await asyncio.sleep(0.2)
    checks.check(all(board == expected for board in boards.values()),
                 "every node reads the exact totals (no increment lost or counted twice)",
                 f"expected {expected}, read {boards}")

    want = top(expected)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(shown(seen.get(node.name)) == want for node in nodes):
        await asyncio.sleep(0.1)
    checks.check(all(shown(seen.get(node.name)) == want for node in nodes),
                 f"every node's screen rests on the same rows: {want}",
                 f"{ {node.name: seen.get(node.name) for node in nodes} }")
    stop.set()
    await asyncio.gather(*screens, return_exceptions=True)
    return expected


def main() -> int:
    arguments = cluster_arguments(__doc__.split("\n\n")[0])
    binary = arguments.binary
    checks, folder, redis, nodes, started = begin_run("rollboard-boards-", arguments.redis_server)
    try:
        config = write_config(folder, DASHBOARD, DASHBOARD_ID)
        redis.start()
        for index in range(3):
            start_node(nodes, binary, folder, TOKEN, redis.url, config, f"node{index}")
        expected = asyncio.run(scenario(nodes, checks))

        trimmed = redis.command("XTRIM", "{rollboard}:changes", "MAXLEN", "0")
        late = start_node(nodes, binary, folder, TOKEN, redis.url, config, "late")
        board = (late.request("GET", "/api/v1/leaderboards/leaders")[1] or {}).get("entries")
        checks.check(isinstance(trimmed, int) and trimmed > 0 and board == expected,
                     "a node started after the stream was trimmed to nothing reads the same totals from Redis's "
                     "latest values", f"trimmed {trimmed}, read {board}")
        status, body = late.request("POST", "/api/v1/leaderboards/leaders", {"increment": {"Ana": 1}}, token=TOKEN)
        checks.check(status == 202 and body.get("entries", {}).get("Ana") == expected.get("Ana", 0) + 1,
                     "and its own increment adds to them", f"{status} {body}")
    except Exception:  # noqa: BLE001
        checks.check(False, "the scenario ran to its end", traceback.format_exc())
    finally:
        for node in nodes:
            code = node.stop()
            checks.check(code == 0, f"{node.name} exits 0 on SIGTERM", f"exit={code}")
        clean_up(checks, nodes, redis, folder, started)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
