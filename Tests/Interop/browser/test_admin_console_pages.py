"""The console's pages past Screens and Pair a TV, driven in headless Chromium by keyboard (a playlist `wall` of demo and
`second`, a JSON source `up` on a local upstream and a source `down` whose upstream answers 500):

- Viewer keys: a blank name is refused with the API's detail; a key made for demo shows its secret once (rbv_…, with
  the warning and a copy button that copies it), is listed without it (and the secret is nowhere in the page once
  hidden), is revoked only after the confirm step (the focus ring visible), and the API no longer lists it;
- Announcements: a text sent to demo covers a wall screen on demo (a second Chromium), is listed as sent from this
  console, and its Take down button takes it off the screen;
- Playlists: Hold, Show an entry and Resume change what GET /api/v1/admin/playlists says; the focus survives the
  row's redraw;
- Sources: `up` and `down` are shown by word and by colour (the wall's good and critical), down with its reason;
- Dashboards: links to /d/ID and /p/ID, each dashboard's screens and stale tiles (GET /api/v1/admin/dashboards); with
  that route answering 404 (an older server, faked in the page) the links alone and "needs a newer server";
- every page fits a phone's width (390 px); screenshots in both themes and at phone width, no script error.

Usage: test_admin_console_pages.py --binary .build/debug/rollboard
"""

import os
import re
import sys
import threading
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_session import HERE, body_data, browsers, run, save_report
from rollboard_process import Checks, RollboardProcess
from test_admin_console import ADMIN, COOKIE, raw, sign_in
from test_dashboard import wait_for
from test_remote_control import add_playlist

sys.path.insert(0, os.path.join(os.path.dirname(HERE), "sources"))
from upstream import Handler, Server  # noqa: E402

PAGES = ("keys", "announcements", "playlists", "sources", "dashboards", "sessions")
UPSTREAM = Server(("127.0.0.1", 0), Handler)


def prepare(config: str) -> None:
    """The playlist `wall` (its dashboard `second` behind a viewer key), and two sources on the upstream served from
    this process: `up` and `down` (HTTP 500)."""
    add_playlist(config)
    with open(os.path.join(config, "dashboards", "second.yaml"), "a", encoding="utf-8") as handle:
        handle.write("access: key\n")
    threading.Thread(target=UPSTREAM.serve_forever, daemon=True).start()
    os.makedirs(os.path.join(config, "sources"), exist_ok=True)
    for name, path, metric in (("up", "/value", "visitors"), ("down", "/status/500", "orders")):
        with open(os.path.join(config, "sources", f"{name}.yaml"), "w", encoding="utf-8") as handle:
            handle.write(f"type: json\nurl: http://127.0.0.1:{UPSTREAM.server_address[1]}{path}\nevery: 2s\n"
                         f"metrics:\n  - {{metric: {metric}, pointer: /value}}\n")


def go(console, page, timeout):
    """Opens `page` from the console's navigation, by keyboard; whether its section is shown."""
    console.find_element(By.ID, f"nav-{page}").send_keys(Keys.ENTER)
    return wait_for(lambda: console.find_element(By.ID, page).is_displayed(), timeout)


def press(console, label, timeout):
    """Focuses the button labelled `label` once it is there and presses Enter; whether it was found."""
    found = wait_for(lambda: console.find_elements(By.CSS_SELECTOR, f"button[aria-label='{label}']"), timeout)
    if found:
        console.execute_script("arguments[0].focus()", found[0])
        console.switch_to.active_element.send_keys(Keys.ENTER)
    return bool(found)


def text_of(console, selector):
    return console.execute_script(f"const n = document.querySelector(\"{selector}\"); return n ? n.textContent : ''")


def api(server, path, field):
    status, body = server.request("GET", path, token=ADMIN)
    return body.get(field, []) if status == 200 and isinstance(body, dict) else []


