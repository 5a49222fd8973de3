#!/usr/bin/env python3
"""WebKitGTK (Debian's webkit2gtk-driver: WebKitWebDriver driving MiniBrowser) shows the demo dashboard, against a
real `rollboard serve` over TLS with permessage-deflate. Run under xvfb-run: MiniBrowser opens a real window.

The checks are engine_scenario.py's: a posted value on an odometer and a counter, a carousel turning, no script
error (WebKitWebDriver has no console log, so boot.js's record of script errors is what is read).

    xvfb-run -a .venv/bin/python Tests/Interop/browser/test_webkitgtk.py --binary .build/debug/rollboard
"""

import argparse
import glob
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))
sys.path.insert(0, HERE)
from engine_pages import run_pages  # noqa: E402
from engine_scenario import run_scenario  # noqa: E402
from rollboard_process import RollboardProcess  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.webkitgtk.service import Service  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TOKEN = "webkitgtk-producer-token-0123456789abcdef"
ADMIN = "webkitgtk-admin-token-0123456789abcdef"


class WebDriverPage:
    def __init__(self, driver):
        self.driver = driver

    def open(self, url):
        self.driver.get(url)

    def evaluate(self, expression):
        return self.driver.execute_script(f"return {expression};")

    def pause(self, seconds):
        time.sleep(seconds)

    def screenshot(self, path):
        if not self.driver.save_screenshot(path):
            raise OSError("WebKitWebDriver returned no screenshot")

    def native_errors(self):
        return []


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--driver", default="/usr/bin/WebKitWebDriver")
    found = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))
    parser.add_argument("--minibrowser", default=found[-1] if found else "MiniBrowser")
    parser.add_argument("--screenshot", default=os.path.join(REPOSITORY, "reports", "browser", "webkitgtk.png"))
    arguments = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("FAIL no DISPLAY: run this test under xvfb-run")
        return 1
    folder = tempfile.mkdtemp(prefix="rollboard-webkit-")
    server = RollboardProcess(arguments.binary, os.path.join(folder, "data"), TOKEN,
                              config=os.path.join(REPOSITORY, "config"), environment={"ROLLBOARD_ADMIN_TOKEN": ADMIN})
    driver = None
    try:
        server.start()
        options = webdriver.WebKitGTKOptions()
        options.binary_location = arguments.minibrowser
        options.add_argument("--automation")
        options.set_capability("acceptInsecureCerts", True)
        driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=arguments.driver))
        driver.set_window_rect(width=1280, height=800)
        print(f"WebKitGTK {driver.capabilities.get('browserVersion')} through WebKitWebDriver")
        page = WebDriverPage(driver)
        checks = run_scenario(page, server, TOKEN, "WebKitGTK", arguments.screenshot)
        run_pages(page, server, ADMIN, "WebKitGTK", checks, arguments.screenshot)
    finally:
        if driver is not None:
            driver.quit()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
