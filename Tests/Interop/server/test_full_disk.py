"""Full disk: the real server's data folder on a small tmpfs that the test fills up.

While the disk is full, posts get 503 (never 202), /readyz says 503, and screens keep working (a new screen gets its
hello with the last acknowledged value). When space returns the store accepts posts again without a restart, and
after a SIGKILL and a restart every acknowledged value is there. Needs root (it mounts a tmpfs).
"""

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import websockets

from rollboard_process import Checks, RollboardProcess, binary_arguments, insecure_client_context


async def hello(port: int) -> dict:
    uri = f"wss://127.0.0.1:{port}/ws?dashboard=demo"
    async with websockets.connect(uri, ssl=insecure_client_context(), open_timeout=10) as screen:
        return json.loads(await asyncio.wait_for(screen.recv(), 10))


def fill(path: str) -> int:
    """Writes zeros to `path` until the file system refuses; returns the bytes written."""
    written = 0
    chunk = b"\0" * 65536
    with open(path, "wb", buffering=0) as filler:
        while True:
            try:
                written += filler.write(chunk)
            except OSError:
                break
        for size in (4096, 512, 64, 1):
            while True:
                try:
                    written += filler.write(b"\0" * size)
                except OSError:
                    break
    return written


def main() -> int:
    args = binary_arguments(lambda parser: parser.add_argument("--size", default="16m", help="size of the tmpfs"))
    token = "full-disk-token-" + str(random.randrange(10**9))
    checks = Checks()
    check = checks.check

    with tempfile.TemporaryDirectory() as outside:
        disk = os.path.join(outside, "disk")
        os.makedirs(disk)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={args.size}", "tmpfs", disk],
                                 capture_output=True, text=True)
        if mounted.returncode != 0:
            print(f"cannot mount a tmpfs (root is needed): {mounted.stderr.strip()}")
            print("0 passed, 1 failed")
            return 1
        try:
            server = RollboardProcess(args.binary, os.path.join(disk, "data"), token)
            server.log_path = os.path.join(outside, "server.log")
            server.start()
            acknowledged = []
            value = 100
            for _ in range(5):
                value += 1
                status, body = server.request("POST", "/api/v1/metrics/visitors", {"value": value, "animated": False}, token)
                if status == 202:
                    acknowledged.append((body["seq"], value))
            check(len(acknowledged) == 5, "posts are acknowledged while there is space", f"{acknowledged}")

            filled = fill(os.path.join(disk, "filler"))
            print(f"filled the disk with {filled} bytes")
            # The journal's last page may still take a few records; keep posting until the disk refuses.
            statuses = []
            for _ in range(400):
                value += 1
                status, body = server.request("POST", "/api/v1/metrics/visitors", {"value": value, "animated": False},
                                              token)
                statuses.append(status)
                if status == 202:
                    acknowledged.append((body["seq"], value))
                elif status != 503 or statuses.count(503) >= 10:
                    break
            first_refusal = statuses.index(503) if 503 in statuses else len(statuses)
            after = statuses[first_refusal:]
            print(f"{first_refusal} posts fitted in the journal's last page; then {after}")
            check(len(after) >= 10 and set(after) == {503},
                  "on a full disk posts get 503, never an unconfirmed 202", f"{statuses[-20:]}")
            status, body = server.request("GET", "/readyz")
            check(status == 503, "/readyz answers 503 while the disk is full", f"{status} {body}")
            status, _ = server.request("GET", "/healthz")
            check(status == 200, "/healthz still answers 200 (the process is alive)", f"{status}")
            greeting = asyncio.run(hello(server.port))
            shown = greeting["tiles"]["visitors"]["target"]
            check(shown == acknowledged[-1][1], "a new screen gets its hello with the last acknowledged value",
                  f"{shown} != {acknowledged[-1][1]}")

            os.remove(os.path.join(disk, "filler"))
            deadline = time.monotonic() + 15
            ready = False
            while time.monotonic() < deadline and not ready:
                ready = server.request("GET", "/readyz")[0] == 200
                time.sleep(0.2)
            check(ready, "/readyz answers 200 again once space returns, without a restart")
            value += 1
            status, body = server.request("POST", "/api/v1/metrics/visitors", {"value": value, "animated": False}, token)
            if status == 202:
                acknowledged.append((body["seq"], value))
            check(status == 202, "posts are acknowledged again", f"{status} {body}")

            server.kill()
            server.start()
            status, body = server.request("GET", "/api/v1/metrics/visitors")
            history = {entry["seq"]: entry["value"] for entry in body.get("history", [])}
            lost = [(seq, expected) for seq, expected in acknowledged if history.get(seq) != expected]
            check(not lost, "after SIGKILL and a restart every acknowledged value is there with its seq",
                  f"lost {lost}; history {history}")
            seqs = [seq for seq, _ in acknowledged]
            check(seqs == sorted(set(seqs)), "sequence numbers were never reused", f"{seqs}")
            server.stop()
        finally:
            subprocess.run(["umount", "-l", disk], capture_output=True)

    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
