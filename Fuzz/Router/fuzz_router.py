#!/usr/bin/env python3
"""Router fuzzer: every route of a real `rollboard serve`, through the real request path (TLS, the HTTP parser, the
router, middleware and handlers), with hostile path segments, query strings, headers and bodies.

The route table is read from `Sources/RollboardAPI/Routing/APIRoutes.swift`, so a new route is fuzzed without
touching this file; the page's routes (`/d/`, `/p/`, `/ws`, `/metrics`, static files) are added by hand. Requests go
with no token, a producer token and an admin token. The fuzzer fails when:

- the server process dies, or stops answering (a request without an answer within 10 s);
- an answer is not HTTP/1.1 with a status line, or is a 5xx other than 503;
- an API error (4xx, 503) has no JSON body with an `error` field;
- after the run, `/healthz` is not 200, or SIGTERM does not end the server with exit status 0.

A failure prints the request that caused it (method, target, headers, body) to replay by hand, and the server log.
The first requests are always the known crashers (the issue that added this fuzzer: a series `from=-1e300` aborted
the server), then a seeded random walk for `--seconds`.

Usage: fuzz_router.py --binary PATH [--seconds 60] [--seed N]
Traffic goes to 127.0.0.1 only.
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import ssl
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Interop", "server"))
from rollboard_process import RollboardProcess, insecure_client_context  # noqa: E402

PRODUCER_TOKEN = "fuzz-producer-token-0123456789abcdef"
ADMIN_TOKEN = "fuzz-admin-token-0123456789abcdef"

# Numbers and dates that have trapped, or could trap, a conversion (Double to Int64, Int overflow, calendar maths).
HOSTILE_NUMBERS = [
    "-1e300", "1e300", "-9.3e15", "9.3e15", "9.2e15", "-9.2e15", "1e309", "-1e309", "1e-400", "NaN", "nan", "inf",
    "-inf", "Infinity", "0x10", "0x7fffffffffffffff", "-0", "-0.0", "0", "1", "-1", "0.5", "-0.5", "2.5", "1e15",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551615", "18446744073709551616", "4294967296", "2147483648", "-2147483649", "1" * 400,
    "1.7976931348623157e308", "-1.7976931348623157e308", "5e-324", "1_000", "+5", " 5", "5 ", "5e", "e5", ".5", "5.",
    "1e99999", "00000000000000000001", "٣", "１", "",
]
HOSTILE_DATES = [
    "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z", "1969-12-31T23:59:59Z", "2026-11-26T24:00:00Z", "2026-11-26T09:00:60Z",
    "2026-11-26T09:00:00.9999999999Z", "2026-11-26T09:00:00+01:00", "2026-11-26", "-2026-01-01T00:00:00Z",
    "+292278994-08-17T07:12:55Z",
]
HOSTILE_STRINGS = [
    "", " ", "a" * 5000, "%00", "%", "%zz", "%ff%fe", "..", "../../etc/passwd", "%2e%2e%2f", "\u0301" * 300,
    "a" + "\u0301" * 3000, "\u202e", "\u200b", "💥" * 100, "<script>alert(1)</script>", "'\";--", "*", "%0d%0aX: y",
    "null", "true", "[]", "{}", "\\", "%5c", "~", "%C0%AE", "%e2%80%ae",
]
QUERY_NAMES = [
    "from", "to", "step", "cursor", "after", "limit", "key", "theme", "kiosk", "name", "fps", "motion", "since",
    "protocol", "dashboard", "playlist", "seconds", "window", "format", "x",
]
HEADER_NAMES = [
    "Idempotency-Key", "Accept", "Content-Type", "Origin", "If-None-Match", "If-Modified-Since", "Range", "Cookie",
    "X-Forwarded-For", "X-Request-ID", "Accept-Encoding", "Sec-WebSocket-Version", "Sec-WebSocket-Key",
    "Sec-WebSocket-Extensions", "Upgrade", "Connection", "Expect", "Authorization",
]
BODY_FIELDS = [
    "value", "increment", "eventId", "items", "id", "entries", "text", "seconds", "index", "progress", "slides",
    "duration", "interval", "name", "dashboards", "dashboard", "playlist", "show", "theme", "kiosk", "page", "goto",
    "label", "expiresAt", "metrics", "scope", "note", "level", "at", "until", "size",
]


def percent(text: str) -> str:
    """Percent-encodes what cannot stand in a request target, keeping % and the characters the fuzzer chose."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in " #?&=" or code < 0x21 or code >= 0x7F:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
        else:
            out.append(ch)
    return "".join(out)


