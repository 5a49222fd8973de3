"""Webhooks against the real `rollboard serve` (TLS): signed deliveries built to Stripe's and GitHub's documented
formats count exactly once, and bad ones are refused with the answer the docs promise.

Stripe (https://docs.stripe.com/webhooks#verify-manually): `Stripe-Signature: t=TIMESTAMP,v1=HEX`, HEX the
HMAC-SHA256 of `TIMESTAMP.BODY` under the endpoint's secret; the event id at `/id`. GitHub
(https://docs.github.com/webhooks/using-webhooks/validating-webhook-deliveries): `X-Hub-Signature-256: sha256=HEX`
of the body, the delivery id in `X-GitHub-Delivery`.

a. One node on the journal: a charge is answered 202 and counts once through retries (the same signature, and a
   re-signed retry with a new timestamp, as Stripe sends); a GitHub push and its redelivery count once; a bad
   signature is 401 and counted in /metrics as refused; an old Stripe timestamp with a genuine signature is 401; a
   replayed body with a new timestamp (and the old signature) is 401; a body over the webhook's maxBodyBytes is 413
   naming it; bad JSON is 422; an event no rule matches is 200 `ignored` and counted; an unset secret is 503 naming
   the variable. Then a delivery answered 202, SIGKILL straight after, restart, and the provider's retry: it counts
   once.
   The README's GitHub push example (its shell block, pointed at the node's port) is answered 202 and counts on the
   shipped `engineering` dashboard's `pushes`.
b. Three nodes on one redis-server: the same Stripe event and the same GitHub delivery sent to each node count once,
   read on every node.

Usage: test_webhooks.py --binary .build/debug/rollboard [--redis-server redis-server]
Prints PASS/FAIL lines and `N passed, M failed`; exit 1 on any failure.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cluster"))
from cluster_support import (  # noqa: E402
    REPOSITORY, begin_run, cluster_arguments, prometheus_value, run_cluster_scenario, start_node, write_config)

TOKEN = "webhook-suite-token-0123456789abcdef"
STRIPE_SECRET = "whsec_suite_stripe_0123456789"
GITHUB_SECRET = "suite-github-secret-0123456789"
DASHBOARD_ID = "hooks"
DASHBOARD = """id: hooks
title: Webhooks
tiles:
  - {id: hook_orders, type: counter}
  - {id: hook_revenue, type: counter, format: "%.2f"}
  - {id: hook_top, type: leaderboard, format: "%.2f"}
  - {id: hook_pushes, type: counter}
"""
SHOP = """verify: {preset: stripe, secret: '${SUITE_STRIPE_SECRET}'}
event: /id
maxBodyBytes: 4096
rules:
  - when: {/type: charge.succeeded}
    increment: hook_orders
  - when: {/type: charge.succeeded}
    increment: hook_revenue
    amount: /data/object/amount
    scale: 0.01
  - when: {/type: charge.succeeded}
    leaderboard: hook_top
    name: /data/object/billing_details/name
    amount: /data/object/amount
    scale: 0.01
"""
GH = """verify: {preset: github, secret: '${SUITE_GITHUB_SECRET}'}
event: {header: X-GitHub-Delivery}
rules:
  - when: {/ref: refs/heads/main}
    increment: hook_pushes
"""
UNSET = """verify: {preset: github, secret: '${SUITE_SURELY_UNSET_SECRET}'}
rules:
  - increment: hook_pushes
"""


def charge(event: str, amount: int = 1999, name: str = "Ada Lovelace") -> bytes:
    """A charge.succeeded event as Stripe sends it (trimmed), compact JSON like Stripe's."""
    return json.dumps({
        "id": event, "object": "event", "api_version": "2024-06-20", "created": int(time.time()),
        "type": "charge.succeeded", "livemode": False,
        "data": {"object": {"id": "ch_" + event, "object": "charge", "amount": amount, "currency": "usd",
                            "paid": True, "billing_details": {"name": name}}},
    }, separators=(",", ":")).encode()


def stripe_headers(body: bytes, timestamp: int | None = None, secret: str = STRIPE_SECRET) -> dict:
    stamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
    return {"Stripe-Signature": f"t={stamp},v1={digest}"}


def push(commits: int) -> bytes:
    return json.dumps({"ref": "refs/heads/main", "before": "0" * 40, "after": "a" * 40,
                       "commits": [{"id": str(index)} for index in range(commits)],
                       "repository": {"full_name": "octo/rollboard"}}).encode()


