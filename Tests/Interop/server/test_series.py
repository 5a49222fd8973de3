"""`GET /api/v1/metrics/ID/series` through the real server over TLS on loopback.

Hostile `from`, `to`, `step`, `limit` and `after` values (each of the first three once aborted the whole process in
the date conversion, without any token; `0x10` was read as hex and `2026-02-30` as 2 March) must each be answered
`400` with a detail naming the parameter, and the server must answer `/healthz` after every one and still run at the
end. Then a long series (2,500 raw changes) is read page by page through `next`: every point exactly once, in
order, no page over the cap; and rollups page the same way. Last, a minute whose increments add up past the
largest double is read as rollups (it aborted the process too).

Usage: test_series.py --binary .build/debug/rollboard
"""

import http.client
import json
import random
import sys

from rollboard_process import (
    Checks, RollboardProcess, insecure_client_context, served_checks)

METRIC = "orders"

# (query, the parameter the refusal must name)
HOSTILE = [
    ("from=-1e300", "from"),
    ("to=1e300", "to"),
    ("from=-9.3e15&to=0", "from"),
    ("to=9200000000000000", "to"),
    ("from=9.2e15", "from"),
    ("to=1e308", "to"),
    ("from=%2D1e300", "from"),
    ("from=-1", "from"),
    ("from=0x10", "from"),
    ("to=0x7fffffffffffffff", "to"),
    ("from=nan", "from"),
    ("from=inf", "from"),
    ("to=-inf", "to"),
    ("to=253402300800", "to"),
    ("to=" + "9" * 500, "to"),
    ("from=%D9%A1%D9%A2", "from"),
    ("to=2026-02-30T00:00:00Z", "to"),
    ("to=2026-13-01T00:00:00Z", "to"),
    ("from=1969-12-31T23:59:59Z", "from"),
    ("to=99999-01-01T00:00:00Z", "to"),
    ("to=2026-11-26T25:00:00Z", "to"),
    ("step=99999999999999999999m", "step"),
    ("step=-1h", "step"),
    ("step=0x10m", "step"),
    ("limit=0", "limit"),
    ("limit=-1", "limit"),
    ("limit=99999999999999999999", "limit"),
    ("after=-1", "after"),
    ("after=99999999999999999999", "after"),
    ("after=1&step=1h", "after"),
    ("from=2026-11-26T10:00:00Z&to=2026-11-26T09:00:00Z", "from"),
]


def get(port: int, path: str, token: str | None = None) -> tuple[int, object]:
    """One GET on its own connection, the target sent as written (no client-side encoding)."""
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=insecure_client_context(), timeout=20)
    try:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        try:
            return response.status, json.loads(payload or b"null")
        except ValueError:
            return response.status, payload.decode(errors="replace")
    finally:
        connection.close()


def hostile_queries(server: RollboardProcess, checks: Checks) -> None:
    for query, field in HOSTILE:
        try:
            status, body = get(server.port, f"/api/v1/metrics/{METRIC}/series?{query}")
        except (OSError, http.client.HTTPException) as error:
            status, body = None, repr(error)
        detail = body.get("detail", "") if isinstance(body, dict) else str(body)
        checks.check(status == 400 and detail.startswith(field + ":"),
                     f"series?{query[:60]} is 400 naming {field}", f"got {status} {str(body)[:200]}")
        try:
            alive, _ = get(server.port, "/healthz")
        except (OSError, http.client.HTTPException) as error:
            alive = repr(error)
        if alive != 200:
            checks.check(False, f"the server answers /healthz after series?{query[:60]}", f"got {alive}")
            return
    checks.check(server.process.poll() is None, "the server still runs after every hostile series query",
                 server.read_log()[-1000:])


