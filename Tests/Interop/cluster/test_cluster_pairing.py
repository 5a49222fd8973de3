"""Pairing a TV with the TV on a second node of a Redis cluster (API level): two nodes on one redis-server, every
dashboard behind a viewer key. A code a TV got from node two (POST /api/v1/tv/pairings there) is paired through node
one with the admin token; node two's poll hands the TV its key once; the key opens its dashboard on both nodes and
nothing else; the code cannot be paired again through either node; Redis holds no secret; an unknown code is 404
and counted (429 past the per-node limit). A paired TV whose key was narrowed by an assignment while it was off asks
`POST /api/v1/tv/resume` on either node and gets its new page; a revoked key gets 404. The TV's screen, connected to
node two, is listed by node one's first `GET /api/v1/screens?cluster` (with node two's name), and not by its plain
list; no node writes its screen list to Redis before that first read.

Usage: test_cluster_pairing.py --binary .build/debug/rollboard [--redis-server redis-server]
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from websockets.sync.client import connect  # noqa: E402

from cluster_support import (  # noqa: E402
    ADMIN_TOKEN, CONTEXT, begin_run, cluster_arguments, run_cluster_scenario, start_node, write_config)

TOKEN = "cluster-pairing-token-0123456789abcdef"
DASHBOARD = """
id: wall
title: Wall
tiles:
  - {id: visitors, type: counter}
