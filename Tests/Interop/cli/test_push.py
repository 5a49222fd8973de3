"""`rollboard push` as a script runs it, against a real server with the shipped `config/`.

Every kind of producer write: a metric value (with `--policy`, and a negative one after `--`), a wheel by label,
index and progress, a carousel command, a batch of lines from a file and a JSON batch from stdin, and a batch of
increments sent twice with one --idempotency-key (added once). Then what must be refused: a batch with an unknown
id (exit 1, nothing stored), flag combinations that make no sense (exit 2, one clear line, nothing sent), and a
server whose certificate is not trusted (exit 1 with a hint naming --data-dir, --ca-file and --insecure), which the
hint's advice then fixes.

Usage: test_push.py --binary .build/debug/rollboard
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "server"))
from rollboard_process import Checks, RollboardProcess, served_checks  # noqa: E402

TOKEN = "push-cli-producer-token-0123456789abcdef"
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class Push:
    """Runs the `rollboard push` binary against one server, from its own folder (with no `.data`) and with no
    token in the environment, so that only the arguments given count; `empty` is a data folder with nothing in it."""

    def __init__(self, binary: str, server: RollboardProcess, folder: str):
        self.binary = binary
        self.server = server
        self.folder = folder
        self.empty = os.path.join(folder, "empty-data")
        os.makedirs(self.empty)
        self.environment = {name: value for name, value in os.environ.items() if name != "ROLLBOARD_PRODUCER_TOKEN"}

    def run(self, *arguments: str, stdin: str | None = None, connection: list[str] | None = None
            ) -> subprocess.CompletedProcess:
        """`rollboard push ARGUMENTS`; `connection` replaces the default (the server by name, trusting the
        certificate it generated, with its token)."""
        if connection is None:
            connection = ["--url", f"https://localhost:{self.server.port}", "--data-dir", self.server.data_dir,
                          "--token", TOKEN]
        return subprocess.run([self.binary, "push", *connection, *arguments], input=stdin, capture_output=True,
                              text=True, timeout=30, cwd=self.folder, env=self.environment)


def outcome(completed: subprocess.CompletedProcess) -> str:
    return f"exit {completed.returncode}, stdout {completed.stdout!r}, stderr {completed.stderr!r}"


def reply(completed: subprocess.CompletedProcess) -> dict | None:
    """The JSON the command printed, or `None`."""
    try:
        return json.loads(completed.stdout)
    except ValueError:
        return None


def metric(server: RollboardProcess, name: str) -> dict:
    status, body = server.request("GET", f"/api/v1/metrics/{name}")
    return body if status == 200 else {"status": status, "body": body}


def wheel(server: RollboardProcess) -> dict:
    status, body = server.request("GET", "/api/v1/wheels/status")
    return body if status == 200 else {"status": status, "body": body}


def writes(push: Push, server: RollboardProcess, checks: Checks) -> None:
    completed = push.run("revenue", "1234.5")
    checks.check(completed.returncode == 0 and (reply(completed) or {}).get("value") == 1234.5,
                 "push revenue 1234.5 exits 0 and prints the server's reply", outcome(completed))
    checks.check(metric(server, "revenue").get("value") == 1234.5, "GET /api/v1/metrics/revenue shows 1234.5",
                 str(metric(server, "revenue")))

    completed = push.run("revenue", "2000.25", "--policy", "latest", "--interval", "1")
    checks.check(completed.returncode == 0 and metric(server, "revenue").get("value") == 2000.25,
                 "push revenue 2000.25 --policy latest --interval 1 is stored", outcome(completed))

    completed = push.run("visitors", "--", "-42")
    checks.check(completed.returncode == 0 and metric(server, "visitors").get("value") == -42,
                 "push visitors -- -42: a negative value after --", outcome(completed))

    completed = push.run("visitors", "123456")
    checks.check(completed.returncode == 1 and completed.stderr.startswith("422 ")
                 and metric(server, "visitors").get("value") == -42,
                 "a value too wide for its tile: exit 1, the server's 422 on stderr, nothing stored",
                 outcome(completed))

    for arguments, target in ((["--label", "Degraded"], {"index": 1}), (["--index", "3"], {"index": 3}),
                              (["--progress", "0.5"], {"progress": 0.5})):
        completed = push.run("--wheel", "status", *arguments)
        stored = {name: wheel(server).get(name) for name in target}
        checks.check(completed.returncode == 0 and stored == target,
                     f"push --wheel status {' '.join(arguments)}: GET /api/v1/wheels/status shows {target}",
                     f"{outcome(completed)}, stored {wheel(server)}")

    completed = push.run("--carousel", "news", "--goto", "2")
    answer = reply(completed) or {}
    checks.check(completed.returncode == 0 and isinstance(answer.pop("seq", None), int)
                 and answer == {"id": "news", "action": "goto", "page": 2},
                 "push --carousel news --goto 2 is accepted (202) with the command echoed and its seq",
                 outcome(completed))
    completed = push.run("--carousel", "news", "--next")
    checks.check(completed.returncode == 0 and (reply(completed) or {}).get("action") == "next",
                 "push --carousel news --next is accepted", outcome(completed))

    completed = push.run("--text", "notice", "--message", 'Deploy freeze until "Friday" / 5 pm', "--color", "#e67e22")
    status, stored = server.request("GET", "/api/v1/texts/notice")
    checks.check(completed.returncode == 0 and status == 200 and stored.get("text") == 'Deploy freeze until "Friday" / 5 pm'
                 and stored.get("color") == "#e67e22",
                 "push --text notice --message … --color … is stored: GET /api/v1/texts/notice shows it",
                 f"{outcome(completed)}, stored {stored}")
    completed = push.run("--text", "notice", "--message", "")
    status, stored = server.request("GET", "/api/v1/texts/notice")
    checks.check(completed.returncode == 0 and stored.get("text") == "", "push --text notice --message '' clears it",
                 f"{outcome(completed)}, stored {stored}")

    completed = push.run("--leaderboard", "leaders", "--entry", "Alice=12", "--entry", "Bob=9")
    status, stored = server.request("GET", "/api/v1/leaderboards/leaders")
    checks.check(completed.returncode == 0 and stored.get("entries") == {"Alice": 12, "Bob": 9},
                 "push --leaderboard leaders --entry Alice=12 --entry Bob=9 replaces the board",
                 f"{outcome(completed)}, stored {stored}")
    completed = push.run("--leaderboard", "leaders", "--entry", "Bob=4", "--entry", "Carol=1.5", "--add")
    status, stored = server.request("GET", "/api/v1/leaderboards/leaders")
    checks.check(completed.returncode == 0 and list((stored.get("entries") or {}).items())
                 == [("Bob", 13), ("Alice", 12), ("Carol", 1.5)],
                 "push --leaderboard … --add adds to the board (a missing name starts at 0), read back best first",
                 f"{outcome(completed)}, stored {stored}")


def batches(push: Push, server: RollboardProcess, checks: Checks) -> None:
    lines = os.path.join(push.folder, "values.txt")
    with open(lines, "w") as handle:
        handle.write("# end of day\nrevenue 3100.5\n\n   orders 42   # from the shop\n")
    completed = push.run("--batch", lines)
    updates = [update["id"] for update in (reply(completed) or {}).get("updates", [])]
    checks.check(completed.returncode == 0 and updates == ["revenue", "orders"],
                 "push --batch FILE of ID VALUE lines (comments, blank lines) sends one batch of two",
                 outcome(completed))
    checks.check(metric(server, "revenue").get("value") == 3100.5 and metric(server, "orders").get("value") == 42,
                 "both values of the file batch are stored",
                 f"{metric(server, 'revenue')} {metric(server, 'orders')}")

    body = '  {"updates":[{"id":"visitors","value":777},{"id":"conversion","value":3.25,"policy":"retarget"}]}\n'
    completed = push.run("--batch", "-", stdin=body)
    checks.check(completed.returncode == 0, "push --batch - with a JSON body on stdin exits 0", outcome(completed))
    checks.check(metric(server, "visitors").get("value") == 777 and metric(server, "conversion").get("value") == 3.25,
                 "both values of the stdin batch are stored",
                 f"{metric(server, 'visitors')} {metric(server, 'conversion')}")

    orders = metric(server, "orders").get("value")
    completed = push.run("--batch", "-", "--increment", "--idempotency-key", "cli-batch-1",
                         stdin="orders 3\norders 0.5\n")
    again = push.run("--batch", "-", "--increment", "--idempotency-key", "cli-batch-1", stdin="orders 3\norders 0.5\n")
    totals = [update.get("value") for update in (reply(completed) or {}).get("updates", [])]
    checks.check(completed.returncode == 0 and totals == [orders + 3, orders + 3.5],
                 "push --batch --increment: each line is an increment, answered with its running total",
                 outcome(completed))
    checks.check(again.returncode == 0 and again.stdout == completed.stdout
                 and metric(server, "orders").get("value") == orders + 3.5,
                 "the same batch again with its --idempotency-key gets the same answer and adds nothing",
                 f"{outcome(again)} {metric(server, 'orders')}")

    before = metric(server, "revenue")
    completed = push.run("--batch", "-", stdin="revenue 5000\nprofit 1\n")
    checks.check(completed.returncode == 1 and "422" in completed.stderr and "updates[1]" in completed.stderr,
                 "a batch with an unknown id is refused whole: exit 1, the server's 422 naming updates[1]",
                 outcome(completed))
    checks.check(metric(server, "revenue") == before, "the refused batch stored nothing (revenue unchanged)",
                 f"{before} → {metric(server, 'revenue')}")


def refusals(push: Push, server: RollboardProcess, checks: Checks) -> None:
    """Arguments that make no sense: exit 2, one line on stderr saying what is wrong, nothing sent."""
    json_batch = os.path.join(push.folder, "batch.json")
    with open(json_batch, "w") as handle:
        handle.write('{"updates":[{"id":"revenue","value":9}]}')
    cases = [
        (["--wheel", "status", "--label", "Degraded", "--index", "2"], None, ["--label", "--index"]),
        (["--wheel", "status"], None, ["--label", "--index", "--progress"]),
        (["--carousel", "news", "--next", "--prev"], None, ["--next", "--prev"]),
        (["--goto", "2"], None, ["--carousel"]),
        (["--text", "notice"], None, ["--message"]),
        (["--message", "hi"], None, ["--text"]),
        (["--leaderboard", "leaders"], None, ["--entry"]),
        (["--leaderboard", "leaders", "--entry", "Alice"], None, ["NAME=SCORE", "Alice"]),
        (["--entry", "Alice=1"], None, ["--leaderboard"]),
        (["revenue", "10", "--wheel", "status", "--label", "Degraded"], None, ["one thing", "--wheel"]),
        (["--wheel", "status", "--label", "Degraded", "--interval", "2"], None, ["--interval", "--wheel"]),
        (["revenue", "10", "--policy", "sometimes"], None, ["--policy", "fifo, latest or retarget"]),
        (["revenue", "ten"], None, ["VALUE", "ten"]),
        (["revenue"], None, ["VALUE"]),
        ([], None, ["ID VALUE", "--wheel", "--carousel", "--text", "--leaderboard", "--batch"]),
        (["--batch", json_batch, "--no-animation"], None, ["--no-animation", "JSON"]),
        (["--batch", json_batch, "--increment"], None, ["--increment", "JSON"]),
        (["--wheel", "status", "--label", "Degraded", "--idempotency-key", "k"], None,
         ["--idempotency-key", "--wheel"]),
        (["--batch", "-"], "revenue 10\norders\n", ["line 2", "ID VALUE"]),
        (["--batch", os.path.join(push.folder, "missing.txt")], None, ["missing.txt"]),
    ]
    before = server.request("GET", "/healthz")[1].get("seq")
    for arguments, stdin, words in cases:
        completed = push.run(*arguments, stdin=stdin)
        lines = completed.stderr.strip().splitlines()
        checks.check(completed.returncode == 2 and len(lines) == 1 and completed.stdout == ""
                     and all(word in lines[0] for word in words),
                     f"push {' '.join(arguments)}: exit 2, one line naming {', '.join(words)}", outcome(completed))
    after = server.request("GET", "/healthz")[1].get("seq")
    checks.check(after == before, "none of the refused commands stored anything", f"seq {before} → {after}")

    completed = push.run("revenue", "10", connection=["--url", f"https://localhost:{server.port}",
                                                      "--data-dir", push.empty])
    checks.check(completed.returncode == 2 and "no token" in completed.stderr,
                 "without --token, ROLLBOARD_PRODUCER_TOKEN or a token file: exit 2, 'no token'", outcome(completed))


def certificates(push: Push, server: RollboardProcess, checks: Checks) -> None:
    """A certificate that is not trusted ends with a hint; the hint's advice works."""

    before = metric(server, "revenue")
    completed = push.run("revenue", "4321", connection=["--url", f"https://localhost:{server.port}",
                                                        "--data-dir", push.empty, "--token", TOKEN])
    lines = completed.stderr.strip().splitlines()
    hint = [line for line in lines if line.startswith("hint:")]
    checks.check(completed.returncode == 1 and "certificate verify failed" in completed.stderr,
                 "an untrusted certificate: exit 1, 'certificate verify failed'", outcome(completed))
    checks.check(len(hint) == 1 and all(word in hint[0] for word in ("--data-dir", "tls/certificate.pem",
                                                                     "--ca-file", "--insecure")),
                 "one hint line naming --data-dir (its tls/certificate.pem), --ca-file and --insecure",
                 outcome(completed))
    checks.check(metric(server, "revenue") == before, "nothing was stored through the untrusted connection",
                 f"{before} → {metric(server, 'revenue')}")

    certificate = os.path.join(server.data_dir, "tls", "certificate.pem")
    completed = push.run("revenue", "4321", connection=["--url", f"https://localhost:{server.port}",
                                                        "--data-dir", push.empty, "--ca-file", certificate,
                                                        "--token", TOKEN])
    checks.check(completed.returncode == 0 and metric(server, "revenue").get("value") == 4321,
                 "the hint's --ca-file (the server's tls/certificate.pem) is trusted: exit 0, stored",
                 outcome(completed))
    completed = push.run("revenue", "4322", connection=["--url", f"https://localhost:{server.port}",
                                                        "--data-dir", push.empty, "--insecure", "--token", TOKEN])
    checks.check(completed.returncode == 0 and metric(server, "revenue").get("value") == 4322,
                 "--insecure skips the check: exit 0, stored", outcome(completed))


def main() -> int:
    with served_checks("rollboard-push-", TOKEN, config=os.path.join(REPOSITORY, "config")) as run:
        push = Push(run.arguments.binary, run.server, os.path.join(run.folder, "work"))
        writes(push, run.server, run.checks)
        batches(push, run.server, run.checks)
        refusals(push, run.server, run.checks)
        certificates(push, run.server, run.checks)
    return run.checks.finish()


if __name__ == "__main__":
    sys.exit(main())
