"""A PostgreSQL source against a real PostgreSQL (Debian's package) on loopback, read by a Python `websockets` screen.

PostgreSQL runs as its own cluster in a temporary folder on a free loopback port, as a non-root user (`postgres`
when this runs as root, as CI does; the invoking user otherwise), with a password (scram-sha-256) that only the
environment's dsn holds. Rollboard polls three sources every second. Checks:

- a metric's query and a leaderboard's (name, score) query reach a screen, and a new order in the table follows;
- `rollboard sources check` prints the values, and names the variable when the dsn is not set;
- a slow query (`pg_sleep`) is cut by the statement timeout: the source is down with the server's reason and
  `rollboard_source_up` is 0;
- a query calling a function that inserts is refused by the read-only transaction, and nothing was inserted;
- the database hung (SIGSTOP): the client's deadline cuts the fetch, the tiles turn stale, the server answers at once
  meanwhile; SIGCONT: recovered;
- the database stopped: the tiles turn stale with a reason; started again: the stale mark goes and the source is up;
- the password appears in no log line and no answer.

Usage: test_postgres_source.py --binary .build/debug/rollboard [--postgres-bin /usr/lib/postgresql/15/bin]
"""

import asyncio
import glob
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))

from rollboard_process import (  # noqa: E402
    Checks, RollboardProcess, config_folder, free_port, run_with_tool, stop_and_report, until)
from source_screen import SourceScreen, metrics_text, source_states  # noqa: E402

TOKEN = "postgres-source-producer-token-0123456789"
ADMIN = "postgres-source-admin-token-0123456789abcdef"
PASSWORD = "pg-source-secret-5f1c2a"

SCHEMA = """
CREATE TABLE orders (seller text NOT NULL, amount numeric NOT NULL);
INSERT INTO orders VALUES ('ada', 30), ('bob', 12.5), ('ada', 5);
CREATE TABLE audit (n int);
CREATE FUNCTION write_one() RETURNS int LANGUAGE sql AS 'INSERT INTO audit VALUES (1) RETURNING 1';
"""


def default_bin() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else "/usr/lib/postgresql/15/bin"


class Postgres:
    """A PostgreSQL cluster of its own in `folder`, on a loopback port, run by a non-root user."""

    def __init__(self, bin_dir: str, folder: str):
        self.bin_dir = bin_dir
        self.folder = folder
        self.data = os.path.join(folder, "data")
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None
        os.makedirs(folder)
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        password_file = os.path.join(folder, "password")
        with open(password_file, "w") as handle:
            handle.write(PASSWORD + "\n")
        if self.user:
            os.chown(password_file, pwd.getpwnam(self.user).pw_uid, -1)
        self.run("initdb", "-D", self.data, "-U", "rollboard", f"--pwfile={password_file}",
                 "--auth-host=scram-sha-256", "--auth-local=trust", "--no-sync")

    def run(self, tool: str, *arguments: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [os.path.join(self.bin_dir, tool), *arguments]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=check, cwd=self.folder)

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off"
        self.run("pg_ctl", "-D", self.data, "-o", options, "-l", os.path.join(self.folder, "log"), "-w", "start")

    def stop(self) -> None:
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self.run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop", check=False)

    def signal_all(self, signal_number: int) -> None:
        """Sends `signal_number` to the cluster's postmaster and each of its children (found by parent pid)."""
        with open(os.path.join(self.data, "postmaster.pid")) as handle:
            postmaster = int(handle.readline())
        children = subprocess.run(["pgrep", "-P", str(postmaster)], stdout=subprocess.PIPE).stdout.decode().split()
        for pid in [postmaster, *map(int, children)]:
            os.kill(pid, signal_number)

    def sql(self, statements: str) -> str:
        environment = dict(os.environ, PGPASSWORD=PASSWORD)
        answer = subprocess.run(
            [os.path.join(self.bin_dir, "psql"), "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
             "-p", str(self.port), "-U", "rollboard", "-d", "postgres", "-c", statements],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment, check=True)
        return answer.stdout.decode().strip()

    @property
    def dsn(self) -> str:
        return (f"host=127.0.0.1 port={self.port} dbname=postgres user=rollboard password={PASSWORD} "
                "sslmode=disable connect_timeout=2")


def board_names(screen: SourceScreen) -> list:
    """The names the leaderboard tile's state holds, in order of appearance."""
    text = json.dumps(screen.states.get("top"))
    return sorted((name for name in ("ada", "bob", "cy") if f'"{name}"' in text), key=text.index)


def write_config(folder: str) -> str:
    config = config_folder(folder, ADMIN)
    with open(os.path.join(config, "dashboards", "sales.yaml"), "w") as handle:
        handle.write("id: sales\ntitle: Sales\ntiles:\n"
                     "  - {id: orders, type: counter, metric: orders}\n"
                     "  - {id: top, type: leaderboard}\n"
                     "  - {id: slow, type: counter, metric: slow}\n"
                     "  - {id: written, type: counter, metric: written}\n")
    sources = {
        "sales": "metrics:\n  - {metric: orders, query: 'SELECT count(*) FROM orders'}\n"
                 "  - leaderboard: top\n    query: SELECT seller, sum(amount) FROM orders GROUP BY seller ORDER BY 2 DESC\n",
        "slow": "timeout: 1s\nmetrics:\n  - {metric: slow, query: 'SELECT 1 FROM pg_sleep(5)'}\n",
        "writer": "metrics:\n  - {metric: written, query: 'SELECT write_one()'}\n",
    }
    for name, body in sources.items():
        with open(os.path.join(config, "sources", f"{name}.yaml"), "w") as handle:
            handle.write("type: postgres\ndsn: ${SALES_DSN}\nevery: 1s\n" + body)
    return config


