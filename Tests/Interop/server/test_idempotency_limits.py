"""Idempotency keys at their limits, through the real server over TLS on loopback.

- A batch giving one `eventId` to two items is refused 422 naming the later item and the earlier one
  (`updates[1].eventId: repeats updates[0].eventId …`); nothing is added, and the retry is refused the same way.
  A leaderboard increment naming one entry twice is refused 400 (a duplicate JSON key) and adds nothing.
- Two `Idempotency-Key` headers are refused 400 naming the header; nothing is added.
- A 10 KB `Idempotency-Key` (and a 10 KB `eventId`) is refused 422 showing only a short prefix of it.
- What the keys keep is bounded by `idempotencyMemoryBytes` (set to its smallest, 64 KiB): after a few hundred keyed
  increments the oldest key is forgotten (posted again, it is applied again) while the newest is still answered
  from memory, and after a SIGKILL and a restart the server remembers the same keys.

Usage: test_idempotency_limits.py --binary .build/debug/rollboard
"""

import http.client
import json
import random
import sys

from rollboard_process import (
    Checks, RollboardProcess, insecure_client_context, served_checks)

BUDGET = 65536


def raw_post(server: RollboardProcess, token: str, path: str, body: dict, headers: list[tuple[str, str]]):
    """POST with `headers` sent exactly as listed (a name may repeat, which urllib cannot do)."""
    connection = http.client.HTTPSConnection("127.0.0.1", server.port, context=insecure_client_context(), timeout=10)
    try:
        data = json.dumps(body).encode()
        connection.putrequest("POST", path)
        connection.putheader("Authorization", f"Bearer {token}")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(len(data)))
        for name, value in headers:
            connection.putheader(name, value)
        connection.endheaders(data)
        response = connection.getresponse()
        payload = response.read()
        try:
            return response.status, json.loads(payload)
        except ValueError:
            return response.status, payload.decode(errors="replace")
    finally:
        connection.close()


def value(server: RollboardProcess, metric: str) -> float | None:
    _, body = server.request("GET", f"/api/v1/metrics/{metric}")
    return body.get("value")


def repeated_event_id(server: RollboardProcess, token: str, checks: Checks) -> None:
    before = value(server, "orders") or 0
    body = {"updates": [{"id": "orders", "increment": 1, "eventId": "twice-1"},
                        {"id": "orders", "increment": 5, "eventId": "twice-1"}]}
    for attempt in ("first", "retry"):
        status, answer = server.request("POST", "/api/v1/metrics", body, token=token)
        detail = answer.get("detail", "") if isinstance(answer, dict) else str(answer)
        checks.check(status == 422 and detail.startswith("updates[1].eventId: repeats updates[0].eventId"),
                     f"a batch giving one eventId to two items is refused 422 naming both ({attempt})",
                     f"{status} {answer}")
    checks.check((value(server, "orders") or 0) == before, "nothing of it was added",
                 f"{before} then {value(server, 'orders')}")
    # With an Idempotency-Key too: refused the same, and the key stays unused.
    status, answer = raw_post(server, token, "/api/v1/metrics", body, [("Idempotency-Key", "twice-request")])
    checks.check(status == 422 and "repeats updates[0]" in answer.get("detail", ""),
                 "the same batch under an Idempotency-Key is refused the same way", f"{status} {answer}")
    status, answer = raw_post(server, token, "/api/v1/metrics/orders", {"increment": 2},
                              [("Idempotency-Key", "twice-request")])
    checks.check(status == 202 and "Idempotent-Replayed" not in str(answer),
                 "and its key was not used: another request under it is applied", f"{status} {answer}")
    # A leaderboard increment names each entry once: a name given twice is refused before anything is counted.
    _, board_before = server.request("GET", "/api/v1/leaderboards/leaders")
    status, answer = server.request("POST", "/api/v1/leaderboards/leaders", token=token,
                                    raw=b'{"increment":{"Frank":1,"Frank":5}}')
    checks.check(status == 400 and "duplicate key" in str(answer),
                 "a leaderboard increment naming one entry twice is refused 400", f"{status} {answer}")
    _, board_after = server.request("GET", "/api/v1/leaderboards/leaders")
    checks.check(board_after.get("seq") == board_before.get("seq"), "and adds nothing", f"{board_after}")


