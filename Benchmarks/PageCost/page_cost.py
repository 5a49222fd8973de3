#!/usr/bin/env python3
"""What the page costs the browser: headless Chromium (software compositing) shows a dashboard whose tiles all move,
and Chrome's own Performance metrics (DevTools `Performance.getMetrics`) say how much of each second its main thread
spent on the page: tasks in all, script, style recalculation and layout. The CPU time of every Chromium process
(from /proc) is read over the same window.

Scenarios:
- `odometers`: 8 odometers of 8 digits, each posted a new 8-digit value every second (every column rolls);
- `demo`: the shipped demo dashboard, every metric tile and the wheel posted twice a second;
- `story`: the shipped story dashboard (the new tiles: gauges, a clock, a leaderboard, a chart, an odometer with its
  trend and a counter over today), every tile but the clock posted twice a second (the leaderboard and the counter
  by increments; the clock turns its second on its own).

With `--fed-by-demo`, the server runs `serve --demo` and the script posts nothing: the demo and story dashboards move
as a newcomer's first run shows them (a round of new values every 3 s, the clock every second), not twice a second.

Prints one line per scenario, in milliseconds per second of wall time. A benchmark, not a test: it checks nothing but
that the page connected and moved.

With `--trace`, Chromium also records a `devtools.timeline` trace over the same window (through ChromeDriver's
performance log), and a second line per scenario names where the renderer's main thread spent its time: the self
time of each kind of trace event (what DevTools' bottom-up view shows), the largest first, in ms/s. Tracing costs
some time of its own, so the first line is the one to compare between runs without `--trace`. `--trace-categories
devtools.timeline,blink,cc` names Blink's own steps (a canvas's flush, layout, pre-paint); that many events fill
ChromeDriver's limit within a second or two, so trace 1 s.

With `--profile`, V8's sampling profiler runs over the same window, and a line names the page's functions (and the
native calls they make, such as `drawImage`) by their sampled self time, in ms/s.

Usage: page_cost.py --binary .build/release/rollboard [--seconds 20] [--scenario odometers,demo,story] [--trace]
       [--trace-categories LIST] [--profile] [--fed-by-demo]
"""

import json
import os
import random
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "Interop", "browser"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "Interop", "server"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

from browser_session import PRODUCER_TOKEN, body_data, run  # noqa: E402
from test_dashboard import wait_for  # noqa: E402

ODOMETERS = [f"kpi{index}" for index in range(8)]
EIGHT = "id: eight\ntitle: Eight odometers\ngrid: {columns: 4, rows: 2}\ntiles:\n" + "".join(
    f"  - id: {metric}\n    type: odometer\n    title: KPI {metric[3:]}\n    maxColumns: 8\n" for metric in ODOMETERS)
DEMO_VALUES = {"revenue": lambda: round(random.uniform(10000, 99999), 2), "visitors": lambda: random.randrange(10000, 99999),
               "temperature": lambda: round(random.uniform(18, 29.8), 1), "orders": lambda: random.randrange(10000, 99999),
               "conversion": lambda: round(random.uniform(1, 4.98), 2)}


# The page steps its frame rate down on a screen that cannot keep up (pace.js); on a machine shared with builds that would
# make runs incomparable (fewer frames, less work). The benchmark keeps the server's rate by dropping the page's `fps`
# messages, and counts the animation frames the page paints in (`rollboardCostFrames`: the board is the page's only
# requestAnimationFrame caller), so each run also says its milliseconds per painted frame.
KEEP_RATE_JS = """
(function () {
  var send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === "string" && data.indexOf('"type":"fps"') >= 0) return undefined;
    return send.call(this, data);
  };
  var request = window.requestAnimationFrame;
  window.rollboardCostFrames = 0;
  window.requestAnimationFrame = function (callback) {
    return request.call(window, function (time) {
      window.rollboardCostFrames += 1;
      callback(time);
    });
  };
})();
"""


def prepare(config):
    with open(os.path.join(config, "dashboards", "eight.yaml"), "w") as handle:
        handle.write(EIGHT)


def start_chromium(arguments):
    options = webdriver.ChromeOptions()
    options.binary_location = arguments.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--ignore-certificate-errors",
                 "--disable-gpu", f"--window-size={arguments.window_size}", "--force-device-scale-factor=1",
                 "--hide-scrollbars"):
        options.add_argument(flag)
    if arguments.trace:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        options.add_experimental_option("perfLoggingPrefs", {
            "enableNetwork": False, "enablePage": False,
            "traceCategories": arguments.trace_categories})
    return webdriver.Chrome(service=Service(arguments.chromedriver), options=options)


