#!/usr/bin/env python3
"""Issue 36's acceptance run: a TV paired, moved, restarted and unpaired from the console's pages alone, in headless
Chromium (Selenium) and Firefox ESR (Marionette, no geckodriver), on one node and on a two-node Redis cluster.

Per browser and topology: a TV browser (its own profile) opens /tv and shows a code; a console browser (another
profile) signs in at /admin/sign-in with the admin token typed into the form, and pairs the code to the playlist
`wall` through "Pair a TV"; the TV opens /p/wall; the console moves it to the dashboard `second` through the
Screens page's Reassign (on one node: the TV's row, which names its node, its Reassign pressed with Enter moving the
focus into the form; on the cluster: the form with the TV's name typed); the TV follows within 2 s; the TV's browser
quits and starts again on the same profile, opens /tv and comes back to `second`; the console unpairs it (its row's
Unpair, there from the row's keyId; on the cluster the row comes from node 2's published list; confirmed) and the
TV is back on /tv with a new code. On the cluster the console is on node 1 and the TV on node 2 (its code issued by
node 2). Each hop's time is printed.

Usage: test_tv_console.py --binary .build/debug/rollboard [--browsers chromium,firefox] [--topologies one,cluster]
"""

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cluster"))
sys.path.insert(0, HERE)
from browser_session import REPOSITORY, PRODUCER_TOKEN  # noqa: E402
from cluster_support import ADMIN_TOKEN, Checks, RedisServer, free_port, start_node  # noqa: E402
from test_dashboard import start_browser, wait_for  # noqa: E402
from test_remote_control import add_playlist  # noqa: E402
from test_viewer_keys import close_every_dashboard  # noqa: E402

from marionette_driver.marionette import Marionette  # noqa: E402

ENTER = "\ue007"
FOLLOW_LIMIT = 2.0
PATH_JS = "return location.pathname + location.search"
CODE_JS = "var c = document.getElementById('tv-code'); return c && c.dataset.code ? c.dataset.code : null"
BODY_JS = "return document.body ? document.body.getAttribute('data-' + arguments[0]) : null"
SELECT_JS = ("var s = document.querySelector(arguments[0]); s.value = arguments[1];"
             " s.dispatchEvent(new Event('change')); return s.value")


FOCUSED_CONFIRM_JS = ("var b = document.activeElement;"
                      " return b && b.dataset.action === 'confirm' ? b.getAttribute('aria-label') : null")


def succeeded(action):
    """Whether `action()` ran without an exception: a button pressed (not yet there, or replaced by the list's refresh
    meanwhile: stale)."""
    try:
        action()
        return True
    except Exception:  # noqa: BLE001
        return False


class Chromium:
    """A Chromium session through Selenium; `profile`: its user-data folder, kept across `restart`."""
    name = "Chromium"

    def __init__(self, arguments, profile):
        self.arguments, self.profile = arguments, profile
        self.driver = start_browser(arguments, profile=profile)

    def open(self, url):
        self.driver.get(url)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def find(self, css):
        return self.driver.find_element("css selector", css)

    def restart(self):
        self.driver.quit()
        self.driver = start_browser(self.arguments, profile=self.profile)

    def close(self):
        self.driver.quit()


class Firefox:
    """A Firefox ESR session through Marionette, on a profile of its own that an in-app restart keeps."""
    name = "Firefox ESR"

    def __init__(self, arguments, profile):
        self.client = Marionette(host="127.0.0.1", port=free_port(), bin=arguments.firefox, headless=True,
                                 gecko_log=os.path.join(profile, "gecko.log"), startup_timeout=120)
        self.client.start_session({"acceptInsecureCerts": True})

    def open(self, url):
        self.client.navigate(url)

    def js(self, script, *args):
        return self.client.execute_script(script, script_args=list(args))

    def find(self, css):
        return self.client.find_element("css selector", css)

    def restart(self):
        self.client.restart(in_app=True)

    def close(self):
        self.client.cleanup()


def timed(predicate, timeout):
    """Seconds until `predicate()` holds (polled), or None when it does not within `timeout`."""
    started = time.monotonic()
    return time.monotonic() - started if wait_for(predicate, timeout) else None


def path_of(browser):
    """The page's path and query ("" while the browser is between pages)."""
    return browser.js(PATH_JS) or ""


def on_page(browser, prefix):
    """`browser` is on a page starting with `prefix` and its socket is open."""
    return path_of(browser).startswith(prefix) and browser.js(BODY_JS, "connection") == "open"


def hop(checks, label, took, limit, detail=""):
    """Prints how long a hop took and checks it was within `limit`; whether it was."""
    print(f"  {label}: {'not within the limit' if took is None else f'{took:.2f} s'}")
    checks.check(took is not None and took < limit, f"{label} (within {limit:g} s)", detail)
    return took is not None and took < limit


