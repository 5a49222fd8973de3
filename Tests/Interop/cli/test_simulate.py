"""`rollboard simulate` as a user runs it: JSON lines per frame, a last line at the rest time, exit 2 on bad input."""

import json
import subprocess
import sys

BINARY = sys.argv[1]
results: list[tuple[str, bool, str]] = []


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([BINARY, "simulate", *args], capture_output=True, text=True, timeout=60)


def check(name: str, ok: bool, detail: str = "") -> None:
    results.append((name, ok, detail))


def frames(*args: str) -> list[dict]:
    completed = run(*args)
    if completed.returncode != 0:
        raise AssertionError(f"{args} exited {completed.returncode}: {completed.stderr}")
    return [json.loads(line) for line in completed.stdout.splitlines()]


odometer = frames("odometer", "--from", "521", "--to", "542")
times = [frame["t"] for frame in odometer]
check("odometer frames come every 1/30 s from t = 0",
      all(abs(t - k / 30) < 1e-3 for k, t in enumerate(times[:-1])), str(times[:4]))
check("odometer ends at rest on 542", odometer[-1]["digits"] == [5, 4, 2], str(odometer[-1]))
check("odometer's last line is at the rest time, after the last whole frame",
      times[-1] > times[-2] and times[-1] - times[-2] <= 1 / 30 + 1e-6, str(times[-2:]))
check("odometer positions stay in [0, 10)",
      all(0 <= digit < 10 for frame in odometer for digit in frame["digits"]))

queued = frames("odometer", "--from", "0", "--to", "5", "--then", "0.1:9", "--fps", "10")
targets_seen = [frame["digits"][-1] for frame in queued]
check("a change posted mid-animation plays after the running one and ends on it",
      queued[-1]["digits"] == [9] and 5 in targets_seen, str(queued[-1]))

wheel = frames("wheel", "--contents", "A,B,C,D", "--from", "0", "--to", "0.4")
last = wheel[-1]
check("wheel at progress 0.4 over A,B,C,D rests on B alone (the band of progress holding 0.4)",
      (last["top"], round(last["offset"], 4)) == ("B", 0) and any(0 < frame["offset"] < 1 for frame in wheel), str(last))

counter = frames("counter", "--from", "0", "--to", "3048.64", "--duration", "1", "--easing", "easeOut",
                 "--format", "%.2f", "--grouping", "###,##0.00")
check("counter ends on 3,048.64 at t = 1", counter[-1] == {"t": 1, "value": 3048.64, "text": "3,048.64"}, str(counter[-1]))
check("counter text never passes the target", all(frame["value"] <= 3048.64 for frame in counter))

gauge = frames("gauge", "--from", "20", "--to", "140", "--max", "200", "--duration", "1", "--fps", "4")
check("gauge: the needle eases in and out from 0.1 to 0.7 of the dial over 1 s (half way at 0.5 s) while the text counts",
      [(frame["t"], frame["fraction"], frame["text"]) for frame in gauge]
      == [(0, 0.1, "20"), (0.25, 0.1375, "27"), (0.5, 0.4, "80"), (0.75, 0.6625, "132"), (1, 0.7, "140")], str(gauge))

clock = frames("clock", "--at", "2026-10-25T00:59:58.5Z", "--time-zone", "Europe/Berlin", "--locale", "de-DE",
               "--no-date", "--seconds", "3")
check("clock in Europe/Berlin across the autumn change: 02:59:58, 02:59:59, then 02:00:00 winter time, turning on the "
      "wall clock's whole seconds", [(frame["t"], frame["time"]) for frame in clock]
      == [(0, "02:59:58"), (0.5, "02:59:59"), (1.5, "02:00:00"), (2.5, "02:00:01")], str(clock))

carousel = frames("carousel", "--slides", "4", "--seconds", "10")
check("carousel runs until the given time and shows page 1 after four wraps",
      carousel[-1]["t"] == 10 and carousel[-1]["page"] == 1, str(carousel[-1]))

bounded = frames("odometer", "--from", "0", "--to", "86420", "--decimals", "2", "--max-columns", "10",
                 "--max-duration", "3")
check("--max-duration 3: 0 → 86,420.00 rests at exactly t = 3 (the article's timeline takes 18.9 s)",
      bounded[-1] == {"t": 3, "digits": [8, 6, 4, 2, 0, 0, 0], "negative": False}, str(bounded[-1]))
exact = frames("odometer", "--from", "521", "--to", "542", "--interval", "1.25")
check("--interval 1.25 is the whole move: the last line is at t = 1.25", exact[-1]["t"] == 1.25, str(exact[-1]))

posts = [arg for second in range(1, 35) for arg in ("--then", f"{second}:{1000 + second * 1234}")]
lagging = frames("odometer", "--from", "0", "--to", "1000", "--max-columns", "10", "--max-duration", "3", *posts)
check("a post every second for 34 s on a 3 s odometer rests within 6 s of the last post (lag bound 2 × 3 s)",
      lagging[-1]["t"] <= 34 + 6 and lagging[-1]["digits"] == [4, 2, 9, 5, 6], str(lagging[-1]))