def header_cases(server: RollboardProcess, token: str, checks: Checks) -> None:
    before = value(server, "orders") or 0
    status, answer = raw_post(server, token, "/api/v1/metrics/orders", {"increment": 1},
                              [("Idempotency-Key", "first-of-two"), ("Idempotency-Key", "second-of-two")])
    detail = answer.get("detail", "") if isinstance(answer, dict) else str(answer)
    checks.check(status == 400 and detail.startswith("Idempotency-Key:") and "2 times" in detail,
                 "two Idempotency-Key headers are refused 400 naming the header", f"{status} {answer}")
    status, answer = raw_post(server, token, "/api/v1/leaderboards/leaders", {"increment": {"Alice": 1}},
                              [("idempotency-key", "a"), ("Idempotency-Key", "a")])
    checks.check(status == 400 and str(answer.get("detail", "")).startswith("Idempotency-Key:"),
                 "on a leaderboard write too (names compared without case)", f"{status} {answer}")
    checks.check((value(server, "orders") or 0) == before, "nothing refused was added",
                 f"{before} then {value(server, 'orders')}")

    long_key = "k" * 10240
    status, answer = raw_post(server, token, "/api/v1/metrics/orders", {"increment": 1},
                              [("Idempotency-Key", long_key)])
    text = json.dumps(answer)
    checks.check(status == 422 and "Idempotency-Key: must be 1 to 200" in text and "10240 bytes" in text
                 and len(text) < 400 and "k" * 40 not in text,
                 "a 10 KB Idempotency-Key is refused 422 showing a short prefix and its length",
                 f"{status} {len(text)} bytes: {text[:300]}")
    status, answer = server.request("POST", "/api/v1/metrics",
                                    {"updates": [{"id": "orders", "increment": 1, "eventId": "e" * 10240}]},
                                    token=token)
    text = json.dumps(answer)
    checks.check(status == 422 and "updates[0].eventId: must be 1 to 200" in text and len(text) < 400,
                 "a 10 KB eventId is refused 422 showing a short prefix", f"{status} {len(text)} bytes: {text[:300]}")


def post_key(server: RollboardProcess, token: str, key: str):
    return raw_post(server, token, "/api/v1/metrics/orders", {"increment": 1}, [("Idempotency-Key", key)])


def replayed(server: RollboardProcess, token: str, key: str, seq: int) -> bool | None:
    """Whether posting `key` again is answered from memory (its first seq), `False` if it is applied anew."""
    status, answer = post_key(server, token, key)
    if status != 202:
        return None
    return answer["seq"] == seq


def budget(server: RollboardProcess, token: str, checks: Checks) -> None:
    first: dict[str, int] = {}
    for index in range(600):
        key = f"budget-{index:04d}"
        status, answer = post_key(server, token, key)
        if status != 202:
            checks.check(False, "keyed increments are accepted", f"{key}: {status} {answer}")
            return
        first[key] = answer["seq"]
    newest = "budget-0599"
    checks.check(replayed(server, token, newest, first[newest]) is True,
                 "the newest key is answered from memory", "")
    server.kill()
    server.start()
    checks.check(replayed(server, token, newest, first[newest]) is True,
                 "after a SIGKILL and a restart the newest key is still answered from memory", "")
    checks.check(replayed(server, token, "budget-0000", first["budget-0000"]) is False,
                 f"with idempotencyMemoryBytes: {BUDGET} the oldest of 600 keys was forgotten: posted again it applies",
                 "")


def main() -> int:
    token = "idempotency-limits-token-" + str(random.randrange(10**9))
    settings = f"journalCompactionBytes: 4096\nidempotencyMemoryBytes: {BUDGET}\n"
    with served_checks("rollboard-idempotency-", token, server_settings=settings) as run:
        repeated_event_id(run.server, token, run.checks)
        header_cases(run.server, token, run.checks)
        budget(run.server, token, run.checks)
    return run.checks.finish()


if __name__ == "__main__":
    sys.exit(main())
