"""The operator's console (/admin) in headless Chromium, and the attacks on its sessions:

- without a session, /admin/ answers 303 to /admin/sign-in and the admin API 401 JSON; the sign-in page is open;
- a cookie planted before sign-in (session fixation) is not the session afterwards, and opens nothing;
- the console signs in with the admin token: the cookie `rollboard_session` is HttpOnly, Secure and SameSite=Strict;
- Pair a TV: the code a TV shows on /tv, typed in the console's form, pairs it (the TV opens its dashboard);
- the Screens page lists the connected screen by its name; Identify, pressed with the keyboard, works (its write
  carries the CSRF token); the page fits a phone's width;
- a cross-site POST with the session cookie but without the CSRF token is 403 `csrf_token` (a wrong token too);
- sessions are listed (id, created, last used, address) and revocable: a revoked session's requests are 401 and
  its console is sent back to the sign-in page; sign-out ends a session (idle expiry: ConsoleSessionsTests).

Usage: test_admin_console.py --binary .build/debug/rollboard
"""

import http.client
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_session import body_data, browsers, run, save_report
from rollboard_process import Checks, RollboardProcess
from test_dashboard import wait_for

ADMIN = "admin-console-admin-token-0123456789"
COOKIE = "rollboard_session"
PLANTED = "planted-by-an-attacker-0123456789abcdef"