def read_routes() -> list:
    """(method, pattern) of every API route, read from the route table, plus the page's own routes."""
    with open(os.path.join(ROOT, "Sources/RollboardAPI/Routing/APIRoutes.swift"), encoding="utf-8") as handle:
        source = handle.read()
    verbs = {"read": "GET", "post": "POST", "delete": "DELETE", "put": "PUT", "patch": "PATCH"}
    routes = [(verbs[verb], pattern) for verb, pattern in re.findall(r'\.(read|post|delete|put|patch)\("([^"]+)"', source)]
    if len(routes) < 20:
        raise SystemExit(f"read only {len(routes)} routes from APIRoutes.swift: has the route table's shape changed?")
    routes += [("GET", "/metrics"), ("GET", "/d/:id"), ("GET", "/p/:id"), ("GET", "/ws"), ("GET", "/"),
               ("GET", "/dashboard.html"), ("GET", "/:id"), ("GET", "/js/:id")]
    return routes


class Answer:
    def __init__(self, status: int, headers: dict, body: bytes, raw_head: str):
        self.status = status
        self.headers = headers
        self.body = body
        self.raw_head = raw_head


class Connection:
    """One keep-alive TLS connection that sends raw request bytes and reads one answer (Content-Length or chunked)."""

    def __init__(self, port: int):
        raw = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock = insecure_client_context().wrap_socket(raw, server_hostname="localhost")
        self.buffer = b""

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def _fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buffer += chunk

    def _take_line(self) -> bytes:
        while b"\r\n" not in self.buffer:
            self._fill()
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def _take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self._fill()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def exchange(self, request: bytes, head_only: bool) -> Answer:
        self.sock.sendall(request)
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
            if len(self.buffer) > 1_000_000:
                raise ValueError("an answer's head over 1 MB")
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        text = head.decode("latin-1")
        lines = text.split("\r\n")
        match = re.fullmatch(r"HTTP/1\.1 (\d{3}) .*", lines[0]) or re.fullmatch(r"HTTP/1\.1 (\d{3})", lines[0])
        if not match:
            raise ValueError(f"not an HTTP/1.1 status line: {lines[0]!r}")
        headers: dict = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
        status = int(match.group(1))
        body = b""
        if head_only or status in (101, 204, 304):
            pass
        elif "chunked" in ",".join(headers.get("transfer-encoding", [])).lower():
            while True:
                size = int(self._take_line().split(b";")[0], 16)
                if size == 0:
                    while self._take_line():
                        pass
                    break
                body += self._take(size)
                self._take_line()
        else:
            body = self._take(int(headers.get("content-length", ["0"])[0]))
        return Answer(status, headers, body, text)


