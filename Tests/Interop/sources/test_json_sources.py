"""JSON sources against a scripted upstream (upstream.py, over HTTP and HTTPS), read by Python `websockets` screens.

One well-behaved source (every 2 s) and one per hostile upstream (every 10 s, timeout 10 s). Checks:

- the good source's value reaches a screen and the store (`GET /api/v1/metrics/{id}` names the source); an unchanged
  value is not committed again; the header's `${SRC_TOKEN}` reached the upstream expanded;
- a leaderboard fed by an array of objects (items/name/score pointers) reaches the screen and the store;
- every hostile upstream (a response that never ends, 50 MB, a byte-per-second trickle, a redirect loop, a redirect to
  file://, invalid JSON, invalid UTF-8, an untrusted certificate, HTTP 500) is reported down with its reason in
  `GET /api/v1/admin/sources` and to the screens (`sources` message), within its bound;
- meanwhile a producer's odometer keeps moving on the screen with no gap between frames longer than 1 s;
- `/metrics` has `rollboard_source_up` 1 and 0, the last success time and the fetch histogram;
- the secret is in no log line, metric or API answer;
- after SIGHUP with the invalid-JSON source pointed at a good document, that tile is no longer stale.

Usage: test_json_sources.py --binary .build/debug/rollboard
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))

from rollboard_process import (  # noqa: E402
    Checks, RollboardProcess, binary_arguments, free_port, stop_and_report, until, wait_until_listening)
from source_screen import SourceScreen  # noqa: E402

TOKEN = "json-sources-producer-token-0123456789"
ADMIN = "json-sources-admin-token-0123456789abcdef"
SECRET = "very-secret-upstream-token-4711"

# (source id, path on the upstream, https?, expected reason)
HOSTILE = [
    ("endless", "/endless", False, "answer larger than 1048576 bytes"),
    ("big", "/big", False, "answer larger than 1048576 bytes"),
    ("trickle", "/trickle", False, "upstream too slow"),
    ("hang", "/hang", False, "upstream too slow"),
    ("loop", "/loop", False, "more than 5 redirects"),
    ("tofile", "/to-file", False, "only http and https are followed"),
    ("badjson", "/invalid-json", False, "answer is not JSON"),
    ("badutf8", "/invalid-utf8", False, "answer is not UTF-8"),
    ("untrusted", "/json", True, "untrusted certificate"),
    ("failing", "/status/500", False, "upstream answered HTTP 500"),
]


def write_config(folder: str, port: int, tls_port: int, badjson_path: str = "/invalid-json") -> None:
    os.makedirs(os.path.join(folder, "dashboards"), exist_ok=True)
    os.makedirs(os.path.join(folder, "sources"), exist_ok=True)
    tiles = ["  - {id: good, type: odometer, metric: good, decimals: 1}",
             "  - {id: moving, type: odometer, metric: moving, decimals: 0}",
             "  - {id: committers, type: leaderboard}"]
    tiles += [f"  - {{id: {name}, type: counter, metric: {name}}}" for name, _, _, _ in HOSTILE]
    with open(os.path.join(folder, "dashboards", "ops.yaml"), "w") as handle:
        handle.write("id: ops\ntitle: Ops\ngrid: {columns: 4, rows: 4}\ntiles:\n" + "\n".join(tiles) + "\n")
    with open(os.path.join(folder, "server.yaml"), "w") as handle:
        handle.write(f"adminTokens: [{ADMIN}]\n")
    with open(os.path.join(folder, "sources", "good.yaml"), "w") as handle:
        handle.write(f"type: json\nurl: http://127.0.0.1:{port}/value\nevery: 2s\ntimeout: 2s\n"
                     'headers: {Authorization: "Bearer ${SRC_TOKEN}"}\n'
                     "metrics:\n  - {metric: good, pointer: /value}\n")
    with open(os.path.join(folder, "sources", "board.yaml"), "w") as handle:
        handle.write(f"type: json\nurl: http://127.0.0.1:{port}/board\nevery: 2s\ntimeout: 2s\n"
                     "metrics:\n  - {leaderboard: committers, items: /data, name: /login, score: /count}\n")
    for name, path, secure, _ in HOSTILE:
        if name == "badjson":
            path = badjson_path
        base = f"https://127.0.0.1:{tls_port}" if secure else f"http://127.0.0.1:{port}"
        pointer = "/data/visitors/0" if path == "/json" else "/value"
        with open(os.path.join(folder, "sources", f"{name}.yaml"), "w") as handle:
            handle.write(f"type: json\nurl: {base}{path}\nevery: 10s\ntimeout: 10s\n"
                         f"metrics:\n  - {{metric: {name}, pointer: {pointer}}}\n")


def fetch_json(url: str):
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


async def scenario(binary: str, checks: Checks) -> None:
    folder = tempfile.mkdtemp(prefix="rollboard-sources-")
    port, tls_port = free_port(), free_port()
    upstream = subprocess.Popen([sys.executable, os.path.join(HERE, "upstream.py"), "--port", str(port),
                                 "--tls-port", str(tls_port), "--tls-dir", os.path.join(folder, "tls")])
    server = None
    try:
        wait_until_listening(tls_port)
        urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/set?v=123.5", data=b"",
                                                      method="POST"), timeout=5).read()
        config = os.path.join(folder, "config")
        write_config(config, port, tls_port)
        server = RollboardProcess(binary, os.path.join(folder, "data"), TOKEN, config=config,
                                  environment={"SRC_TOKEN": SECRET})
        server.start()
        screen = SourceScreen(server.port, "ops")
        screen.task = asyncio.create_task(screen.run())

        checks.check(await until(lambda: screen.target("good") == 123.5, 15), "the good source's value reaches a screen",
                     f"{screen.states.get('good')}")
        status, metric = server.request("GET", "/api/v1/metrics/good")
        checks.check(status == 200 and metric.get("value") == 123.5 and metric.get("source") == "good",
                     "GET /api/v1/metrics/good has the value and names its source", f"{status} {metric}")
        checks.check(await until(lambda: '"ada"' in json.dumps(screen.states.get("committers"))
                                 and '"bob"' in json.dumps(screen.states.get("committers")), 10),
                     "a leaderboard fed by a JSON array of objects reaches the screen", f"{screen.states.get('committers')}")
        status, board = server.request("GET", "/api/v1/leaderboards/committers", token=TOKEN)
        checks.check(status == 200 and board.get("entries") == {"ada": 123.5, "bob": 2},
                     "and the store, with each item's name and score", f"{status} {board}")
        seen = fetch_json(f"http://127.0.0.1:{port}/count")
        checks.check(seen["authorization"] == f"Bearer {SECRET}", "the header's ${SRC_TOKEN} reached the upstream",
                     f"{seen}")

        # A producer keeps an odometer moving while the hostile fetches run.
        started = time.monotonic()
        frames_before = len(screen.frame_times)
        reasons: dict = {}
        value = 0
        while time.monotonic() - started < 14:
            value += 1000
            server.request("POST", "/api/v1/metrics/moving", {"value": value}, token=TOKEN)
            await asyncio.sleep(0.5)
            _, answer = server.request("GET", "/api/v1/admin/sources", token=ADMIN)
            reasons = {source["id"]: source for source in answer["sources"]}
            if all(reasons.get(name, {}).get("reason") == reason for name, _, _, reason in HOSTILE):
                break
        window = screen.frame_times[frames_before:]
        gaps = [later - earlier for earlier, later in zip(window, window[1:])]
        checks.check(len(window) > 20 and max(gaps) < 1.0, "frames keep coming while the hostile upstreams are fetched",
                     f"{len(window)} frames, longest gap {max(gaps, default=0):.2f} s")
        for name, _, _, reason in HOSTILE:
            entry = reasons.get(name, {})
            checks.check(entry.get("state") == "down" and entry.get("reason") == reason,
                         f"{name}: reported down with \"{reason}\" within 14 s", f"{entry}")
        checks.check(reasons.get("good", {}).get("state") == "up" and reasons["good"].get("lastSuccess"),
                     "the good source is up with its last success", f"{reasons.get('good')}")
        await until(lambda: len(screen.stale) == len(HOSTILE), 5)
        expected = {name: reason for name, _, _, reason in HOSTILE}
        checks.check(screen.stale == expected, "the screen is told each failing tile and why (sources message)",
                     f"{screen.stale}")

        history = server.request("GET", "/api/v1/metrics/good")[1].get("history", [])
        checks.check(len(history) == 1, "an unchanged value is not committed again (one entry after many fetches)",
                     f"{history}")

        metrics_text = urllib.request.urlopen(
            urllib.request.Request(server.base_url + "/metrics"), context=server.ssl_context(), timeout=5
        ).read().decode()
        checks.check('rollboard_source_up{source="good"} 1' in metrics_text
                     and 'rollboard_source_up{source="big"} 0' in metrics_text,
                     "/metrics: rollboard_source_up is 1 for the good source, 0 for a failing one")
        checks.check('rollboard_source_last_success_seconds{source="good"}' in metrics_text
                     and 'rollboard_source_fetch_seconds_count{source="good"}' in metrics_text,
                     "/metrics: last success time and fetch-duration histogram")
        _, admin_text = server.request("GET", "/api/v1/admin/sources", token=ADMIN)
        everything = json.dumps(admin_text) + metrics_text + json.dumps(metric) + server.read_log()
        checks.check(SECRET not in everything, "the secret is in no log line, metric or API answer")

        write_config(config, port, tls_port, badjson_path="/value")
        server.process.send_signal(signal.SIGHUP)
        checks.check(await until(lambda: "badjson" not in screen.stale, 15),
                     "after SIGHUP pointing the invalid-JSON source at a good document, its tile is no longer stale",
                     f"{screen.stale}")
        checks.check(await until(lambda: screen.target("badjson") == 123.5, 10), "and its value reaches the screen",
                     f"{screen.states.get('badjson')}")
        screen.task.cancel()
    finally:
        stop_and_report(server, checks)
        upstream.kill()
        upstream.wait()


def main() -> int:
    arguments = binary_arguments()
    checks = Checks()
    asyncio.run(scenario(arguments.binary, checks))
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