async def scenario(binary: str, bin_dir: str, checks: Checks) -> None:
    folder = tempfile.mkdtemp(prefix="rollboard-postgres-")
    os.chmod(folder, 0o711)  # the cluster's user passes through to its own folder
    postgres = None
    server = None
    started = time.monotonic()
    try:
        postgres = Postgres(bin_dir, os.path.join(folder, "postgres"))
        postgres.start()
        postgres.sql(SCHEMA)
        checks.check(True, "PostgreSQL starts as its own cluster on loopback",
                     f"port {postgres.port}, as {postgres.user or 'the invoking user'}, "
                     f"after {time.monotonic() - started:.1f} s")
        config = write_config(folder)

        check = subprocess.run([binary, "sources", "check", "sales", "--config", config], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=dict(os.environ, SALES_DSN=postgres.dsn))
        printed = check.stdout.decode()
        checks.check(check.returncode == 0 and "orders 3.0" in printed and "ada 35.0" in printed
                     and printed.index("ada") < printed.index("bob"),
                     "`rollboard sources check` prints the metric and the board in the query's order", printed)
        unset = subprocess.run([binary, "sources", "check", "sales", "--config", config], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env={k: v for k, v in os.environ.items() if k != "SALES_DSN"})
        checks.check(unset.returncode == 1 and "environment variable SALES_DSN is not set" in unset.stdout.decode(),
                     "without the dsn's variable it names it and exits 1", unset.stdout.decode())

        server = RollboardProcess(binary, os.path.join(folder, "data"), TOKEN, config=config,
                                  environment={"SALES_DSN": postgres.dsn})
        server.start()
        screen = SourceScreen(server.port, "sales")
        task = asyncio.create_task(screen.run())

        checks.check(await until(lambda: screen.target("orders") == 3, 20), "a metric's query reaches the screen",
                     f"{screen.states.get('orders')} {source_states(server, ADMIN).get('sales')}")
        checks.check(await until(lambda: board_names(screen) == ["ada", "bob"], 10),
                     "a leaderboard's (name, score) rows reach the screen", f"{screen.states.get('top')}")
        postgres.sql("INSERT INTO orders VALUES ('cy', 100)")
        checks.check(await until(lambda: screen.target("orders") == 4 and board_names(screen) == ["cy", "ada", "bob"],
                                 10),
                     "a new order moves the count and the board", f"{screen.states.get('orders')} {board_names(screen)}")

        states = source_states(server, ADMIN)
        slow = states["slow"]
        checks.check(slow["state"] == "down" and slow["reason"] == "slow: canceling statement due to statement timeout",
                     "a slow query is cut by the statement timeout and reported down with the server's reason", f"{slow}")
        writer = states["writer"]
        checks.check(writer["state"] == "down"
                     and writer["reason"] == "written: cannot execute INSERT in a read-only transaction",
                     "a query that writes is refused by the read-only transaction", f"{writer}")
        checks.check(postgres.sql("SELECT count(*) FROM audit") == "0", "and nothing was written")
        text = metrics_text(server)
        checks.check('rollboard_source_up{source="sales"} 1' in text and 'rollboard_source_up{source="slow"} 0' in text
                     and 'rollboard_source_up{source="writer"} 0' in text,
                     "rollboard_source_up is 1 for the good source, 0 for the slow and the writing ones")

        postgres.signal_all(signal.SIGSTOP)
        hung = time.monotonic()
        checks.check(await until(lambda: "orders" in screen.stale, 10),
                     "a database that stops answering (SIGSTOP) is cut by the client's deadline and shown stale",
                     f"after {time.monotonic() - hung:.1f} s: {screen.stale.get('orders')}")
        asked = time.monotonic()
        metrics_text(server)
        checks.check(time.monotonic() - asked < 1, "meanwhile the server answers at once (libpq waits on the source's queue)",
                     f"{time.monotonic() - asked:.2f} s")
        postgres.signal_all(signal.SIGCONT)
        checks.check(await until(lambda: "orders" not in screen.stale, 15), "it answers again (SIGCONT): recovered",
                     f"{screen.stale}")

        postgres.stop()
        checks.check(await until(lambda: "orders" in screen.stale and "top" in screen.stale, 10),
                     "the database stopped: the tiles turn stale with a reason", f"{screen.stale}")
        reason = source_states(server, ADMIN)["sales"].get("reason", "")
        checks.check(reason.startswith("database: "), "the admin API says why", reason)
        checks.check('rollboard_source_up{source="sales"} 0' in metrics_text(server), "rollboard_source_up is 0")

        postgres.start()
        checks.check(await until(lambda: "orders" not in screen.stale and "top" not in screen.stale, 15),
                     "the database started again: the stale mark goes", f"{screen.stale}")
        checks.check(source_states(server, ADMIN)["sales"]["state"] == "up"
                     and 'rollboard_source_up{source="sales"} 1' in metrics_text(server),
                     "and the source is up again")
        _, answer = server.request("GET", "/api/v1/admin/sources", token=ADMIN)
        checks.check(PASSWORD not in server.read_log() and PASSWORD not in json.dumps(answer),
                     "the password is in no log line and no answer")
        task.cancel()
        checks.check(True, "the whole scenario", f"{time.monotonic() - started:.1f} s")
    finally:
        stop_and_report(server, checks)
        if postgres:
            postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run_with_tool(scenario, "--postgres-bin", default_bin()))
