#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 60) from the committed seeds: the HTTP request parser, the
# WebSocket receive path, the producer API's JSON parser and the screens' messages. Fails on the first crash, trap,
# leak or timeout (the crashing input is kept under .build/fuzz/).
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
    grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$log" || tail -3 "$log"
    rm -f "$log"
}

run http-parser Fuzz/run-http-parser.sh -max_total_time="$seconds"
run websocket Fuzz/run-websocket.sh "$seconds"
run producer-json Fuzz/run-json.sh producer "$seconds"
run client-message Fuzz/run-json.sh client "$seconds"
echo
echo "4 passed, 0 failed"
