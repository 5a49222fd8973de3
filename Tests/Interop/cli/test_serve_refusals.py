#!/usr/bin/env python3
"""`rollboard serve` refuses a configuration it cannot run with the problems alone: exit status 1, each problem
named with its file and field, and no `Usage:` line (a configuration problem is no misuse of the command line).
A wrong command line still gets its usage (exit status 64).

Usage: test_serve_refusals.py --binary .build/debug/rollboard
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "server"))
from rollboard_process import Checks  # noqa: E402


def serve(binary: str, *arguments: str, environment: dict | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROLLBOARD_")}
    env.update(environment or {})
    return subprocess.run([binary, "serve", "--host", "127.0.0.1", "--port", "0", *arguments],
                          capture_output=True, text=True, timeout=30, env=env)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    binary = parser.parse_args().binary
    checks = Checks()
    with tempfile.TemporaryDirectory() as folder:
        config = os.path.join(folder, "config")
        os.makedirs(os.path.join(config, "dashboards"))
        with open(os.path.join(config, "dashboards", "ops.yaml"), "w") as handle:
            handle.write("id: ops\ntiles: 7\n")
        data = os.path.join(folder, "data")

        refused = serve(binary, "--config", config, "--data-dir", data)
        output = refused.stdout + refused.stderr
        checks.check(refused.returncode == 1, "a broken dashboard file: exit status 1", f"{refused.returncode}")
        checks.check("configuration refused" in output and "ops.yaml: tiles: must be a list" in output,
                     "the problem is named with its file and field", output[-500:])
        checks.check("Usage:" not in output, "no usage line after a configuration problem", output[-500:])

        with open(os.path.join(config, "dashboards", "ops.yaml"), "w") as handle:
            handle.write("id: ops\ntiles:\n  - { id: orders, type: counter }\n")
        clustered = serve(binary, "--config", config, "--data-dir", data, "--redis", "redis://127.0.0.1:1")
        output = clustered.stdout + clustered.stderr
        checks.check(clustered.returncode == 1 and "every node must accept the same tokens" in output
                     and "Usage:" not in output,
                     "Redis without shared tokens: exit status 1, the reason, no usage line",
                     f"{clustered.returncode} {output[-400:]}")

        misuse = serve(binary, "--config", config, "--data-dir", data, "--no-such-option")
        output = misuse.stdout + misuse.stderr
        checks.check(misuse.returncode == 64 and "Usage:" in output,
                     "a wrong command line still gets its usage (exit status 64)", f"{misuse.returncode} {output[-300:]}")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
