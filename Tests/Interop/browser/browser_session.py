"""What the Chromium tests that start their own server share: their command line, a copy of config/ they may change,
the server with an admin token, the browser session, and reading the page's `data-*` test hooks.

A test calls `run(description, prepare, scenario, admin_token=…)`: `prepare(config)` edits the copied config folder,
`scenario(server, arguments, checks)` drives the browser; a WebDriver failure is reported as a failed check.
"""

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time

from selenium.common.exceptions import WebDriverException

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))
sys.path.insert(0, HERE)
from rollboard_process import Checks, RollboardProcess  # noqa: E402
from test_dashboard import start_browser  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
PRODUCER_TOKEN = "browser-session-producer-token-0123456789"


def body_data(driver, name):
    """`document.body.dataset[name]`, or None."""
    return driver.execute_script(f"return document.body ? document.body.dataset.{name} ?? null : null")


@contextlib.contextmanager
def browsers(arguments, count):
    """`count` Chromium sessions, each quit on leaving whatever happens."""
    drivers = []
    try:
        for _ in range(count):
            drivers.append(start_browser(arguments))
        yield drivers
    finally:
        for driver in drivers:
            driver.quit()


def watch_both(driver, calm, read, settled, seconds, every):
    """Reads both screens in turn with `read`, every `every` s, until both states are `settled` or `seconds` pass (so
    the calm screen is seen during the motion too); every state of each and the last one of each."""
    states, calm_states = [], []
    state, calm_state = {}, {}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not (settled(state) and settled(calm_state)):
        state = read(driver)
        calm_state = read(calm)
        states.append(state)
        calm_states.append(calm_state)
        time.sleep(every)
    return states, calm_states, state, calm_state


def save_report(driver, checks, name):
    """Saves the page's screenshot as reports/browser/`name` and checks the browser logged no script error."""
    os.makedirs(os.path.join(REPOSITORY, "reports", "browser"), exist_ok=True)
    driver.save_screenshot(os.path.join(REPOSITORY, "reports", "browser", name))
    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    checks.check(not errors, "no script error on the page", f"{errors}")


def run(description, prepare, scenario, admin_token=None, extra_arguments=None, server_arguments=None) -> int:
    """Parses the command line, starts `rollboard serve` on a prepared copy of config/, runs `scenario`, stops the
    server and returns the exit status. `server_arguments(arguments)`, if given, names more arguments for `serve`
    from the parsed command line."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--chromedriver", default=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    parser.add_argument("--window-size", default="1280,720")
    if extra_arguments:
        extra_arguments(parser)
    arguments = parser.parse_args()
    checks = Checks()
    folder = tempfile.mkdtemp(prefix="rollboard-browser-")
    try:
        config = os.path.join(folder, "config")
        shutil.copytree(os.path.join(REPOSITORY, "config"), config)
        prepare(config)
        environment = {"ROLLBOARD_ADMIN_TOKEN": admin_token} if admin_token else {}
        server = RollboardProcess(arguments.binary, os.path.join(folder, "data"), PRODUCER_TOKEN, config=config,
                                  environment=environment,
                                  extra_arguments=server_arguments(arguments) if server_arguments else None)
        server.start()
        try:
            scenario(server, arguments, checks)
        except WebDriverException as error:
            checks.check(False, "browser session", error.msg or str(error))
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return checks.finish()
