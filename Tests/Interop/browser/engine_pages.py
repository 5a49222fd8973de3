"""The TV pairing page and the operator's console in one browser engine, written once for the three engine tests
(Firefox ESR, WebKitGTK, QtWebEngine) through the same adapter as engine_scenario.py. Standard library only.

Checks, against the same `rollboard serve` (started with ROLLBOARD_ADMIN_TOKEN): the browser opens /tv and shows a
6-character code (read from the DOM); the code is paired from here (POST /api/v1/admin/pairings with the admin token)
and the same browser opens the dashboard it was paired to, connected. Then /admin/sign-in: the form is filled with
the admin token and submitted (its submit button clicked), the browser lands on /admin/ with a session, opens a
WebSocket screen of its own on demo (as boot.js does) and the Screens page lists it in a row; every link of the
console's nav is followed in turn (read from the page, so pages added later are covered) and each shows its section
once its fetches have come back, with no status line saying its data could not be loaded. No script error on any of
it: the pages' own record where boot.js runs, a recorder of the same kind installed on the pages without it, and the
engine's console where it has one. Screenshots NAME-tv.png and NAME-console.png. The probes are ES5.
"""

import json
import os
import time

from engine_scenario import SCRIPT_ERROR_JS, save, wait_for

ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
REFUSALS = ("cannot", "failed", "no session")  # a console page's status line when its data did not load


# Two animation frames from now, the page has painted what its DOM holds now; a second at most (headless Firefox
# runs no animation frame for a window it does not show). Told by an attribute: a script's own window properties
# are not seen by the next script in every driver (Marionette runs each in a sandbox).
PAINTED_JS = ("(document.documentElement.removeAttribute('data-painted'), "
              "setTimeout(function () { document.documentElement.setAttribute('data-painted', '1'); }, 1000), "
              "requestAnimationFrame(function () { requestAnimationFrame(function () { "
              "document.documentElement.setAttribute('data-painted', '1'); }); }), true)")
IS_PAINTED_JS = "document.documentElement.getAttribute('data-painted') === '1'"


def body_js(name):
    """An attribute of <body>, or null while there is none (mid-navigation: a probe must not throw there)."""
    return f"(document.body ? document.body.getAttribute('{name}') : null)"

# boot.js's record (data-script-errors on <html>) on a page that does not load boot.js (a page with it keeps its own),
# and a count of the page's fetches under way, so a console page is read once the data it asked for has come.
RECORDER_JS = """(function () {
  if (!window.rollboardFetches && window.fetch) {
    var fetches = window.rollboardFetches = {pending: 0};
    var fetchNow = window.fetch;
    window.fetch = function () {
      fetches.pending++;
      return fetchNow.apply(this, arguments).then(function (r) { fetches.pending--; return r; },
                                                  function (e) { fetches.pending--; throw e; });
    };
  }
  if (window.rollboardErrors) return 'kept';
  var errors = window.rollboardErrors = [];
  function record(message) {
    errors.push(String(message).slice(0, 300));
    document.documentElement.setAttribute('data-script-errors', String(errors.length));
    if (errors.length === 1) document.documentElement.setAttribute('data-script-error', errors[0]);
  }
  window.addEventListener('error', function (e) { record((e.message || 'script error') + ' (' + e.filename + ':' + e.lineno + ')'); });
  window.addEventListener('unhandledrejection', function (e) { record('unhandled rejection: ' + (e.reason && e.reason.message || e.reason)); });
  return 'installed';
})()"""

SIGN_IN_JS = """(function (token) {
  var form = document.getElementById('sign-in');
  if (!form) return false;
  form.elements.token.value = token;
  form.querySelector('button[type=submit]').click();
  return true;
})(%s)"""

NAV_JS = ("Array.prototype.map.call(document.querySelectorAll('.console__nav a[href]'), "
          "function (a) { return a.getAttribute('href'); })")