def github_headers(body: bytes, delivery: str | None) -> dict:
    digest = hmac.new(GITHUB_SECRET.encode(), body, hashlib.sha256).hexdigest()
    headers = {"X-Hub-Signature-256": f"sha256={digest}", "X-GitHub-Event": "push"}
    if delivery:
        headers["X-GitHub-Delivery"] = delivery
    return headers


def deliver(node, webhook: str, body: bytes, headers: dict):
    return node.request("POST", f"/hooks/{webhook}", raw=body, headers=headers)


def value(node, metric: str):
    return (node.request("GET", f"/api/v1/metrics/{metric}", token=TOKEN)[1] or {}).get("value")


def board(node) -> dict:
    return (node.request("GET", "/api/v1/leaderboards/hook_top", token=TOKEN)[1] or {}).get("entries") or {}


def deliveries(node, webhook: str, outcome: str) -> float:
    status, text = node.text("/metrics")
    name = f'rollboard_webhook_deliveries_total{{webhook="{webhook}",outcome="{outcome}"}}'
    return prometheus_value(text, name) or 0 if status == 200 else -1


def readme_example() -> tuple[str, str]:
    """The README's signed GitHub delivery (the shell block after "in another terminal") and its secret."""
    with open(os.path.join(REPOSITORY, "README.md"), encoding="utf-8") as handle:
        text = handle.read()
    start = text.index("export GITHUB_WEBHOOK_SECRET=", text.index("and, in another terminal"))
    block = text[start:text.index("```", start)]
    return block, block.split("\n", 1)[0].split("=", 1)[1].strip()


def readme_delivery(checks, node, block: str) -> None:
    script = block.replace("curl -k https://localhost:8443", f"curl -sk -w ' %{{http_code}}' https://127.0.0.1:{node.port}")
    run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=20)
    pushes = value(node, "pushes")
    checks.check(run.returncode == 0 and run.stdout.endswith(" 202") and '"changes":2' in run.stdout and pushes == 1,
                 "the README's GitHub push example, word for word, is answered 202 and counts 1 push",
                 f"{run.returncode} {run.stdout!r} {run.stderr[-500:]!r} pushes={pushes}")


def single_node(checks, nodes, binary: str, folder: str, config: str) -> None:
    block, secret = readme_example()
    os.environ["GITHUB_WEBHOOK_SECRET"] = secret
    node = start_node(nodes, binary, folder, TOKEN, None, config, "single")
    readme_delivery(checks, node, block)
    body = charge("evt_suite_1")
    signed = stripe_headers(body)
    first = deliver(node, "shop", body, signed)
    again = deliver(node, "shop", body, signed)
    resigned = deliver(node, "shop", body, stripe_headers(body, int(time.time()) + 1))
    checks.check(first[0] == 202 and first[1] == {"webhook": "shop", "event": "evt_suite_1", "changes": 3},
                 "a signed Stripe charge is answered 202 once its three changes are durable", f"{first}")
    checks.check(again[0] == 202 and resigned[0] == 202,
                 "its retries (the same signature, and re-signed with a new timestamp) are answered 202 too",
                 f"{again} {resigned}")
    checks.check(value(node, "hook_orders") == 1 and value(node, "hook_revenue") == 19.99
                 and board(node) == {"Ada Lovelace": 19.99},
                 "and counted once: 1 order, 19.99 of revenue, 19.99 for Ada on the leaderboard",
                 f"{value(node, 'hook_orders')} {value(node, 'hook_revenue')} {board(node)}")

    commits = push(3)
    pushes = [deliver(node, "gh", commits, github_headers(commits, delivery)) for delivery in
              ["72d3162e-cc78-11e3-81ab-4c9367dc0958", "72d3162e-cc78-11e3-81ab-4c9367dc0958"]]
    checks.check(all(status == 202 for status, _ in pushes) and value(node, "hook_pushes") == 1,
                 "a GitHub push (X-Hub-Signature-256, X-GitHub-Delivery) and its redelivery count once",
                 f"{pushes} {value(node, 'hook_pushes')}")

    before = deliveries(node, "shop", "refused")
    bad = deliver(node, "shop", charge("evt_bad"), stripe_headers(charge("evt_bad"), secret="whsec_wrong"))
    checks.check(bad[0] == 401 and bad[1].get("error") == "invalid_signature"
                 and "does not match" in bad[1].get("detail", "") and STRIPE_SECRET not in json.dumps(bad[1])
                 and deliveries(node, "shop", "refused") == before + 1,
                 "a bad signature is 401 with the reason, never the secret, and counted as refused in /metrics",
                 f"{bad}")
    old = deliver(node, "shop", charge("evt_old"), stripe_headers(charge("evt_old"), int(time.time()) - 3600))
    checks.check(old[0] == 401 and "tolerance" in old[1].get("detail", ""),
                 "an old Stripe timestamp with a genuine signature is 401 (over the tolerance)", f"{old}")
    captured = stripe_headers(body, int(time.time()) - 10)["Stripe-Signature"]
    replayed = "t=%d,%s" % (int(time.time()), captured.split(",", 1)[1])
    replay = deliver(node, "shop", body, {"Stripe-Signature": replayed})
    checks.check(replay[0] == 401 and "does not match" in replay[1].get("detail", ""),
                 "a captured body replayed with a new timestamp (and the old signature) is 401", f"{replay}")
    big = charge("evt_big", name="x" * 5000)
    over = deliver(node, "shop", big, stripe_headers(big))
    checks.check(over[0] == 413 and "at most 4096" in over[1].get("detail", ""),
                 "a body over the webhook's maxBodyBytes is 413 naming the limit", f"{over}")
    broken = b'{"id": "evt_broken",'
    invalid = deliver(node, "shop", broken, stripe_headers(broken))
    checks.check(invalid[0] == 422 and "invalid JSON" in invalid[1].get("detail", ""),
                 "a signed body that is not JSON is 422", f"{invalid}")
    refund = json.dumps({"id": "evt_refund", "type": "charge.refunded"}).encode()
    ignored = deliver(node, "shop", refund, stripe_headers(refund))
    checks.check(ignored[0] == 200 and ignored[1].get("ignored") is True
                 and deliveries(node, "shop", "ignored") == 1,
                 "an event no rule matches is 200 {\"ignored\":true} and counted as ignored", f"{ignored}")
    unset = deliver(node, "unset", commits, github_headers(commits, None))
    checks.check(unset[0] == 503 and "SUITE_SURELY_UNSET_SECRET" in unset[1].get("detail", ""),
                 "a webhook whose secret's variable is unset is 503 naming the variable", f"{unset}")

    killed = charge("evt_suite_kill", amount=500, name="Grace Hopper")
    answer = deliver(node, "shop", killed, stripe_headers(killed))
    node.kill()
    node.start()
    retry = deliver(node, "shop", killed, stripe_headers(killed))
    checks.check(answer[0] == 202 and retry[0] == 202 and value(node, "hook_orders") == 2
                 and board(node).get("Grace Hopper") == 5,
                 "a delivery answered 202, SIGKILL, restart, and the provider's retry: counted once",
                 f"{answer} {retry} orders {value(node, 'hook_orders')} {board(node)}")
    node.stop()


