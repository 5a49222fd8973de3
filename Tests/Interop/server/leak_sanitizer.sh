#!/usr/bin/env bash
# Builds `rollboard` with AddressSanitizer (LeakSanitizer included on Linux) into .build-asan, runs the leak soak
# against it (connects, posts, broken frames), stops it with SIGTERM and fails on any sanitizer report.
# Usage: Tests/Interop/server/leak_sanitizer.sh [CYCLES]   (default 2000); needs $VENV with the interop packages.
set -euo pipefail
cd "$(dirname "$0")/../../.."
cycles=${1:-2000}
swift build --product rollboard --sanitize=address --scratch-path .build-asan 2>&1 | grep -v 'ld.gold: warning' | tail -3
binary="$(swift build --product rollboard --sanitize=address --scratch-path .build-asan --show-bin-path)/rollboard"
log=$(mktemp)
# The server exits from its SIGTERM handler while `serve`'s own frame (the command, its signal sources, the server,
# the store) is still on the main thread's stack: objects made once at start-up, synchronously under
# ParsableCommand.main, are alive by design and not leaks. Everything a connection, a post or a screen allocates is
# made on Dispatch's threads, so no suppression covers it.
suppressions=$(mktemp)
echo 'leak:ParsableCommandPAAE4main' >"$suppressions"
export LSAN_OPTIONS="suppressions=$suppressions:print_suppressions=0${EXTRA_LSAN:+:$EXTRA_LSAN}"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:log_path=$log"
status=0
"${VENV:-.venv}/bin/python" Tests/Interop/server/test_leak_soak.py --binary "$binary" --cycles "$cycles" --settle 2 \
    --no-memory-check || status=$?
unset ASAN_OPTIONS LSAN_OPTIONS
reports=$(cat "$log".* 2>/dev/null || true)
rm -f "$log" "$log".* "$suppressions"
if [ -n "$reports" ] || [ "$status" -ne 0 ]; then
    printf '%s\n' "$reports" | head -80
    echo "0 passed, 1 failed"
    exit 1
fi
echo "LeakSanitizer: no leak or memory error reported over $cycles cycles and a graceful stop"
echo "1 passed, 0 failed"
