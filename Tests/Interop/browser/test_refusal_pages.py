"""The server's refusal pages (404 unknown dashboard, 401 viewer key required, 403 key refused) honour `?theme=` and
link back to the list inline: headless Chromium as a 1920×1080 TV.

The demo and a dashboard `secret` with `access: key`. For each theme and each refusal, Chromium opens the page and
the test checks from the DOM that `data-theme` is set and the page's background is the theme's (dark #0d1117, light
#eef1f4: both are asked for, so a page that follows the browser's own preference cannot pass), that the
link to the list is an inline link in its sentence (one line high, far narrower than the text, not a card) and
carries `theme` and `kiosk` over, and that the heading says what happened. Screenshots:
`reports/browser/refusal-{dark,light}.png` (the 401 page).

Usage: test_refusal_pages.py --binary .build/debug/rollboard
"""

import os
import sys

from browser_session import REPOSITORY, run
from legibility import screen_1080p
from rollboard_process import Checks, RollboardProcess
from test_dashboard import start_browser, wait_for

BACKGROUNDS = {"dark": "rgb(13, 17, 23)", "light": "rgb(238, 241, 244)"}
PAGES = (
    ("/d/nope", "unknown_dashboard", "No dashboard"),
    ("/d/secret", "viewer_key_required", "needs a viewer key"),
    ("/d/secret?key=rbv_not-a-key", "invalid_viewer_key", "does not open"),
)

PAGE = """
const link = document.querySelector('a[href^="/"]');
const text = link ? link.closest('p') : null;
const heading = document.querySelector('h1');
const rect = (element) => element ? element.getBoundingClientRect() : { width: 0, height: 0 };
return {
  refusal: document.body ? document.body.dataset.refusal || null : null,
  theme: document.documentElement.dataset.theme || null,
  background: getComputedStyle(document.body).backgroundColor,
  heading: heading ? heading.textContent : null,
  href: link ? link.getAttribute('href') : null,
  linkDisplay: link ? getComputedStyle(link).display : null,
  linkWidth: rect(link).width, linkHeight: rect(link).height,
  linkFont: link ? parseFloat(getComputedStyle(link).fontSize) : 0,
  textWidth: rect(text).width,
  linkInside: !!link && rect(link).right <= innerWidth && rect(link).bottom <= innerHeight,
};
"""


def prepare(config: str) -> None:
    with open(os.path.join(config, "dashboards", "secret.yaml"), "w", encoding="utf-8") as handle:
        handle.write("id: secret\ntitle: Secret\naccess: key\ntiles:\n  - {id: secret-count, type: counter}\n")


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    driver = start_browser(arguments)
    shots = os.path.join(REPOSITORY, "reports", "browser")
    os.makedirs(shots, exist_ok=True)
    try:
        screen_1080p(driver)
        for theme in ("light", "dark"):
            for path, code, words in PAGES:
                separator = "&" if "?" in path else "?"
                driver.get(f"{base}{path}{separator}theme={theme}&kiosk")
                wait_for(lambda: driver.execute_script("return document.readyState") == "complete", arguments.timeout)
                seen = driver.execute_script(PAGE)
                checks.check(seen["refusal"] == code and words in (seen["heading"] or ""),
                             f"{theme}: {path} is the {code} page", f"{seen}")
                checks.check(seen["theme"] == theme and seen["background"] == BACKGROUNDS[theme],
                             f"{theme}: {path} follows ?theme={theme}",
                             f"data-theme={seen['theme']!r}, background {seen['background']}")
                inline = (seen["linkDisplay"] == "inline" and 0 < seen["linkHeight"] <= 1.6 * seen["linkFont"]
                          and 0 < seen["linkWidth"] < seen["textWidth"] / 2 and seen["linkInside"])
                href = seen["href"] or ""
                checks.check(inline and href.startswith("/?") and f"theme={theme}" in href and "kiosk" in href,
                             f"{theme}: {path} links to the list inline in its sentence, carrying theme and kiosk",
                             f"{seen}")
                if code == "viewer_key_required":
                    driver.save_screenshot(os.path.join(shots, f"refusal-{theme}.png"))
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(run(__doc__.splitlines()[0], prepare, scenario))
