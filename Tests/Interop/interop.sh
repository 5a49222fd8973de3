#!/usr/bin/env bash
# Python websockets 17.x and openssl s_client against the EchoServer over wss:// with a fresh self-signed
# certificate. Prints 'N passed, N failed'; exits non-zero on any failure.
#
#   Tests/Interop/interop.sh            (env: VENV=.venv PORT=free port)
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${VENV:-.venv}
PORT=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}

if ! "$VENV/bin/python" -c 'import websockets, sys; sys.exit(0 if websockets.__version__.startswith("17.") else 1)' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet 'websockets>=17,<18'
fi
swift build --product EchoServer
BIN=$(swift build --show-bin-path)

WORK=$(mktemp -d)
"$BIN/EchoServer" --host 127.0.0.1 --port "$PORT" --self-signed "$WORK" --max-message-bytes 65536 --client-context-takeover > "$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do
    grep -q "listening on port" "$WORK/server.log" && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.log"; exit 1; }
    sleep 0.1
done

"$VENV/bin/python" Tests/Interop/interop_test.py "$PORT" "$WORK/cert.pem"
