"""Increments with idempotent retries through the real server, across SIGKILL.

Four batches of 40 increments of the `orders` counter are posted first, each item with an eventId. Then writers
post increments, each with its own Idempotency-Key, and post some of them twice at
once (a retry racing the first attempt); the server is killed with SIGKILL while they write, so some answers are
lost. After a restart every key and batch is posted again, as a producer retrying after a timeout would: an acknowledged key
must get its first answer (same total, same seq), and the total must be exactly the sum of every key's amount,
counted once. The journal is compacted every few kilobytes (`journalCompactionBytes: 4096`), so the keys also
survive compaction into the snapshot. The metric's series (raw points and minute rollups) must hold each key once
after both kills. Then `rollboard push --increment --idempotency-key`, keyed leaderboard increments retried after a
SIGKILL (first answers, counted once) and `rollboard push --leaderboard --add --idempotency-key`, and refusals that name the field and store
nothing.
"""

import concurrent.futures
import os
import random
import subprocess
import sys
import threading
import time

from rollboard_process import Checks, RollboardProcess, served_checks

METRIC = "orders"


def main() -> int:
    def options(parser) -> None:
        parser.add_argument("--writers", type=int, default=6)
        parser.add_argument("--seconds", type=float, default=3.0)

    token = "increment-test-token-" + str(random.randrange(10**9))
    with served_checks("rollboard-increments-", token, server_settings="journalCompactionBytes: 4096\n",
                       add_arguments=options) as run:
        crash_and_retry(run.server, token, run.arguments, run.checks)
        command_line(run.server, token, run.arguments.binary, run.checks)
        leaderboard_across_kill(run.server, token, run.arguments.binary, run.checks)
        refusals(run.server, token, run.checks)
    return run.checks.finish()


def post(server: RollboardProcess, token: str, key: str, amount: float, timeout: float = 5):
    return server.request("POST", f"/api/v1/metrics/{METRIC}", {"increment": amount}, token=token,
                          headers={"Idempotency-Key": key}, timeout=timeout)


def post_batches(server: RollboardProcess, token: str, batches: list[list[tuple[str, float]]]):
    answers = []
    for batch in batches:
        body = {"updates": [{"id": METRIC, "increment": amount, "eventId": event} for event, amount in batch]}
        answers.append(server.request("POST", "/api/v1/metrics", body, token=token))
    return answers


