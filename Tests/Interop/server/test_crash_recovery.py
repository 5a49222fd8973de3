"""Crash test: every value acknowledged with 202 survives SIGKILL and shows in a new screen's hello."""

import argparse
import asyncio
import concurrent.futures
import json
import random
import ssl
import sys
import tempfile
import time

import websockets

from rollboard_process import RollboardProcess


async def hello(server: RollboardProcess, dashboard: str) -> dict:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    uri = f"wss://127.0.0.1:{server.port}/ws?dashboard={dashboard}"
    async with websockets.connect(uri, ssl=context, origin=f"https://127.0.0.1:{server.port}") as socket:
        return json.loads(await asyncio.wait_for(socket.recv(), 10))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--metric", default="revenue")
    parser.add_argument("--dashboard", default="demo")
    parser.add_argument("--tile", default="revenue")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()

    token = "crash-test-token-" + str(random.randrange(10**9))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as data_dir:
        server = RollboardProcess(args.binary, data_dir, token)
        server.start()
        acknowledged: dict[int, float] = {}
        stop_at = time.monotonic() + args.seconds
        killed = False

        def writer(index: int) -> None:
            counter = 0
            while time.monotonic() < stop_at and not killed:
                value = round(index * 1000 + counter + 0.25, 2)
                counter += 1
                try:
                    status, body = server.request("POST", f"/api/v1/metrics/{args.metric}", {"value": value}, token=token, timeout=5)
                except OSError:
                    return
                if status == 202:
                    acknowledged[body["seq"]] = body["value"]

        with concurrent.futures.ThreadPoolExecutor(args.writers) as pool:
            futures = [pool.submit(writer, index) for index in range(args.writers)]
            time.sleep(args.seconds * 0.7)
            server.kill()
            killed = True
            for future in futures:
                future.result()

        if not acknowledged:
            print("FAIL: no value was acknowledged before the kill")
            print("0 passed, 1 failed")
            return 1
        last_seq = max(acknowledged)
        print(f"acknowledged {len(acknowledged)} values before SIGKILL; last seq {last_seq}")

        server.start()
        status, current = server.request("GET", f"/api/v1/metrics/{args.metric}")
        checks = [
            ("GET answers 200 after restart", status == 200),
            ("the stored seq is at least the last acknowledged seq", status == 200 and current["seq"] >= last_seq),
            (
                "the stored value is the acknowledged value of that seq (or a later, unacknowledged one)",
                status == 200 and (current["seq"] > last_seq or current["value"] == acknowledged[last_seq]),
            ),
        ]
        greeting = asyncio.run(hello(server, args.dashboard))
        state = greeting.get("tiles", {}).get(args.tile, {})
        checks.append(("a new screen's hello targets the stored value", state.get("target") == current.get("value")))
        server.stop()

    for name, ok in checks:
        print(("PASS: " if ok else "FAIL: ") + name)
        passed += ok
        failed += not ok
    if failed:
        print(f"server log:\n{server.read_log()}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
