#!/usr/bin/env bash
# Runs the Autobahn|Testsuite fuzzing-client cases (via the PyPI package kosoku, no Docker) against the
# EchoServer example over plain ws://, and fails if any case is not OK, NON-STRICT or INFORMATIONAL.
#
#   Tests/Interop/autobahn.sh            (env: VENV=.venv PORT=free port REPORTS=reports/autobahn CASES='*')
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${VENV:-.venv}
PORT=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
REPORTS=${REPORTS:-reports/autobahn}
CASES=${CASES:-*}

if [ ! -x "$VENV/bin/kosoku" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet kosoku 'websockets>=17,<18'
fi
swift build -c release --product EchoServer
BIN=$(swift build -c release --show-bin-path)

rm -rf "$REPORTS"
mkdir -p "$REPORTS"
"$BIN/EchoServer" --host 127.0.0.1 --port "$PORT" --max-message-bytes $((16 * 1024 * 1024)) --compress-every-message > "$REPORTS/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    grep -q "listening on port" "$REPORTS/server.log" && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$REPORTS/server.log"; exit 1; }
    sleep 0.1
done

"$VENV/bin/kosoku" -m fuzzingclient -o "$REPORTS" -p 2 -i "$CASES" "127.0.0.1:$PORT"
EXPECTED=1
[ "$CASES" = "*" ] && EXPECTED=500
python3 Tests/Interop/autobahn_report.py "$REPORTS" "$EXPECTED"
