#!/usr/bin/env python3
"""Firefox ESR (Debian's firefox-esr) shows the demo dashboard: driven through Marionette with the marionette-driver
package (no geckodriver), headless, against a real `rollboard serve` over TLS with permessage-deflate.

The checks are engine_scenario.py's: a posted value on an odometer and a counter, a carousel turning, no script
error; Firefox's own console is read too (chrome context: the script errors whose source is the page's server).

    .venv/bin/python Tests/Interop/browser/test_firefox_esr.py --binary .build/debug/rollboard
"""

import argparse
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
from rollboard_process import RollboardProcess, free_port  # noqa: E402

from marionette_driver.marionette import Marionette  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TOKEN = "firefox-esr-producer-token-0123456789abcdef"
ADMIN = "firefox-esr-admin-token-0123456789abcdef"

# Script errors in Firefox's console whose source is the page's server (warnings and browser-internal ones left out).
CONSOLE_ERRORS_JS = """
const origin = arguments[0];
return (Services.console.getMessageArray() || [])
  .filter((m) => m instanceof Ci.nsIScriptError && !(m.flags & Ci.nsIScriptError.warningFlag)
    && String(m.sourceName).startsWith(origin))
  .map((m) => `${m.errorMessage} (${m.sourceName}:${m.lineNumber})`);
"""


class MarionettePage:
    def __init__(self, client, origin):
        self.client = client
        self.origin = origin

    def open(self, url):
        self.client.navigate(url)

    def evaluate(self, expression):
        return self.client.execute_script(f"return {expression};")

    def pause(self, seconds):
        time.sleep(seconds)

    def screenshot(self, path):
        with open(path, "wb") as handle:
            self.client.save_screenshot(handle)

    def native_errors(self):
        with self.client.using_context(self.client.CONTEXT_CHROME):
            return self.client.execute_script(CONSOLE_ERRORS_JS, script_args=[self.origin])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--firefox", default="/usr/bin/firefox-esr")
    parser.add_argument("--screenshot", default=os.path.join(REPOSITORY, "reports", "browser", "firefox-esr.png"))
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="rollboard-firefox-")
    server = RollboardProcess(arguments.binary, os.path.join(folder, "data"), TOKEN,
                              config=os.path.join(REPOSITORY, "config"), environment={"ROLLBOARD_ADMIN_TOKEN": ADMIN})
    client = None
    try:
        server.start()
        client = Marionette(host="127.0.0.1", port=free_port(), bin=arguments.firefox, headless=True,
                            gecko_log=os.path.join(folder, "gecko.log"),
                            startup_timeout=120)
        client.start_session({"acceptInsecureCerts": True})
        client.set_window_rect(width=1280, height=800)
        version = client.session_capabilities.get("browserVersion")
        print(f"Firefox {version} through Marionette")
        page = MarionettePage(client, server.base_url)
        checks = run_scenario(page, server, TOKEN, "Firefox ESR", arguments.screenshot)
        run_pages(page, server, ADMIN, "Firefox ESR", checks, arguments.screenshot)
    finally:
        if client is not None:
            try:
                client.quit(in_app=False)
            except Exception as error:  # the browser may already be gone; the checks have been printed
                print(f"  closing Firefox: {error}")
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
