#!/usr/bin/env bash
# Builds the WebSocket fuzz target with libFuzzer and AddressSanitizer and runs it.
# Usage: Fuzz/run-websocket.sh [seconds=60] [extra libFuzzer flags...]
set -euo pipefail

cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true

out=.build/fuzz
mkdir -p "$out/websocket-corpus"
cp -n Fuzz/WebSocket/seeds/* "$out/websocket-corpus/" 2>/dev/null || true

swiftc -O -g -sanitize=fuzzer,address -parse-as-library \
    -swift-version 6 \
    -enable-upcoming-feature ExistentialAny \
    -enable-upcoming-feature MemberImportVisibility \
    -enable-upcoming-feature InternalImportsByDefault \
    -module-name WebSocketFuzz -package-name Rollboard \
    -I Sources/CZlib -I Sources/COpenSSL \
    Sources/RollboardNet/HTTP/*.swift \
    Sources/RollboardNet/WebSocket/*.swift \
    Fuzz/WebSocket/WebSocketFuzzer.swift \
    -o "$out/websocket-fuzzer"

exec "$out/websocket-fuzzer" "$out/websocket-corpus" \
    -max_total_time="$seconds" -max_len=16384 -rss_limit_mb=2048 -print_final_stats=1 "$@"
