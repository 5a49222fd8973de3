"""What the attack suite's attacks share: a configuration copy with changed limits, a producer, raw WebSocket
frames and screens over TLS, and frame-rate measurement in a process of its own."""

import asyncio
import contextlib
import base64
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import socket
import ssl
import struct
import sys
import tempfile
import threading
import time

import websockets

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rollboard_process import RollboardProcess, insecure_client_context  # noqa: E402

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
CONTEXT = insecure_client_context()
TOKEN = "attack-suite-token-" + str(random.randrange(10**9))


# MARK: Server and configuration

def config_copy(folder: str, limits: dict | None = None, top: dict | None = None,
                replace: tuple[str, str] | None = None) -> str:
    """A copy of config/ with extra `limits` keys, extra top-level keys and one text replacement in the dashboards."""
    target = os.path.join(folder, "config")
    shutil.copytree(os.path.join(REPOSITORY, "config"), target)
    path = os.path.join(target, "server.yaml")
    text = open(path).read()
    for key, value in (limits or {}).items():
        pattern = re.compile(rf"^  {key}:.*$", re.M)
        line = f"  {key}: {value}"
        text = pattern.sub(line, text) if pattern.search(text) else text.replace("limits:\n", f"limits:\n{line}\n", 1)
    for key, value in (top or {}).items():
        text += f"\n{key}: {value}\n"
    open(path, "w").write(text)
    if replace:
        demo = os.path.join(target, "dashboards", "demo.yaml")
        content = open(demo).read()
        assert replace[0] in content, replace
        open(demo, "w").write(content.replace(replace[0], replace[1], 1))
    return target