def open_page(console, page, timeout):
    """Opens the console's page `page` by its link in the navigation; waits until it shows."""
    console.find(f"#nav-{page}").click()
    wait_for(lambda: console.js("return !document.getElementById(arguments[0]).hidden", page), timeout)


def sign_in(console, base, timeout):
    console.open(base + "/admin/sign-in")
    console.find("#token").send_keys(ADMIN_TOKEN + ENTER)
    return wait_for(lambda: path_of(console) == "/admin/" and console.js(BODY_JS, "session") == "ready", timeout)


def pair_through_form(console, code, name, timeout):
    open_page(console, "pair", timeout)
    console.find("#pair-code").send_keys(code)
    console.find("#pair-name").send_keys(name)
    console.js(SELECT_JS, "#pair-kind", "playlist")
    console.find("#pair-target").send_keys("wall")
    console.find("#pair-form button[type=submit]").click()
    return wait_for(lambda: console.js("var t = document.getElementById('pair-status').textContent;"
                                       " return /^(Paired|Not paired)/.test(t) ? t : null"), timeout) or ""


def row_button(console, name, action):
    """The Screens page's `action` button in the row of the screen `name`, or None."""
    return console.js("return document.querySelector('#screens-rows tr[data-name=\"' + arguments[0] + '\"] "
                      "[data-action=' + arguments[1] + ']')", name, action)


def fill_reassign(console, name, by_row, timeout):
    """Fills the reassign form for the TV `name` to `second` (dark): through its row's Reassign (pressed with Enter;
    the focus must land in the form's target field) when `by_row`, else with its name
    typed. Returns the form's submit button (None: the row has no Reassign, or the focus did not move)."""
    open_page(console, "screens", timeout)
    if by_row:
        if not wait_for(lambda: succeeded(lambda: row_button(console, name, "reassign").send_keys(ENTER)), timeout):
            return None
        if not wait_for(lambda: console.js("return document.activeElement.id") == "reassign-target", timeout):
            return None
    else:
        console.find("#reassign-screen").send_keys(name)
    console.js(SELECT_JS, "#reassign-kind", "dashboard")
    console.find("#reassign-target").send_keys("second")
    console.js(SELECT_JS, "#reassign-theme", "dark")
    return console.find("#reassign-form button[type=submit]")


def unpair_through_screens(console, name, timeout):
    """Presses the Unpair of the TV `name`'s row (a paired screen's row has one: its keyId; another node's screen is
    listed too, from its node's published list), then the question's "Yes, unpair" in the row. Whether the row had
    one, and whether it asked first (its confirm button appeared, with the focus) and was confirmed."""
    if not wait_for(lambda: succeeded(lambda: row_button(console, name, "unpair").click()), timeout):
        return False, False
    asked = wait_for(lambda: console.js(FOCUSED_CONFIRM_JS) == f"Yes, unpair {name}", timeout)
    return True, bool(asked) and wait_for(lambda: succeeded(lambda: row_button(console, name, "confirm").click()),
                                          timeout)


def reassign_status(console):
    return console.js("var f = document.getElementById('reassign-form').elements; return "
                      "document.getElementById('reassign-status').textContent + ' [' + f.screen.value + ', ' + "
                      "f.kind.value + ', ' + f.target.value + ']'")