class Fuzzer:
    def __init__(self, server: RollboardProcess, rng: random.Random, routes: list):
        self.server = server
        self.rng = rng
        self.routes = routes
        self.connection: Connection | None = None
        self.sent = 0
        self.statuses: dict = {}
        self.ids = {"metric": ["revenue"], "dashboard": ["demo"], "playlist": [], "screen": [], "key": []}

    # -- the parts of a request -------------------------------------------------------------------------------------

    def learn_ids(self) -> None:
        """Real ids, so that requests reach the handlers behind the lookups and not only the 404s."""
        status, body = self.server.request("GET", "/api/v1/metrics", token=PRODUCER_TOKEN)
        if status == 200 and isinstance(body, dict):
            for entry in body.get("metrics", []):
                if isinstance(entry, dict) and "id" in entry:
                    self.ids["metric"].append(entry["id"])
        status, body = self.server.request("GET", "/api/v1/dashboards", token=PRODUCER_TOKEN)
        if status == 200 and isinstance(body, dict):
            self.ids["dashboard"] += [d["id"] for d in body.get("dashboards", []) if isinstance(d, dict) and "id" in d]
            kinds = {"wheel": "wheels", "carousel": "carousels", "text": "texts", "leaderboard": "leaderboards"}
            for dashboard in body.get("dashboards", []):
                for tile in dashboard.get("tiles", []) if isinstance(dashboard, dict) else []:
                    if isinstance(tile, dict) and isinstance(tile.get("metric", tile.get("id")), str):
                        kind = kinds.get(tile.get("type"), "metrics")
                        self.ids.setdefault(kind, []).append(tile.get("metric", tile.get("id")))
        status, body = self.server.request("GET", "/api/v1/admin/playlists", token=ADMIN_TOKEN)
        if status == 200 and isinstance(body, dict):
            self.ids["playlist"] += [p["id"] for p in body.get("playlists", []) if isinstance(p, dict) and "id" in p]

    def segment(self, collection: str = "") -> str:
        """A path parameter: mostly a real id of the collection the route names (`metrics`, `dashboards`, …)."""
        roll = self.rng.random()
        if roll < 0.7:
            known = {"dashboards": "dashboard", "playlists": "playlist", "keys": "key", "screens": "screen"}
            pool = self.ids.get(known.get(collection, collection)) or []
            if not pool or self.rng.random() < 0.1:
                pool = [i for ids in self.ids.values() for i in ids]
            return self.rng.choice(pool or ["demo"])
        if roll < 0.75:
            return percent(self.rng.choice(HOSTILE_STRINGS))
        if roll < 0.9:
            return percent(self.rng.choice(HOSTILE_NUMBERS))
        return percent("".join(chr(self.rng.randrange(0x20, 0x3000)) for _ in range(self.rng.randrange(1, 40))))

    def value(self) -> str:
        roll = self.rng.random()
        if roll < 0.4:
            return self.rng.choice(HOSTILE_NUMBERS)
        if roll < 0.6:
            return self.rng.choice(HOSTILE_DATES)
        if roll < 0.85:
            return self.rng.choice(HOSTILE_STRINGS)
        return self.rng.choice(["raw", "5m", "1h", "1d", "0m", "100001m", "-5m", "5x", "dark", "light", "reduced",
                                "full", "1:2", "0:0", "-1:-1", "18446744073709551616:1", "2", "3", "demo", "story"])

    def query(self) -> str:
        if self.rng.random() < 0.25:
            return ""
        pairs = []
        for _ in range(self.rng.randrange(1, 5)):
            name = self.rng.choice(QUERY_NAMES) if self.rng.random() < 0.9 else percent(self.rng.choice(HOSTILE_STRINGS))
            if self.rng.random() < 0.05:
                pairs.append(name)
            else:
                pairs.append(f"{name}={percent(self.value())}")
        if self.rng.random() < 0.05:
            pairs.append(pairs[0])  # the same name twice
        return "?" + "&".join(pairs)

    def json_value(self, depth: int = 0):
        roll = self.rng.random()
        if roll < 0.35:
            text = self.rng.choice(HOSTILE_NUMBERS)
            try:
                number = float(text)
            except ValueError:
                return text
            return RawNumber(text) if re.fullmatch(r"-?\d+(\.\d+)?([eE][+-]?\d+)?", text) else number
        if roll < 0.55:
            return self.rng.choice(HOSTILE_STRINGS + HOSTILE_DATES)
        if roll < 0.62:
            return self.rng.choice([True, False, None])
        if depth > 3:
            return self.rng.randrange(-10, 10)
        if roll < 0.8:
            return [self.json_value(depth + 1) for _ in range(self.rng.randrange(0, 4))]
        return self.json_object(depth + 1)

    def json_object(self, depth: int = 0) -> dict:
        fields = {}
        for _ in range(self.rng.randrange(0, 5)):
            name = self.rng.choice(BODY_FIELDS) if self.rng.random() < 0.85 else self.rng.choice(HOSTILE_STRINGS)[:50]
            fields[name] = self.json_value(depth)
        return fields

    def body(self, pattern: str = "") -> bytes:
        roll = self.rng.random()
        shapes = [shape for suffix, shape in ROUTE_BODIES if pattern.endswith(suffix)]
        if shapes and roll < 0.5:
            # The shape this route takes, with one hostile value: reaches past the field checks to the value checks.
            shape = json.loads(json.dumps(self.rng.choice(shapes)))
            fill(shape, self.json_value())
            return dump(shape)
        roll = self.rng.random()
        if roll < 0.05:
            return b""
        if roll < 0.1:
            return bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 200)))
        if roll < 0.15:
            return b"[" * 600 + b"]" * 600
        if roll < 0.45:
            # A shape the handlers take, with one hostile value: reaches past the field checks.
            shapes = [
                {"value": None}, {"increment": None, "eventId": "e1"}, {"items": [{"id": "revenue", "value": None}]},
                {"entries": {"Alice": None}}, {"increment": {"Bob": None}}, {"text": None}, {"seconds": None},
                {"index": None}, {"progress": None}, {"slides": [None]}, {"value": 5, "duration": None},
                {"name": None, "dashboards": ["demo"]}, {"text": "x", "seconds": None}, {"show": {"dashboard": None}},
                {"dashboard": None}, {"items": [{"id": "orders", "increment": None, "eventId": "x"}]},
            ]
            shape = json.loads(json.dumps(self.rng.choice(shapes)))
            fill(shape, self.json_value())
            return dump(shape)
        return dump(self.json_object())

    def headers(self, method: str, body: bytes, pattern: str = "") -> list:
        headers = [("Host", "127.0.0.1")]
        roll = self.rng.random()
        # Mostly the token the route wants, so that requests get past authentication to the handlers.
        right, wrong = ((ADMIN_TOKEN, PRODUCER_TOKEN) if "/admin" in pattern or pattern == "/api/v1/screens"
                        else (PRODUCER_TOKEN, ADMIN_TOKEN))
        if roll < 0.6:
            headers.append(("Authorization", f"Bearer {right}"))
        elif roll < 0.7:
            headers.append(("Authorization", f"Bearer {wrong}"))
        elif roll < 0.8:
            headers.append(("Authorization", self.rng.choice(["Bearer", "Bearer ", "Basic Zm9vOmJhcg==", "bearer x",
                                                              "Bearer " + "x" * 6000, "Bearer \u00e9"])))
        for _ in range(self.rng.randrange(0, 4)):
            name = self.rng.choice(HEADER_NAMES)
            value = self.value()
            if name == "Upgrade" and self.rng.random() < 0.5:
                value = "websocket"
            headers.append((name, value))
        if self.rng.random() < 0.05:
            headers.append(("Idempotency-Key", "k" * self.rng.choice([1, 200, 10_000])))
            headers.append(("Idempotency-Key", "second"))
        if method in ("POST", "PUT", "PATCH", "DELETE") or body:
            if self.rng.random() < 0.9:
                headers.append(("Content-Type", "application/json"))
            headers.append(("Content-Length", str(len(body))))
        return headers

    def request(self) -> tuple:
        method, pattern = self.rng.choice(self.routes)
        if self.rng.random() < 0.05:
            method = self.rng.choice(["GET", "POST", "DELETE", "PUT", "HEAD", "OPTIONS", "PATCH"])
        parts = pattern.split("/")
        path = "/".join(self.segment(parts[index - 1] if index else "") if part.startswith(":") else part
                        for index, part in enumerate(parts))
        if pattern == "/ws" and self.rng.random() < 0.5:
            path += "?" + self.rng.choice(["dashboard", "playlist"]) + "=" + self.segment()
            target = path + self.query().replace("?", "&", 1)
        else:
            target = path + self.query()
        if self.rng.random() < 0.03:
            target += "#fragment"
        body = self.body(pattern) if method in ("POST", "PUT", "PATCH") or self.rng.random() < 0.03 else b""
        return method, target, self.headers(method, body, pattern), body

    # -- sending and judging ------------------------------------------------------------------------------------------

    def send(self, method: str, target: str, headers: list, body: bytes) -> Answer | None:
        """The answer, or None when the server closed the connection (allowed: it may refuse and close)."""
        request = f"{method} {target} HTTP/1.1\r\n".encode("utf-8", "surrogateescape")
        for name, value in headers:
            request += f"{name}: {value}\r\n".encode("utf-8", "surrogateescape")
        request += b"\r\n" + body
        for attempt in range(2):
            try:
                if self.connection is None:
                    self.connection = Connection(self.server.port)
                answer = self.connection.exchange(request, head_only=(method == "HEAD"))
            except (OSError, ssl.SSLError) as error:
                if isinstance(error, socket.timeout):
                    raise Failure("no answer within 10 s", method, target, headers, body) from error
                if self.connection:
                    self.connection.close()
                self.connection = None
                if attempt == 0 and not self.alive():
                    raise Failure("the server died", method, target, headers, body) from error
                if attempt == 0:
                    continue  # an idle keep-alive connection closed: the request again on a new one
                return None
            except ValueError as error:
                raise Failure(f"a malformed answer: {error}", method, target, headers, body) from error
            closes = "close" in ",".join(answer.headers.get("connection", [])).lower()
            if answer.status == 101 or closes:
                self.connection.close()
                self.connection = None
            return answer
        return None

    def alive(self) -> bool:
        return self.server.process is not None and self.server.process.poll() is None

    def judge(self, answer: Answer | None, method: str, target: str, headers: list, body: bytes) -> None:
        if not self.alive():
            raise Failure("the server died", method, target, headers, body)
        if answer is None:
            return
        self.statuses[answer.status] = self.statuses.get(answer.status, 0) + 1
        if answer.status >= 500 and answer.status != 503:
            raise Failure(f"answered {answer.status}: {answer.body[:300]!r}", method, target, headers, body)
        path = target.split("?", 1)[0]
        is_api = path.startswith("/api") or path in ("/healthz", "/readyz")
        if is_api and answer.status >= 400 and method != "HEAD":
            try:
                document = json.loads(answer.body)
            except ValueError:
                raise Failure(f"an API error without JSON ({answer.status}): {answer.body[:200]!r}",
                              method, target, headers, body) from None
            if not isinstance(document, dict) or "error" not in document:
                raise Failure(f"an API error without an error field: {answer.body[:200]!r}",
                              method, target, headers, body)

    def one(self, method: str, target: str, headers: list, body: bytes) -> None:
        self.sent += 1
        self.judge(self.send(method, target, headers, body), method, target, headers, body)


