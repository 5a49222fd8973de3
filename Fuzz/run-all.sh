#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 60) from the committed seeds: the HTTP request parser, the
# WebSocket receive path, the producer API's JSON parser and the screens' messages; then the router fuzzer for as long
# against a real `rollboard serve` (every route, hostile paths, queries, headers and bodies). Fails on the first crash,
# trap, leak or timeout (the crashing input is kept under .build/fuzz/; the router fuzzer prints the request).
# The router fuzzer needs the debug build of `rollboard` and the Python venv (.venv, or $VENV).
# Usage: Fuzz/run-all.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

run() {
    local name=$1
    shift
    printf '\n-- fuzz %s for %s s\n' "$name" "$seconds"
    local log
    log=$(mktemp)
    if ! "$@" >"$log" 2>&1; then
        tail -40 "$log"
        rm -f "$log"
        echo "fuzz target $name failed"
        return 1
    fi
    grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added|router fuzzer:|requests:)' "$log" || tail -3 "$log"
    rm -f "$log"
}

run http-parser Fuzz/run-http-parser.sh -max_total_time="$seconds"
run websocket Fuzz/run-websocket.sh "$seconds"
run producer-json Fuzz/run-json.sh producer "$seconds"
run client-message Fuzz/run-json.sh client "$seconds"
swift build --product rollboard >/dev/null
run router "${VENV:-.venv}/bin/python" Fuzz/Router/fuzz_router.py --binary "$(swift build --show-bin-path)/rollboard" \
    --seconds "$seconds"
echo
echo "5 passed, 0 failed"