def keys_page(server, console, timeout, checks):
    go(console, "keys", timeout)
    demo = wait_for(lambda: console.find_elements(By.CSS_SELECTOR, "#key-targets input[value='dashboard:demo']"), timeout)
    offered = console.execute_script(
        "return Array.from(document.querySelectorAll('#key-targets input')).map((box) => box.value + '=' + box.dataset.dashboards)")
    checks.check({"dashboard:second=second", "playlist:wall=demo second"} <= set(offered),
                 "a key may be limited to a dashboard behind a viewer key (second) or a playlist (its dashboards)",
                 f"{offered}")
    if demo:
        demo[0].send_keys(Keys.SPACE)
    name = console.find_element(By.ID, "key-name")
    name.send_keys("   ", Keys.ENTER)
    refused = wait_for(lambda: "Not created: name: must be 1 to 100 characters" in text_of(console, "#keys-status"),
                       timeout)
    logged = [entry for entry in console.get_log("browser") if entry.get("level") == "SEVERE"
              and not ("/api/v1/admin/keys " in entry.get("message", "") and "status of 422 " in entry.get("message", ""))]
    checks.check(refused and not logged, "a blank name is refused with the API's detail (the page logs only the 422)",
                 f"{text_of(console, '#keys-status')!r} {logged}")
    name.clear()
    name.send_keys("Hall key", Keys.ENTER)
    secret = wait_for(lambda: console.find_element(By.ID, "key-secret-value").get_attribute("value"), timeout) or ""
    warning = console.find_element(By.ID, "key-secret-warning")
    focused = console.switch_to.active_element.get_attribute("id")
    checks.check(re.fullmatch(r"rbv_[0-9a-f]{64}", secret) is not None and warning.is_displayed()
                 and "will not be shown again" in warning.text and focused == "key-secret-value",
                 "a new key's secret is shown (focused), with the warning that it will not be shown again",
                 f"secret {secret[:8]!r}…, warning {warning.text!r}, focus on {focused!r}")
    listed = [key for key in api(server, "/api/v1/admin/keys", "keys") if key.get("name") == "Hall key"]
    key_id = listed[0]["id"] if listed else "none"
    checks.check(len(listed) == 1 and listed[0].get("dashboards") == ["demo"],
                 "the key is made for the dashboard ticked (demo), as the API lists it", f"{listed}")
    console.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.base_url,
                                                         "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    console.find_element(By.ID, "key-copy").send_keys(Keys.ENTER)
    wait_for(lambda: "copied" in text_of(console, "#keys-status"), timeout)
    copied = console.execute_async_script("navigator.clipboard.readText().then(arguments[0], () => arguments[0](''))")
    checks.check(copied == secret, "Copy puts the key on the clipboard", f"{text_of(console, '#keys-status')!r}")
    console.find_element(By.ID, "key-done").send_keys(Keys.ENTER)
    row = wait_for(lambda: text_of(console, f"[data-key='{key_id}']"), timeout)
    anywhere = console.execute_script(
        "return document.documentElement.outerHTML.includes(arguments[0])"
        " || Array.from(document.querySelectorAll('input')).some((i) => i.value.includes(arguments[0]))", secret)
    checks.check(bool(row) and "demo" in row and not anywhere and not console.find_element(By.ID, "key-secret").is_displayed(),
                 "hidden, the secret is nowhere in the page; the list shows the key by name, id and dashboard",
                 f"row {row!r}, secret still in the page: {anywhere}")
    asked = press(console, "Revoke Hall key", timeout)
    still = [key for key in api(server, "/api/v1/admin/keys", "keys") if key.get("id") == key_id]
    confirm = console.switch_to.active_element.get_attribute("aria-label")
    ring = console.execute_script("const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]")
    checks.check(asked and len(still) == 1 and confirm == "Yes, revoke Hall key" and ring == ["solid", "3px"],
                 "Revoke asks first (the key stays; the confirm button takes the focus, its ring visible)",
                 f"focus on {confirm!r}, outline {ring}")
    console.switch_to.active_element.send_keys(Keys.ENTER)
    gone = wait_for(lambda: "Revoked Hall key" in text_of(console, "#keys-status")
                    and all(key.get("id") != key_id for key in api(server, "/api/v1/admin/keys", "keys")), timeout)
    focus = console.switch_to.active_element.get_attribute("id")
    checks.check(gone and not text_of(console, f"[data-key='{key_id}']") and focus == "keys-title",
                 "confirmed, the key is revoked: gone from the page and from GET /api/v1/admin/keys (focus: the heading)",
                 f"{text_of(console, '#keys-status')!r}, focus on {focus!r}")