def pages(server: RollboardProcess, token: str, checks: Checks, seqs: list[int]) -> None:
    for batch in range(5):
        body = {"updates": [{"id": METRIC, "value": batch * 500 + item} for item in range(500)]}
        status, answer = server.request("POST", "/api/v1/metrics", body, token=token, timeout=20)
        if status != 202:
            checks.check(False, "a batch of 500 changes is accepted", f"got {status} {answer}")
            return
        seqs += [update["seq"] for update in answer["updates"]]
    # The default span (the last 24 hours up to now) and the default page size.
    target = f"/api/v1/metrics/{METRIC}/series"
    seen, count, biggest = [], 0, 0
    while target is not None and count < 20:
        status, body = get(server.port, target)
        if status != 200 or not isinstance(body, dict):
            checks.check(False, "every page of the series is 200", f"{target}: {status} {str(body)[:200]}")
            return
        biggest = max(biggest, len(body["points"]))
        seen += [point["seq"] for point in body["points"]]
        target = body["next"]
        count += 1
        if target is not None and not body["truncated"]:
            checks.check(False, "a page with a next says truncated", json.dumps(body)[:200])
    checks.check(seen == seqs, "2,501 changes read page by page through next: every point exactly once, in order",
                 f"{len(seen)} seen, {len(set(seen))} distinct, {len(seqs)} posted")
    checks.check(count == 3 and biggest == 1000, "pages hold at most 1,000 points (3 pages)",
                 f"{count} pages, the biggest {biggest}")
    # Smaller pages, and a change committed between two pages is answered once (in its place at the end).
    status, first = get(server.port, f"/api/v1/metrics/{METRIC}/series?limit=999")
    late_status, late = server.request("POST", f"/api/v1/metrics/{METRIC}", {"value": -1}, token=token)
    target, seen = first["next"], [point["seq"] for point in first["points"]]
    while target is not None and len(seen) < 5000:
        status, body = get(server.port, target)
        seen += [point["seq"] for point in body["points"]]
        target = body["next"]
    checks.check(late_status == 202 and seen == seqs[:len(seen)] and len(seen) == len(seqs),
                 "pages of 999 pin their end: a change committed after the first page is not mixed in",
                 f"{len(seen)} seen")
    # Rollups page by their start: per-minute buckets one a page.
    status, minutes = get(server.port, f"/api/v1/metrics/{METRIC}/series?step=1m")
    total = sum(bucket["count"] for bucket in minutes.get("buckets", [])) if isinstance(minutes, dict) else -1
    target, paged, count = f"/api/v1/metrics/{METRIC}/series?step=1m&limit=1", 0, 0
    while target is not None and count < 50:
        status, body = get(server.port, target)
        paged += sum(bucket["count"] for bucket in body["buckets"])
        target, count = body["next"], count + 1
    checks.check(total == 2502 and paged == total, "minute rollups read one a page add up to every change",
                 f"{total} in one answer, {paged} over {count} pages")


def overflowing_rollup(server: RollboardProcess, token: str, checks: Checks) -> None:
    """`sales` is shown only by a windowed tile, so any finite value is taken: a minute's sum of increments can pass
    the largest double. It once aborted the process when a rollup was read (JSON has no infinity)."""
    bodies = [{"value": -1.7e308}, {"increment": 1.7e308}, {"increment": 1.7e308}, {"value": -1.7e308},
              {"increment": 1.7e308}]
    statuses = [server.request("POST", "/api/v1/metrics/sales", body, token=token)[0] for body in bodies]
    try:
        status, body = get(server.port, "/api/v1/metrics/sales/series?step=1m")
    except (OSError, http.client.HTTPException) as error:
        status, body = None, repr(error)
    increments = [bucket.get("increments") for bucket in body.get("buckets", [])] if isinstance(body, dict) else []
    checks.check(statuses == [202] * 5 and status == 200 and None in increments and server.process.poll() is None,
                 "a minute whose increments add up past the largest double answers null, and the server stays up",
                 f"posts {statuses}, got {status} {str(body)[:200]}")


def main() -> int:
    token = "series-test-token-" + str(random.randrange(10**9))
    with served_checks("rollboard-series-", token) as run:
        server, checks = run.server, run.checks
        status, first = server.request("POST", f"/api/v1/metrics/{METRIC}", {"value": 1}, token=token)
        checks.check(status == 202, "a first value is accepted", f"{status} {first}")
        hostile_queries(server, checks)
        if server.process.poll() is None and status == 202:
            pages(server, token, checks, [first["seq"]])
        if server.process.poll() is None:
            overflowing_rollup(server, token, checks)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