board = frames("leaderboard", "--from", "Alice=10,Bob=8,Carol=6,Dave=1", "--to", "Alice=7,Bob=2,Carol=11,Dave=9",
               "--size", "3", "--duration", "2", "--easing", "linear", "--fps", "2")
lines = [{row["name"]: (row["line"], row["opacity"], row["text"]) for row in frame["rows"]} for frame in board]
visible_apart = all(abs(a[0] - b[0]) >= 1 for frame in lines for i, a in enumerate(frame.values())
                    for b in list(frame.values())[i + 1:] if a[1] > 0 and b[1] > 0)
check("leaderboard: no row passes another while drawn — Carol (6 → 11, past Alice and Bob) fades out on line 2 and in "
      "on line 0, Bob fades out where he stands, Dave fades in on his line 1, Alice slides from line 0 to 2; rows drawn "
      "at the same moment stay a line apart; over 2 s",
      [frame["t"] for frame in board] == [0, 0.5, 1, 1.5, 2]
      and lines[1] == {"Carol": (2, 0.25, "7"), "Dave": (1, 0, "9"), "Alice": (0, 1, "10"), "Bob": (1, 0.25, "8")}
      and lines[3] == {"Carol": (0, 0.25, "9"), "Dave": (1, 0.25, "9"), "Alice": (2, 1, "8"), "Bob": (1, 0, "8")}
      and lines[-1] == {"Carol": (0, 1, "11"), "Dave": (1, 1, "9"), "Alice": (2, 1, "7")} and visible_apart,
      str(lines))

chart = frames("chart", "--from", "10,,30,20", "--to", "40", "--easing", "linear", "--fps", "4")
check("chart: a point in the next bucket slides the plot one step over 1 s while the range eases from 10…30 to 20…40 and "
      "the new point follows from 20 to 40; at rest the four points are the posted ones, the gap kept",
      [(frame["t"], frame["shift"], frame["low"], frame["high"], frame["values"][-1]) for frame in chart]
      == [(0, 0, 10, 30, 20), (0.25, 0.25, 12.5, 32.5, 25), (0.5, 0.5, 15, 35, 30), (0.75, 0.75, 17.5, 37.5, 35),
          (1, 0, 20, 40, 40)]
      and chart[-1]["values"] == [None, 30, 20, 40], str(chart))
long_chart = frames("chart", "--from", "10,20", "--to", "5", "--interval", "10", "--max-duration", "3", "--fps", "1")
check("chart: a producer's interval of 10 s is cut to --max-duration 3 s", long_chart[-1]["t"] == 3, str(long_chart[-1]))

bad_arguments = [
    ["odometer", "--from", "1", "--to", "nan"],
    ["odometer", "--from", "100", "--to", "1000", "--columns", "3"],
    ["odometer", "--from", "x", "--to", "1"],
    ["odometer", "--from", "1", "--to", "2", "--then", "abc"],
    ["odometer", "--from", "1", "--to", "2", "--decimals", "9"],
    ["odometer", "--from", "1", "--to", "2", "--max-duration", "0"],
    ["odometer", "--from", "1", "--to", "2", "--max-lag", "0"],
    ["counter", "--from", "0", "--to", "1", "--format", "%q"],
    ["counter", "--from", "0", "--to", "1", "--easing", "bouncy"],
    ["wheel", "--contents", "A,B", "--from", "0", "--to", "0.5", "--fps", "0"],
    ["wheel", "--contents", "A,B", "--from", "0", "--to", "inf"],
    ["carousel", "--slides", "0", "--seconds", "1"],
    ["gauge", "--to", "5", "--min", "10", "--max", "10"],
    ["gauge", "--to", "5", "--duration", "0.1"],
    ["leaderboard", "--from", "Alice", "--to", "Alice=1"],
    ["leaderboard", "--from", "Alice=1", "--to", "Alice=1", "--size", "0"],
    ["clock", "--time-zone", "Mars/Olympus"],
    ["clock", "--locale", "xx-YY"],
    ["chart", "--from", "1", "--to", "2"],
    ["chart", "--from", "1,x", "--to", "2"],
    ["chart", "--from", "1,2", "--to", "2", "--duration", "5"],
    ["clock", "--at", "yesterday"],
    ["teleport"],
]
for arguments in bad_arguments:
    completed = run(*arguments)
    lines = completed.stderr.strip().splitlines()
    check(f"`simulate {' '.join(arguments)}` exits 2 with one line on stderr",
          completed.returncode == 2 and len(lines) == 1 and completed.stdout == "",
          f"exit {completed.returncode}, stderr {completed.stderr!r}")

for name, ok, detail in results:
    print(("PASS: " if ok else "FAIL: ") + name + ("" if ok else f" — {detail}"))
failed = sum(not ok for _, ok, _ in results)
print(f"{len(results) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
