"""sslyze against the real server: only TLS 1.2 and 1.3 are accepted, and every accepted cipher suite is an AEAD
with forward secrecy (an ephemeral (EC)DH key exchange; TLS 1.3 suites always are)."""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rollboard_process import Checks, RollboardProcess  # noqa: E402

AEAD = ("_GCM_", "_CHACHA20_POLY1305_", "_CCM")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    checks = Checks()
    with tempfile.TemporaryDirectory() as data_dir:
        server = RollboardProcess(args.binary, data_dir, "sslyze-token-" + str(random.randrange(10**9)))
        server.start()
        report = os.path.join(data_dir, "sslyze.json")
        scan = subprocess.run(
            [sys.executable, "-m", "sslyze", "--sslv2", "--sslv3", "--tlsv1", "--tlsv1_1", "--tlsv1_2", "--tlsv1_3",
             f"--json_out={report}", f"127.0.0.1:{server.port}"], capture_output=True, text=True, timeout=300)
        server.stop()
        checks.check(scan.returncode == 0, "sslyze scanned the server", scan.stderr[-2000:])
        if scan.returncode != 0:
            return checks.finish()
        with open(report) as handle:
            result = json.load(handle)["server_scan_results"][0]["scan_result"]

    def accepted(name: str) -> list:
        section = result[name]
        checks.check(section["status"] == "COMPLETED", f"{name} scan completed", section.get("error_reason") or "")
        suites = (section.get("result") or {}).get("accepted_cipher_suites", [])
        return [(suite["cipher_suite"]["name"], (suite.get("ephemeral_key") or {}).get("type_name")) for suite in suites]

    for old in ("ssl_2_0_cipher_suites", "ssl_3_0_cipher_suites", "tls_1_0_cipher_suites", "tls_1_1_cipher_suites"):
        suites = accepted(old)
        checks.check(not suites, f"{old.replace('_cipher_suites', '')} is refused", f"accepted {suites}")
    tls12 = accepted("tls_1_2_cipher_suites")
    tls13 = accepted("tls_1_3_cipher_suites")
    print("TLS 1.2:", ", ".join(name for name, _ in tls12))
    print("TLS 1.3:", ", ".join(name for name, _ in tls13))
    checks.check(bool(tls12) and bool(tls13), "TLS 1.2 and 1.3 are both offered")
    weak = [name for name, _ in tls12 + tls13 if not any(marker in name for marker in AEAD)]
    checks.check(not weak, "every accepted suite is an AEAD cipher", f"{weak}")
    static = [name for name, key in tls12 if not name.startswith(("TLS_ECDHE_", "TLS_DHE_")) or key is None]
    checks.check(not static, "every TLS 1.2 suite has forward secrecy (an ephemeral ECDHE/DHE key)", f"{static}")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