# The console's state after following a nav link: where it is, the section the link names (hash links), the fetches
# under way and what the status lines say (the console's and those of the section).
SHOWN_JS = """(function (href) {
  var link = document.querySelector('.console__nav a[href="' + href + '"]');
  var section = href.charAt(0) === '#' ? document.getElementById(href.slice(1)) : null;
  var lines = [document.getElementById('console-status')];
  if (section) lines = lines.concat(Array.prototype.slice.call(section.querySelectorAll('[role=status]')));
  return {where: location.pathname + location.hash,
          shown: section ? !section.hidden && section.getBoundingClientRect().height > 0 : null,
          current: link ? link.getAttribute('aria-current') : null,
          pending: window.rollboardFetches ? window.rollboardFetches.pending : 0,
          status: lines.map(function (p) { return p ? p.textContent : ''; }).join(' ').trim()};
})(%s)"""

# A screen held by this browser while it shows the console: a WebSocket on demo named `name` (as boot.js opens one).
SCREEN_SOCKET_JS = """(function (name) {
  window.rollboardConsoleScreen = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host +
                                                '/ws?dashboard=demo&protocol=2&name=' + encodeURIComponent(name));
  return true;
})(%s)"""

SCREENS_JS = """(function () {
  var rows = document.querySelectorAll('#screens-rows tr');
  var empty = document.getElementById('screens-empty');
  var section = document.getElementById('screens');
  return {shown: !!section && !section.hidden, rows: rows.length, empty: !!empty && !empty.hidden,
          text: Array.prototype.map.call(rows, function (r) { return r.textContent; }).join('|').slice(0, 200)};
})()"""


def probe(page, expression):
    """`page.evaluate`, or None while the engine cannot answer (a navigation under way)."""
    try:
        return page.evaluate(expression)
    except Exception:  # noqa: BLE001 -- WebDriver and Marionette raise their own kinds mid-navigation
        return None


def errors_now(page, seen):
    """Script errors recorded on the current page or logged by the engine since `seen` of them; (list, count)."""
    recorded = probe(page, SCRIPT_ERROR_JS)
    native = page.native_errors()
    return ([recorded] if recorded else []) + native[seen:], len(native)


