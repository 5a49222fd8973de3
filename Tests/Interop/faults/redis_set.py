"""A Redis primary with one replica and three Sentinels on loopback, each Redis server behind a `TcpProxy` of its
own whose address is the one it announces (so Sentinel, the replica and the nodes all reach it through the proxy).

Both servers keep an append-only file (`appendfsync always`); `restart_empty` starts one without it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time

from cluster_support import RedisServer, free_port
from fault_proxy import TcpProxy

MASTER_NAME = "rollboard"
DOWN_AFTER_MS = 1500      # Sentinel: a primary silent this long is subjectively down
FAILOVER_TIMEOUT_MS = 6000


class RedisMember(RedisServer):
    """One `redis-server` of the set: its own port, its append-only file, announced as its proxy's address."""

    def __init__(self, executable: str, directory: str, name: str):
        super().__init__(executable, directory)
        self.name = name
        self.front = TcpProxy(self.port, name)
        self.replica_of: int | None = None

    def start(self, timeout: float = 15.0) -> None:
        os.makedirs(self.directory, exist_ok=True)
        args = [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--protected-mode", "no",
                "--daemonize", "no", "--dir", self.directory, "--appendonly", "yes", "--appendfsync", self.appendfsync,
                "--save", "", "--logfile", self.log_path, "--replica-announce-ip", "127.0.0.1",
                "--replica-announce-port", str(self.front.port)]
        if self.replica_of:
            args += ["--replicaof", "127.0.0.1", str(self.replica_of)]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}; log: {self.read_log()}")
            try:
                if self.command("PING") == "PONG":
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not answer PING; log: {self.read_log()}")

    def kill(self) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def forget_data(self) -> None:
        """Removes the append-only files (the server must be stopped)."""
        for entry in os.listdir(self.directory):
            if entry != os.path.basename(self.log_path):
                path = os.path.join(self.directory, entry)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)

    def info(self, section: str) -> dict[str, str]:
        try:
            text = self.command("INFO", section) or ""
        except OSError:
            return {}
        if not isinstance(text, str):
            return {}
        return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)

    def dbsize(self) -> int | None:
        try:
            size = self.command("DBSIZE")
        except OSError:
            return None
        return size if isinstance(size, int) else None


class Sentinel(RedisServer):
    """One `redis-sentinel` watching the primary (by its proxy's address)."""

    def __init__(self, executable: str, directory: str, primary_port: int, name: str):
        super().__init__(executable, directory)
        self.name = name
        self.primary_port = primary_port

    def start(self, timeout: float = 15.0) -> None:
        os.makedirs(self.directory, exist_ok=True)
        config = os.path.join(self.directory, "sentinel.conf")
        with open(config, "w") as handle:
            handle.write(f"port {self.port}\nbind 127.0.0.1\nprotected-mode no\ndaemonize no\n"
                         f"dir {self.directory}\nlogfile {self.log_path}\n"
                         f"sentinel monitor {MASTER_NAME} 127.0.0.1 {self.primary_port} 2\n"
                         f"sentinel down-after-milliseconds {MASTER_NAME} {DOWN_AFTER_MS}\n"
                         f"sentinel failover-timeout {MASTER_NAME} {FAILOVER_TIMEOUT_MS}\n"
                         f"sentinel parallel-syncs {MASTER_NAME} 1\n")
        self.process = subprocess.Popen([self.executable, config], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}; log: {self.read_log()}")
            try:
                if self.command("PING") == "PONG":
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not answer PING; log: {self.read_log()}")

    def primary_port_now(self) -> int | None:
        try:
            answer = self.command("SENTINEL", "get-master-addr-by-name", MASTER_NAME)
        except OSError:
            return None
        return int(answer[1]) if isinstance(answer, list) and len(answer) == 2 else None

    def known(self, kind: str) -> int:
        """How many `replicas` or `sentinels` (other than itself) it knows that are not down."""
        try:
            answer = self.command("SENTINEL", kind, MASTER_NAME)
        except OSError:
            return 0
        if not isinstance(answer, list):
            return 0
        count = 0
        for entry in answer:
            fields = dict(zip(entry[::2], entry[1::2])) if isinstance(entry, list) else {}
            if "down" not in fields.get("flags", "down"):
                count += 1
        return count


class RedisSet:
    """Two Redis servers (one primary, one replica) behind their proxies, and three Sentinels."""

    def __init__(self, folder: str, redis_server: str, redis_sentinel: str):
        self.members = [RedisMember(redis_server, os.path.join(folder, f"redis-{name}"), f"redis-{name}")
                        for name in ("a", "b")]
        self.sentinels: list[Sentinel] = []
        self.redis_sentinel = redis_sentinel
        self.folder = folder

    @property
    def sentinel_addresses(self) -> list[str]:
        return [f"127.0.0.1:{sentinel.port}" for sentinel in self.sentinels]

    def start(self) -> None:
        first, second = self.members
        for member in self.members:
            member.front.start()
        first.start()
        second.replica_of = first.front.port
        second.start()
        self.wait(lambda: second.info("replication").get("master_link_status") == "up", 20,
                  "the replica is in sync")
        self.sentinels = [Sentinel(self.redis_sentinel, os.path.join(self.folder, f"sentinel-{index}"),
                                   first.front.port, f"sentinel-{index}") for index in range(3)]
        for sentinel in self.sentinels:
            sentinel.start()
        self.wait(lambda: all(s.known("sentinels") == 2 and s.known("replicas") == 1 for s in self.sentinels), 30,
                  "every Sentinel knows the two others and the replica")

    @staticmethod
    def wait(condition, seconds: float, what: str) -> float:
        """Seconds until `condition()` held; raises past `seconds`."""
        begin = time.monotonic()
        while time.monotonic() - begin < seconds:
            if condition():
                return time.monotonic() - begin
            time.sleep(0.1)
        raise RuntimeError(f"not within {seconds:.0f} s: {what}")

    def primary(self) -> RedisMember | None:
        """The member the Sentinels' majority names primary."""
        ports = [sentinel.primary_port_now() for sentinel in self.sentinels]
        for member in self.members:
            if ports.count(member.front.port) >= 2:
                return member
        return None

    def other(self, member: RedisMember) -> RedisMember:
        return self.members[1] if member is self.members[0] else self.members[0]

    def stop(self) -> None:
        for process in [*self.sentinels, *self.members]:
            try:
                process.stop(5)
            except Exception:  # noqa: BLE001
                pass
        for member in self.members:
            member.front.close()

    def logs(self) -> str:
        return "\n".join(f"---- {process.name} log (tail)\n{process.read_log()[-1500:]}"
                         for process in [*self.members, *self.sentinels])