def descendants(root):
    """Pids of every process under `root`."""
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(name))
        except OSError:
            continue
    found, stack = [], [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def cpu_seconds(pids):
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            continue
    return total / ticks


class Producer(threading.Thread):
    def __init__(self, server, rounds):
        super().__init__(daemon=True)
        self.server, self.rounds = server, rounds
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            period = self.rounds(self.server)
            self.stopping.wait(period)

    def stop(self):
        self.stopping.set()
        self.join(timeout=10)


def trace_events(driver):
    """The trace events ChromeDriver collected since Chromium started (it hands the trace over once)."""
    events = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Tracing.dataCollected":
            events.append(message["params"])  # ChromeDriver logs one trace event per entry
    return events


def marker_time(events, message):
    """The trace time of the page's `console.timeStamp(message)`, or None when the trace does not hold it."""
    return next((e["ts"] for e in events
                 if e.get("name") == "TimeStamp" and e.get("args", {}).get("data", {}).get("message") == message), None)


def main_thread_self_times(events):
    """Milliseconds of self time per event name on the renderer's main thread(s) (`CrRendererMain`) between the
    page's time stamps `cost-begin` and `cost-end`: each complete event's thread time (`tdur`, the CPU time the metrics
    count too; its wall time where the trace has none) less that of the events nested in it on the same thread."""
    begin, end = marker_time(events, "cost-begin"), marker_time(events, "cost-end")
    if begin is None or end is None:
        # ChromeDriver hands over about 100,000 events at most; a page with many events a frame (the odometers' 128
        # scroll events) fills that before `cost-end`: a shorter --seconds gives a whole window.
        print("  the trace ends before the window does (ChromeDriver's limit): try fewer --seconds", flush=True)
        return {}, {}
    events = [e for e in events if e.get("ph") == "M" or begin <= e.get("ts", 0) <= end]
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    by_thread = {}
    for event in events:
        if event.get("ph") == "X" and (event["pid"], event["tid"]) in mains and "dur" in event:
            by_thread.setdefault((event["pid"], event["tid"]), []).append(event)
    totals = {}
    counts = {}
    for thread_events in by_thread.values():
        for event in thread_events:
            counts[event["name"]] = counts.get(event["name"], 0) + 1
        thread_events.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []  # [end, name, child time]
        for event in thread_events:
            while stack and stack[-1][0] <= event["ts"]:
                end, name, children, duration = stack.pop()
                totals[name] = totals.get(name, 0) + duration - children
            cpu = event.get("tdur", event["dur"])
            if stack:
                stack[-1][2] += cpu
            stack.append([event["ts"] + event["dur"], event["name"], 0, cpu])
        while stack:
            end, name, children, duration = stack.pop()
            totals[name] = totals.get(name, 0) + duration - children
    return {name: micros / 1000 for name, micros in totals.items()}, counts


def profile_self_times(profile):
    """Milliseconds of self time per function (name and file:line) in a V8 CPU profile (`Profiler.stop`): each sample's
    interval goes to the function on top of the stack. The idle and program nodes are left out."""
    frames = {}
    for node in profile["nodes"]:
        frame = node["callFrame"]
        name = frame["functionName"] or "(anonymous)"
        where = os.path.basename(frame.get("url", ""))
        frames[node["id"]] = f"{name} {where}:{frame.get('lineNumber', 0) + 1}" if where else name
    totals = {}
    for node, delta in zip(profile.get("samples", []), profile.get("timeDeltas", [])):
        name = frames.get(node, "?")
        if name not in ("(idle)", "(program)"):
            totals[name] = totals.get(name, 0) + delta / 1000
    return totals


def post(server, path, body):
    try:
        server.request("POST", path, body, token=PRODUCER_TOKEN, timeout=5)
    except OSError:
        pass


def odometer_round(server):
    for metric in ODOMETERS:
        post(server, f"/api/v1/metrics/{metric}", {"value": random.randrange(10_000_000, 99_999_999)})
    return 1.0


def demo_round(server):
    for metric, make in DEMO_VALUES.items():
        post(server, f"/api/v1/metrics/{metric}", {"value": make()})
    post(server, "/api/v1/wheels/status", {"index": random.randrange(0, 5)})
    return 0.5


SELLERS = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace"]


def story_round(server):
    post(server, "/api/v1/metrics/capacity", {"value": round(random.uniform(0, 100), 1)})
    post(server, "/api/v1/metrics/signups", {"value": random.randrange(0, 400)})
    post(server, "/api/v1/metrics/pageviews", {"value": random.randrange(1_000_000, 9_999_999)})
    post(server, "/api/v1/metrics/requests", {"value": round(random.uniform(40, 200), 1)})
    post(server, "/api/v1/metrics/sales", {"increment": random.randrange(1, 4)})
    post(server, "/api/v1/leaderboards/leaders", {"increment": {random.choice(SELLERS): random.randrange(1, 4)}})
    return 0.5


SCENARIOS = {"odometers": ("eight", odometer_round), "demo": ("demo", demo_round), "story": ("story", story_round)}


def measure(server, arguments, checks, name):
    dashboard, rounds = SCENARIOS[name]
    if arguments.fed_by_demo:
        rounds = lambda server: 1.0  # noqa: E731 - the server's demo feeder moves the tiles
    driver = start_chromium(arguments)
    producer = Producer(server, rounds)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": KEEP_RATE_JS})
        driver.get(f"{server.base_url}/d/{dashboard}?name=Cost")
        checks.check(bool(wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)),
                     f"{name}: Chromium opens /d/{dashboard}")
        driver.execute_cdp_cmd("Performance.enable", {"timeDomain": "threadTicks"})
        producer.start()
        time.sleep(arguments.warmup)
        pids = descendants(driver.service.process.pid)

        def sample():
            metrics = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
            metrics["Frames"] = driver.execute_script("return window.rollboardCostFrames")
            return time.monotonic(), metrics, cpu_seconds(pids)

        if arguments.profile:
            driver.execute_cdp_cmd("Profiler.enable", {})
            driver.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 100})
            driver.execute_cdp_cmd("Profiler.start", {})
        begin = sample()
        if arguments.trace:
            driver.execute_script("console.timeStamp('cost-begin')")
        time.sleep(arguments.seconds)
        if arguments.trace:
            driver.execute_script("console.timeStamp('cost-end')")
        end = sample()
        profile = driver.execute_cdp_cmd("Profiler.stop", {})["profile"] if arguments.profile else None
        wall = end[0] - begin[0]
        traced, counts = main_thread_self_times(trace_events(driver)) if arguments.trace else ({}, {})

        def per_second(key):
            return (end[1].get(key, 0) - begin[1].get(key, 0)) * 1000 / wall

        moving = driver.execute_script(
            "return Array.from(document.querySelectorAll('[data-tile-id]')).filter(t => t.dataset.atRest === 'false').length")
        # The rate the page would ask for if it could (KEEP_RATE_JS).
        fps = body_data(driver, "fps")
        print(f"  {name:9s}: main thread {per_second('TaskDuration'):6.1f} ms/s (script {per_second('ScriptDuration'):5.1f}, "
              f"style {per_second('RecalcStyleDuration'):5.1f}, layout {per_second('LayoutDuration'):5.1f}); "
              f"all Chromium processes {(end[2] - begin[2]) * 1000 / wall:6.1f} ms/s; "
              f"{len(pids)} processes, {wall:.1f} s, tiles moving at the end: {moving}; "
              f"frames/s the page would ask for {fps} (kept at the server's); painted {per_second('Frames') / 1000:.1f} "
              f"frames/s, {per_second('TaskDuration') / max(per_second('Frames') / 1000, 1e-9):.2f} ms of main thread "
              "each", flush=True)
        if traced:
            largest = sorted(traced.items(), key=lambda item: -item[1])[:arguments.trace_top]
            print(f"  {'':9s}  traced main-thread self time, ms/s: "
                  + ", ".join(f"{name} {ms / wall:.1f}" for name, ms in largest)
                  + f"; all traced {sum(traced.values()) / wall:.1f}; per second: "
                  + ", ".join(f"{counts.get(name, 0) / wall:.0f} {name}" for name in ("FireAnimationFrame", "Commit", "Paint")),
                  flush=True)
        if profile:
            largest = sorted(profile_self_times(profile).items(), key=lambda item: -item[1])[:arguments.trace_top]
            print(f"  {'':9s}  sampled script self time, ms/s: "
                  + ", ".join(f"{name} {ms / wall:.1f}" for name, ms in largest), flush=True)
        checks.check(per_second("TaskDuration") > 0, f"{name}: the main thread did work (the metrics were read)")
    finally:
        producer.stop()
        driver.quit()