def announcements_page(wall, console, timeout, checks):
    go(console, "announcements", timeout)
    wait_for(lambda: console.find_elements(By.CSS_SELECTOR, "#announce-to option[value='dashboard:demo']"), timeout)
    Select(console.find_element(By.ID, "announce-to")).select_by_value("dashboard:demo")
    console.find_element(By.ID, "announce-text").send_keys("Fire drill at 3 pm")
    seconds = console.find_element(By.ID, "announce-seconds")
    seconds.clear()
    seconds.send_keys("60", Keys.ENTER)
    shown = wait_for(lambda: body_data(wall, "overlay") == "announce"
                     and text_of(wall, "#overlay-text") == "Fire drill at 3 pm", timeout)
    sent = text_of(console, "#announce-sent li")
    checks.check(shown and "Fire drill at 3 pm" in sent and "dashboard demo" in sent,
                 "an announcement sent to demo covers the wall screen on demo, and is listed as sent",
                 f"overlay {body_data(wall, 'overlay')!r}, sent {sent!r}, {text_of(console, '#announce-status')!r}")
    pressed = press(console, "Take down the announcement on dashboard demo", timeout)
    down = wait_for(lambda: body_data(wall, "overlay") is None, timeout)
    listed = wait_for(lambda: "Taken down on dashboard demo" in text_of(console, "#announce-sent li"), timeout)
    focus = console.switch_to.active_element.get_attribute("id")
    checks.check(pressed and down and listed and focus == "announce-sent-title", "Take down takes it off the screen (the focus stays on the list)",
                 f"overlay {body_data(wall, 'overlay')!r}, focus on {focus!r}")


def playlists_page(server, console, timeout, checks):
    go(console, "playlists", timeout)

    def wall_state():
        return ([item for item in api(server, "/api/v1/admin/playlists", "playlists") if item.get("id") == "wall"]
                or [{}])[0]
    held = press(console, "Hold Lobby wall", timeout) and wait_for(lambda: wall_state().get("held") is True, timeout)
    kept = wait_for(lambda: console.switch_to.active_element.get_attribute("aria-label") == "Resume Lobby wall", timeout)
    checks.check(kept, "after Hold, the keyboard's focus is on the row's new Resume button (kept across the refresh)",
                 f"focus on {console.switch_to.active_element.get_attribute('aria-label')!r}")
    shown = press(console, "Show second on Lobby wall", timeout) and wait_for(
        lambda: wall_state().get("current") == 1 and wall_state().get("held") is True, timeout)
    on_page = wait_for(lambda: "held on second" in text_of(console, "[data-playlist='wall']"), timeout)
    resumed = press(console, "Resume Lobby wall", timeout) and wait_for(lambda: wall_state().get("held") is False,
                                                                         timeout)
    checks.check(bool(held and shown and on_page and resumed),
                 "Hold, Show an entry and Resume change the playlist as GET /api/v1/admin/playlists says",
                 f"held {held}, showing second {shown}, page says held {on_page}, resumed {resumed}: {wall_state()}")


def sources_page(console, timeout, checks):
    go(console, "sources", timeout)

    def state(source):
        return console.execute_script(
            f"const s = document.querySelector('[data-source={source}] .console__state');"
            "return s ? [s.textContent, getComputedStyle(s).color] : ['', '']")
    wait_for(lambda: state("up")[0] == "up" and state("down")[0] == "down", timeout)
    good, critical = console.execute_script(
        "const s = getComputedStyle(document.documentElement);"
        "return [s.getPropertyValue('--good'), s.getPropertyValue('--critical')].map((c) => c.trim())")
    reason = text_of(console, "[data-source=down]")
    checks.check(state("up")[0] == "up" and state("down")[0] == "down" and state("up")[1] != state("down")[1]
                 and "HTTP 500" in reason,
                 "Sources: up and down in words and in two colours, down with its reason",
                 f"up {state('up')}, down {state('down')} (good {good}, critical {critical}), row {reason!r}")


