"""Names and texts stay inside their tile: headless Chromium at 1280×720.

A dashboard `marks` of a leaderboard, a text tile, two carousels and a wheel, fed the longest strings the server
takes: a name of one letter and 49 × 4 stacked combining marks (393 bytes, under the 400-byte limit), a text of such
letters, a slide text of 490 characters with 111-letter words, and a wheel label of stacked marks. The test checks
from the DOM:

- every name and text is drawn inside a box that clips (overflow not visible) and lies in its tile's body, below the
  title: stacked marks, which overflow their layout box, are cut off there instead of covering the title or a
  neighbouring tile;
- the long slide text breaks its long words and is sized so that all its lines fit its slide (nothing cut at the top
  or bottom, nothing past the sides);
- labels are sized by their letters, not by their combining marks: the stacked wheel label is at least as large as
  the tile title.

Screenshot: `reports/browser/stacked-marks.png`.

Usage: test_stacked_marks.py --binary .build/debug/rollboard [--public-dir public]
"""

import json
import os
import ssl
import sys
import urllib.request

from browser_session import PRODUCER_TOKEN as TOKEN, REPOSITORY, body_data, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import start_browser, wait_for

ZALGO = "Z" + "\u0301\u0316\u0334\u0360" * 49
LONG = " ".join(["Averyveryverylongwordwithoutanybreaks" * 3] + ["words"] * 63)
LAYOUT = f"""id: marks
title: Marks
grid: {{columns: 3, rows: 2}}
tiles:
  - {{id: sellers, type: leaderboard, size: 4, title: Sellers, position: {{column: 1, row: 1}}}}
  - {{id: notice, type: text, title: Notice, position: {{column: 2, row: 1}}}}
  - {{id: lobby, type: carousel, slides: [{{text: Welcome}}], title: Lobby, position: {{column: 3, row: 1}}}}
  - {{id: orders, type: counter, title: Orders, position: {{column: 1, row: 2}}}}
  - {{id: status, type: wheel, contents: [OK, "{ZALGO[:121]}"], title: Status, position: {{column: 2, row: 2}}}}
  - {{id: stack, type: carousel, slides: [{{text: Welcome}}], title: Stack, position: {{column: 3, row: 2}}}}
"""

# For each selector, where the element is drawn: its tile's body and title, and the nearest box that clips it.
CLIPPED = """
const results = [];
for (const element of document.querySelectorAll(arguments[0])) {
  const tile = element.closest('.tile');
  // A carousel's other slides wait beside the one shown, outside its viewport.
  if (element.getBoundingClientRect().left >= tile.getBoundingClientRect().right) continue;
  const body = tile.querySelector('.tile__body').getBoundingClientRect();
  const title = tile.querySelector('.tile__header').getBoundingClientRect();
  let clip = element;
  while (clip && clip !== tile && getComputedStyle(clip).overflowY === 'visible') clip = clip.parentElement;
  const box = clip.getBoundingClientRect();
  results.push({
    tile: tile.dataset.tileId, clipper: clip === tile ? 'tile' : clip.className,
    inBody: box.top >= body.top - 0.5 && box.bottom <= body.bottom + 0.5 && box.left >= body.left - 0.5
      && box.right <= body.right + 0.5,
    belowTitle: box.top >= title.bottom - 0.5,
  });
}
return results;
"""

SLIDE = """
const text = document.querySelector('[data-tile-id="' + arguments[0] + '"] .carousel__slide .carousel__text');
if (!text) return null;
const slide = text.closest('.carousel__slide').getBoundingClientRect();
const box = text.getBoundingClientRect();
return {
  fitsHeight: text.scrollHeight <= text.clientHeight + 1, fitsWidth: text.scrollWidth <= text.clientWidth + 1,
  inSlide: box.top >= slide.top - 0.5 && box.bottom <= slide.bottom + 0.5 && box.left >= slide.left - 0.5
    && box.right <= slide.right + 0.5,
  fontSize: parseFloat(getComputedStyle(text).fontSize), length: text.textContent.length,
};
"""

