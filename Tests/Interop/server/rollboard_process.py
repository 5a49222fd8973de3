"""Starts and stops a real `rollboard serve` process for the interop tests."""

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import types
import urllib.request

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def insecure_client_context() -> ssl.SSLContext:
    """A TLS client context that accepts the server's self-signed certificate (no CA store loaded: that costs
    tens of milliseconds per context)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class Checks:
    """Named pass/fail checks of one interop script, closed by the `N passed, M failed` line."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, condition: bool, name: str, detail: str = "") -> None:
        if condition:
            self.passed += 1
            print(f"PASS {name}")
        else:
            self.failed += 1
            print(f"FAIL {name} {detail}")

    def finish(self) -> int:
        """Prints the closing line; the script's exit status."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1


def binary_arguments(add_arguments=None) -> argparse.Namespace:
    """The script's arguments: `--binary`, the rollboard to run, and whatever `add_arguments(parser)` adds."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    if add_arguments:
        add_arguments(parser)
    arguments = parser.parse_args()
    arguments.binary = os.path.abspath(arguments.binary)
    return arguments


def config_folder(folder: str, admin_token: str) -> str:
    """`folder`/config with empty dashboards/ and sources/ and a server.yaml that names `admin_token`; its path."""
    config = os.path.join(folder, "config")
    os.makedirs(os.path.join(config, "dashboards"))
    os.makedirs(os.path.join(config, "sources"))
    with open(os.path.join(config, "server.yaml"), "w") as handle:
        handle.write(f"adminTokens: [{admin_token}]\n")
    return config


def run_with_tool(scenario, option: str, default: str) -> int:
    """Parses `--binary` and `option` (the path of a tool the scenario starts, `default` if not given), runs
    `scenario(binary, tool, checks)` and returns the exit status."""
    arguments = binary_arguments(lambda parser: parser.add_argument(option, default=default))
    checks = Checks()
    asyncio.run(scenario(arguments.binary, getattr(arguments, option.lstrip("-").replace("-", "_")), checks))
    return checks.finish()


async def until(condition, seconds: float = 10.0, every: float = 0.1) -> bool:
    """Whether `condition()` holds within `seconds`, asked every `every` seconds (for a real server's state)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        await asyncio.sleep(every)
    return condition()


class Background:
    """A peer whose `run()` coroutine runs as an asyncio task between `start()` and `stop()`."""

    task: asyncio.Task | None = None

    def start(self):
        self.task = asyncio.create_task(self.run())
        return self

    def stop(self) -> None:
        if self.task and not self.task.done():
            self.task.cancel()


@contextlib.contextmanager
def scratch_folder(prefix: str):
    """A fresh temporary folder, removed afterwards whatever happens."""
    folder = tempfile.mkdtemp(prefix=prefix)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_config(folder: str, files: dict | None = None, whole: bool = True, server_settings: str = "") -> str:
    """`folder`/config: the repository's configuration (`whole`) or only its server.yaml, with `server_settings`
    added to server.yaml and `files` (paths in the configuration, and their text) written over it."""
    config = os.path.join(folder, "config")
    if whole:
        shutil.copytree(os.path.join(REPOSITORY, "config"), config)
    else:
        os.makedirs(config)
        shutil.copy(os.path.join(REPOSITORY, "config", "server.yaml"), config)
    if server_settings:
        with open(os.path.join(config, "server.yaml"), "a", encoding="utf-8") as handle:
            handle.write("\n" + server_settings)
    for path, text in (files or {}).items():
        os.makedirs(os.path.dirname(os.path.join(config, path)), exist_ok=True)
        with open(os.path.join(config, path), "w", encoding="utf-8") as handle:
            handle.write(text)
    return config


@contextlib.contextmanager
def serving(binary: str, token: str, folder: str, config: str | None = None, environment: dict | None = None):
    """A started `rollboard serve` with its data in `folder`/data, stopped afterwards whatever happens."""
    server = RollboardProcess(binary, os.path.join(folder, "data"), token, config=config, environment=environment)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def served_checks(prefix: str, token: str, files: dict | None = None, whole: bool = True, server_settings: str = "",
                  config: str | None = None, environment: dict | None = None, add_arguments=None):
    """One script's run against one server: its arguments, its checks, a fresh folder (`prefix`…) with a
    configuration (`config`, or one `write_config` writes) and a started server on it, all undone afterwards. Yields
    them as `arguments`, `checks`, `folder`, `config` and `server`."""
    arguments = binary_arguments(add_arguments)
    checks = Checks()
    with scratch_folder(prefix) as folder:
        config = config or write_config(folder, files, whole, server_settings)
        with serving(arguments.binary, token, folder, config, environment) as server:
            yield types.SimpleNamespace(arguments=arguments, checks=checks, folder=folder, config=config, server=server)


def stop_and_report(server: "RollboardProcess | None", checks: Checks) -> None:
    """Stops `server`, if it was made, and prints the tail of its log when a check failed."""
    if server:
        server.stop()
        if checks.failed:
            print(server.read_log()[-3000:])


def wait_until_listening(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something accepts connections on `host`:`port` within about 10 s (a child process starting up)."""
    for _ in range(100):
        try:
            socket.create_connection((host, port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def write_file(path: str, text: str) -> None:
    """Writes `text` to `path`, making its folders."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)


def terminate(process: subprocess.Popen | None, timeout: float) -> int | None:
    """Ends `process` with SIGTERM, or SIGKILL once `timeout` seconds pass; its exit status (None if never started)."""
    if process and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    return process.returncode if process else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RollboardProcess:
    """One `rollboard serve` child on a free loopback port with its own data directory."""

    def __init__(self, binary: str, data_dir: str, token: str, config: str | None = None, port: int | None = None,
                 environment: dict | None = None, extra_arguments: list | None = None):
        self.binary = binary
        self.extra_arguments = list(extra_arguments or [])
        self.environment = environment or {}
        self.data_dir = data_dir
        self.token = token
        self.config = config
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None
        self.log_path = os.path.join(data_dir, f"server-{self.port}.log")

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> None:
        os.makedirs(self.data_dir, exist_ok=True)
        args = [self.binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", self.data_dir]
        if self.config:
            args += ["--config", self.config]
        args += self.extra_arguments
        env = dict(os.environ, ROLLBOARD_PRODUCER_TOKEN=self.token, **self.environment)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}; log: {self.read_log()}")
            try:
                status, _ = self.request("GET", "/healthz")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not become healthy; log: {self.read_log()}")

    def kill(self) -> None:
        """Ends the server with SIGKILL: no shutdown code runs."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        terminate(self.process, 10)

    def read_log(self) -> str:
        try:
            with open(self.log_path, "rb") as handle:
                return handle.read().decode(errors="replace")[-4000:]
        except OSError:
            return ""

    def ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context

    def request(self, method: str, path: str, body: object | None = None, token: str | None = None,
                headers: dict | None = None, raw: bytes | None = None, timeout: float = 10.0):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, context=self.ssl_context(), timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            payload = error.read()
            try:
                return error.code, json.loads(payload)
            except ValueError:
                return error.code, payload.decode(errors="replace")