def scenario(tv, console, nodes, arguments, checks, label):
    """One run of the story: `tv` (a fresh browser) on the last node, `console` (signed in here) on the first.
    Stops at the first hop that fails, so a failure costs one timeout."""
    console_node, tv_node = nodes[0], nodes[-1]
    name = f"{type(tv).name} TV"
    limit = arguments.timeout
    tv.open(tv_node.base_url + "/tv")
    code = wait_for(lambda: tv.js(CODE_JS), limit)
    checks.check(bool(code), f"{label}: the TV on /tv shows a code", f"code {code!r}")
    signed_in = sign_in(console, console_node.base_url, limit)
    checks.check(signed_in, f"{label}: the console signs in with the admin token typed into the form",
                 path_of(console))
    if not signed_in:
        return

    started = time.monotonic()
    paired = pair_through_form(console, code or "", name, limit)
    took = timed(lambda: on_page(tv, "/p/wall?") and tv.js(BODY_JS, "playlist") == "wall", limit)
    checks.check(paired.startswith("Paired:"), f"{label}: Pair a TV pairs the code to the playlist wall", paired)
    if not hop(checks, f"{label}: pair → the TV shows the playlist wall (data-playlist)",
               took if took is None else time.monotonic() - started, limit, path_of(tv).split("key=")[0]):
        return

    by_row = console_node is tv_node  # on the cluster the form, by name, is checked too
    submit = fill_reassign(console, name, by_row, limit)
    if not submit:
        return checks.check(False, f"{label}: the TV's row on the Screens page has a Reassign button, which "
                            "pressed with Enter moves the focus into the form", console.js(
                                "return document.activeElement.id || document.activeElement.tagName"))
    if by_row:
        node = console.js("var r = document.querySelector('#screens-rows tr[data-name=\"' + arguments[0] + '\"] "
                          "[data-label=Node]'); return r ? r.textContent : null", name)
        checks.check(bool(node), f"{label}: the TV's row names its node", f"node {node!r}")
    submit.click()
    took = timed(lambda: on_page(tv, "/d/second?") and tv.js(BODY_JS, "dashboard") == "second", limit)
    status = reassign_status(console)
    checks.check("now shows" in status, f"{label}: Reassign ({'the row' if by_row else 'by name'}) is accepted",
                 status)
    if not hop(checks, f"{label}: reassign → the TV follows to second", took, FOLLOW_LIMIT,
               path_of(tv).split("key=")[0]):
        return

    started = time.monotonic()
    tv.restart()
    tv.open(tv_node.base_url + "/tv")
    took = timed(lambda: on_page(tv, "/d/second?"), limit)
    if not hop(checks, f"{label}: browser restart → back on second from /tv",
               took if took is None else time.monotonic() - started, limit, path_of(tv).split("key=")[0]):
        return

    found, confirmed = unpair_through_screens(console, name, limit)
    if not found:
        return checks.check(False, f"{label}: the TV's row has an Unpair button (its keyId in GET /api/v1/screens"
                            f"{'' if by_row else '?cluster, from the other node'})")
    started = time.monotonic()
    new_code = wait_for(lambda: path_of(tv).startswith("/tv") and tv.js(CODE_JS), limit)
    checks.check(confirmed, f"{label}: the row's Unpair asks first, in the page (its confirm button focused), and is "
                 "confirmed there")
    hop(checks, f"{label}: unpair → the TV is back on /tv with a new code",
        time.monotonic() - started if confirmed and new_code and new_code != code else None, limit,
        f"at {path_of(tv)}, code {new_code!r}")


def topology(name, arguments, folder, config, stack):
    """Starts topology `name` ("one": a node alone; "cluster": redis-server and two nodes on it), stopped by `stack`
    on leaving; its nodes."""
    redis = None
    if name == "cluster":
        redis = RedisServer(arguments.redis_server, os.path.join(folder, "redis"))
        stack.callback(redis.stop)
        redis.start()
    nodes = []
    stack.callback(lambda: [node.stop() for node in nodes])
    for number in range(2 if redis else 1):
        start_node(nodes, arguments.binary, folder, PRODUCER_TOKEN, redis.url if redis else None, config,
                   f"{name}-node{number + 1}")
    return nodes


def arguments_parsed():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--timeout", type=float, default=15.0)
    parser.add_argument("--browsers", default="chromium,firefox")
    parser.add_argument("--topologies", default="one,cluster")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--chromedriver", default=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    parser.add_argument("--firefox", default="/usr/bin/firefox-esr")
    parser.add_argument("--redis-server", default="redis-server")
    parser.add_argument("--window-size", default="1280,720")
    arguments = parser.parse_args()
    arguments.binary = os.path.abspath(arguments.binary)
    return arguments


def main():
    arguments = arguments_parsed()
    checks, began = Checks(), time.monotonic()
    folder = tempfile.mkdtemp(prefix="rollboard-tv-console-")
    every_node = []
    try:
        with contextlib.ExitStack() as stack:
            config = os.path.join(folder, "config")
            shutil.copytree(os.path.join(REPOSITORY, "config"), config)
            add_playlist(config)
            close_every_dashboard(config)
            topologies = {name: topology(name, arguments, folder, config, stack)
                          for name in arguments.topologies.split(",")}
            every_node = [node for nodes in topologies.values() for node in nodes]
            for browser in arguments.browsers.split(","):
                make = {"chromium": Chromium, "firefox": Firefox}[browser]
                console = stack.enter_context(contextlib.closing(make(arguments, tempfile.mkdtemp(dir=folder))))
                for name, nodes in topologies.items():
                    label = f"{make.name}, {'one node' if name == 'one' else 'TV on node 2, console on node 1'}"
                    print(f"== {label}")
                    with contextlib.closing(make(arguments, tempfile.mkdtemp(dir=folder))) as tv:
                        try:
                            scenario(tv, console, nodes, arguments, checks, label)
                        except Exception as error:  # noqa: BLE001  a browser failure fails a check; the run goes on
                            checks.check(False, f"{label}: the scenario runs to its end",
                                         f"{type(error).__name__}: {str(error)[:300]}")
    finally:
        if checks.failed:
            for node in every_node:
                print(f"---- {node.name} log (tail)\n{node.read_log()[-1500:]}")
        shutil.rmtree(folder, ignore_errors=True)
    print(f"the whole run took {time.monotonic() - began:.1f} s")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