def run_pages(page, server, admin_token, engine, checks, screenshot, timeout=20.0):
    """Pairs this browser from /tv, then signs in to the console and follows every nav link; adds to `checks`, and
    saves NAME-tv.png (the code) and NAME-console.png (the last nav page) beside `screenshot`."""
    base_name, extension = os.path.splitext(screenshot)
    started = time.monotonic()
    seen = len(page.native_errors())
    base = server.base_url
    page.open(base + "/tv")
    probe(page, RECORDER_JS)
    code = wait_for(page, lambda: probe(page, "(document.getElementById('tv-code') || {dataset: {}}).dataset.code "
                                              "|| null"), timeout)
    checks.check(isinstance(code, str) and len(code) == 6 and all(c in ALPHABET for c in code),
                 f"{engine}: /tv shows a 6-character code", f"code {code!r}, state "
                 f"{probe(page, body_js('data-state'))!r}, errors {errors_now(page, seen)[0]!r}")
    code_at = time.monotonic()
    errors, seen_after = errors_now(page, seen)
    checks.check(not errors, f"{engine}: no script error on /tv", f"{errors!r}")
    seen = seen_after
    probe(page, PAINTED_JS)  # the grab shows the code, not the dots before it (QtWebEngine grabs the last painted frame)
    wait_for(page, lambda: probe(page, IS_PAINTED_JS), timeout)
    save(page, f"{base_name}-tv{extension}", checks, engine)
    status, answer = server.request("POST", "/api/v1/admin/pairings", {
        "code": code or "", "name": f"{engine} TV", "show": {"dashboard": "demo"}, "theme": "dark"}, token=admin_token)
    location_js = "location.pathname + location.search"
    arrived = wait_for(page, lambda: probe(page, location_js).startswith("/d/demo?")
                       and probe(page, body_js("data-connection")) == "open"
                       if probe(page, location_js) else False, timeout)
    where = (probe(page, location_js) or "").split("key=")[0]
    checks.check(status == 201 and bool(arrived) and "theme=dark" in where,
                 f"{engine}: the code paired from the admin API, the same browser opens the dashboard it was paired "
                 "to (demo, dark) and connects", f"POST {status} {answer!r}; at {where}…")
    errors, seen = errors_now(page, seen)
    checks.check(not errors, f"{engine}: no script error on the paired dashboard", f"{errors!r}")
    probe(page, "(localStorage.removeItem('rollboard.tv'), true)")  # the next test run of this profile starts unpaired
    paired_at = time.monotonic()

    page.open(base + "/admin/sign-in")
    probe(page, RECORDER_JS)
    # A person types once the page is up: WebKitWebDriver can hand the page over before its module ran, and a form
    # sent then posts itself (WebKitGTK then comes back to the sign-in page: see docs/console.md). A module runs
    # before the load event, so "complete" means it ran; read from the document, which every driver's script sees
    # (Marionette's sandbox does not see the page's own window properties such as rollboardStarted).
    loaded = wait_for(page, lambda: probe(page, "document.readyState === 'complete'"), timeout)
    filled = probe(page, SIGN_IN_JS % json.dumps(admin_token))
    said_js = "(document.getElementById('sign-in-status') || {}).textContent"
    signed_in_js = "location.pathname === '/admin/' && " + body_js("data-session") + " === 'ready'"
    ready = wait_for(page, lambda: probe(page, signed_in_js), timeout)
    checks.check(bool(loaded) and filled is True and bool(ready), f"{engine}: the sign-in form with the admin token "
                 "opens /admin/ with a session", f"page loaded {bool(loaded)}, form found {filled!r}; at "
                 f"{probe(page, 'location.href')!r}, sign-in status {probe(page, said_js)!r}")
    probe(page, RECORDER_JS)
    name = f"{engine} console screen"
    probe(page, SCREEN_SOCKET_JS % json.dumps(name))
    polls = [0]

    def listed():
        """The Screens page once it lists this browser's own screen (Refresh pressed every second meanwhile)."""
        state = probe(page, SCREENS_JS)
        if state and state["shown"] and name in state["text"]:
            return state
        polls[0] += 1
        if polls[0] % 10 == 0:
            probe(page, "(document.getElementById('screens-refresh') || {click: function () {}}).click()")
        return None
    screens = wait_for(page, listed, timeout) or probe(page, SCREENS_JS)
    checks.check(bool(screens and screens["shown"] and name in screens["text"]),
                 f"{engine}: the Screens page lists this browser's own screen (a WebSocket it opened on demo) in a row",
                 f"{screens!r}")
    links = probe(page, NAV_JS) or []
    signed_at = time.monotonic()
    followed = []
    for href in links:
        probe(page, "document.querySelector('.console__nav a[href=\"%s\"]').click()" % href)
        hash_link = href.startswith("#")

        def arrived(state):
            """The link's section shown and the link marked current (a link to another page: that page open), no
            fetch under way, no status line saying the page's data did not load."""
            if not state:
                return False
            text = (state.get("status") or "").lower()
            there = state["shown"] and state["current"] == "page" if hash_link else state["where"].startswith(href)
            return bool(there) and state["pending"] == 0 and not any(word in text for word in REFUSALS)
        state = wait_for(page, lambda: (lambda s: s if arrived(s) else None)(probe(page, SHOWN_JS % json.dumps(href))),
                         min(timeout, 5.0)) or probe(page, SHOWN_JS % json.dumps(href))
        followed.append(f"{href}: {'shown' if arrived(state) else state}")
        if not hash_link:
            page.open(base + "/admin/")
            probe(page, RECORDER_JS)
    page.pause(0.3)  # QtWebEngine's grab() shows the last frame painted: let the page shown last be painted
    save(page, f"{base_name}-console{extension}", checks, engine)
    checks.check(len(links) >= 2 and all(item.endswith(": shown") for item in followed),
                 f"{engine}: every nav link of the console shows its page ({len(links)} links)", "; ".join(followed))
    errors, seen = errors_now(page, seen)
    checks.check(not errors, f"{engine}: no script error on the sign-in page or the console", f"{errors!r}")
    seconds = time.monotonic() - started
    print(f"  {engine}: {seconds:.1f} s in all: /tv showed its code in {code_at - started:.1f} s, the paired dashboard "
          f"connected {paired_at - code_at:.1f} s later, signing in and the Screens page {signed_at - paired_at:.1f} s, "
          f"the {len(links)} console pages {time.monotonic() - signed_at:.1f} s; the Screens page: {screens!r}")
    checks.check(seconds < 20, f"{engine}: the TV and console pages run in under 20 s", f"{seconds:.1f} s")
