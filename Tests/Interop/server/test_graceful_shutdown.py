"""Graceful shutdown under load: SIGTERM stops accepting, answers the posts in flight, closes every screen with
1001 and exits 0 within the configured deadline; every value answered 202 is there after a restart."""

import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time

import websockets

from rollboard_process import Checks, RollboardProcess, binary_arguments, insecure_client_context, write_config


async def screen(port: int, ready: asyncio.Event, results: list) -> None:
    """Watches the demo dashboard until the server closes it; records the close code."""
    uri = f"wss://127.0.0.1:{port}/ws?dashboard=demo"
    async with websockets.connect(uri, ssl=insecure_client_context(), open_timeout=10) as socket:
        json.loads(await asyncio.wait_for(socket.recv(), 10))
        ready.set()
        try:
            while True:
                await asyncio.wait_for(socket.recv(), 30)
        except websockets.ConnectionClosed as closed:
            results.append(closed.rcvd.code if closed.rcvd else None)


def producer(server: RollboardProcess, token: str, stop: threading.Event, acknowledged: list, failures: list) -> None:
    """Posts increasing values until stopped; keeps every 202 and any answer that is neither 202 nor a refusal."""
    value = random.randrange(1000)
    while not stop.is_set():
        value += 1
        try:
            status, body = server.request("POST", "/api/v1/metrics/visitors", {"value": value % 100000}, token,
                                          timeout=15)
        except OSError:
            continue  # the listener is closed: the post was never accepted
        if status == 202:
            acknowledged.append((body["seq"], body["value"]))
        elif status != 503:
            failures.append((status, body))


def main() -> int:
    def options(parser) -> None:
        parser.add_argument("--screens", type=int, default=50)
        parser.add_argument("--producers", type=int, default=8)
        parser.add_argument("--deadline", type=float, default=10.0, help="shutdownTimeout written into server.yaml")

    args = binary_arguments(options)

    token = "shutdown-test-token-" + str(random.randrange(10**9))
    checks = Checks()
    check = checks.check

    with tempfile.TemporaryDirectory() as data_dir:
        config = write_config(data_dir, server_settings=f"shutdownTimeout: {args.deadline}\n")
        server = RollboardProcess(args.binary, os.path.join(data_dir, "data"), token, config=config)
        server.start()

        async def run() -> tuple:
            closes: list = []
            ready = [asyncio.Event() for _ in range(args.screens)]
            tasks = [asyncio.create_task(screen(server.port, event, closes)) for event in ready]
            await asyncio.wait_for(asyncio.gather(*(event.wait() for event in ready)), 30)
            stop = threading.Event()
            acknowledged: list = []
            failures: list = []
            threads = [threading.Thread(target=producer, args=(server, token, stop, acknowledged, failures))
                       for _ in range(args.producers)]
            for thread in threads:
                thread.start()
            await asyncio.sleep(1.0)
            started = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            code = await asyncio.get_running_loop().run_in_executor(None, server.process.wait, args.deadline + 10)
            elapsed = time.monotonic() - started
            stop.set()
            for thread in threads:
                thread.join(20)
            await asyncio.wait(tasks, timeout=10)
            return closes, elapsed, code, acknowledged, failures

        closes, elapsed, code, acknowledged, failures = asyncio.run(run())
        print(f"shutdown took {elapsed:.2f} s with {args.screens} screens and {args.producers} producers; "
              f"{len(acknowledged)} posts acknowledged")
        check(code == 0, "the server exits 0 on SIGTERM", f"exit status {code}")
        check(elapsed <= args.deadline + 1, f"it exits within the {args.deadline:g} s deadline", f"{elapsed:.2f} s")
        check(len(closes) == args.screens and all(c == 1001 for c in closes),
              "every screen is closed with 1001", f"{len(closes)} closes: {sorted(set(map(str, closes)))}")
        check(not failures, "no post gets an answer other than 202 or 503", f"{failures[:5]}")
        check(len(acknowledged) > 0, "posts were acknowledged while it ran")

        server.start()
        status, body = server.request("GET", "/api/v1/metrics/visitors")
        history = {entry["seq"]: entry["value"] for entry in body.get("history", [])} if status == 200 else {}
        latest = max(acknowledged)[0] if acknowledged else None
        check(status == 200 and body.get("seq") == latest,
              "after a restart the newest acknowledged post is the current value",
              f"status {status}, seq {body.get('seq') if isinstance(body, dict) else body}, expected {latest}")
        missing = [seq for seq, value in acknowledged if seq in history and history[seq] != value]
        check(not missing, "acknowledged values kept their sequence numbers", f"{missing[:5]}")
        status, _ = server.request("POST", "/api/v1/metrics/visitors", {"value": 7}, token)
        check(status == 202, "the restarted server accepts posts", f"status {status}")
        server.stop()

    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
