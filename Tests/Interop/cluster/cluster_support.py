"""Pieces shared by the cluster interop test and the cluster benchmark: a `redis-server` child with an append-only
file, `rollboard serve --redis` nodes, a fast HTTPS client, and WebSocket screens that record what they are shown.

Imports `rollboard_process` and `screen_state` from Tests/Interop/server (Checks, free_port, the insecure TLS
context, the protocol 2 decoder)."""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import traceback

import websockets

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
import sys  # noqa: E402

sys.path.insert(0, os.path.join(REPOSITORY, "Tests", "Interop", "server"))
from rollboard_process import Checks, RollboardProcess, free_port, insecure_client_context, terminate  # noqa: E402,F401
from screen_state import ScreenState  # noqa: E402

CONTEXT = insecure_client_context()


# ---------------------------------------------------------------------------------------------------------- Redis


class RedisServer:
    """A `redis-server` child on a loopback port with an append-only file in `directory` (kept across restarts), or
    with no persistence at all (`persistent=False`: a restart comes back empty)."""

    def __init__(self, executable: str, directory: str, port: int | None = None, appendfsync: str = "always",
                 persistent: bool = True):
        self.executable = executable
        self.persistent = persistent
        self.directory = directory
        self.port = port or free_port()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen | None = None
        self.log_path = os.path.join(directory, "redis.log")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15.0) -> None:
        os.makedirs(self.directory, exist_ok=True)
        args = [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--protected-mode", "no",
                "--daemonize", "no", "--dir", self.directory, "--appendonly", "yes" if self.persistent else "no",
                "--appendfsync", self.appendfsync, "--save", "", "--logfile", self.log_path]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}; log: {self.read_log()}")
            try:
                if self.command("PING") == "PONG":
                    # Wait until the append-only file is loaded (PING answers while loading).
                    if "loading:0" in (self.command("INFO", "persistence") or ""):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer PING; log: {self.read_log()}")

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM: a clean shutdown (the append-only file is flushed). Returns the exit status."""
        return terminate(self.process, timeout)

    def alive(self) -> bool:
        return bool(self.process) and self.process.poll() is None

    def read_log(self) -> str:
        try:
            with open(self.log_path, "rb") as handle:
                return handle.read().decode(errors="replace")[-3000:]
        except OSError:
            return ""

    def command(self, *args: str, timeout: float = 2.0):
        """One command over RESP; the reply decoded (strings, integers, lists, None)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as connection:
            request = f"*{len(args)}\r\n".encode()
            for arg in args:
                data = str(arg).encode()
                request += b"$%d\r\n%s\r\n" % (len(data), data)
            connection.sendall(request)
            reader = connection.makefile("rb")
            return _read_reply(reader)

    def version(self) -> str:
        try:
            info = self.command("INFO", "server") or ""
        except OSError:
            return "?"
        for line in info.splitlines():
            if line.startswith("redis_version:"):
                return line.split(":", 1)[1].strip()
        return "?"


def _read_reply(reader):
    line = reader.readline()
    if not line:
        raise OSError("redis closed the connection")
    kind, rest = line[:1], line[1:-2]
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        return RuntimeError(rest.decode())
    if kind == b":":
        return int(rest)
    if kind == b"$":
        length = int(rest)
        if length < 0:
            return None
        data = reader.read(length + 2)[:-2]
        return data.decode(errors="replace")
    if kind == b"*":
        count = int(rest)
        return None if count < 0 else [_read_reply(reader) for _ in range(count)]
    raise OSError(f"unexpected RESP reply {line!r}")


# ---------------------------------------------------------------------------------------------------------- nodes


ADMIN_TOKEN = "cluster-admin-token-0123456789abcdef"