def crash_and_retry(server: RollboardProcess, token: str, args, checks: Checks) -> None:
    # Batches of increments with an eventId per item first: they also grow the journal past a few compactions.
    rng = random.Random(7)
    batches = [[(f"batch-{number}-{item}", rng.randrange(1, 40) / 4) for item in range(40)] for number in range(4)]
    first_batches = post_batches(server, token, batches)
    checks.check(all(status == 202 for status, _ in first_batches), "four batches of 40 increments are accepted",
                 f"{[status for status, _ in first_batches]}")
    batch_total = sum(amount for batch in batches for _, amount in batch)
    amounts: dict[str, float] = {}          # every key posted at least once (answered or not)
    answers: dict[str, tuple[int, float]] = {}  # key -> (seq, total) of its first 202
    mismatched_retries: list[str] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + args.seconds
    killed = threading.Event()

    def writer(index: int) -> None:
        rng = random.Random(index)
        counter = 0
        while time.monotonic() < stop_at and not killed.is_set():
            key = f"w{index}-{counter}"
            amount = rng.randrange(1, 40) / 4  # quarters: every sum is exact in binary floating point
            counter += 1
            with lock:
                amounts[key] = amount
            attempts = 2 if counter % 3 == 0 else 1
            with concurrent.futures.ThreadPoolExecutor(attempts) as racing:
                results = list(racing.map(lambda _: attempt(key, amount), range(attempts)))
            good = [result for result in results if result is not None]
            with lock:
                if good:
                    answers[key] = good[0]
                if len(set(good)) > 1:
                    mismatched_retries.append(f"{key}: {good}")

    def attempt(key: str, amount: float):
        try:
            status, body = post(server, token, key, amount)
        except OSError:
            return None
        if status != 202:
            return None
        return (body["seq"], body["value"])

    with concurrent.futures.ThreadPoolExecutor(args.writers) as pool:
        futures = [pool.submit(writer, index) for index in range(args.writers)]
        time.sleep(args.seconds * 0.7)
        server.kill()
        killed.set()
        for future in futures:
            future.result()
    unanswered = sorted(set(amounts) - set(answers))
    print(f"{len(amounts)} keys posted, {len(answers)} answered before SIGKILL, {len(unanswered)} without an answer")
    checks.check(len(answers) >= 10, "writers got answers before the kill", f"{len(answers)}")
    checks.check(not mismatched_retries, "a retry racing its first attempt got the same seq and total",
                 "; ".join(mismatched_retries[:5]))

    server.start()
    changed = []
    with concurrent.futures.ThreadPoolExecutor(args.writers) as pool:
        retried = dict(zip(amounts, pool.map(lambda key: post(server, token, key, amounts[key]), amounts)))
    refused = {key: result for key, result in retried.items() if result[0] != 202}
    checks.check(not refused, "every retry after the restart is accepted", f"{list(refused.items())[:3]}")
    for key, (seq, total) in answers.items():
        status, body = retried[key]
        if status != 202 or (body["seq"], body["value"]) != (seq, total):
            changed.append(f"{key}: first {seq}/{total}, after restart {status} {body}")
    checks.check(not changed, "an acknowledged key gets its first answer (same seq, same total) after the restart",
                 "; ".join(changed[:5]))

    again_batches = post_batches(server, token, batches)
    checks.check(again_batches == first_batches,
                 "the batches posted again after the restart get their first answers (every item's seq and total)",
                 f"{again_batches[:1]} vs {first_batches[:1]}")
    expected = sum(amounts.values()) + batch_total
    status, current = server.request("GET", f"/api/v1/metrics/{METRIC}")
    checks.check(status == 200 and current["value"] == expected,
                 "the total is exactly the sum of every key's amount, each counted once",
                 f"expected {expected}, got {status} {current}")
    again = dict(zip(amounts, [post(server, token, key, amounts[key]) for key in list(amounts)[:20]]))
    status, after = server.request("GET", f"/api/v1/metrics/{METRIC}")
    checks.check(after["seq"] == current["seq"] and after["value"] == expected,
                 "retrying keys once more applies nothing (no new seq)", f"{current} then {after}")
    checks.check(all(result[0] == 202 for result in again.values()), "those retries are answered 202")

    server.kill()
    server.start()
    status, restarted = server.request("GET", f"/api/v1/metrics/{METRIC}")
    first_key = next(iter(answers))
    status_key, replay = post(server, token, first_key, amounts[first_key])
    checks.check(restarted["value"] == expected and (replay["seq"], replay["value"]) == answers[first_key],
                 "after a second SIGKILL the total and the remembered keys are still there",
                 f"{restarted} {status_key} {replay}")

    # The series, derived from the same journal (and snapshots) across both kills: one raw point per key, in seq
    # order, ending on the total; the minute rollups' increments add up to it.
    # Read page by page (an answer holds at most 1,000 points): `next` is the path of the rest.
    points, target, status = [], f"/api/v1/metrics/{METRIC}/series?from=0&to=4102444800&step=raw", 200
    while target and status == 200:
        status, raw = server.request("GET", target)
        points += raw.get("points", []) if status == 200 else []
        target = raw.get("next") if status == 200 else None
    seqs = [point["seq"] for point in points]
    keys = len(amounts) + sum(len(batch) for batch in batches)
    checks.check(len(points) == keys and seqs == sorted(seqs) and points[-1]["value"] == expected,
                 "the series has one raw point per key, in seq order, ending on the total",
                 f"{status} {len(points)} points for {keys} keys, last {points[-1] if points else None}")
    now = time.time()
    status, minutes = server.request(
        "GET", f"/api/v1/metrics/{METRIC}/series?from={int(now) - 3600}&to={int(now) + 60}&step=1m")
    buckets = minutes.get("buckets", []) if status == 200 else []
    checks.check(sum(bucket["increments"] for bucket in buckets) == expected
                 and sum(bucket["count"] for bucket in buckets) == keys,
                 "its minute rollups count every key once and their increments add up to the total",
                 f"{status} {buckets[:3]}")
    snapshot = os.path.join(server.data_dir, "store", "snapshot")
    checks.check(os.path.exists(snapshot), "the journal was compacted into a snapshot during the run", snapshot)
    status, refused = server.request("GET", f"/api/v1/metrics/{METRIC}/series?step=7s")
    checks.check(status == 400 and refused.get("detail", "").startswith("step:"),
                 "a bad series step is refused 400 naming step", f"{status} {refused}")