def raw(server, method, path, headers=None, body=None):
    """One request without following redirects: (status, headers, body text)."""
    connection = http.client.HTTPSConnection("127.0.0.1", server.port, context=server.ssl_context(), timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode(errors="replace")
    finally:
        connection.close()


def path_of(driver):
    return driver.execute_script("return location.pathname")


def sign_in(console, base, timeout, planted=None):
    """Signs `console` in on the sign-in page (the admin token typed, then Enter), after planting the cookie `planted`
    when given; whether it opened /admin/ with a session."""
    console.get(f"{base}/admin/sign-in")
    if planted:
        console.add_cookie({"name": COOKIE, "value": planted, "path": "/"})
    field = console.find_element(By.ID, "token")
    field.send_keys(ADMIN)
    field.send_keys(Keys.ENTER)
    return wait_for(lambda: path_of(console) == "/admin/" and body_data(console, "session") == "ready", timeout)


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    started = time.monotonic()
    status, headers, _ = raw(server, "GET", "/admin/")
    checks.check(status == 303 and headers.get("Location") == "/admin/sign-in",
                 "without a session /admin/ answers 303 to /admin/sign-in", f"got {status} {headers.get('Location')}")
    status, body = server.request("GET", "/api/v1/screens")
    checks.check(status == 401 and isinstance(body, dict) and body.get("error") == "unauthorized",
                 "without a session or token the admin API answers 401 JSON", f"got {status} {body}")
    status, _, page = raw(server, "GET", "/admin/sign-in")
    checks.check(status == 200 and "Admin token" in page, "the sign-in page is open to anyone", f"got {status}")

    with browsers(arguments, 2) as (wall, console):
        wall.get(f"{base}/tv")
        code = wait_for(lambda: wall.execute_script("return document.getElementById('tv-code')?.dataset.code ?? null"),
                        arguments.timeout)

        ready = sign_in(console, base, arguments.timeout, planted=PLANTED)
        checks.check(ready, "the console signs in with the admin token (typed, Enter) and opens /admin/",
                     f"at {path_of(console)}")
        cookie = console.get_cookie(COOKIE) or {}
        checks.check(cookie.get("httpOnly") is True and cookie.get("secure") is True
                     and cookie.get("sameSite") == "Strict" and cookie.get("path") == "/",
                     "the session cookie is HttpOnly, Secure, SameSite=Strict, Path=/",
                     f"{ {k: v for k, v in cookie.items() if k != 'value'} }")
        secret = cookie.get("value", "")
        checks.check(secret and secret != PLANTED, "session fixation: the cookie planted before sign-in is replaced")
        status, body = server.request("GET", "/admin/session", headers={"Cookie": f"{COOKIE}={PLANTED}"})
        checks.check(status == 401, "the planted cookie opens no session after the sign-in", f"got {status} {body}")
        status, session = server.request("GET", "/admin/session", headers={"Cookie": f"{COOKIE}={secret}"})
        csrf = session.get("csrfToken", "") if isinstance(session, dict) else ""
        checks.check(status == 200 and len(csrf) == 64, "GET /admin/session answers the session's CSRF token",
                     f"got {status}")

        console.get(f"{base}/admin/#pair")
        wait_for(lambda: body_data(console, "session") == "ready", arguments.timeout)
        console.find_element(By.ID, "pair-code").send_keys(code or "")
        console.find_element(By.ID, "pair-target").send_keys("demo")
        name = console.find_element(By.ID, "pair-name")
        name.send_keys("Wall One")
        name.send_keys(Keys.ENTER)
        paired = wait_for(lambda: "Paired:" in console.find_element(By.ID, "pair-status").text, arguments.timeout)
        followed = wait_for(lambda: path_of(wall) == "/d/demo" and body_data(wall, "connection") == "open",
                            arguments.timeout)
        checks.check(bool(code) and paired and followed,
                     "Pair a TV: the code a TV shows on /tv, typed in the form, pairs it and the TV opens demo",
                     f"code {code!r}, {console.find_element(By.ID, 'pair-status').text!r}, TV at {path_of(wall)}")
        console.get(f"{base}/admin/#screens")

        def listed():
            return console.execute_script(
                "return Array.from(document.querySelectorAll('#screens-rows tr')).map(r => r.textContent).join('|')")
        rows = wait_for(lambda: "Wall One" in listed() and listed(), arguments.timeout)
        checks.check(bool(rows) and "demo" in rows, "the Screens page lists the connected screen by name and dashboard",
                     f"rows {rows!r}")
        identify = console.find_elements(By.CSS_SELECTOR, "#screens-rows button[aria-label^='Identify']")
        if identify:
            console.execute_script("arguments[0].focus()", identify[0])
            console.switch_to.active_element.send_keys(Keys.ENTER)
        said = wait_for(lambda: "shows its number" in console.find_element(By.ID, "console-status").text,
                        arguments.timeout)
        checks.check(said, "Identify, pressed with the keyboard, is accepted (its write carries the CSRF token)",
                     console.find_element(By.ID, "console-status").text)
        backgrounds = []
        for theme in ("light", "dark"):
            console.get(f"{base}/admin/?theme={theme}#screens")
            wait_for(lambda: body_data(console, "session") == "ready" and "Wall One" in listed(), arguments.timeout)
            backgrounds.append(console.execute_script("return getComputedStyle(document.body).backgroundColor"))
            save_report(console, checks, f"admin-console-{theme}.png")
        checks.check(backgrounds == ["rgb(238, 241, 244)", "rgb(13, 17, 23)"],
                     "the console takes both of the wall page's themes (?theme=light, ?theme=dark)", f"{backgrounds}")
        console.set_window_size(390, 844)
        width = console.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        checks.check(width[0] <= width[1], "the Screens page fits a phone's width (390 px)", f"{width}")
        save_report(console, checks, "admin-console-phone.png")

        cross_site = {"Cookie": f"{COOKIE}={secret}", "Origin": "https://evil.example",
                      "Referer": "https://evil.example/"}
        announce = {"text": "pwned", "seconds": 5}
        status, body = server.request("POST", "/api/v1/admin/announce", announce, headers=cross_site)
        checks.check(status == 403 and body.get("error") == "csrf_token",
                     "a cross-site POST with the session cookie but no CSRF token is 403 csrf_token", f"{status} {body}")
        status, body = server.request("POST", "/api/v1/admin/announce", announce,
                                      headers=dict(cross_site, **{"X-CSRF-Token": "0" * 64}))
        checks.check(status == 403 and body.get("error") == "csrf_token", "a wrong CSRF token is 403 csrf_token too",
                     f"{status} {body}")
        status, body = server.request("POST", "/api/v1/admin/announce", {"text": "ok", "seconds": 0},
                                      headers={"Cookie": f"{COOKIE}={secret}", "X-CSRF-Token": csrf})
        checks.check(status == 202, "the same write with the session's CSRF token is accepted", f"{status} {body}")

        status, body = server.request("GET", "/api/v1/admin/sessions", token=ADMIN)
        sessions = body.get("sessions", []) if isinstance(body, dict) else []
        checks.check(status == 200 and len(sessions) == 1 and sessions[0].get("address") == "127.0.0.1"
                     and sessions[0].get("createdAt") and sessions[0].get("lastUsedAt")
                     and sessions[0].get("id", "x") not in secret,
                     "the sessions are listed: id (not the secret), created, last used, address", f"{status} {body}")
        session_id = sessions[0].get("id") if sessions else "none"
        status, _ = server.request("DELETE", f"/api/v1/admin/sessions/{session_id}", token=ADMIN)
        checks.check(status == 204, "the session is revoked", f"got {status}")
        status, body = server.request("GET", "/api/v1/screens", headers={"Cookie": f"{COOKIE}={secret}"})
        checks.check(status == 401, "a request with the revoked session is 401", f"got {status} {body}")
        console.get(f"{base}/admin/")
        back = wait_for(lambda: path_of(console) == "/admin/sign-in", arguments.timeout)
        checks.check(back, "the revoked session's console is sent back to the sign-in page", f"at {path_of(console)}")

    status, headers, body = raw(server, "POST", "/admin/session", {"Content-Type": "application/x-www-form-urlencoded"},
                                f"token={ADMIN}")
    form_cookie = headers.get("Set-Cookie", "")
    checks.check(status == 303 and headers.get("Location") == "/admin/" and form_cookie.startswith(COOKIE + "="),
                 "the form sign-in (no script) answers 303 to /admin/ with the cookie", f"got {status} {form_cookie}")
    secret = form_cookie.split(";")[0].split("=", 1)[-1]
    status, session = server.request("GET", "/admin/session", headers={"Cookie": f"{COOKIE}={secret}"})
    csrf = session.get("csrfToken", "") if isinstance(session, dict) else ""
    status, _ = server.request("DELETE", "/admin/session", headers={"Cookie": f"{COOKIE}={secret}", "X-CSRF-Token": csrf})
    after, _ = server.request("GET", "/admin/session", headers={"Cookie": f"{COOKIE}={secret}"})
    checks.check(status == 204 and after == 401, "sign-out ends the session", f"sign-out {status}, then {after}")
    status, body = server.request("POST", "/admin/session", {"token": "not-the-admin-token"})
    checks.check(status == 401, "a wrong admin token does not sign in", f"got {status} {body}")
    checks.check(time.monotonic() - started < 60, "the scenario runs under 60 s", f"{time.monotonic() - started:.1f} s")


def console_api(server: RollboardProcess, arguments, checks: Checks) -> None:
    """The API the console's pages read (helper H2's checks, kept apart from the page checks above): the dashboards
    list with its stale tiles, a screen's keyId (unpairing revokes it) and node, a reload by name, and the sign-in
    limit (last: it refuses every sign-in from this address for a minute)."""
    started = time.monotonic()
    status, listed = server.request("GET", "/api/v1/admin/dashboards", token=ADMIN)
    demo = next((d for d in (listed or {}).get("dashboards", []) if d.get("id") == "demo"), {}) if status == 200 else {}
    stale = {tile.get("tile"): tile for tile in demo.get("staleTiles", [])}
    checks.check(demo.get("url") == "/d/demo" and isinstance(listed.get("playlists"), list),
                 "the dashboards list gives each dashboard's page and the playlists", f"got {status} {demo}")
    checks.check("notice" not in stale and all(set(t) == {"tile", "title", "metric", "updatedAt", "staleAfter"}
                                               for t in stale.values()),
                 "its stale tiles name tile, title, metric, updatedAt and staleAfter (never a text tile)", f"{stale}")
    status, key = server.request("POST", "/api/v1/admin/keys", {"name": "Key TV", "dashboards": ["demo"]}, token=ADMIN)
    key_id, secret = (key.get("id"), key.get("key")) if status == 201 else (None, None)
    with browsers(arguments, 1) as (tv,):
        tv.get(f"{server.base_url}/d/demo?name=Key%20TV&key={secret}")

        def listed_tv():
            status, body = server.request("GET", "/api/v1/screens", token=ADMIN)
            return next((s for s in body.get("screens", []) if s.get("name") == "Key TV"), None) if status == 200 else None

        screen = wait_for(listed_tv, arguments.timeout) or {}
        checks.check(screen.get("keyId") == key_id and bool(screen.get("node")),
                     "a screen opened with a viewer key is listed with that key's id and this node's name", f"{screen}")
        wait_for(lambda: tv.execute_script("return document.body.dataset.connection") == "open", arguments.timeout)
        tv.execute_script("window.beforeReload = true")
        status, answer = server.request("POST", "/api/v1/admin/screens/Key%20TV/reload", token=ADMIN)
        reloaded = wait_for(lambda: tv.execute_script("return window.beforeReload === undefined"), arguments.timeout)
        checks.check(status == 202 and answer.get("screens") == 1 and reloaded,
                     "a reload by the screen's name reloads that screen's page", f"got {status} {answer}")
        back = wait_for(lambda: (listed_tv() or {}).get("keyId") == key_id, arguments.timeout)
        status, revoked = server.request("DELETE", f"/api/v1/admin/keys/{screen.get('keyId')}", token=ADMIN)
        # demo is public, so its screen stays (a paired TV's dashboards are not: its screen closes and goes to /tv).
        checks.check(back and status == 200 and revoked.get("revoked") is True,
                     "the reloaded screen is listed with its keyId again, which revokes its key (unpairing)",
                     f"got {status} {revoked}")
    refused = []
    for _ in range(11):
        status, headers, _ = raw(server, "POST", "/admin/session", {"Content-Type": "application/json"},
                                 '{"token":"not-the-admin-token"}')
        refused.append(status)
        if status == 429:
            break
    status, headers, body = raw(server, "POST", "/admin/session", {"Content-Type": "application/json"},
                                f'{{"token":"{ADMIN}"}}')
    checks.check(refused[-1] == 429 and status == 429 and "too_many_sign_ins" in body
                 and 0 < int(headers.get("Retry-After", "0")) <= 60,
                 "past 10 failed sign-ins a minute, every sign-in is 429 with Retry-After, the right token's too",
                 f"wrong tokens {refused}, then {status} {headers.get('Retry-After')} {body}")
    checks.check(time.monotonic() - started < 30, "the console API checks run under 30 s",
                 f"{time.monotonic() - started:.1f} s")


def scenario_and_api(server: RollboardProcess, arguments, checks: Checks) -> None:
    scenario(server, arguments, checks)
    console_api(server, arguments, checks)


if __name__ == "__main__":
    sys.exit(run(__doc__, lambda config: None, scenario_and_api, admin_token=ADMIN))
