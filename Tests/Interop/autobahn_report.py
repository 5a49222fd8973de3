#!/usr/bin/env python3
"""Summarises an Autobahn (kosoku) report folder; exits non-zero if any case is not OK, NON-STRICT or INFORMATIONAL."""
import collections
import glob
import json
import os
import sys

ACCEPTED = {"OK", "NON-STRICT", "INFORMATIONAL"}


def main(folder: str, expected_minimum: int) -> int:
    counts = collections.Counter()
    failures = []
    for path in sorted(glob.glob(os.path.join(folder, "*_case_*.json"))):
        with open(path) as handle:
            case = json.load(handle)
        behaviours = (case.get("behavior"), case.get("behaviorClose"))
        counts[case.get("behavior")] += 1
        if any(b not in ACCEPTED for b in behaviours):
            failures.append(f"{case.get('id')}: {case.get('behavior')} / close {case.get('behaviorClose')}")
    total = sum(counts.values())
    print("autobahn: " + ", ".join(f"{name} {count}" for name, count in sorted(counts.items())))
    for failure in failures:
        print("FAILED " + failure)
    missing = max(0, expected_minimum - total)
    if missing:
        print(f"only {total} case reports found, expected at least {expected_minimum}")
    print(f"{total - len(failures)} passed, {len(failures) + missing} failed")
    return 0 if not failures and not missing else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1))