class RawNumber(float):
    """A number written into JSON exactly as the fuzzer chose its text (1e309, 18446744073709551616, 0.50)."""

    def __new__(cls, text: str):
        value = super().__new__(cls, float(text))
        value.text = text
        return value


def dump(document) -> bytes:
    def encode(item) -> str:
        if isinstance(item, RawNumber):
            return item.text
        if isinstance(item, dict):
            return "{" + ",".join(f"{json.dumps(str(k))}:{encode(v)}" for k, v in item.items()) + "}"
        if isinstance(item, list):
            return "[" + ",".join(encode(v) for v in item) + "]"
        if isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
            return json.dumps(str(item))
        return json.dumps(item)
    return encode(document).encode("utf-8", "surrogatepass")


def fill(shape, value) -> None:
    """Puts `value` where the shape holds None."""
    if isinstance(shape, dict):
        for key, item in shape.items():
            if item is None:
                shape[key] = value
            else:
                fill(item, value)
    elif isinstance(shape, list):
        for index, item in enumerate(shape):
            if item is None:
                shape[index] = value
            else:
                fill(item, value)


class Failure(Exception):
    def __init__(self, why: str, method: str, target: str, headers: list, body: bytes):
        super().__init__(why)
        self.why = why
        self.replay = (f"{method} {target[:600]}\n" + "".join(f"  {n}: {str(v)[:200]}\n" for n, v in headers)
                       + (f"  body: {body[:600]!r}\n" if body else ""))


