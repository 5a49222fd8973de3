#!/usr/bin/env bash
# Browser interop test: Debian's headless Chromium opens /d/demo over https, a value is posted,
# and the page must come to rest showing it (see test_dashboard.py).
#
# With ROLLBOARD_BASE_URL set, the test runs against that server and ROLLBOARD_PRODUCER_TOKEN must
# be one of its producer tokens. Without it, this script builds `rollboard`, starts
# `rollboard serve` on a free local port with a fresh data directory (self-signed certificate and
# a random token of its own), runs the test, and stops the server.
#
# Extra arguments go to test_dashboard.py (for example --metric revenue --value 1234.5).
# The screenshot is written to reports/browser/dashboard.png unless --screenshot says otherwise.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cd "$root"

export DEBIAN_FRONTEND=noninteractive
need_apt=()
for pkg in chromium chromium-driver; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if ((${#need_apt[@]})); then
    apt-get update -qq
    apt-get install -y -qq "${need_apt[@]}"
fi

venv="$root/.venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q -r "$here/requirements.txt"

if [ -z "${ROLLBOARD_BASE_URL:-}" ]; then
    swift build --product rollboard
    binary="$(swift build --show-bin-path)/rollboard"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    data_dir="$(mktemp -d)"
    ROLLBOARD_PRODUCER_TOKEN="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
    export ROLLBOARD_PRODUCER_TOKEN
    "$binary" serve --data-dir "$data_dir" --host 127.0.0.1 --port "$port" >"$data_dir/server.log" 2>&1 &
    server_pid=$!
    trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; rm -rf "$data_dir"' EXIT
    export ROLLBOARD_BASE_URL="https://127.0.0.1:$port"
    for _ in $(seq 1 120); do
        curl -sfk "$ROLLBOARD_BASE_URL/healthz" >/dev/null 2>&1 && break
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "rollboard serve exited early:" >&2
            cat "$data_dir/server.log" >&2
            exit 1
        fi
        sleep 0.5
    done
fi

"$venv/bin/python" "$here/test_dashboard.py" --screenshot "$root/reports/browser/dashboard.png" "$@"