SIZES = """
const tile = document.querySelector('[data-tile-id="' + arguments[0] + '"]');
return {label: parseFloat(getComputedStyle(tile.querySelector(arguments[1])).fontSize),
        title: parseFloat(getComputedStyle(tile.querySelector('.tile__title')).fontSize)};
"""


def prepare(config: str) -> None:
    with open(os.path.join(config, "dashboards", "marks.yaml"), "w", encoding="utf-8") as handle:
        handle.write(LAYOUT)


def post(base: str, path: str, payload: dict) -> int:
    """POSTs `payload` as UTF-8 JSON (a stacked letter is 9 bytes, not 25 of \\u escapes); the status."""
    request = urllib.request.Request(f"{base}{path}", data=json.dumps(payload, ensure_ascii=False).encode(),
                                     method="POST", headers={"Authorization": f"Bearer {TOKEN}",
                                                             "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, context=ssl._create_unverified_context(), timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    posts = {
        "/api/v1/leaderboards/sellers": {"entries": {ZALGO: 12, "Bob": 9, "a" + "\u0301" * 199: 7, "Carol": 5}},
        "/api/v1/texts/notice": {"text": ZALGO + " " + ZALGO},
        "/api/v1/carousels/lobby/slides": {"slides": [{"text": LONG}]},
        "/api/v1/carousels/stack/slides": {"slides": [{"text": ZALGO + " " + ZALGO[:200]}]},
        "/api/v1/wheels/status": {"index": 1},
    }
    for path, payload in posts.items():
        status = post(base, path, payload)
        checks.check(status == 202, f"{path} takes the longest strings the server allows", f"{status}")
    driver = start_browser(arguments)
    try:
        driver.get(f"{base}/d/marks")
        opened = wait_for(lambda: body_data(driver, "connection") == "open", arguments.timeout)
        checks.check(bool(opened), "the page opens its screen")
        wait_for(lambda: driver.execute_script(
            "return document.querySelectorAll('.lb-row').length === 4 && !!document.querySelector('.text')"),
            arguments.timeout)
        wait_for(lambda: (driver.execute_script(SLIDE, "lobby") or {}).get("length", 0) > 400, arguments.timeout)
        driver.execute_script("return new Promise((done) => setTimeout(done, 1500))")  # the wheel's turn, the fits
        for selector, what in ((".lb-row__name", "a leaderboard name"), (".text", "a text tile's message"),
                               (".wheel__label", "a wheel label"), (".carousel__text", "a slide's text"),
                               (".tile__title", "a tile title")):
            for seen in driver.execute_script(CLIPPED, selector) or [{}]:
                inside = selector == ".tile__title" or (seen.get("inBody") and seen.get("belowTitle"))
                checks.check(bool(seen.get("clipper") not in (None, "tile") and inside),
                             f"{what} of tile {seen.get('tile')} is clipped inside its tile's body, under the title",
                             f"{seen}")
        seen = driver.execute_script(SLIDE, "lobby") or {}
        checks.check(bool(seen.get("fitsHeight") and seen.get("fitsWidth") and seen.get("inSlide")),
                     "a slide text of 490 characters with 111-letter words fits its slide, its words broken",
                     f"{seen}")
        sizes = driver.execute_script(SIZES, "status", ".wheel") or {}
        checks.check(sizes.get("label", 0) >= sizes.get("title", 1),
                     "a stacked wheel label is sized by its letters, not its marks (at least the title's size)",
                     f"{sizes}")
        os.makedirs(os.path.join(REPOSITORY, "reports", "browser"), exist_ok=True)
        driver.save_screenshot(os.path.join(REPOSITORY, "reports", "browser", "stacked-marks.png"))
    finally:
        driver.quit()


def public_dir(parser) -> None:
    parser.add_argument("--public-dir", default=None, help="the page's files to serve (default: the server's)")


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], prepare, scenario, extra_arguments=public_dir,
                 server_arguments=lambda arguments: ["--public-dir", arguments.public_dir] if arguments.public_dir else []))
