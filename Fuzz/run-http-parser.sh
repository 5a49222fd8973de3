#!/usr/bin/env bash
# Builds the libFuzzer target for HTTPRequestParser straight from the HTTP sources and runs it.
# Usage: Fuzz/run-http-parser.sh [libFuzzer options…]   (default: -max_total_time=60)
# Output (binary, corpus, crash files) goes to $FUZZ_OUT, default .build/fuzz under the repository.
set -euo pipefail

fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$fuzz_dir")
out=${FUZZ_OUT:-$repo/.build/fuzz}
http=$repo/Sources/RollboardNet/HTTP
mkdir -p "$out/corpus-http-parser" "$out/artifacts-http-parser"

swiftc -O -g -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
    -enable-upcoming-feature ExistentialAny \
    -enable-upcoming-feature MemberImportVisibility \
    -enable-upcoming-feature InternalImportsByDefault \
    -module-name HTTPParserFuzz -package-name Rollboard \
    "$http"/*.swift \
    "$fuzz_dir/HTTPParser/HTTPParserFuzzer.swift" \
    -o "$out/fuzz-http"

if [ "$#" -eq 0 ]; then set -- -max_total_time=60; fi
exec "$out/fuzz-http" -dict="$fuzz_dir/HTTPParser/http.dict" -artifact_prefix="$out/artifacts-http-parser/" \
    "$@" "$out/corpus-http-parser" "$fuzz_dir/HTTPParser/seeds"