# The bodies each route takes (by the end of its pattern), each with one None where a hostile value goes.
ROUTE_BODIES = [
    ("/api/v1/metrics/:id", {"value": None}), ("/api/v1/metrics/:id", {"increment": None}),
    ("/api/v1/metrics/:id", {"increment": 1, "eventId": None}), ("/api/v1/metrics/:id", {"value": 5, "interval": None}),
    ("/api/v1/metrics/:id", {"value": 5, "animated": None}), ("/api/v1/metrics/:id", {"value": 5, "at": None}),
    ("/api/v1/metrics", {"updates": [{"id": "revenue", "value": None}]}),
    ("/api/v1/metrics", {"updates": [{"id": "orders", "increment": None}, {"id": "orders", "increment": 1}]}),
    ("/api/v1/metrics", {"updates": [{"id": None, "value": 1}]}), ("/api/v1/metrics", {"updates": None}),
    ("/api/v1/wheels/:id", {"progress": None}), ("/api/v1/wheels/:id", {"index": None}),
    ("/api/v1/wheels/:id", {"label": None}),
    ("/api/v1/carousels/:id", {"action": "goto", "page": None}), ("/api/v1/carousels/:id", {"action": None}),
    ("/slides", {"slides": [{"text": None}]}), ("/slides", {"slides": [{"image": None, "alt": "x"}]}),
    ("/slides", {"slides": [{"text": "x", "color": None}]}), ("/slides", {"slides": None}),
    ("/api/v1/texts/:id", {"text": None}), ("/api/v1/texts/:id", {"text": "x", "color": None}),
    ("/api/v1/leaderboards/:id", {"entries": {"Alice": None}}),
    ("/api/v1/leaderboards/:id", {"increment": {"Bob": None}}), ("/api/v1/leaderboards/:id", {"entries": None}),
    ("/admin/keys", {"name": None}), ("/admin/keys", {"name": "tv", "dashboards": [None]}),
    ("/announce", {"text": None}), ("/announce", {"text": "x", "seconds": None}), ("/announce", {"seconds": None}),
    ("/show", {"entry": None}), ("/identify", {"seconds": None}),
]