class ClusterNode(RollboardProcess):
    """`rollboard serve --redis URL` on its own port and data folder; requests over http.client with one cached
    TLS context (urllib builds a new one per request)."""

    def __init__(self, binary: str, data_dir: str, token: str, redis_url: str | None, config: str | None = None,
                 port: int | None = None, name: str = "node"):
        super().__init__(binary, data_dir, token, config=config, port=port)
        self.redis_url = redis_url
        self.name = name
        self.exit_codes: list[int] = []

    def start(self, timeout: float = 30.0) -> None:
        os.makedirs(self.data_dir, exist_ok=True)
        args = [self.binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", self.data_dir]
        if self.redis_url:
            args += ["--redis", self.redis_url]
        if self.config:
            args += ["--config", self.config]
        env = dict(os.environ, ROLLBOARD_PRODUCER_TOKEN=self.token, ROLLBOARD_ADMIN_TOKEN=ADMIN_TOKEN)
        log = open(self.log_path, "ab")
        log.write(f"\n==== start {time.strftime('%H:%M:%S')} {' '.join(args)}\n".encode())
        log.flush()
        self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.exit_codes.append(self.process.returncode)
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}; log: {self.read_log()}")
            try:
                if self.request("GET", "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not become healthy; log: {self.read_log()}")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.exit_codes.append(self.process.returncode)

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM and wait; SIGKILL past `timeout`. Returns the exit status (None if never started)."""
        if not self.process:
            return None
        if self.process.poll() is None:
            self.exit_codes.append(terminate(self.process, timeout))
        return self.process.returncode

    def alive(self) -> bool:
        return bool(self.process) and self.process.poll() is None

    @property
    def pid(self) -> int:
        return self.process.pid if self.process else -1

    def fd_count(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def request(self, method: str, path: str, body: object | None = None, token: str | None = None,
                headers: dict | None = None, raw: bytes | None = None, timeout: float = 10.0):
        return https_request(self.port, method, path, body, token, timeout=timeout, headers=headers, raw=raw)

    def text(self, path: str, timeout: float = 10.0) -> tuple[int, str]:
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, context=CONTEXT, timeout=timeout)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read().decode(errors="replace")
        finally:
            connection.close()


def begin_run(prefix: str, redis_server: str) -> tuple[Checks, str, RedisServer, list, float]:
    """A cluster script's run: its checks, a fresh folder (`prefix`…), a Redis server to start there, the list its
    nodes go in, and when it started."""
    folder = tempfile.mkdtemp(prefix=prefix)
    return Checks(), folder, RedisServer(redis_server, os.path.join(folder, "redis")), [], time.monotonic()


def cluster_arguments(description: str, add_arguments=None) -> argparse.Namespace:
    """A cluster script's arguments: `--binary` (made absolute), `--redis-server`, and what `add_arguments` adds."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--redis-server", default="redis-server")
    if add_arguments:
        add_arguments(parser)
    arguments = parser.parse_args()
    arguments.binary = os.path.abspath(arguments.binary)
    return arguments


def start_node(nodes: list, binary: str, folder: str, token: str, redis_url: str, config: str,
               name: str) -> ClusterNode:
    """Starts the node `name` (data in `folder`/`name`, log in `folder`/`name`.log), put in `nodes` first so that a
    start that fails still stops it."""
    node = ClusterNode(binary, os.path.join(folder, name), token, redis_url, config=config, name=name)
    node.log_path = os.path.join(folder, f"{name}.log")
    nodes.append(node)
    node.start()
    return node


def clean_up(checks: Checks, nodes: list, redis: RedisServer, folder: str, started: float) -> None:
    """After a run whose nodes were stopped: stops Redis, prints each node's log tail if a check failed, how long the
    run took, and removes the run's folder."""
    redis.stop()
    if checks.failed:
        for node in nodes:
            print(f"---- {node.name} log (tail)\n{node.read_log()[-2000:]}")
    print(f"run took {time.monotonic() - started:.1f} s")
    shutil.rmtree(folder, ignore_errors=True)


def run_cluster_scenario(checks: Checks, nodes: list, redis: RedisServer, folder: str, started: float,
                         scenario) -> int:
    """Runs `scenario()` (a cluster script's body), counts an exception as a failed check, then stops every node,
    cleans up (`clean_up`) and returns the exit status."""
    try:
        scenario()
    except Exception:  # noqa: BLE001
        checks.check(False, "the scenario ran to its end", traceback.format_exc())
    finally:
        for node in nodes:
            node.stop()
        clean_up(checks, nodes, redis, folder, started)
    return checks.finish()


