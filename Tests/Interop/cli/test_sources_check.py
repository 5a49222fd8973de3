"""`rollboard sources check ID` against the scripted upstream (upstream.py): it fetches once, prints what it would
post and exits 0, or says why not and exits 1. Also shows that the environment's proxy settings are honoured: a
source on a host that does not resolve is reached through `http_proxy` (the upstream serves as the proxy), and
`no_proxy` keeps a loopback source direct while `http_proxy` points nowhere.

Usage: test_sources_check.py --binary .build/debug/rollboard
"""

import os
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))

from rollboard_process import Checks, free_port, binary_arguments, wait_until_listening, write_file as write  # noqa: E402

UPSTREAM = os.path.join(os.path.dirname(HERE), "sources", "upstream.py")


def main() -> int:
    arguments = binary_arguments()
    checks = Checks()
    folder = tempfile.mkdtemp(prefix="rollboard-sources-check-")
    port = free_port()
    upstream = subprocess.Popen([sys.executable, UPSTREAM, "--port", str(port)])
    try:
        wait_until_listening(port)
        urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/set?v=321.5", data=b"",
                                                      method="POST"), timeout=5).read()
        config = os.path.join(folder, "config")
        write(os.path.join(config, "dashboards", "ops.yaml"),
              "id: ops\ntitle: Ops\ntiles:\n"
              "  - {id: a, type: odometer, metric: a, decimals: 1}\n"
              "  - {id: narrow, type: odometer, metric: narrow, decimals: 0, columns: 2}\n"
              "  - {id: c, type: counter, metric: c}\n"
              "  - {id: d, type: counter, metric: d}\n"
              "  - {id: e, type: counter, metric: e}\n")
        sources = {
            "good": f"http://127.0.0.1:{port}/value|a",
            "toowide": f"http://127.0.0.1:{port}/value|narrow",
            "failing": f"http://127.0.0.1:{port}/status/503|c",
            "proxied": "http://rollboard-proxied.invalid/value|d",
            "stringy": f"http://127.0.0.1:{port}/json|e",
        }
        for name, spec in sources.items():
            url, metric = spec.split("|")
            write(os.path.join(config, "sources", f"{name}.yaml"),
                  f"type: json\nurl: {url}\nevery: 5s\nmetrics:\n"
                  f"  - {{metric: {metric}, pointer: {'/name' if name == 'stringy' else '/value'}}}\n")
        # A configuration of its own: a source without a host refuses the whole configuration.
        hostless = os.path.join(folder, "hostless")
        write(os.path.join(hostless, "dashboards", "ops.yaml"), "id: ops\ntitle: Ops\ntiles:\n  - {id: a, type: counter, metric: a}\n")
        write(os.path.join(hostless, "sources", "nohost.yaml"),
              'type: json\nurl: "http://"\nmetrics:\n  - {metric: a, pointer: /value}\n')

        def check(source: str, directory: str = config, **environment):
            env = {key: value for key, value in os.environ.items() if "proxy" not in key.lower()}
            env.update(environment)
            done = subprocess.run([arguments.binary, "sources", "check", source, "--config", directory],
                                  capture_output=True, text=True, timeout=30, env=env)
            return done.returncode, (done.stdout + done.stderr).strip()

        code, output = check("good")
        checks.check(code == 0 and output == "a 321.5", "a good source: prints the value it would post, exit 0",
                     f"{code} {output!r}")
        code, output = check("toowide")
        checks.check(code == 1 and output.startswith("narrow 321.5: would be refused: 321.5 is too wide"),
                     "a value the tile cannot show: would be refused, exit 1", f"{code} {output!r}")
        code, output = check("failing")
        checks.check(code == 1 and output == "failing (json): upstream answered HTTP 503",
                     "a failing upstream: why, exit 1", f"{code} {output!r}")
        code, output = check("nothing")
        checks.check(code == 1 and output.startswith('no source "nothing"'), "an unknown id: exit 1",
                     f"{code} {output!r}")
        code, output = check("proxied")
        checks.check(code == 1 and output == "proxied (json): host not found",
                     "without a proxy, a host that does not resolve is not found", f"{code} {output!r}")
        code, output = check("proxied", http_proxy=f"http://127.0.0.1:{port}")
        checks.check(code == 0 and output == "d 321.5", "with http_proxy from the environment it is reached",
                     f"{code} {output!r}")
        code, output = check("good", http_proxy="http://127.0.0.1:9", no_proxy="127.0.0.1")
        checks.check(code == 0 and output == "a 321.5", "no_proxy keeps a loopback source direct", f"{code} {output!r}")
        code, output = check("good", http_proxy="http://127.0.0.1:9")
        checks.check(code == 1 and output == "good (json): cannot connect",
                     "and without no_proxy it goes to the (dead) proxy", f"{code} {output!r}")
        code, output = check("stringy")
        checks.check(code == 1 and output == "stringy (json): e: /name is a string, not a number",
                     "a pointer that finds a string names the metric", f"{code} {output!r}")
        code, output = check("nohost", directory=hostless)
        checks.check(code == 1 and "sources/nohost.yaml: url: must be an http:// or https:// URL naming a host"
                     in output, "url: \"http://\" is refused with the configuration, naming file and field",
                     f"{code} {output!r}")
    finally:
        upstream.kill()
        upstream.wait()
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
