"""Calm mode in headless Chromium against a real server: a viewer who prefers reduced motion.

Chromium emulates `prefers-reduced-motion: reduce` and opens /d/demo. The page must:

- ask for a calm session (`hello` says motion reduced: `data-motion="reduced"` on <body>);
- stop the carousel and show a Play button: the page stays put over more than its interval; Play starts it, and the
  carousel then only ever rests on whole pages (jumps, never a slide across);
- show a posted value as one jump: sampled every few milliseconds while a 2 s move would roll, the revenue odometer is
  only ever at rest, on the old value or the new one;
- announce the new value in its aria-live region;
- and with `?motion=full` the same browser gets the full motion again.

Usage: test_calm_mode.py --binary .build/debug/rollboard
"""

import sys

from browser_session import PRODUCER_TOKEN as TOKEN, run
from rollboard_process import Checks, RollboardProcess
from test_dashboard import start_browser, wait_for

CAROUSEL = "[data-tile-id=news]"
REVENUE = "[data-tile-id=revenue]"


def data(driver, selector, name):
    return driver.execute_script(
        f"const e = document.querySelector('{selector}'); return e ? e.dataset.{name} ?? null : null")


def sample(driver, seconds, script):
    """Runs `script` (an expression) every ~10 ms for `seconds` in the page; returns every result."""
    return driver.execute_async_script(f"""
        const done = arguments[arguments.length - 1];
        const seen = [];
        const end = performance.now() + {seconds * 1000};
        const step = () => {{
          seen.push({script});
          if (performance.now() < end) setTimeout(step, 10); else done(seen);
        }};
        step();
    """)


def scenario(server: RollboardProcess, arguments, checks: Checks) -> None:
    base = server.base_url
    driver = start_browser(arguments)
    driver.set_script_timeout(30)
    try:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        driver.get(f"{base}/d/demo")
        opened = wait_for(lambda: data(driver, "body", "connection") == "open", arguments.timeout)
        motion = data(driver, "body", "motion")
        checks.check(opened and motion == "reduced", "a viewer who prefers reduced motion gets a calm session",
                     f"connection open={opened}, data-motion={motion!r}")

        button = driver.execute_script(
            f"const b = document.querySelector('{CAROUSEL} .carousel__play'); return b && !b.hidden ? b.textContent : null")
        pages = sample(driver, 5, f"document.querySelector('{CAROUSEL}').dataset.page")
        checks.check(button == "Play" and len(set(pages)) == 1 and data(driver, CAROUSEL, "playing") == "false",
                     "the carousel is stopped with a visible Play button, and stays on its page past its 4 s interval",
                     f"button={button!r}, pages seen {sorted(set(pages))}")

        driver.execute_script(f"document.querySelector('{CAROUSEL} .carousel__play').click()")
        positions = sample(driver, 9, f"document.querySelector('{CAROUSEL}').dataset.position")
        distinct = sorted(set(positions), key=float)
        checks.check(data(driver, CAROUSEL, "playing") == "true" and len(distinct) >= 2
                     and all(float(p) == int(float(p)) for p in distinct),
                     "Play starts it, and it jumps from page to page, never sliding across", f"positions {distinct}")

        value = 4321.5 if data(driver, REVENUE, "target") != "4321.5" else 1234.75
        status, _ = server.request("POST", "/api/v1/metrics/revenue", {"value": value, "interval": 2}, token=TOKEN)
        seen = sample(driver, 2.5, f"[document.querySelector('{REVENUE}').dataset.digits, "
                                   f"document.querySelector('{REVENUE}').dataset.atRest]")
        shown = sorted({digits for digits, _ in seen if digits is not None})  # None: "—", no value yet
        checks.check(status == 202 and all(rest == "true" for digits, rest in seen if digits is not None)
                     and len(shown) <= 2
                     and any(abs(float(d) - value) < 1e-9 for d in shown),
                     "a posted value is one jump: the odometer is only ever at rest, on the old value or the new",
                     f"status {status}, shown {shown}, at rest {sorted({str(rest) for _, rest in seen})}")
        said = driver.execute_script("return document.getElementById('announcer').textContent")
        checks.check(f"{value:,.2f}" in said, "the aria-live region announces the new value", f"said {said!r}")

        driver.get(f"{base}/d/demo?motion=full")
        opened = wait_for(lambda: data(driver, "body", "connection") == "open", arguments.timeout)
        checks.check(opened and data(driver, "body", "motion") == "full", "?motion=full brings the motion back",
                     f"data-motion={data(driver, 'body', 'motion')!r}")
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(run(__doc__, lambda config: None, scenario))
