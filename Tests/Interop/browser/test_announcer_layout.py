#!/usr/bin/env python3
"""The screen readers' announcer is a relayout boundary, in headless Chromium against a real server.

The board writes a new announcement ("Orders: 12,345") into its aria-live region at every change of a counter's or an
odometer's target, ten times a second on the demo. Placed (not left at its static position) and contained
(rollboard.css, `.visually-hidden`), that box is laid out alone; left where it was, every announcement laid out the whole
page. Chromium records a `devtools.timeline` trace while the page writes an announcement and reads the layout back in
one script (nothing else can run in between), and the one layout in that window must be a partial one over a handful
of objects, not over the page's hundreds.

Usage: test_announcer_layout.py --binary .build/debug/rollboard
"""

import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from browser_session import body_data, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import wait_for

# Lays out what is pending, then writes an announcement between two trace markers and lays out again.
ANNOUNCE_JS = """
const announcer = document.getElementById('announcer');
void document.body.offsetHeight;
console.timeStamp('announce-begin');
announcer.textContent = 'Orders: 12,345';
void announcer.offsetHeight;
console.timeStamp('announce-end');
return document.querySelectorAll('*').length;
"""

# The announcer and its text are two layout objects; a layout of the page counts every tile's.
LARGEST_BOUNDARY = 5


def start_tracing_browser(arguments):
    options = webdriver.ChromeOptions()
    options.binary_location = arguments.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--ignore-certificate-errors",
                 f"--window-size={arguments.window_size}", "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {
        "enableNetwork": False, "enablePage": False, "traceCategories": "devtools.timeline"})
    return webdriver.Chrome(service=Service(arguments.chromedriver), options=options)


def layouts_between(driver, begin_message, end_message):
    """The `beginData` of every Layout trace event between the page's two `console.timeStamp` markers."""
    events = [json.loads(entry["message"])["message"] for entry in driver.get_log("performance")]
    events = [event["params"] for event in events if event.get("method") == "Tracing.dataCollected"]

    def marker(message):
        return next((e["ts"] for e in events if e.get("name") == "TimeStamp"
                     and e.get("args", {}).get("data", {}).get("message") == message), None)

    begin, end = marker(begin_message), marker(end_message)
    if begin is None or end is None:
        return None
    return [e.get("args", {}).get("beginData", {}) for e in events
            if e.get("name") == "Layout" and e.get("ph") in ("X", "B") and begin <= e["ts"] <= end]


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    driver = start_tracing_browser(arguments)
    try:
        driver.get(f"{server.base_url}/d/demo")
        checks.check(bool(wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)),
                     "Chromium opens /d/demo")
        elements = driver.execute_script(ANNOUNCE_JS)
        layouts = layouts_between(driver, "announce-begin", "announce-end")
        checks.check(layouts is not None, "the trace holds the two markers round the announcement")
        layouts = layouts or []
        described = [(layout.get("dirtyObjects"), layout.get("totalObjects"), layout.get("partialLayout"))
                     for layout in layouts]
        checks.check(len(layouts) >= 1 and all(layout.get("partialLayout") is True
                                               and layout.get("totalObjects", 0) <= LARGEST_BOUNDARY for layout in layouts),
                     f"an announcement lays out the announcer alone, not the page of {elements} elements",
                     f"layouts (dirty, total, partial): {described}")
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(run(__doc__, lambda config: None, scenario))