def command_line(server: RollboardProcess, token: str, binary: str, checks: Checks) -> None:
    status, before = server.request("GET", f"/api/v1/metrics/{METRIC}")
    command = [binary, "push", METRIC, "2.5", "--increment", "--idempotency-key", "cli-once",
               "--url", server.base_url, "--token", token, "--insecure"]
    outputs = [subprocess.run(command, capture_output=True, text=True, timeout=30) for _ in range(2)]
    status, after = server.request("GET", f"/api/v1/metrics/{METRIC}")
    checks.check(all(output.returncode == 0 for output in outputs) and outputs[0].stdout == outputs[1].stdout,
                 "rollboard push --increment --idempotency-key, twice: both exit 0 with the same answer",
                 f"{[(output.returncode, output.stdout, output.stderr) for output in outputs]}")
    checks.check(after["value"] == before["value"] + 2.5 and after["seq"] == before["seq"] + 1,
                 "and the amount is added once", f"{before} then {after}")


def leaderboard_across_kill(server: RollboardProcess, token: str, binary: str, checks: Checks) -> None:
    """Keyed leaderboard increments: acknowledged, SIGKILL, retried after the restart: each answered with its first
    board's seq and counted once; then `rollboard push --leaderboard … --add --idempotency-key` twice."""
    board = "/api/v1/leaderboards/leaders"  # the story dashboard's leaderboard
    names = ["Ana", "Ben", "Cleo"]
    sent = {f"board-{index}": {names[index % 3]: index % 4 + 1} for index in range(24)}
    answers = {key: server.request("POST", board, {"increment": amounts}, token=token,
                                   headers={"Idempotency-Key": key}) for key, amounts in sent.items()}
    expected: dict[str, float] = {}
    for amounts in sent.values():
        for name, amount in amounts.items():
            expected[name] = expected.get(name, 0) + amount
    checks.check(all(status == 202 for status, _ in answers.values()), "24 keyed leaderboard increments are accepted",
                 f"{[answer for answer in answers.values() if answer[0] != 202][:2]}")
    server.kill()
    server.start()
    again = {key: server.request("POST", board, {"increment": amounts}, token=token,
                                 headers={"Idempotency-Key": key}) for key, amounts in sent.items()}
    changed = [key for key in sent if again[key][0] != 202 or again[key][1].get("seq") != answers[key][1].get("seq")]
    checks.check(not changed, "after SIGKILL every keyed leaderboard retry gets its first answer's seq",
                 f"{[(key, answers[key], again[key]) for key in changed[:2]]}")
    status, current = server.request("GET", board)
    checks.check(status == 200 and current.get("entries") == expected,
                 "and the board holds each increment once", f"expected {expected}, got {status} {current}")
    command = [binary, "push", "--leaderboard", "leaders", "--entry", "Ana=2", "--add", "--idempotency-key",
               "cli-board-1", "--url", server.base_url, "--token", token, "--insecure"]
    outputs = [subprocess.run(command, capture_output=True, text=True, timeout=30) for _ in range(2)]
    status, after = server.request("GET", board)
    checks.check(all(output.returncode == 0 for output in outputs) and outputs[0].stdout == outputs[1].stdout
                 and after.get("entries", {}).get("Ana") == expected["Ana"] + 2,
                 "rollboard push --leaderboard --add --idempotency-key, twice: the same answer, added once",
                 f"{[(output.returncode, output.stdout, output.stderr) for output in outputs]} {after}")


def refusals(server: RollboardProcess, token: str, checks: Checks) -> None:
    status, before = server.request("GET", "/api/v1/metrics")
    cases = [
        ("/api/v1/metrics/orders", {"increment": "3"}, 400, "increment: must be a number"),
        ("/api/v1/metrics/orders", {"value": 1, "increment": 3}, 400, "increment: give value or increment"),
        ("/api/v1/metrics/visitors", {"increment": 100000}, 422, "increment: the total 100000 cannot be shown"),
        ("/api/v1/metrics", {"updates": [{"id": "orders", "increment": 1}, {"id": "visitors", "increment": 1e6}]},
         422, "updates[1].increment: the total"),
    ]
    for target, body, expected_status, detail in cases:
        status, answer = server.request("POST", target, body, token=token)
        checks.check(status == expected_status and isinstance(answer, dict)
                     and answer.get("detail", "").startswith(detail),
                     f"POST {target} {body} is refused {expected_status} naming the field", f"{status} {answer}")
    raw_status, _ = server.request("POST", "/api/v1/metrics/orders", token=token,
                                   raw=b'{"increment": 1e999}')
    checks.check(raw_status == 422, "a non-finite increment (1e999) is refused 422", f"{raw_status}")
    status, after = server.request("GET", "/api/v1/metrics")
    checks.check(after["seq"] == before["seq"], "nothing refused was stored", f"{before['seq']} then {after['seq']}")


if __name__ == "__main__":
    sys.exit(main())