def resident_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def post(port: int, metric: str, value: float, timeout: float = 10, interval: float | None = None) -> tuple[int, dict]:
    client = http.client.HTTPSConnection("127.0.0.1", port, context=CONTEXT, timeout=timeout)
    body = {"value": value} if interval is None else {"value": value, "interval": interval}
    try:
        client.request("POST", f"/api/v1/metrics/{metric}", body=json.dumps(body),
                       headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        response = client.getresponse()
        body = response.read()
        try:
            return response.status, json.loads(body)
        except ValueError:
            return response.status, {}
    finally:
        client.close()


def timed_get(port: int, path: str) -> tuple[int, float]:
    started = time.monotonic()
    client = http.client.HTTPSConnection("127.0.0.1", port, context=CONTEXT, timeout=10)
    try:
        client.request("GET", path)
        status = client.getresponse().status
    finally:
        client.close()
    return status, time.monotonic() - started


class Producer:
    """Keeps the demo's revenue odometer rolling without a pause: a rising value every 0.5 s, each move 0.6 s long,
    so every move is queued before the one before it ends (the lag bound then shortens the queued move, never stops
    it) and the frame rate measures the server, not a tile at rest."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        value = 100_000.0
        while not self.stop.is_set():
            value += 1_234.56
            try:
                post(self.port, "revenue", round(value, 2), interval=0.6)
            except OSError:
                pass
            self.stop.wait(0.5)

    def __enter__(self) -> "Producer":
        self.thread.start()
        return self

    def __exit__(self, *exception) -> None:
        self.stop.set()
        self.thread.join(5)


@contextlib.contextmanager
def fresh_server(binary: str):
    """A started server on a fresh data folder, stopped (and the folder removed) afterwards whatever happens."""
    with tempfile.TemporaryDirectory() as folder:
        server = RollboardProcess(binary, folder, TOKEN)
        server.start()
        try:
            yield server
        finally:
            server.stop()


# MARK: Raw WebSocket over TLS

def frame(opcode: int, payload: bytes, fin: bool = True, rsv1: bool = False, mask: bool = True) -> bytes:
    first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    length = len(payload)
    if length < 126:
        head = bytes([first, (0x80 if mask else 0) | length])
    elif length < 65536:
        head = bytes([first, (0x80 if mask else 0) | 126]) + struct.pack("!H", length)
    else:
        head = bytes([first, (0x80 if mask else 0) | 127]) + struct.pack("!Q", length)
    if not mask:
        return head + payload
    key = os.urandom(4)
    repeated = (key * (length // 4 + 1))[:length]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(length, "big") if length else b""
    return head + key + masked


class RawScreen:
    """A dashboard WebSocket upgraded by hand on an ssl socket, for what no client library would send."""

    def __init__(self, port: int, deflate: bool = False, receive_buffer: int | None = None, timeout: float = 10):
        raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        raw.settimeout(timeout)
        raw.connect(("127.0.0.1", port))
        self.sock = CONTEXT.wrap_socket(raw, server_hostname="localhost")
        self.buffer = b""
        extension = "Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover\r\n" if deflate else ""
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws?dashboard=demo HTTP/1.1\r\nHost: localhost:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"{extension}\r\n").encode())
        while b"\r\n\r\n" not in self.buffer:
            self.fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))

    def fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        self.buffer += chunk

    def buffered_frame(self) -> tuple[int, bytes] | None:
        """The first whole frame in the buffer, taken out of it; None (the buffer untouched) while it is partial."""
        if len(self.buffer) < 2:
            return None
        length, start = self.buffer[1] & 0x7F, 2
        if length == 126:
            if len(self.buffer) < 4:
                return None
            length, start = struct.unpack("!H", self.buffer[2:4])[0], 4
        elif length == 127:
            if len(self.buffer) < 10:
                return None
            length, start = struct.unpack("!Q", self.buffer[2:10])[0], 10
        if len(self.buffer) < start + length:
            return None
        opcode, payload = self.buffer[0] & 0x0F, self.buffer[start:start + length]
        self.buffer = self.buffer[start + length:]
        return opcode, payload

    def read_frame(self) -> tuple[int, bytes]:
        while (found := self.buffered_frame()) is None:
            self.fill()
        return found

    def close_code(self, ping_every: float | None = None, within: float = 30) -> int | None:
        """Reads until the server's close frame; its code, or None if the connection ended without one (or the
        socket's timeout passed with nothing read).

        With `ping_every`, sends a ping that often meanwhile, from this thread (an ssl socket used by two threads
        at once can take one thread's would-block for the other's end of file and end the read early), and gives
        up after `within` seconds."""
        patience = self.sock.gettimeout()
        quiet_since = time.monotonic()
        gives_up = quiet_since + within
        next_ping = quiet_since + ping_every if ping_every else None
        try:
            while True:
                while (found := self.buffered_frame()) is not None:
                    opcode, payload = found
                    if opcode == 0x8:
                        return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                if next_ping is None:
                    self.fill()
                    continue
                now = time.monotonic()
                if now >= gives_up or (patience is not None and now - quiet_since >= patience):
                    return None
                if now >= next_ping:
                    self.sock.settimeout(patience)
                    self.sock.sendall(frame(0x9, b"alive"))
                    next_ping += ping_every
                    continue
                self.sock.settimeout(next_ping - now)
                try:
                    self.fill()
                    quiet_since = time.monotonic()
                except TimeoutError:
                    pass
        except (OSError, ConnectionError, ssl.SSLError):
            return None
        finally:
            self.sock.settimeout(patience)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


# MARK: Frame-rate measurement, in a process of its own so attackers in this one do not disturb it

def _measure(port: int, screens: int, seconds: float, queue) -> None:
    async def one() -> list:
        arrivals = []
        uri = f"wss://127.0.0.1:{port}/ws?dashboard=demo&fps=30"
        async with websockets.connect(uri, ssl=CONTEXT, open_timeout=15, max_size=2**22) as screen:
            started = time.monotonic()
            await asyncio.wait_for(screen.recv(), 15)
            hello_latency = time.monotonic() - started
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                try:
                    message = await asyncio.wait_for(screen.recv(), max(0.05, deadline - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                if isinstance(message, str) and message.startswith('{"f":'):
                    arrivals.append(time.monotonic())
        intervals = [b - a for a, b in zip(arrivals, arrivals[1:])]
        return [hello_latency, intervals]

    async def all_screens() -> list:
        return await asyncio.gather(*(one() for _ in range(screens)))

    try:
        queue.put(asyncio.run(all_screens()))
    except Exception as error:  # noqa: BLE001 - reported by the caller
        queue.put(f"{type(error).__name__}: {error}")


class FrameMeasurement:
    """Starts `screens` normal screens in a child process that record frame intervals for `seconds`."""

    def __init__(self, port: int, screens: int, seconds: float) -> None:
        self.queue = multiprocessing.get_context("fork").Queue()
        self.process = multiprocessing.get_context("fork").Process(
            target=_measure, args=(port, screens, seconds, self.queue))
        self.process.start()

    def result(self) -> tuple[list, list]:
        outcome = self.queue.get(timeout=120)
        self.process.join(10)
        if isinstance(outcome, str):
            raise RuntimeError(outcome)
        hellos = [item[0] for item in outcome]
        intervals = [value for item in outcome for value in item[1]]
        return hellos, intervals


def percentile(values: list, fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def frame_figures(intervals: list) -> str:
    return (f"{len(intervals)} intervals, p50 {percentile(intervals, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(intervals, 0.99) * 1000:.1f} ms")


def within_baseline(baseline: list, loaded: list) -> bool:
    return bool(loaded) and percentile(loaded, 0.99) <= 1.2 * percentile(baseline, 0.99) + 0.005
