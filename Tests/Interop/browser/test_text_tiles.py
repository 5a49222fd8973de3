"""Text tiles break between words, shrink before they break a word, and hyphenate by the page's language: headless
Chromium as a 1920×1080 TV.

A dashboard `worte` of narrow tiles (6 columns, 3 rows: about 310 px wide) whose counter names `locale: de-DE`, with
text tiles holding "Betriebsversammlung", "notice", the demo's "Producers set this message: POST
/api/v1/texts/notice", a German sentence, and one word too long for any legible size. The test checks from the DOM:

- `lang` on <html> is the locale the dashboard's tiles name: `en-US` on the demo, `de-DE` on `worte`;
- every message that shrinking can fit shows each of its words on one line (a DOM Range per word: all its boxes on
  one line), fits its tile, and is not smaller than half the tile title (`data-fit="words"`);
- a message posted by a producer (`POST /api/v1/texts/…`) is fitted the same way;
- the word too long for any legible size is hyphenated (`hyphens: auto` computed; `data-fit="hyphens"`, or
  `"broken"` where this Chromium has no hyphenation dictionary for German, as headless Debian's has not) and stays
  inside its tile.

Screenshot: `reports/browser/text-tiles.png`.

Usage: test_text_tiles.py --binary .build/debug/rollboard
"""

import os
import sys

from browser_session import PRODUCER_TOKEN as TOKEN, REPOSITORY, body_data, run
from legibility import screen_1080p
from rollboard_process import Checks, RollboardProcess
from test_dashboard import post_json, start_browser, wait_for

WHOLE = {
    "word": "Betriebsversammlung",
    "notice": "notice",
    "api": "Producers set this message: POST /api/v1/texts/notice",
    "sentence": "Betriebsversammlung heute um 15 Uhr in der Kantine",
}
TOO_LONG = "Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft"
POSTED = ("posted", "Brandschutzübung")
UNREADABLE = " ".join(["Bitte"] + ["Brandschutzübung heute um 15 Uhr, alle Mitarbeitenden kommen"] * 7)
ADMIN = "text-tiles-admin-token-0123456789"

LAYOUT = """
id: worte
title: Worte
grid: { columns: 6, rows: 3 }
tiles:
  - {id: orders-de, type: counter, title: Bestellungen, locale: de-DE, position: {column: 1, row: 1}}
"""


def prepare(config: str) -> None:
    tiles = dict(WHOLE, long=TOO_LONG, posted="…")
    text = LAYOUT + "".join(
        f"  - {{id: {tile}, type: text, title: {tile.capitalize()}, text: \"{message}\", "
        f"position: {{column: {2 + index % 5}, row: {1 + index // 5}}}}}\n"
        for index, (tile, message) in enumerate(tiles.items()))
    with open(os.path.join(config, "dashboards", "worte.yaml"), "w", encoding="utf-8") as handle:
        handle.write(text)


WORDS = """
const tile = document.querySelector('[data-tile-id="' + arguments[0] + '"]');
if (!tile) return null;
const message = tile.querySelector('.text');
const body = tile.querySelector('.tile__body');
const title = tile.querySelector('.tile__title');
const node = message.firstChild;
const split = [];
if (node && node.nodeType === Node.TEXT_NODE) {
  const pattern = /\\S+/g;
  let match;
  while ((match = pattern.exec(node.data))) {
    const range = document.createRange();
    range.setStart(node, match.index);
    range.setEnd(node, match.index + match[0].length);
    const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (tops.size > 1) split.push(match[0]);
  }
}
const style = getComputedStyle(message);
return {
  text: message.textContent, split: split, fit: tile.dataset.fit || null,
  fontSize: parseFloat(style.fontSize), titleSize: parseFloat(getComputedStyle(title).fontSize),
  hyphens: style.hyphens || style.webkitHyphens,
  fitsWidth: message.scrollWidth <= message.clientWidth + 0.5,
  fitsHeight: message.scrollHeight <= body.clientHeight + 0.5,
};
"""


def words(driver, tile):
    return driver.execute_script(WORDS, tile)


def check_whole(checks: Checks, driver, tile: str, message: str) -> None:
    shown = wait_for(lambda: (words(driver, tile) or {}).get("text") == message, 10)
    seen = words(driver, tile) or {}
    checks.check(bool(shown) and not seen.get("split") and seen.get("fitsWidth") and seen.get("fitsHeight")
                 and seen.get("fit") == "words" and seen.get("fontSize", 0) >= seen.get("titleSize", 1) / 2,
                 f"{message!r}: every word whole on one line, the message inside its tile, at least half the title's size",
                 f"{seen}")


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    driver = start_browser(arguments)
    try:
        screen_1080p(driver)
        driver.get(f"{base}/d/demo")
        wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        language = driver.execute_script("return document.documentElement.lang")
        checks.check(language == "en-US", "the demo, whose tiles name en-US, sets lang=\"en-US\"", f"lang={language!r}")

        driver.get(f"{base}/d/worte")
        opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        language = driver.execute_script("return document.documentElement.lang")
        checks.check(bool(opened) and language == "de-DE", "a dashboard whose tiles name de-DE sets lang=\"de-DE\"",
                     f"open={opened}, lang={language!r}")
        for tile, message in WHOLE.items():
            check_whole(checks, driver, tile, message)

        tile, message = POSTED
        status, body = post_json(base, TOKEN, f"/api/v1/texts/{tile}", {"text": message}, arguments.timeout)
        checks.check(status == 202, "a producer posts a text", f"{status} {body}")
        check_whole(checks, driver, tile, message)

        seen = words(driver, "long") or {}
        checks.check(seen.get("text") == TOO_LONG and seen.get("fit") in ("hyphens", "broken")
                     and seen.get("hyphens") == "auto" and seen.get("fitsWidth") and seen.get("fitsHeight"),
                     "a word that fits no line whole is hyphenated by the page's language (hyphens: auto; broken where "
                     "this browser has no hyphenation for it) and stays inside its tile", f"{seen}")
        os.makedirs(os.path.join(REPOSITORY, "reports", "browser"), exist_ok=True)
        driver.save_screenshot(os.path.join(REPOSITORY, "reports", "browser", "text-tiles.png"))

        # A message too long for its tile at the legible minimum is shown cut, and said so where an operator looks:
        # the server's log (once) and the list of screens.
        status, body = post_json(base, TOKEN, "/api/v1/texts/posted", {"text": UNREADABLE}, arguments.timeout)
        checks.check(status == 202, "a producer posts a message far too long for its tile", f"{status} {body}")
        def warnings():
            return [line for line in server.read_log().splitlines() if "a text too long to read" in line]
        said = wait_for(warnings, arguments.timeout)
        checks.check(len(said) == 1 and "posted" in said[0] and "worte" in said[0],
                     "the server logs, once, the tile whose message cannot be read at the legible minimum",
                     f"{said} {server.read_log()[-400:]}")

        def unreadable():
            screens = server.request("GET", "/api/v1/screens", token=ADMIN)[1].get("screens", [])
            lists = [screen.get("unreadable") for screen in screens]
            return lists if ["posted"] in lists else None
        listed = wait_for(unreadable, arguments.timeout)
        checks.check(listed == [["posted"]], "the list of screens names it for the screen that could not show it",
                     f"{listed}")
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], prepare, scenario, admin_token=ADMIN))
