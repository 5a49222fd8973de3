"""What an odometer's canvas really shows, read in the browser: shared by the Chromium test (test_dashboard.py) and
the other engines' scenario (engine_scenario.py). Standard library only; the probe is ES5, so it runs in any engine."""

import time

# Which digit the odometer's canvas shows in each column: the column's window of the canvas is compared, pixel for pixel,
# with each cell of the strip it copies from (the hidden canvas `.odometer__strip-source`); exactly one cell must match, or the window
# must be empty (a blank leading column, " "). Also the colour of the digits' solid pixels (`ink`) and the display's
# colour (`color`, the theme's or the status's). Returns {digits: "…", ink, color}, or {digits: null, problem: "…"}. ES5.
# The canvas is read through a copy (`drawImage`): where a worker paints it (digit-painter.js) the page cannot read it
# directly, but a copy shows what the worker last put on screen, in every engine that hands canvases to workers.
PAINTED_DIGITS_JS = ("(function (id) { var t = document.querySelector('[data-tile-id=\"' + id + '\"]'); if (!t) return null;"
                     " var canvas = t.querySelector('.odometer__digits'); var strip = t.querySelector('.odometer__strip-source');"
                     " if (!canvas || !strip || !strip.height) return { digits: null, problem: 'no strip drawn' };"
                     " var ratio = window.devicePixelRatio || 1, frame = canvas.getBoundingClientRect();"
                     " var left = Math.round(frame.left * ratio), top = Math.round(frame.top * ratio), cell = strip.height / 11;"
                     " var copy = document.createElement('canvas'); copy.width = Math.max(canvas.width, Math.ceil(frame.width * ratio) + 1);"
                     " copy.height = Math.max(canvas.height, Math.ceil(frame.height * ratio) + 1);"
                     " var painted = copy.getContext('2d'), source = strip.getContext('2d'), digits = '', solid = null;"
                     " painted.drawImage(canvas, 0, 0);"
                     " var cols = t.querySelectorAll('.odometer__col:not(.odometer__unit)');"
                     " for (var i = 0; i < cols.length; i++) { var r = cols[i].getBoundingClientRect();"
                     " var x = Math.round(r.left * ratio), w = Math.round(r.right * ratio) - x;"
                     " var shown = painted.getImageData(x - left, Math.round(r.top * ratio) - top, w, cell).data, ink = false;"
                     " for (var a = 3; a < shown.length; a += 4) { if (shown[a]) { ink = true; break; } }"
                     " if (!ink) { digits += ' '; continue; }"
                     " var found = -1, sx = Math.round((strip.width - w) / 2);"
                     " for (var k = 0; k < 10; k++) { var want = source.getImageData(sx, k * cell, w, cell).data, same = true;"
                     " for (var b = 0; b < want.length; b++) { if (want[b] !== shown[b]) { same = false; break; } }"
                     " if (same) { if (found >= 0) return { digits: null, problem: 'column ' + i + ' matches two cells' }; found = k; } }"
                     " if (found < 0) return { digits: null, problem: 'column ' + i + ' is not a whole cell of the strip' };"
                     " digits += String(found);"
                     " for (var c = 3; c < shown.length && !solid; c += 4) { if (shown[c] === 255)"
                     " solid = 'rgb(' + shown[c - 3] + ', ' + shown[c - 2] + ', ' + shown[c - 1] + ')'; } }"
                     " return { digits: digits, cell: cell, columns: cols.length, ink: solid,"
                     " color: getComputedStyle(canvas.parentNode).color }; })")


def painted_matches(painted, shown):
    """Whether the digits read off the canvas are `shown` (a tile's `data-digits` without sign and point): the same
    digits, where only leading zeros may be left blank, painted in the display's colour."""
    digits = (painted or {}).get("digits")
    if not isinstance(digits, str) or len(digits) != len(shown) or not shown:
        return False
    if digits.strip() and painted.get("ink") != painted.get("color"):
        return False
    blank = len(digits) - len(digits.lstrip(" "))
    return " " not in digits[blank:] and set(shown[:blank]) <= {"0"} and digits[blank:] == shown[blank:]

# The probe as a WebDriver script body (Selenium's `execute_script(READ_PAINTED_DIGITS, tile_id)`).
READ_PAINTED_DIGITS = f"return {PAINTED_DIGITS_JS}(arguments[0])"


def painted_shows(painted, digits):
    """Whether the canvas the probe read shows `digits`, a tile's `data-digits` (its sign, point and compact unit are not
    painted there)."""
    return painted_matches(painted, "".join(c for c in (digits or "") if c.isdigit()))


def painted_reading(read, digits, timeout=5.0, pause=time.sleep):
    """Reads the canvas with `read()` (the probe's answer) until it shows `digits` (a tile's `data-digits`) or `timeout`
    seconds pass, and returns the last reading. Where a worker paints the canvas (digit-painter.js) it shows a new value
    a frame or two after the tile's hooks say so. `pause(seconds)` waits (an engine driven from this thread spins its
    own event loop)."""
    deadline = time.monotonic() + timeout
    painted = read() or {}
    while not painted_shows(painted, digits) and time.monotonic() < deadline:
        pause(0.1)
        painted = read() or {}
    return painted
