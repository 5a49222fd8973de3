"""Pairing a TV with a code, in headless Chromium, on a server whose dashboards all need a viewer key:

- a TV opens /tv and shows a 6-character code (no look-alikes); an unknown code is 404 naming `code`;
- the admin pairs the code to `demo` (dark, kiosk): 201 with the key's id and the TV's page, no secret; the TV
  opens /d/demo with its key, name, theme and kiosk, connects, and shows a value posted after it was paired;
- the browser restarts with the same profile and opens /tv: it goes straight back to demo;
- the TV is moved to `story` while its browser is off: restarted on /tv it asks POST /api/v1/tv/resume and comes
  back to story; reopening its old demo page (403 with its narrowed key) sends it on to story too, still paired;
- the admin revokes the key: the TV (closed with 1008) forgets its pairing and is back on /tv with a new code; a TV
  that still kept the revoked key and reopens its page gets the 403 page, which sends it back to /tv too;
- a guessing run of wrong codes is refused with 429 and Retry-After after 10 failures, and finds no code (the TV's
  pending code is refused to that address as well);
- the secret is nowhere in the server's log.

Usage: test_tv_pairing.py --binary .build/debug/rollboard
"""

import json
import random
import shutil
import ssl
import sys
import tempfile
import time
import urllib.error
import urllib.request

from browser_session import PRODUCER_TOKEN as TOKEN, body_data, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import start_browser, wait_for
from test_viewer_keys import close_every_dashboard

ADMIN = "tv-pairing-admin-token-0123456789"
ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
FAILED_PER_ADDRESS = 10


# Per width the command's box is given, its lines and the text around each line break that falls inside a word (between
# two letters or digits).
COMMAND_LINE_CUTS = """
const box = document.getElementById("tv-command");
const node = box.firstChild, text = node.textContent, range = document.createRange();
const found = [];
for (const width of [box.getBoundingClientRect().width, 700, 450]) {
  box.style.maxWidth = width + "px";
  let top = null, lines = 1;
  const inWord = [];
  for (let i = 0; i < text.length; i++) {
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const rect = range.getClientRects()[0];
    if (!rect || text[i] === " ") continue;
    if (top !== null && rect.top > top + 1) {
      lines += 1;
      if (/[A-Za-z0-9]/.test(text[i - 1]) && /[A-Za-z0-9]/.test(text[i])) inWord.push(text.slice(Math.max(0, i - 8), i) + "|" + text.slice(i, i + 8));
    }
    top = rect.top;
  }
  found.push({width: Math.round(width), lines, inWord});
}
box.style.maxWidth = "";
return found;
"""


def shown_code(driver):
    return driver.execute_script("return document.getElementById('tv-code')?.dataset.code ?? null")


def path_of(driver):
    return driver.execute_script("return location.pathname + location.search")


def stored_pairing(driver):
    return driver.execute_script("return localStorage.getItem('rollboard.tv')")


