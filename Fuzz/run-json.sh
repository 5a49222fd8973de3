#!/usr/bin/env bash
# Builds a libFuzzer target for the server's JSON input — the producer API's parser or the screens' messages —
# straight from the JSON sources of the server's layers (RollboardCore's JSON, RollboardHub's screen messages; their
# imports of RollboardNet and the layers dropped: what they use of them, JSONText among it, is compiled in), and runs it.
# Usage: Fuzz/run-json.sh producer|client [seconds=60] [extra libFuzzer flags...]
set -euo pipefail

cd "$(dirname "$0")/.."
case "${1:-}" in
    producer) name=ProducerJSON; harness=Fuzz/ProducerJSON/ProducerJSONFuzzer.swift ;;
    client) name=ClientMessage; harness=Fuzz/ClientMessage/ClientMessageFuzzer.swift ;;
    *) echo "usage: Fuzz/run-json.sh producer|client [seconds] [libFuzzer flags...]" >&2; exit 2 ;;
esac
shift
seconds="${1:-60}"
shift || true

out=${FUZZ_OUT:-.build/fuzz}
sources="$out/json-sources-$name"
mkdir -p "$out/corpus-$name" "$out/artifacts-$name" "$sources"
rm -f "$sources"/*.swift
for file in Sources/RollboardCore/JSON/JSONParser.swift Sources/RollboardCore/JSON/JSONValue.swift \
    Sources/RollboardCore/JSON/JSONMember.swift Sources/RollboardCore/JSON/JSONNumber.swift \
    Sources/RollboardCore/Time/FrameRates.swift Sources/RollboardCore/Text/String+VisibleText.swift \
    Sources/RollboardHub/ClientMessage.swift Sources/RollboardHub/CarouselViewerAction.swift; do
    grep -v '^\(public \|package \)\?import Rollboard[A-Za-z]*$' "$file" >"$sources/$(basename "$file")"
done

swiftc -O -g -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
    -enable-upcoming-feature ExistentialAny \
    -enable-upcoming-feature MemberImportVisibility \
    -enable-upcoming-feature InternalImportsByDefault \
    -module-name "${name}Fuzz" -package-name Rollboard \
    Sources/RollboardNet/HTTP/JSONText.swift "$sources"/*.swift "$harness" \
    -o "$out/fuzz-$name"

exec "$out/fuzz-$name" "$out/corpus-$name" "Fuzz/$name/seeds" -artifact_prefix="$out/artifacts-$name/" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "$@"
