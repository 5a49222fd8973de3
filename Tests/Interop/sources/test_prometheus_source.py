"""A Prometheus source against a real Prometheus (Debian's package) on loopback, read by a Python `websockets` screen.

Prometheus runs with its own configuration and data folder in a temporary folder, scraping a fixture exporter
(upstream.py's /metrics: `fixture_value V`) every second. Rollboard polls it every 2 s. Checks:

- the query's value reaches a screen as a rolling value, and a new value set on the exporter follows;
- a query with no series and a query Prometheus refuses are reported down with their reasons;
- Prometheus stopped: the tile turns stale with a reason (the `sources` message), the admin API says down and
  `rollboard_source_up` is 0; Prometheus started again on the same data: the stale mark goes, the source is up and
  `rollboard_source_up` is 1.

Usage: test_prometheus_source.py --binary .build/debug/rollboard [--prometheus /usr/bin/prometheus]
"""

import asyncio
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))

from rollboard_process import (  # noqa: E402
    Checks, RollboardProcess, config_folder, free_port, run_with_tool, stop_and_report, until)
from source_screen import SourceScreen, metrics_text, source_states  # noqa: E402

TOKEN = "prometheus-source-producer-token-0123456789"
ADMIN = "prometheus-source-admin-token-0123456789abcd"


class Prometheus:
    """Debian's prometheus on a loopback port, scraping the fixture exporter every second."""

    def __init__(self, binary: str, folder: str, exporter_port: int):
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.process = None
        os.makedirs(folder, exist_ok=True)
        self.config = os.path.join(folder, "prometheus.yml")
        with open(self.config, "w") as handle:
            handle.write("global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
                         "scrape_configs:\n  - job_name: fixture\n"
                         f"    static_configs: [{{targets: ['127.0.0.1:{exporter_port}']}}]\n")

    def start(self) -> None:
        log = open(os.path.join(self.folder, "prometheus.log"), "ab")
        self.process = subprocess.Popen(
            [self.binary, f"--config.file={self.config}", f"--storage.tsdb.path={os.path.join(self.folder, 'data')}",
             f"--web.listen-address=127.0.0.1:{self.port}"], stdout=log, stderr=subprocess.STDOUT)

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/-/ready", timeout=1) as response:
                return response.status == 200
        except OSError:
            return False

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


async def scenario(binary: str, prometheus_binary: str, checks: Checks) -> None:
    folder = tempfile.mkdtemp(prefix="rollboard-prometheus-")
    exporter_port = free_port()
    exporter = subprocess.Popen([sys.executable, os.path.join(HERE, "upstream.py"), "--port", str(exporter_port)])
    prometheus = Prometheus(prometheus_binary, os.path.join(folder, "prometheus"), exporter_port)
    server = None
    try:
        urllib_set(exporter_port, 42)
        prometheus.start()
        started = time.monotonic()
        checks.check(await until(prometheus.ready, 60), "Prometheus starts on loopback",
                     f"after {time.monotonic() - started:.1f} s")
        config = config_folder(folder, ADMIN)
        with open(os.path.join(config, "dashboards", "prom.yaml"), "w") as handle:
            handle.write("id: prom\ntitle: Prometheus\ntiles:\n"
                         "  - {id: fixture, type: odometer, metric: fixture, decimals: 0}\n"
                         "  - {id: nothing, type: counter, metric: nothing}\n"
                         "  - {id: broken, type: counter, metric: broken}\n")
        with open(os.path.join(config, "sources", "prom.yaml"), "w") as handle:
            handle.write(f"type: prometheus\nurl: http://127.0.0.1:{prometheus.port}\nevery: 2s\n"
                         "metrics:\n  - {metric: fixture, query: 'max(fixture_value)'}\n")
        with open(os.path.join(config, "sources", "empty.yaml"), "w") as handle:
            handle.write(f"type: prometheus\nurl: http://127.0.0.1:{prometheus.port}\nevery: 2s\n"
                         "metrics:\n  - {metric: nothing, query: 'no_such_metric_anywhere'}\n")
        with open(os.path.join(config, "sources", "refused.yaml"), "w") as handle:
            handle.write(f"type: prometheus\nurl: http://127.0.0.1:{prometheus.port}\nevery: 2s\n"
                         "metrics:\n  - {metric: broken, query: 'sum(('}\n")
        server = RollboardProcess(binary, os.path.join(folder, "data"), TOKEN, config=config)
        server.start()
        screen = SourceScreen(server.port, "prom")
        task = asyncio.create_task(screen.run())

        checks.check(await until(lambda: screen.target("fixture") == 42, 30), "the query's value reaches the screen",
                     f"{screen.states.get('fixture')} {source_states(server, ADMIN).get('prom')}")
        urllib_set(exporter_port, 77)
        checks.check(await until(lambda: screen.target("fixture") == 77, 15),
                     "a new value on the exporter rolls on the screen", f"{screen.states.get('fixture')}")
        states = source_states(server, ADMIN)
        checks.check(states["empty"]["state"] == "down" and states["empty"]["reason"] == "query found no series",
                     "a query with no series is reported down", f"{states['empty']}")
        refused = states["refused"]
        checks.check(refused["state"] == "down" and refused["reason"].startswith("Prometheus error: bad_data: ")
                     and "parse error" in refused["reason"],
                     "a query Prometheus refuses is reported down with its error type and Prometheus' own message",
                     f"{refused}")
        checks.check('rollboard_source_up{source="prom"} 1' in metrics_text(server), "rollboard_source_up is 1")

        prometheus.stop()
        checks.check(await until(lambda: "fixture" in screen.stale, 15),
                     "Prometheus stopped: the tile turns stale with a reason", f"{screen.stale}")
        states = source_states(server, ADMIN)
        checks.check(states["prom"]["state"] == "down" and states["prom"]["reason"] == "cannot connect",
                     "the admin API says down: cannot connect", f"{states['prom']}")
        checks.check(screen.stale.get("fixture") == "cannot connect" and screen.target("fixture") == 77,
                     "the tile keeps its last value and shows why", f"{screen.stale} {screen.states.get('fixture')}")
        checks.check('rollboard_source_up{source="prom"} 0' in metrics_text(server), "rollboard_source_up is 0")

        prometheus.start()
        await until(prometheus.ready, 60)
        checks.check(await until(lambda: "fixture" not in screen.stale, 30),
                     "Prometheus started again: the stale mark goes", f"{screen.stale}")
        checks.check(source_states(server, ADMIN)["prom"]["state"] == "up", "and the source is up")
        checks.check('rollboard_source_up{source="prom"} 1' in metrics_text(server), "rollboard_source_up is 1 again")
        task.cancel()
    finally:
        stop_and_report(server, checks)
        prometheus.stop()
        exporter.kill()
        exporter.wait()


def urllib_set(port: int, value: float) -> None:
    for _ in range(50):
        try:
            urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/set?v={value}", data=b"",
                                                          method="POST"), timeout=5).read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the exporter did not answer")


if __name__ == "__main__":
    sys.exit(run_with_tool(scenario, "--prometheus", "/usr/bin/prometheus"))
