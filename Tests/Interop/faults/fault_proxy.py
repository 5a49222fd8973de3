"""A TCP proxy the fault suite owns, on loopback in front of one Redis server (asyncio, on a thread of its own).

Every client of that Redis server (the nodes, the other Redis server, the Sentinels) connects through it: the
address Redis announces to Sentinel is the proxy's. `cut(pid)` drops every connection the process `pid` has
through the proxy and refuses (accepts, then resets) every new one it opens, until `heal()`; the other clients are
untouched. Which process owns a connection is read from Linux's /proc: the socket of the client end (its local
port is the peer port the proxy sees) has an inode, and the process holds a descriptor `socket:[inode]`."""

from __future__ import annotations

import asyncio
import os
import threading

from cluster_support import free_port


def _loopback(port: int) -> str:
    return f"0100007F:{port:04X}"


def client_socket_inode(client_port: int, server_port: int) -> str | None:
    """The inode of the loopback socket 127.0.0.1:`client_port` → 127.0.0.1:`server_port`, or None."""
    local, remote = _loopback(client_port), _loopback(server_port)
    try:
        with open("/proc/net/tcp") as handle:
            for line in handle.readlines()[1:]:
                fields = line.split()
                if fields[1] == local and fields[2] == remote:
                    return fields[9]
    except OSError:
        return None
    return None


def holds_socket(pid: int, inode: str) -> bool:
    """Whether process `pid` has a descriptor on socket `inode`."""
    wanted = f"socket:[{inode}]"
    try:
        for descriptor in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{descriptor}") == wanted:
                    return True
            except OSError:
                continue
    except OSError:
        return False
    return False


class TcpProxy:
    """127.0.0.1:`port` → 127.0.0.1:`upstream_port`, byte for byte; `cut`/`heal` per client process."""

    def __init__(self, upstream_port: int, name: str):
        self.name = name
        self.upstream_port = upstream_port
        self.port = free_port()
        self.blocked: set[int] = set()
        self.connections: dict[int, tuple[asyncio.StreamWriter, asyncio.StreamWriter, str | None]] = {}
        self.refused = 0
        self.dropped = 0
        self.loop = asyncio.new_event_loop()
        self.thread: threading.Thread | None = None
        self.server: asyncio.AbstractServer | None = None

    def start(self) -> None:
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            self.server = self.loop.run_until_complete(
                asyncio.start_server(self._accept, "127.0.0.1", self.port, reuse_address=True))
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, name=f"proxy-{self.name}", daemon=True)
        self.thread.start()
        if not ready.wait(5):
            raise RuntimeError(f"proxy {self.name} did not start")

    def _owner_blocked(self, inode: str | None) -> bool:
        return inode is not None and any(holds_socket(pid, inode) for pid in self.blocked)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer_port = writer.get_extra_info("peername")[1]
        inode = client_socket_inode(peer_port, self.port)
        if self.blocked and self._owner_blocked(inode):
            self.refused += 1
            writer.transport.abort()
            return
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            writer.transport.abort()
            return
        key = id(writer)
        self.connections[key] = (writer, upstream_writer, inode)
        pumps = [asyncio.create_task(self._pump(reader, upstream_writer)),
                 asyncio.create_task(self._pump(upstream_reader, writer))]
        try:
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pump in pumps:
                pump.cancel()
            self.connections.pop(key, None)
            writer.transport.abort()
            upstream_writer.transport.abort()

    @staticmethod
    async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    return
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            return

    def _run(self, function) -> object:
        async def call():
            return function()
        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(10)

    def cut(self, pid: int) -> int:
        """Drops every connection of process `pid` and refuses its new ones; how many were dropped."""
        def apply() -> int:
            self.blocked.add(pid)
            count = 0
            for writer, upstream_writer, inode in list(self.connections.values()):
                if inode is not None and holds_socket(pid, inode):
                    writer.transport.abort()
                    upstream_writer.transport.abort()
                    count += 1
            self.dropped += count
            return count
        return self._run(apply)

    def heal(self) -> None:
        self._run(self.blocked.clear)

    def close(self) -> None:
        if self.thread is None:
            return

        def shut() -> None:
            if self.server is not None:
                self.server.close()
            for writer, upstream_writer, _ in list(self.connections.values()):
                writer.transport.abort()
                upstream_writer.transport.abort()
        try:
            self._run(shut)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
            self.thread = None