def cluster(checks, nodes, binary: str, folder: str, config: str, redis) -> None:
    redis.start()
    members = [start_node(nodes, binary, folder, TOKEN, redis.url, config, f"node{index}") for index in range(3)]
    body = charge("evt_suite_cluster", amount=1250, name="Ada Lovelace")
    answers = [deliver(node, "shop", body, stripe_headers(body)) for node in members]
    commits = push(1)
    pushes = [deliver(node, "gh", commits, github_headers(commits, "cluster-delivery-1")) for node in members]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        seen = [(value(node, "hook_orders"), value(node, "hook_pushes"), board(node)) for node in members]
        if all(entry == (1, 1, {"Ada Lovelace": 12.5}) for entry in seen):
            break
        time.sleep(0.1)
    checks.check(all(status == 202 for status, _ in answers + pushes),
                 "the same Stripe event and GitHub delivery sent to each of three nodes are answered 202 by each",
                 f"{answers} {pushes}")
    checks.check(all(entry == (1, 1, {"Ada Lovelace": 12.5}) for entry in seen),
                 "and counted once, as every node reads it", f"{seen}")
    for node in members:
        node.stop()


def main() -> int:
    arguments = cluster_arguments(__doc__.split("\n\n")[0])
    checks, folder, redis, nodes, started = begin_run("rollboard-webhooks-", arguments.redis_server)
    os.environ["SUITE_STRIPE_SECRET"] = STRIPE_SECRET
    os.environ["SUITE_GITHUB_SECRET"] = GITHUB_SECRET
    def run() -> None:
        config = write_config(folder, DASHBOARD, DASHBOARD_ID)
        for name, text in [("shop", SHOP), ("gh", GH), ("unset", UNSET)]:
            with open(os.path.join(config, "webhooks", f"{name}.yaml"), "w") as handle:
                handle.write(text)
        single_node(checks, nodes, arguments.binary, folder, config)
        cluster(checks, nodes, arguments.binary, folder, config, redis)

    return run_cluster_scenario(checks, nodes, redis, folder, started, run)


if __name__ == "__main__":
    sys.exit(main())