def scenario(server, arguments, checks):
    names = (arguments.scenario or ("demo,story" if arguments.fed_by_demo else "odometers,demo,story")).split(",")
    for name in names:
        if name not in SCENARIOS or (arguments.fed_by_demo and name == "odometers"):
            checks.check(False, f"{name}: a scenario this run can measure",
                         "known: odometers, demo, story; with --fed-by-demo (serve --demo feeds them): demo, story")
            return
    for name in names:
        measure(server, arguments, checks, name)


def extra(parser):
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--scenario", default=None, help="odometers,demo,story (with --fed-by-demo: demo,story)")
    parser.add_argument("--trace", action="store_true", help="also break the main thread's time down from a trace")
    parser.add_argument("--profile", action="store_true", help="also sample the page's script (V8's CPU profiler)")
    parser.add_argument("--trace-categories", default="devtools.timeline,disabled-by-default-devtools.timeline",
                        help="what --trace records; devtools.timeline,blink,cc names Blink's own steps (1 s fits)")
    parser.add_argument("--trace-top", type=int, default=14, help="how many kinds of trace event --trace names")
    parser.add_argument("--fed-by-demo", action="store_true",
                        help="run serve --demo and post nothing (scenarios demo and story only)")


def server_arguments(arguments):
    return ["--demo"] if arguments.fed_by_demo else []


if __name__ == "__main__":
    sys.exit(run(__doc__, prepare, scenario, extra_arguments=extra, server_arguments=server_arguments))
