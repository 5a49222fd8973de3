"""Sources and redirects through the real server: configured headers never reach a host the source does not name.

Two scripted upstreams (upstream.py) on two loopback hosts, 127.0.0.1 ("a") and 127.0.0.2 ("b"); every source
sends `X-Api-Key` (the docs' example) and `Authorization` from the environment. Checks, from
`GET /api/v1/admin/sources` and each upstream's record of what it was asked (`/seen`):

- a redirect from a to b under the default (`redirects: same-host`) fails with the reason, and b is never asked;
- `redirects: any-host` follows it, and b never sees either header (a did);
- `redirects: none` follows nothing and says so;
- a redirect to the source's own host is followed, with the headers;
- a pointer that finds a string names the metric;
- a producer token's 403 on `/api/v1/admin/sources` says it cannot list sources.

Traffic goes to loopback only; proxies in the environment are ignored (unset for the server).

Usage: test_source_redirects.py --binary .build/debug/rollboard
"""

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))

from rollboard_process import (  # noqa: E402
    Checks, RollboardProcess, binary_arguments, free_port, wait_until_listening, write_file as write)

TOKEN = "source-redirects-producer-token-0123456789"
ADMIN = "source-redirects-admin-token-0123456789abcdef"
API_KEY = "api-key-from-the-environment-4711"
BEARER = "bearer-from-the-environment-0815"


def start_upstream(host: str, port: int) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, os.path.join(HERE, "upstream.py"), "--host", host, "--port", str(port)])
    if wait_until_listening(port, host):
        return process
    raise RuntimeError(f"upstream on {host}:{port} did not listen")


def seen(host: str, port: int) -> list:
    with urllib.request.urlopen(f"http://{host}:{port}/seen", timeout=5) as response:
        return json.loads(response.read())


def main() -> int:
    arguments = binary_arguments()
    for name in list(os.environ):
        if "proxy" in name.lower():
            del os.environ[name]
    checks = Checks()
    folder = tempfile.mkdtemp(prefix="rollboard-source-redirects-")
    port_a, port_b = free_port(), free_port()
    upstream_a = start_upstream("127.0.0.1", port_a)
    upstream_b = start_upstream("127.0.0.2", port_b)
    server = None
    try:
        def redirect(source: str) -> str:
            to_b = urllib.parse.quote(f"http://127.0.0.2:{port_b}/value?from={source}", safe="")
            return f"http://127.0.0.1:{port_a}/redirect?to={to_b}"

        config = os.path.join(folder, "config")
        sources = {
            # id: (url, extra keys, pointer)
            "samehost": (redirect("samehost"), "", "/value"),
            "anyhost": (redirect("anyhost"), "redirects: any-host\n", "/value"),
            "nofollow": (f"http://127.0.0.1:{port_a}/redirect?to=%2Fvalue", "redirects: none\n", "/value"),
            "ownhost": (f"http://127.0.0.1:{port_a}/redirect?to=%2Fvalue", "", "/value"),
            "stringy": (f"http://127.0.0.1:{port_a}/json", "", "/name"),
        }
        tiles = "".join(f"  - {{id: {name}, type: counter, metric: {name}}}\n" for name in sources)
        write(os.path.join(config, "dashboards", "ops.yaml"),
              "id: ops\ntitle: Ops\ngrid: {columns: 3, rows: 2}\ntiles:\n" + tiles)
        write(os.path.join(config, "server.yaml"), f"adminTokens: [{ADMIN}]\n")
        for name, (url, extra, pointer) in sources.items():
            write(os.path.join(config, "sources", f"{name}.yaml"),
                  f"type: json\nurl: \"{url}\"\nevery: 2s\ntimeout: 2s\n{extra}"
                  'headers: {X-Api-Key: "${SHOP_API_KEY}", Authorization: "Bearer ${SHOP_BEARER}"}\n'
                  f"metrics:\n  - {{metric: {name}, pointer: {pointer}}}\n")
        server = RollboardProcess(arguments.binary, os.path.join(folder, "data"), TOKEN, config=config,
                                  environment={"SHOP_API_KEY": API_KEY, "SHOP_BEARER": BEARER})
        server.start()

        expected = {
            "samehost": ("down", "redirect to another host refused: 127.0.0.2 (redirects: same-host)"),
            "anyhost": ("up", None),
            "nofollow": ("down", "upstream redirected (HTTP 302); redirects: none"),
            "ownhost": ("up", None),
            "stringy": ("down", "stringy: /name is a string, not a number"),
        }
        states: dict = {}
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            _, answer = server.request("GET", "/api/v1/admin/sources", token=ADMIN)
            states = {source["id"]: source for source in answer["sources"]}
            if all(states.get(name, {}).get("state") == state and states[name].get("reason") == reason
                   for name, (state, reason) in expected.items()):
                break
            time.sleep(0.2)
        for name, (state, reason) in expected.items():
            entry = states.get(name, {})
            checks.check(entry.get("state") == state and entry.get("reason") == reason,
                         f"{name}: {state}" + (f" with \"{reason}\"" if reason else ""), f"{entry}")

        asked_b = seen("127.0.0.2", port_b)
        asked_a = seen("127.0.0.1", port_a)
        checks.check(asked_b, "any-host reached the other host", f"{asked_b}")
        leaked = [request for request in asked_b
                  if {"x-api-key", "authorization"} & set(request["headers"])
                  or API_KEY in json.dumps(request) or BEARER in json.dumps(request)]
        checks.check(not leaked, "the other host never saw X-Api-Key or Authorization", f"{leaked[:2]}")
        from_a = [request for request in asked_a if request["path"].startswith("/redirect?to=http")]
        checks.check(from_a and all(request["headers"].get("x-api-key") == API_KEY for request in from_a),
                     "the source's own host got them", f"{from_a[:1]}")
        own = [request for request in asked_a if request["path"] == "/value"]
        checks.check(own and all(request["headers"].get("x-api-key") == API_KEY for request in own),
                     "a redirect to the source's own host is followed with the headers", f"{own[:1]}")
        from_same = [request for request in asked_b if "from=samehost" in request["path"]]
        checks.check(not from_same and any("from=anyhost" in request["path"] for request in asked_b),
                     "same-host (the default) never asked the other host at all", f"{from_same[:1]}")

        status, answer = server.request("GET", "/api/v1/admin/sources", token=TOKEN)
        checks.check(status == 403 and answer.get("detail") == "a producer token cannot list sources; use an admin token",
                     "a producer token's 403 on /api/v1/admin/sources says what it cannot do", f"{status} {answer}")
        status, answer = server.request("POST", "/api/v1/admin/reload", token=TOKEN)
        checks.check(status == 403 and "cannot reload the configuration" in json.dumps(answer),
                     "and on /api/v1/admin/reload too", f"{status} {answer}")
    finally:
        if server:
            server.stop()
            if checks.failed:
                print(server.read_log()[-3000:])
        for upstream in (upstream_a, upstream_b):
            upstream.kill()
            upstream.wait()
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