def dashboards_page(console, timeout, checks):
    go(console, "dashboards", timeout)
    links = wait_for(lambda: console.execute_script(
        "return Array.from(document.querySelectorAll('#dashboards a')).map((a) => a.getAttribute('href'))"), timeout)
    checks.check(links and {"/d/demo", "/d/second", "/p/wall"} <= set(links),
                 "Dashboards links every dashboard to /d/ID and the playlist to /p/ID", f"{links}")
    stale = wait_for(lambda: text_of(console, "[data-dashboard=demo]"), timeout)
    checks.check("Revenue today (revenue): no value yet, stale after 300 s" in stale and "Visitors" not in stale
                 and text_of(console, "[data-dashboard=demo] [data-label=Screens]") == "1",
                 "demo's stale tiles: revenue (no value, staleAfter 300) listed, visitors (fed by the source `up`) not;"
                 " its one screen counted", f"{stale!r}")
    go(console, "sources", timeout)  # an older server, without the admin list: its fetch answered 404 in the page
    console.execute_script(
        "window.realFetch = window.fetch; window.fetch = (url, options) => url === '/api/v1/admin/dashboards'"
        " ? Promise.resolve(new Response('{\"error\":\"not_found\"}', {status: 404})) : window.realFetch(url, options)")
    go(console, "dashboards", timeout)
    older = wait_for(lambda: "needs a newer server" in text_of(console, "#dashboards-status")
                     and text_of(console, "[data-dashboard=demo] [data-label='Stale tiles']"), timeout)
    links = console.execute_script("return document.querySelectorAll('#dashboards a[href=\"/d/demo\"]').length")
    console.execute_script("window.fetch = window.realFetch")
    checks.check(older == "needs a newer server" and links == 1,
                 "without that route (404) the page still links the dashboards and says stale tiles need a newer server",
                 f"{older!r}, {links} link(s) to /d/demo")


def sessions_page(server, console, timeout, checks):
    """Another console's session (signed in by the form, without script) is listed beside this one and revoked here."""
    _, headers, _ = raw(server, "POST", "/admin/session", {"Content-Type": "application/x-www-form-urlencoded"},
                        f"token={ADMIN}")
    other = headers.get("Set-Cookie", "").split(";")[0].split("=", 1)[-1]
    _, session = server.request("GET", "/admin/session", headers={"Cookie": f"{COOKIE}={other}"})
    other_id = session.get("id", "") if isinstance(session, dict) else ""
    go(console, "sessions", timeout)
    rows = wait_for(lambda: console.execute_script(
        "return Array.from(document.querySelectorAll('#sessions-rows tr')).map((r) => [r.dataset.session,"
        " r.dataset.current])") if text_of(console, f"[data-session='{other_id}']") else None, timeout) or []
    checks.check(len(rows) >= 2 and [other_id, "false"] in rows and sum(1 for row in rows if row[1] == "true") == 1,
                 "Sessions lists the other console's session and marks this console's own", f"{rows}, other {other_id}")
    revoked = press(console, f"Revoke session {other_id}", timeout) and wait_for(
        lambda: server.request("GET", "/admin/session", headers={"Cookie": f"{COOKIE}={other}"})[0] == 401, timeout)
    gone = wait_for(lambda: not text_of(console, f"[data-session='{other_id}']"), timeout)
    status, _ = server.request("GET", "/admin/session", headers={"Cookie": f"{COOKIE}={other}"})
    checks.check(bool(revoked) and gone and status == 401 and "revoked" in text_of(console, "#sessions-status"),
                 "Revoke (by keyboard) ends the other session: its cookie gets 401 and its row is gone, this console"
                 " stays signed in", f"cookie answered {status}, row gone {gone}")


def looks(console, timeout, checks):
    go(console, "sources", timeout)
    wait_for(lambda: text_of(console, "[data-source=up]"), timeout)
    for theme in ("light", "dark"):
        console.execute_script(f"document.documentElement.dataset.theme = '{theme}'")  # as ?theme= does
        save_report(console, checks, f"admin-console-sources-{theme}.png")
    console.set_window_size(390, 844)
    wide = []
    for page in PAGES:
        go(console, page, timeout)
        width = console.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        if width[0] > width[1]:
            wide.append(f"{page} {width}")
    checks.check(not wide, "every page fits a phone's width (390 px)", f"{wide}")
    save_report(console, checks, "admin-console-pages-phone.png")


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    started = time.monotonic()
    try:
        with browsers(arguments, 2) as (wall, console):
            wall.get(f"{server.base_url}/d/demo?name=Hall")
            checks.check(sign_in(console, server.base_url, arguments.timeout), "the console signs in")
            keys_page(server, console, arguments.timeout, checks)
            wait_for(lambda: body_data(wall, "connection") == "open", arguments.timeout)
            announcements_page(wall, console, arguments.timeout, checks)
            playlists_page(server, console, arguments.timeout, checks)
            sources_page(console, arguments.timeout, checks)
            dashboards_page(console, arguments.timeout, checks)
            sessions_page(server, console, arguments.timeout, checks)
            looks(console, arguments.timeout, checks)
    finally:
        UPSTREAM.shutdown()
    print(f"the pages took {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    sys.exit(run(__doc__, prepare, scenario, admin_token=ADMIN))