def pair(server, code):
    """POSTs a pairing; returns (status, body, Retry-After)."""
    body = {"code": code, "name": "Lobby TV", "show": {"dashboard": "demo"}, "theme": "dark", "kiosk": True}
    request = urllib.request.Request(server.base_url + "/api/v1/admin/pairings", data=json.dumps(body).encode(),
                                     method="POST", headers={"Authorization": f"Bearer {ADMIN}",
                                                             "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, context=ssl._create_unverified_context(), timeout=10) as response:
            return response.status, json.loads(response.read()), None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error.headers.get("Retry-After")


def open_tv(arguments, profile, base, timeout):
    driver = start_browser(arguments, profile=profile)
    driver.get(f"{base}/tv")
    return driver


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    started = time.monotonic()
    profile = tempfile.mkdtemp(prefix="rollboard-tv-profile-")
    driver = None
    try:
        driver = open_tv(arguments, profile, base, arguments.timeout)
        code = wait_for(lambda: shown_code(driver), arguments.timeout)
        checks.check(code is not None and len(code) == 6 and all(c in ALPHABET for c in code),
                     "the TV on /tv shows a 6-character code without look-alikes", f"code={code!r}")
        if not code:
            return

        cuts = driver.execute_script(COMMAND_LINE_CUTS)
        checks.check(cuts and all(not width["inWord"] and (width["lines"] > 1 or width["width"] > 700) for width in cuts),
                     "the pairing command wraps between its words at every width, never between two letters", str(cuts))

        status, body, _ = pair(server, "0OIL5S")
        checks.check(status == 404 and body.get("error") == "unknown_code" and "code" in body.get("detail", ""),
                     "an unknown code is 404 unknown_code, naming `code`", f"got {status} {body}")

        status, body, _ = pair(server, code.lower())
        secret_shown = any(str(value).startswith("rbv_") for value in body.values()) if isinstance(body, dict) else True
        checks.check(status == 201 and body.get("keyId") and body.get("url") == "/d/demo?name=Lobby%20TV&theme=dark&kiosk"
                     and not secret_shown, "the admin pairs the code (typed in lower case): 201 with the key id and the "
                     "TV's page, no secret", f"got {status} {body}")
        key_id = body.get("keyId") if isinstance(body, dict) else None

        def on_demo():
            return path_of(driver).startswith("/d/demo?") and body_data(driver, "connection") == "open"
        opened = wait_for(on_demo, arguments.timeout)
        where = path_of(driver)
        checks.check(opened and "key=rbv_" in where and "name=Lobby%20TV" in where and "theme=dark" in where
                     and "kiosk" in where, "the TV opens demo by itself with its key, name, theme and kiosk",
                     f"at {where.split('key=')[0]}…, connection={body_data(driver, 'connection')!r}")
        status, _ = server.request("POST", "/api/v1/texts/notice", {"text": "paired and live"}, token=TOKEN)
        live = wait_for(lambda: driver.execute_script(
            "return document.querySelector('[data-tile-id=notice] [data-text], [data-tile-id=notice][data-text]')"
            "?.dataset.text ?? null") == "paired and live", arguments.timeout)
        checks.check(status == 202 and live, "the paired TV shows a value posted after it was paired", f"post {status}")
        stored = json.loads(stored_pairing(driver) or "null")
        checks.check(stored is not None and stored.get("key", "").startswith("rbv_"),
                     "the TV keeps its pairing in localStorage")
        secret = stored.get("key") if stored else None

        driver.quit()
        driver = open_tv(arguments, profile, base, arguments.timeout)
        back = wait_for(on_demo, arguments.timeout)
        checks.check(back, "the restarted browser opens /tv and goes straight back to demo",
                     f"at {path_of(driver).split('key=')[0]}")

        driver.quit()  # the TV is off while it is moved
        status, body = server.request("POST", "/api/v1/admin/screens/Lobby%20TV/assign",
                                      {"show": {"dashboard": "story"}, "theme": "dark", "kiosk": True}, token=ADMIN)
        checks.check(status == 202 and body.get("screens") == 0, "the TV is assigned to story while it is off",
                     f"got {status} {body}")
        driver = open_tv(arguments, profile, base, arguments.timeout)

        def on_story():
            return path_of(driver).startswith("/d/story?") and body_data(driver, "connection") == "open"
        resumed = wait_for(on_story, arguments.timeout)
        where = path_of(driver)
        checks.check(resumed and "theme=dark" in where and "kiosk" in where and "key=rbv_" in where,
                     "the TV, off while it was moved, restarts on /tv and comes back to story by itself",
                     f"at {where.split('key=')[0]}")
        driver.get(base + stored["url"])  # a browser that reopens its last page: demo, which its key no longer opens
        refused_back = wait_for(on_story, arguments.timeout)
        checks.check(refused_back and stored_pairing(driver) is not None,
                     "reopening its old page (403 with the narrowed key) sends it on to story, still paired",
                     f"at {path_of(driver).split('key=')[0]}")

        status, body = server.request("DELETE", f"/api/v1/admin/keys/{key_id}", token=ADMIN)
        checks.check(status == 200 and body.get("closedScreens") == 1, "revoking the TV's key closes its screen",
                     f"got {status} {body}")
        new_code = wait_for(lambda: path_of(driver).startswith("/tv") and shown_code(driver), arguments.timeout)
        checks.check(bool(new_code) and new_code != code and stored_pairing(driver) is None,
                     "the TV, closed with 1008, forgets its pairing and is back on /tv with a new code",
                     f"at {path_of(driver)}, code={new_code!r}")

        driver.execute_script("localStorage.setItem('rollboard.tv', arguments[0])",
                              json.dumps({"key": secret, "url": stored["url"] if stored else ""}))
        driver.get(base + (stored["url"] if stored else "/d/demo"))
        returned = wait_for(lambda: path_of(driver).startswith("/tv") and shown_code(driver), arguments.timeout)
        checks.check(bool(returned) and stored_pairing(driver) is None,
                     "a TV rebooting with the revoked key gets the 403 page, which sends it back to /tv",
                     f"at {path_of(driver)}")
        pending = shown_code(driver)

        answers = []
        failed_before = 1  # the unknown code above counts
        for _ in range(FAILED_PER_ADDRESS + 5):
            guess = "".join(random.choice(ALPHABET) for _ in range(6))
            if guess == pending:
                continue
            answers.append(pair(server, guess))
        statuses = [status for status, _, _ in answers]
        limited = [retry for status, _, retry in answers if status == 429]
        allowed = FAILED_PER_ADDRESS - failed_before
        checks.check(statuses[:allowed] == [404] * allowed and statuses[allowed] == 429
                     and all(retry and int(retry) > 0 for retry in limited) and 201 not in statuses,
                     f"a guessing run gets 404 until {FAILED_PER_ADDRESS} failures from its address, then 429 with "
                     "Retry-After, and no code",
                     f"statuses {statuses}, Retry-After {limited[:1]}")
        status, _, retry = pair(server, pending)
        checks.check(status == 429 and retry, "the guesser is refused even the TV's real code", f"got {status}")
        checks.check(time.monotonic() - started < 60, "the scenario runs under 60 s",
                     f"{time.monotonic() - started:.1f} s")
    finally:
        if driver:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)

    log = server.read_log()
    checks.check(not secret or (secret not in log and secret[4:] not in log), "the secret is not in the server's log")


if __name__ == "__main__":
    sys.exit(run(__doc__, close_every_dashboard, scenario, admin_token=ADMIN))
