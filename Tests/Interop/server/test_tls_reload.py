"""Certificate renewal: after the certificate and key files are replaced, SIGHUP makes the real server present the new
certificate to new connections, while a screen connected before keeps its connection; a broken key is refused and
the old certificate stays in use."""

import asyncio
import hashlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time

import websockets

from rollboard_process import Checks, RollboardProcess, binary_arguments, insecure_client_context


def fingerprint(port: int) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with insecure_client_context().wrap_socket(raw, server_hostname="localhost") as tls:
            return hashlib.sha256(tls.getpeercert(binary_form=True)).hexdigest()


def wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def main() -> int:
    args = binary_arguments()
    token = "tls-reload-token-" + str(random.randrange(10**9))
    checks = Checks()
    check = checks.check

    with tempfile.TemporaryDirectory() as data_dir:
        server = RollboardProcess(args.binary, data_dir, token)
        server.start()
        certificate = os.path.join(data_dir, "tls", "certificate.pem")
        key = os.path.join(data_dir, "tls", "private-key.pem")
        first = fingerprint(server.port)

        async def scenario() -> None:
            uri = f"wss://127.0.0.1:{server.port}/ws?dashboard=demo"
            async with websockets.connect(uri, ssl=insecure_client_context()) as screen:
                json.loads(await asyncio.wait_for(screen.recv(), 10))
                subprocess.run(
                    ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                     "-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout", key + ".new", "-out",
                     certificate + ".new"], check=True, capture_output=True)
                os.replace(key + ".new", key)
                os.replace(certificate + ".new", certificate)
                server.process.send_signal(signal.SIGHUP)
                renewed = await asyncio.get_running_loop().run_in_executor(
                    None, wait_for, lambda: fingerprint(server.port) != first)
                check(renewed, "new connections get the renewed certificate after SIGHUP")
                status, _ = await asyncio.get_running_loop().run_in_executor(
                    None, lambda: server.request("POST", "/api/v1/metrics/revenue", {"value": 42}, token))
                check(status == 202, "posts are accepted over the renewed certificate", f"status {status}")
                try:
                    while True:
                        message = await asyncio.wait_for(screen.recv(), 10)
                        if isinstance(message, str) and "revenue" in json.loads(message).get("t", {}):
                            break
                    kept = True
                except Exception as error:  # noqa: BLE001 - reported
                    kept = False
                    print(f"screen: {type(error).__name__}: {error}")
                check(kept, "a screen connected before the reload keeps receiving frames")

        asyncio.run(scenario())
        second = fingerprint(server.port)
        with open(key, "w") as handle:
            handle.write("not a key\n")
        server.process.send_signal(signal.SIGHUP)
        check(wait_for(lambda: "TLS reload refused" in server.read_log()), "a broken key is refused and logged")
        check(server.process.poll() is None, "a broken key does not stop the server")
        check(fingerprint(server.port) == second, "after a refused reload the certificate in use stays")
        server.stop()

    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