# The crashers the fuzzer was written for, and their neighbours: always sent first.
KNOWN = [
    ("GET", "/api/v1/metrics/revenue/series?from=-1e300", False),
    ("GET", "/api/v1/metrics/revenue/series?to=1e300", False),
    ("GET", "/api/v1/metrics/revenue/series?from=-9.3e15&to=0", False),
    ("GET", "/api/v1/metrics/revenue/series?from=9.2e15&to=9.3e15", False),
    ("GET", "/api/v1/metrics/revenue/series?from=0&to=1e300&step=1d", False),
    ("GET", "/api/v1/metrics/revenue/series?from=-1e300", True),
    ("GET", "/api/v1/metrics/revenue/series?from=0x10", True),
    ("GET", "/api/v1/metrics/revenue/series?from=2026-02-30T00:00:00Z", True),
    ("GET", "/ws?dashboard=demo&fps=99999999999999999999", False),
    ("GET", "/ws?dashboard=demo&since=18446744073709551616:18446744073709551616", False),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--skip-series", action="store_true",
                        help="leave out series queries (to look for other faults while a known one is being fixed)")
    arguments = parser.parse_args()
    seed = arguments.seed if arguments.seed is not None else random.randrange(1 << 30)
    print(f"router fuzzer: seed {seed} (replay with --seed {seed}), {arguments.seconds:.0f} s")
    rng = random.Random(seed)
    routes = read_routes()
    if arguments.skip_series:
        routes = [route for route in routes if not route[1].endswith("/series")]
    print(f"routes: {len(routes)}")

    folder = tempfile.mkdtemp(prefix="rollboard-fuzz-router-")
    config = os.path.join(folder, "config")
    shutil.copytree(os.path.join(ROOT, "config"), config)
    with open(os.path.join(config, "server.yaml"), "a", encoding="utf-8") as handle:
        handle.write(f'\nadminTokens:\n  - "{ADMIN_TOKEN}"\n')
    os.makedirs(os.path.join(config, "playlists"), exist_ok=True)
    with open(os.path.join(config, "playlists", "lobby.yaml"), "w", encoding="utf-8") as handle:
        handle.write("entries:\n  - { dashboard: demo, seconds: 20 }\n  - { dashboard: story, seconds: 10 }\n")
    server = RollboardProcess(arguments.binary, os.path.join(folder, "data"), PRODUCER_TOKEN, config=config)
    server.start()
    fuzzer = Fuzzer(server, rng, routes)
    failure: Failure | None = None
    try:
        fuzzer.learn_ids()
        for method, target, authorized in KNOWN:
            if arguments.skip_series and "/series" in target:
                continue
            headers = [("Host", "127.0.0.1")]
            if authorized:
                headers.append(("Authorization", f"Bearer {PRODUCER_TOKEN}"))
            if target.startswith("/ws"):
                headers += [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")]
            fuzzer.one(method, target, headers, b"")
        deadline = time.monotonic() + arguments.seconds
        while time.monotonic() < deadline:
            fuzzer.one(*fuzzer.request())
        status, _ = server.request("GET", "/healthz")
        if status != 200:
            failure = Failure(f"/healthz answered {status} after the run", "GET", "/healthz", [], b"")
    except Failure as error:
        failure = error
    finally:
        if fuzzer.connection:
            fuzzer.connection.close()
    exit_code = None
    if server.process and server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            exit_code = server.process.wait(timeout=15)
        except Exception:  # noqa: BLE001
            server.kill()
    else:
        exit_code = server.process.returncode if server.process else None
    print(f"requests: {fuzzer.sent}; answers by status: "
          + ", ".join(f"{k}: {v}" for k, v in sorted(fuzzer.statuses.items())))
    if failure is None and exit_code != 0:
        failure = Failure(f"SIGTERM ended the server with {exit_code}", "-", "-", [], b"")
    if failure:
        print(f"FAIL {failure.why}\nthe request (seed {seed}):\n{failure.replay}")
        print("server log (tail):\n" + server.read_log()[-3000:])
        print("0 passed, 1 failed")
        return 1
    shutil.rmtree(folder, ignore_errors=True)
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
