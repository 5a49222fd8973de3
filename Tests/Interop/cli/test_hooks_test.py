"""`rollboard hooks test ID FILE`: runs a recorded payload through a webhook's rules and prints what it would post
(one line per change, and the event id), exit 0; bad JSON, a pointer that finds the wrong type, an unknown webhook
or a broken webhook file exit 1 with the reason. The signature is not checked, so no secret is needed.

Usage: test_hooks_test.py --binary .build/debug/rollboard
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))

from rollboard_process import Checks, binary_arguments, write_file as write  # noqa: E402


def main() -> int:
    arguments = binary_arguments()
    checks = Checks()
    folder = tempfile.mkdtemp(prefix="rollboard-hooks-test-")
    config = os.path.join(folder, "config")
    write(os.path.join(config, "dashboards", "sales.yaml"),
          "id: sales\ntitle: Sales\ntiles:\n"
          "  - {id: orders, type: counter}\n"
          "  - {id: revenue, type: odometer, decimals: 2}\n"
          "  - {id: narrow, type: odometer, decimals: 0, columns: 2}\n"
          "  - {id: top, type: leaderboard}\n")
    write(os.path.join(config, "webhooks", "stripe.yaml"),
          "verify: {preset: stripe, secret: '${ROLLBOARD_HOOKS_TEST_UNSET}'}\n"
          "event: /id\n"
          "rules:\n"
          "  - when: {/type: charge.succeeded}\n"
          "    increment: orders\n"
          "  - when: {/type: charge.succeeded}\n"
          "    increment: revenue\n"
          "    amount: /data/object/amount\n"
          "    scale: 0.01\n"
          "  - when: {/type: charge.succeeded}\n"
          "    leaderboard: top\n"
          "    name: /data/object/billing_details/name\n"
          "  - when: {/type: balance.available}\n"
          "    set: narrow\n"
          "    amount: /available\n")
    payloads = {
        "charge.json": '{"id": "evt_1", "type": "charge.succeeded", "data": {"object": {"amount": 1999, '
                       '"billing_details": {"name": "Ada"}}}}',
        "other.json": '{"id": "evt_2", "type": "customer.created"}',
        "stringy.json": '{"id": "evt_3", "type": "charge.succeeded", "data": {"object": {"amount": "1999"}}}',
        "broken.json": '{"id": "evt_4", "type": ',
        "wide.json": '{"id": "evt_5", "type": "balance.available", "available": 12345}',
        "fits.json": '{"id": "evt_6", "type": "balance.available", "available": 42}',
    }
    for name, text in payloads.items():
        write(os.path.join(folder, name), text)
    # A configuration of its own: a webhook whose secret is written in the file refuses the whole configuration.
    leaky = os.path.join(folder, "leaky")
    write(os.path.join(leaky, "dashboards", "sales.yaml"), "id: sales\ntitle: Sales\ntiles:\n  - {id: orders, type: counter}\n")
    write(os.path.join(leaky, "webhooks", "gh.yaml"),
          "verify: {preset: github, secret: hunter2-not-a-variable}\nrules: [{increment: orders}]\n")

    def run(hook: str, payload: str, directory: str = config):
        env = {key: value for key, value in os.environ.items() if key != "ROLLBOARD_HOOKS_TEST_UNSET"}
        done = subprocess.run([arguments.binary, "hooks", "test", hook, os.path.join(folder, payload),
                               "--config", directory], capture_output=True, text=True, timeout=30, env=env)
        return done.returncode, (done.stdout + done.stderr).strip()

    code, output = run("stripe", "charge.json")
    checks.check(code == 0 and output == 'event "evt_1"\nincrement orders by 1\nincrement revenue by 19.99\n'
                 'add 1 to "Ada" on leaderboard top',
                 "a matching payload: the event id and one line per change, exit 0 (no secret needed)",
                 f"{code} {output!r}")
    code, output = run("stripe", "other.json")
    checks.check(code == 0 and output == 'event "evt_2"\nno rule matches: would be ignored',
                 "a payload no rule matches: would be ignored, exit 0", f"{code} {output!r}")
    code, output = run("stripe", "stringy.json")
    checks.check(code == 1 and output == "stripe: would be refused: amount: /data/object/amount is a string, not a number",
                 "a pointer that finds a string: refused naming the pointer, exit 1", f"{code} {output!r}")
    code, output = run("stripe", "broken.json")
    checks.check(code == 1 and output.startswith(os.path.join(folder, "broken.json") + ": invalid JSON:"),
                 "bad JSON: refused naming the file, exit 1", f"{code} {output!r}")
    code, output = run("stripe", "fits.json")
    checks.check(code == 0 and output == 'event "evt_6"\nset narrow to 42', "a value set outright that fits: exit 0",
                 f"{code} {output!r}")
    code, output = run("stripe", "wide.json")
    checks.check(code == 1 and output.startswith('event "evt_5"\nset narrow to 12345: would be refused: 12345 is too wide'),
                 "a value set outright that the tile cannot show: would be refused, exit 1", f"{code} {output!r}")
    code, output = run("stripe", "missing.json")
    checks.check(code == 1 and output.endswith("missing.json: no such file"), "a missing payload file: exit 1",
                 f"{code} {output!r}")
    code, output = run("paypal", "charge.json")
    checks.check(code == 1 and output == f'no webhook "paypal" in {config}/webhooks/ (webhooks: stripe)',
                 "an unknown id: exit 1, naming the known ones", f"{code} {output!r}")
    code, output = run("gh", "charge.json", directory=leaky)
    checks.check(code == 1 and "webhooks/gh.yaml: verify.secret: must name an environment variable as ${NAME}" in output
                 and "hunter2" not in output,
                 "a secret written in the file refuses the configuration, naming file and field, never the secret",
                 f"{code} {output!r}")
    done = subprocess.run([arguments.binary, "hooks", "test", "--help"], capture_output=True, text=True, timeout=30)
    checks.check(done.returncode == 0 and "signature is not checked" in " ".join(done.stdout.split()),
                 "its help says the signature is not checked", done.stdout)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