def https_request(port: int, method: str, path: str, body: object | None = None, token: str | None = None,
                  timeout: float = 10.0, connection: http.client.HTTPSConnection | None = None,
                  headers: dict | None = None, raw: bytes | None = None):
    """One request; `(status, parsed JSON or text)`. With `connection` the request reuses it (keep-alive);
    `headers` are sent too (an `Idempotency-Key`); `raw` is sent as the body byte for byte (a signed webhook)."""
    own = connection is None
    if own:
        connection = http.client.HTTPSConnection("127.0.0.1", port, context=CONTEXT, timeout=timeout)
    try:
        headers = dict(headers or {})
        data = raw
        if raw is not None:
            headers.setdefault("Content-Type", "application/json")
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        try:
            parsed = json.loads(payload or b"null")
        except ValueError:
            parsed = payload.decode(errors="replace")
        return response.status, parsed
    finally:
        if own:
            connection.close()


def prometheus_value(text: str, name: str) -> float | None:
    """The first sample of metric `name` (with or without labels) in Prometheus text, or None."""
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if line.startswith(name + " ") or line.startswith(name + "{"):
            try:
                return float(line.rsplit(None, 1)[-1])
            except ValueError:
                return None
    return None


def prometheus_sum(text: str, name: str) -> float | None:
    """The sum of every sample of metric `name` over all its label sets, or None when it has none."""
    total = None
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if line.startswith(name + " ") or line.startswith(name + "{"):
            try:
                total = (total or 0.0) + float(line.rsplit(None, 1)[-1])
            except ValueError:
                pass
    return total


def prometheus_has(text: str, name: str) -> bool:
    """Whether the exposition has samples of `name` (a summary's or histogram's `_sum`, `_count`, `_bucket` count)."""
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        sample = line.split("{", 1)[0].split(" ", 1)[0]
        if sample in (name, name + "_sum", name + "_count", name + "_bucket"):
            return True
    return False


def write_config(folder: str, dashboard_yaml: str, dashboard_id: str, server_settings: dict | None = None) -> str:
    """The shipped `config/` copied into `folder/config` with one more dashboard; `server_settings` replaces top-level
    keys of the shipped `server.yaml` (`{"historyLength": "1000"}`). Returns the config path."""
    config = os.path.join(folder, "config")
    shutil.copytree(os.path.join(REPOSITORY, "config"), config)
    with open(os.path.join(config, "dashboards", f"{dashboard_id}.yaml"), "w") as handle:
        handle.write(dashboard_yaml)
    path = os.path.join(config, "server.yaml")
    with open(path) as handle:
        lines = handle.read().splitlines()
    for key, value in (server_settings or {}).items():
        replaced = False
        for index, line in enumerate(lines):
            if line.startswith(key + ":"):
                lines[index] = f"{key}: {value}"
                replaced = True
        if not replaced:
            lines.append(f"{key}: {value}")
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    return config


# ---------------------------------------------------------------------------------------------------------- screens