"""
FAILED_CLAIMS_PER_ADDRESS = 10  # PairingCodes.Defaults.failedClaimsPerAddress
PUBLISH_INTERVAL = 2.0  # ScreenListPublishing.Defaults.interval


def main() -> int:
    arguments = cluster_arguments(__doc__.splitlines()[0])
    checks, folder, redis, nodes, started = begin_run("rollboard-cluster-pairing-", arguments.redis_server)
    redis.start()
    config = write_config(folder, DASHBOARD, "wall", {"dashboardAccess": "key"})

    def scenario() -> None:
        one = start_node(nodes, arguments.binary, folder, TOKEN, redis.url, config, "one")
        two = start_node(nodes, arguments.binary, folder, TOKEN, redis.url, config, "two")
        up = time.monotonic()

        def pair(node, code: str, name: str = "Lobby TV", show: dict | None = None):
            body = {"code": code, "name": name, "show": show or {"dashboard": "wall"}, "kiosk": True}
            return node.request("POST", "/api/v1/admin/pairings", body, token=ADMIN_TOKEN)

        status, issued = two.request("POST", "/api/v1/tv/pairings")
        checks.check(status == 201, "node two issues a code", f"{status} {issued}")
        code, poll = issued["code"], issued["pollToken"]
        stored = redis.command("GET", f"{{rollboard}}:pairing:{code}") or ""
        checks.check('"secretHash"' in stored and "rbv_" not in stored,
                     "the code is in Redis with its secret's hash, not the secret", stored)

        status, answer = pair(one, code)
        checks.check(status == 201 and "rbv_" not in str(answer),
                     "node one pairs node two's code; the operator never sees the secret", f"{status} {answer}")
        key_id = answer.get("keyId") if isinstance(answer, dict) else None

        handed, polls, deadline = None, 0, time.monotonic() + 10
        while time.monotonic() < deadline:
            status, handed = two.request("GET", f"/api/v1/tv/pairings/{poll}")
            polls += 1
            if status != 200 or handed.get("state") == "paired":
                break
            time.sleep(0.1)
        secret = handed.get("key", "") if isinstance(handed, dict) else ""
        checks.check(handed.get("state") == "paired" and handed.get("keyId") == key_id and secret.startswith("rbv_"),
                     f"node two's poll hands the TV its key ({polls} polls)", f"{status} {handed}")
        status, again = two.request("GET", f"/api/v1/tv/pairings/{poll}")
        checks.check(status == 404, "the key is handed over once", f"{status} {again}")
        leftovers = [key for key in redis.command("KEYS", "{rollboard}:pairing:*") or []]
        checks.check(leftovers == [], "Redis keeps nothing of the pairing once handed over", str(leftovers))

        for node in (two, one):
            status, _ = node.request("GET", f"/api/v1/dashboards/wall?key={secret}")
            checks.check(status == 200, f"the key opens the dashboard on node {node.name}", str(status))
            status, _ = node.request("GET", f"/api/v1/dashboards/demo?key={secret}")
            checks.check(status == 403, f"the key opens nothing else on node {node.name}", str(status))
            status, used = pair(node, code, name="Other")
            checks.check(status == 404 and used.get("error") == "unknown_code",
                         f"the code cannot be paired again through node {node.name}", f"{status} {used}")

        # Node one counted one failed pairing already (the used code); node two's count is its own.
        wrong = "333333" if code != "333333" else "444444"
        refused = [pair(one, wrong)[0] for _ in range(FAILED_CLAIMS_PER_ADDRESS - 1)]
        status, limited = pair(one, wrong)
        checks.check(refused == [404] * len(refused) and status == 429,
                     "an unknown code is 404 and counted: past the limit of node one, 429",
                     f"{refused} then {status} {limited}")
        status, issued = two.request("POST", "/api/v1/tv/pairings")
        status, other = pair(two, issued["code"], name="Hall TV")
        checks.check(status == 201, "failed pairings are counted per node: node two still pairs", f"{status} {other}")

        screen_list_checks(checks, one, two, secret, redis, up)
        resume_checks(checks, one, two, secret, key_id)

    return run_cluster_scenario(checks, nodes, redis, folder, started, scenario)


def screen_list_checks(checks, one, two, secret: str, redis, up: float) -> None:
    """The TV's screen on node two is in node one's cluster-wide list, named after node two, not in its own list. No
    node writes its list to Redis until some node is asked for the cluster's screens; the first answer waits for
    them."""
    uri = f"wss://127.0.0.1:{two.port}/ws?dashboard=wall&name=Lobby%20TV&key={secret}"
    with connect(uri, ssl=CONTEXT, origin=f"https://127.0.0.1:{two.port}", open_timeout=10) as socket:
        socket.recv(timeout=10)  # its hello: the screen is in
        time.sleep(max(0.0, up + PUBLISH_INTERVAL * 2 - time.monotonic()))  # every node has ticked twice
        stored = redis.command("KEYS", "{rollboard}:screens*") or []
        checks.check(stored == [], "no node writes its screen list to Redis while nobody asks for it", str(stored))
        asked = time.monotonic()
        status, answer = one.request("GET", "/api/v1/screens?cluster", token=ADMIN_TOKEN)
        took = time.monotonic() - asked
        listed = [screen for screen in answer.get("screens", []) if screen.get("name") == "Lobby TV"] \
            if status == 200 else []
        _, own = two.request("GET", "/api/v1/screens", token=ADMIN_TOKEN)
        two_name = own["screens"][0].get("node") if own.get("screens") else None
        checks.check(len(listed) == 1 and listed[0].get("node") == two_name and listed[0].get("dashboard") == "wall",
                     f"node one's first GET /api/v1/screens?cluster lists node two's screen ({took:.1f} s)",
                     f"{status} {answer}")
        stored = sorted(redis.command("KEYS", "{rollboard}:screens*") or [])
        checks.check(stored == ["{rollboard}:screens", "{rollboard}:screens:watched"],
                     "once asked, the nodes publish their lists", str(stored))
        asked = time.monotonic()
        status, again = one.request("GET", "/api/v1/screens?cluster", token=ADMIN_TOKEN)
        took = time.monotonic() - asked
        checks.check(status == 200 and again.get("screens") == answer.get("screens") and took < 1,
                     f"the next read answers at once ({took:.2f} s)", f"{status} {again}")
        _, plain = one.request("GET", "/api/v1/screens", token=ADMIN_TOKEN)
        checks.check(plain.get("screens") == [], "node one's plain list has only its own screens (none)", str(plain))


def resume_checks(checks, one, two, secret: str, key_id: str) -> None:
    """The TV was off while it was reassigned: its key now opens `story` only; either node points it there."""
    status, moved = one.request("POST", "/api/v1/admin/screens/Lobby%20TV/assign",
                                {"show": {"dashboard": "story"}, "theme": "dark"}, token=ADMIN_TOKEN)
    checks.check(status == 202, "the TV's screen is assigned to another dashboard while it is off", f"{status} {moved}")
    for node in (two, one):
        deadline = time.monotonic() + 5
        while True:
            status, answer = node.request("POST", "/api/v1/tv/resume", {"key": secret})
            url = answer.get("url", "") if isinstance(answer, dict) else ""
            if url.startswith("/d/story") or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        checks.check(status == 200 and url.startswith("/d/story?name=Lobby%20TV") and f"key={secret}" in url,
                     f"node {node.name} points the returning TV at its new assignment", f"{status} {answer}")
    status, _ = one.request("DELETE", f"/api/v1/admin/keys/{key_id}", token=ADMIN_TOKEN)
    checks.check(status == 200, "the key is revoked", str(status))
    deadline = time.monotonic() + 5
    while True:
        status, answer = two.request("POST", "/api/v1/tv/resume", {"key": secret})
        if status == 404 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    checks.check(status == 404, "a revoked key resumes nowhere: 404 (the TV asks for a new code)", f"{status} {answer}")


if __name__ == "__main__":
    sys.exit(main())
