"""Leak soak: many connect/disconnect cycles against the real server, with posts and broken frames mixed in.

Each cycle is one of (WebSocket upgrades and frames written by hand on Python's ssl, so no client library's quirks
count against the server): a screen that gets its hello and closes; a screen that sends an unmasked frame and is closed
with 1002; a producer post on a fresh TLS connection; a TLS connection closed without a request; a TCP connection
closed before the TLS handshake. The server's open descriptors must come back to where they were after a warm-up,
and its resident memory must fall back near that level once the load stops (the server bounds malloc arenas and
returns free memory every 10 s).
"""

import base64
import http.client
import json
import os
import random
import socket
import ssl
import struct
import sys
import tempfile
import threading
import time

from rollboard_process import Checks, RollboardProcess, binary_arguments, insecure_client_context


CONTEXT = insecure_client_context()  # made once and shared by every cycle


def context() -> ssl.SSLContext:
    return CONTEXT


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def resident_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_screen(port: int) -> ssl.SSLSocket:
    """A dashboard WebSocket over TLS, upgraded by hand, with the first frame (the hello) read."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    screen = context().wrap_socket(raw, server_hostname="localhost")
    key = base64.b64encode(os.urandom(16)).decode()
    screen.sendall((f"GET /ws?dashboard=demo HTTP/1.1\r\nHost: localhost:{port}\r\nUpgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = screen.recv(4096)
        if not chunk:
            raise ConnectionError("closed before the 101")
        received += chunk
    head, rest = received.split(b"\r\n\r\n", 1)
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))
    read_frame(screen, rest)
    return screen


def read_frame(screen: ssl.SSLSocket, buffered: bytes = b"") -> tuple[int, bytes]:
    """Reads one unfragmented server frame: (opcode, payload)."""
    def need(count: int) -> bytes:
        nonlocal buffered
        while len(buffered) < count:
            chunk = screen.recv(65536)
            if not chunk:
                raise ConnectionError("closed mid-frame")
            buffered += chunk
        taken, buffered = buffered[:count], buffered[count:]
        return taken
    first, second = need(2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", need(2))[0]
    elif length == 127:
        length = struct.unpack("!Q", need(8))[0]
    return first & 0x0F, need(length)


def masked(opcode: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def cycle(server: RollboardProcess, token: str, index: int, errors: list) -> None:
    kind = index % 5
    try:
        if kind == 0:
            screen = open_screen(server.port)
            screen.sendall(masked(0x8, struct.pack("!H", 1000)))
            opcode, payload = read_frame(screen)
            while opcode != 0x8:  # frames of the carousel may come first
                opcode, payload = read_frame(screen)
            if struct.unpack("!H", payload[:2])[0] != 1000:
                errors.append(f"cycle kind 0: the close reply is {payload[:2].hex()}, not 1000")
            screen.close()
        elif kind == 1:
            screen = open_screen(server.port)
            screen.sendall(b"\x81\x05hello")  # unmasked: the server must close with 1002
            opcode, payload = read_frame(screen)
            while opcode != 0x8:
                opcode, payload = read_frame(screen)
            code = struct.unpack("!H", payload[:2])[0]
            if code != 1002:
                errors.append(f"cycle kind 1: closed with {code}, not 1002")
            screen.close()
        elif kind == 2:
            client = http.client.HTTPSConnection("127.0.0.1", server.port, context=context(), timeout=10)
            client.request("POST", "/api/v1/metrics/visitors", body=json.dumps({"value": index % 100000}),
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            status = client.getresponse().status
            client.close()
            if status != 202:
                errors.append(f"post answered {status}")
        elif kind == 3:
            raw = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            wrapped = context().wrap_socket(raw, server_hostname="localhost")
            wrapped.close()
        else:
            socket.create_connection(("127.0.0.1", server.port), timeout=10).close()
    except Exception as error:  # noqa: BLE001 - counted and reported
        errors.append(f"cycle kind {kind}: {type(error).__name__}: {error}")


def run_cycles(server: RollboardProcess, token: str, count: int, threads: int) -> list:
    errors: list = []
    next_index = iter(range(count))
    lock = threading.Lock()

    def worker() -> None:
        while True:
            with lock:
                index = next(next_index, None)
            if index is None:
                return
            cycle(server, token, index, errors)

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    return errors


def main() -> int:
    def options(parser) -> None:
        parser.add_argument("--cycles", type=int, default=3000)
        parser.add_argument("--threads", type=int, default=4)
        parser.add_argument("--settle", type=float, default=30.0, help="seconds to wait for memory to fall back")
        parser.add_argument("--no-memory-check", action="store_true",
                            help="skip the resident-memory check (AddressSanitizer keeps freed memory in quarantine)")

    args = binary_arguments(options)

    token = "leak-soak-token-" + str(random.randrange(10**9))
    checks = Checks()
    check = checks.check

    with tempfile.TemporaryDirectory() as data_dir:
        server = RollboardProcess(args.binary, data_dir, token)
        server.start()
        pid = server.process.pid
        warmup = max(100, args.cycles // 20)
        run_cycles(server, token, warmup, args.threads)
        time.sleep(2)
        base_fds, base_rss = descriptors(pid), resident_kib(pid)
        started = time.monotonic()
        errors = run_cycles(server, token, args.cycles, args.threads)
        elapsed = time.monotonic() - started
        peak_rss = resident_kib(pid)
        deadline = time.monotonic() + args.settle
        fds, rss = descriptors(pid), resident_kib(pid)
        bound_kib = max(8 * 1024, base_rss // 10)
        while time.monotonic() < deadline and (fds > base_fds + 2 or (rss > base_rss + bound_kib
                                                                      and not args.no_memory_check)):
            time.sleep(1)
            fds, rss = descriptors(pid), resident_kib(pid)
        print(f"{args.cycles} cycles in {elapsed:.1f} s ({args.cycles / elapsed:.0f}/s); descriptors {base_fds} -> {fds}; "
              f"RSS {base_rss} KiB after warm-up, {peak_rss} KiB at the end of the load, {rss} KiB after settling")
        check(len(errors) <= args.cycles // 1000, "cycles complete without errors",
              f"{len(errors)} errors, first: {errors[:3]}")
        check(fds <= base_fds + 2, "descriptors come back to the warm-up level", f"{base_fds} -> {fds}")
        if not args.no_memory_check:
            check(rss <= base_rss + bound_kib, f"memory falls back within {bound_kib} KiB of the warm-up level",
                  f"{base_rss} -> {rss} KiB")
        check(server.process.poll() is None, "the server is still running")
        server.stop()
        check(server.process.returncode == 0, "the server stops cleanly on SIGTERM", f"exit {server.process.returncode}")

    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
