"""Measuring, in Chromium, whether a page's words can be read from across a room: what the legibility tests share.

`screen_1080p(driver)` makes the viewport a 1920×1080 TV at one device pixel per CSS pixel. `measure(driver,
selector, index)` returns, for the index-th element `selector` matches, whether it shows (displayed, inside the viewport, not
covered by another element at its centre), its computed font size, the height of its rendered text (the shortest of
its text's line boxes, from a DOM Range), its text, and its text and background colours. `contrast(a, b)` is the WCAG
contrast ratio of two computed colours, and `legible(badge, title)` puts them together.
"""

import re

MEASURE = """
const element = document.querySelectorAll(arguments[0])[arguments[1]];
if (!element) return null;
const style = getComputedStyle(element);
const rect = element.getBoundingClientRect();
const displayed = !element.hidden && style.display !== 'none' && style.visibility !== 'hidden'
  && rect.width > 0 && rect.height > 0;
const inViewport = rect.top >= 0 && rect.left >= 0 && rect.bottom <= innerHeight + 0.5 && rect.right <= innerWidth + 0.5;
let onTop = false;
if (displayed) {
  const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
  onTop = !!hit && (hit === element || element.contains(hit));
}
const range = document.createRange();
range.selectNodeContents(element);
const lines = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
let background = 'rgb(255, 255, 255)';
for (let node = element; node; node = node.parentElement) {
  const colour = getComputedStyle(node).backgroundColor;
  if (colour && colour !== 'transparent' && !/^rgba\\(.*,\\s*0\\)$/.test(colour)) { background = colour; break; }
}
return {
  displayed: displayed, inViewport: inViewport, onTop: onTop,
  fontSize: parseFloat(style.fontSize),
  textHeight: lines.length ? Math.min.apply(null, lines.map((r) => r.height)) : 0,
  text: element.textContent.trim(),
  color: style.color, background: background,
};
"""


def screen_1080p(driver) -> None:
    """A 1920×1080 viewport, one device pixel per CSS pixel, whatever the window."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})


def measure(driver, selector: str, index: int = 0):
    """What `MEASURE` says of the `index`-th element `selector` matches (None when there is none)."""
    return driver.execute_script(MEASURE, selector, index)


def largest_title(driver):
    """The measure of the tile title whose text is the tallest on the page (None without tiles)."""
    count = driver.execute_script("return document.querySelectorAll('.tile__title').length")
    titles = [measure(driver, ".tile__title", index) for index in range(count)]
    shown = [title for title in titles if title and title["displayed"]]
    return max(shown, key=lambda title: title["textHeight"]) if shown else None


def _channels(colour: str):
    numbers = [float(n) for n in re.findall(r"[\d.]+", colour)[:3]]
    return numbers if len(numbers) == 3 else [0.0, 0.0, 0.0]


def _luminance(colour: str) -> float:
    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in _channels(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two computed `rgb(…)` colours (1 to 21)."""
    a, b = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def legible(badge, title, minimum_contrast: float = 4.5):
    """(ok, detail): `badge` shows on screen, its text at least as tall as `title`'s, at `minimum_contrast`."""
    if not badge or not title:
        return False, f"badge {badge!r}, title {title!r}"
    ratio = contrast(badge["color"], badge["background"])
    ok = (badge["displayed"] and badge["inViewport"] and badge["onTop"]
          and badge["textHeight"] >= title["textHeight"] - 0.5 and badge["fontSize"] >= title["fontSize"] - 0.25
          and ratio >= minimum_contrast)
    return ok, (f"{badge['text']!r}: shown={badge['displayed']}, in viewport={badge['inViewport']}, "
                f"on top={badge['onTop']}, text {badge['textHeight']:.1f}px high at {badge['fontSize']:.1f}px "
                f"(title {title['textHeight']:.1f}px at {title['fontSize']:.1f}px), contrast {ratio:.1f}:1")