class Screen:
    """One WebSocket screen on a dashboard of a node. Keeps, across reconnections: every tile's targets in the order
    it was shown them (consecutive repeats folded), the `c` values and the epochs it was told, `status` messages,
    hellos (with `resume`), closes; and callbacks for the benchmark."""

    def __init__(self, name: str, port: int, dashboard: str, metrics: list[str], fps: int = 30):
        self.name = name
        self.port = port
        self.dashboard = dashboard
        self.metrics = metrics
        self.fps = fps
        self.targets: dict[str, list[float]] = {metric: [] for metric in metrics}
        self.segments: list[dict[str, list[float]]] = []  # targets per connection
        self.epoch: str | None = None
        self.epochs: list[str] = []
        self.last_c: int | None = None
        self.c_backwards: list[tuple[int, int]] = []
        self.statuses: list[tuple[float, str]] = []
        self.announcements: list[tuple[float, dict]] = []
        self.reloads: list[float] = []
        self.hellos: list[dict] = []
        self.closes: list[tuple[float, int | None, str]] = []
        self.errors: list[str] = []
        self.messages = 0
        self.task: asyncio.Task | None = None
        self.socket = None
        self.hello_event = asyncio.Event()
        self.closing = False
        self.on_message = None  # callable(now, payload, screen_state) for the benchmark

    @property
    def open(self) -> bool:
        return self.task is not None and not self.task.done()

    def since(self) -> str | None:
        if self.epoch is None or self.last_c is None:
            return None
        return f"{self.epoch}:{self.last_c}"

    async def connect(self, since: str | None = None, timeout: float = 15.0) -> dict:
        """Opens the socket (with `since` when given) and waits for its hello."""
        self.hello_event = asyncio.Event()
        self.closing = False
        self.task = asyncio.create_task(self._run(since))
        waiter = asyncio.create_task(self.hello_event.wait())
        done, _ = await asyncio.wait({waiter, self.task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if waiter not in done:
            waiter.cancel()
            detail = self.errors[-1] if self.errors else "no hello"
            raise RuntimeError(f"screen {self.name} did not get a hello: {detail}")
        return self.hellos[-1]

    async def close(self) -> None:
        self.closing = True
        if self.socket is not None:
            try:
                await asyncio.wait_for(self.socket.close(), 5)
            except Exception:  # noqa: BLE001
                pass
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass

    def _note_target(self, segment: dict, metric: str, state: dict | None) -> None:
        if state is None or "target" not in state:
            return
        target = state["target"]
        for series in (self.targets[metric], segment[metric]):
            if not series or series[-1] != target:
                series.append(target)

    def _note_c(self, c) -> None:
        if c is None:
            return
        if self.last_c is not None and c < self.last_c:
            self.c_backwards.append((self.last_c, c))
        self.last_c = c if self.last_c is None else max(self.last_c, c)

    async def _run(self, since: str | None) -> None:
        uri = f"wss://127.0.0.1:{self.port}/ws?dashboard={self.dashboard}&fps={self.fps}"
        if since:
            uri += f"&since={since}"
        segment: dict[str, list[float]] = {metric: [] for metric in self.metrics}
        self.segments.append(segment)
        decoder = ScreenState()
        try:
            async with websockets.connect(uri, ssl=CONTEXT, max_size=None, open_timeout=10,
                                          origin=f"https://127.0.0.1:{self.port}", ping_interval=None) as socket:
                self.socket = socket
                async for message in socket:
                    now = time.monotonic()
                    if isinstance(message, (bytes, bytearray)):
                        continue
                    self.messages += 1
                    raw = json.loads(message)
                    kind = raw.get("type")
                    if kind == "hello":
                        changes = raw.get("changes") or {}
                        self.epoch = changes.get("epoch")
                        self.epochs.append(self.epoch)
                        self.hellos.append({"at": now, "resume": raw.get("resume"), "changes": changes, "feed": raw.get("feed"),
                                            "since": since})
                        if since is None or raw.get("resume") == "full":
                            # A fresh start: `c` may restart lower only if the epoch changed (checked by callers).
                            self.last_c = None
                        self._note_c(changes.get("seq"))
                    elif kind == "status":
                        self.statuses.append((now, raw.get("feed")))
                    elif kind == "announce":
                        self.announcements.append((now, raw))
                    elif kind == "reload":
                        self.reloads.append(now)
                    elif "f" in raw or kind == "state":
                        self._note_c(raw.get("c"))
                    shown = decoder.read(message)
                    if shown is not None and shown.get("type") in ("hello", "frame"):
                        for metric in self.metrics:
                            if metric in decoder.wire and metric in (shown.get("tiles") or {}):
                                self._note_target(segment, metric, decoder.wire[metric])
                    if self.on_message is not None:
                        self.on_message(now, raw, decoder)
                    if kind == "hello":
                        self.hello_event.set()
                self.closes.append((time.monotonic(), socket.close_code, socket.close_reason or ""))
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            self.closes.append((time.monotonic(), code, str(closed)))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001
            self.errors.append(f"{type(error).__name__}: {error}")
            self.closes.append((time.monotonic(), None, f"{type(error).__name__}: {error}"))
        finally:
            self.socket = None

    def current_targets(self) -> dict[str, float | None]:
        return {metric: (series[-1] if series else None) for metric, series in self.targets.items()}


def is_subsequence(short: list, long: list) -> bool:
    iterator = iter(long)
    return all(any(item == candidate for candidate in iterator) for item in short)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]
