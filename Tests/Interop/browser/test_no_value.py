"""A tile with no value shows "—" in the muted colour, never a label or a number it was not given: headless Chromium
on the demo, a wheel above all.

A wheel never set has STATE `null` (docs/protocol.md). So that this test of the page does not wait on the server's
side, a script Chromium runs before the page (`Page.addScriptToEvaluateOnNewDocument`) wraps the page's WebSocket:
in the real server's `hello` it sets the `status` wheel's STATE to `null` and leaves `visitors` out, and it can hand
the page a frame of its own (`{"f":…,"t":{"status":…}}`). Everything else comes from the real server. The page must:

- show "—" on the wheel given `null`, in the muted colour (a tile title's), with no label, no `data-top`, no
  `data-color` (never "Operational" in green);
- show "—" on the tile the `hello` left out (no STATE: no value), and no `data-digits`;
- show the label a producer then sets (`POST /api/v1/wheels/status`), in its colour;
- go back to "—", with the labels and hooks gone, when a frame says `null` again;
- show "—", not the first label, for a wheel STATE without a position (`{"p":null}` removes it).

Usage: test_no_value.py --binary .build/debug/rollboard
"""

import sys

from browser_session import PRODUCER_TOKEN as TOKEN, body_data, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import post_json, start_browser, wait_for

WRAP_SOCKET = """
(function () {
  var Native = window.WebSocket;
  var latest = null;
  window.__rollboardTest = {
    deliver: function (message) { if (latest) latest({ data: JSON.stringify(message) }); return !!latest; },
  };
  function rewrite(data) {
    if (typeof data !== 'string') return data;
    var message;
    try { message = JSON.parse(data); } catch (error) { return data; }
    if (!message || message.type !== 'hello' || !message.tiles) return data;
    message.tiles.status = null;
    delete message.tiles.visitors;
    return JSON.stringify(message);
  }
  function Wrapped(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    var add = socket.addEventListener.bind(socket);
    socket.addEventListener = function (type, listener, options) {
      if (type !== 'message') return add(type, listener, options);
      var handle = function (event) { listener.call(socket, { data: rewrite(event.data) }); };
      latest = handle;
      return add(type, handle, options);
    };
    return socket;
  }
  Wrapped.prototype = Native.prototype;
  ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'].forEach(function (name) { Wrapped[name] = Native[name]; });
  window.WebSocket = Wrapped;
})();
"""

TILE = """
const tile = document.querySelector('[data-tile-id="' + arguments[0] + '"]');
if (!tile) return null;
const dash = tile.querySelector('.tile__empty');
const shown = (element) => !!element && getComputedStyle(element).display !== 'none'
  && element.getBoundingClientRect().height > 0;
const labels = Array.from(tile.querySelectorAll('.wheel__label'));
return {
  empty: tile.dataset.empty || null, top: tile.dataset.top || null, color: tile.dataset.color || null,
  digits: tile.dataset.digits || null,
  dash: shown(dash) ? dash.textContent : null,
  dashColor: dash ? getComputedStyle(dash).color : null,
  mutedColor: getComputedStyle(tile.querySelector('.tile__title')).color,
  labels: labels.map((label) => label.textContent).join('|'),
  labelColor: labels.length ? getComputedStyle(labels[0]).color : null,
  bodyShown: shown(tile.querySelector('.tile__body')),
};
"""


def tile(driver, name):
    return driver.execute_script(TILE, name) or {}


def shows_no_value(seen) -> bool:
    return (seen.get("empty") == "true" and seen.get("dash") == "\u2014" and seen.get("dashColor") == seen.get("mutedColor")
            and not seen.get("top") and not seen.get("color") and not seen.get("digits")
            and not seen.get("labels", "").strip("|") and not seen.get("bodyShown"))


def deliver(driver, entry) -> bool:
    seq = int(body_data(driver, "seq") or 0)
    return driver.execute_script("return window.__rollboardTest.deliver(arguments[0])", {"f": seq + 1, "t": {"status": entry}})


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    driver = start_browser(arguments)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WRAP_SOCKET})
        driver.get(f"{base}/d/demo?theme=dark")
        opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        wait_for(lambda: tile(driver, "status").get("empty") is not None, arguments.timeout)
        seen = tile(driver, "status")
        checks.check(bool(opened) and shows_no_value(seen),
                     "a wheel whose STATE is null shows — in the muted colour: no label, no data-top, no data-color",
                     f"open={opened}, {seen}")
        seen = tile(driver, "visitors")
        checks.check(shows_no_value(seen), "a tile the hello gives no STATE shows —, and no data-digits", f"{seen}")

        status, body = post_json(base, TOKEN, "/api/v1/wheels/status", {"label": "Degraded"}, arguments.timeout)
        labelled = wait_for(lambda: tile(driver, "status").get("top") == "Degraded"
                            and tile(driver, "status").get("empty") == "false", arguments.timeout)
        seen = tile(driver, "status")
        checks.check(status == 202 and bool(labelled) and seen.get("labelColor") == "rgb(212, 167, 44)"
                     and seen.get("dash") is None and seen.get("bodyShown"),
                     "the label a producer sets then shows, in its colour", f"post {status} {body}, {seen}")

        delivered = deliver(driver, None)
        emptied = wait_for(lambda: shows_no_value(tile(driver, "status")), 5)
        checks.check(delivered and bool(emptied), "a frame saying null again brings — back, the labels and hooks gone",
                     f"{tile(driver, 'status')}")

        deliver(driver, {"p": 2000})
        wait_for(lambda: tile(driver, "status").get("top") == "Partial outage", 5)
        moved = tile(driver, "status").get("top")
        deliver(driver, {"p": None})
        positionless = wait_for(lambda: shows_no_value(tile(driver, "status")), 5)
        checks.check(moved == "Partial outage" and bool(positionless),
                     "a wheel STATE without a position shows —, not its first label",
                     f"after p=2000: {moved!r}; after p=null: {tile(driver, 'status')}")
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], lambda config: None, scenario))
