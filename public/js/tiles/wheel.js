/**
 * Wheel tile (WheelView): two labels over a list of strings, as in the article.
 *
 * For the server's position X over `contents` (n strings):
 *   top    = floor(X) clamped to [0, n−1]      bottom = min(top + 1, n − 1)
 *   offset = X − top (0 once top is the last entry)
 *   top label:    scaleY(1 − offset), then translateY(−h/2 · offset)   — squeezed towards the top edge
 *   bottom label: scaleY(offset),     then translateY(+h/2 · (1 − offset)) — grows from the bottom edge
 * CSS applies a transform list right to left, so "translateY(…) scaleY(…)" scales first; a
 * percentage in translateY is of the label's own height h.
 *
 * STATE (painting form; the wire's `p` is X in thousandths): `{"position":X}`. Options: `contents` (array of strings), `colors` (an object: label →
 * CSS colour; other labels keep the theme's text colour). Test hooks: `data-top`, `data-color`,
 * `data-bottom` (the two labels' texts), `data-position`.
 *
 * A wheel never set has STATE `null`: it shows "—" in the muted colour, never its first label (which
 * would claim a status nobody gave); so does a STATE without a position. The labels are emptied and
 * the hooks removed meanwhile.
 */
import { el, finiteNumber, orDefault, setData, setText } from "../page.js";
import { TileView, shownLength } from "./tile.js";

export class WheelView extends TileView {
  constructor(tile) {
    super(tile, "wheel");
    this.contents = Array.isArray(this.options.contents) ? this.options.contents.map((item) => String(item)) : [];
    this.colors = this.options.colors && typeof this.options.colors === "object" ? this.options.colors : {};
    this.top = el("div", { className: "wheel__label wheel__label--top" });
    this.bottom = el("div", { className: "wheel__label wheel__label--bottom", "aria-hidden": "true" });
    this.wheel = el("div", { className: "wheel" }, this.top, this.bottom);
    /** The inline styles last written to the labels ("top color" → value). */
    this.written = new Map();
    const longest = this.contents.reduce((length, item) => Math.max(length, shownLength(item)), 1);
    this.wheel.style.setProperty("--chars", String(longest + 1));
    this.body.append(this.wheel);
  }

  changeKey(state) {
    return orDefault(state.position, null);
  }

  hasValue(state) {
    return super.hasValue(state) && finiteNumber(state.position, null) !== null && this.contents.length > 0;
  }

  clear() {
    this.written.clear();
    for (const label of [this.top, this.bottom]) {
      label.textContent = "";
      label.style.color = "";
      label.style.transform = "";
    }
    const dataset = this.element.dataset;
    delete dataset.top;
    delete dataset.bottom;
    delete dataset.position;
    delete dataset.color;
  }

  paint(state) {
    const count = this.contents.length;
    if (count === 0) return;
    const position = Math.min(Math.max(finiteNumber(state.position, 0), 0), count - 1);
    const top = Math.min(Math.floor(position), count - 1);
    const bottom = Math.min(top + 1, count - 1);
    const offset = position - top;

    // Only what changed is written: a label's text and colour change once per entry, not per frame.
    setText(this.top, this.contents[top]);
    setText(this.bottom, this.contents[bottom]);
    this.write("top", "color", this.colorOf(this.contents[top]));
    this.write("bottom", "color", this.colorOf(this.contents[bottom]));
    this.write("top", "transform", `translateY(${(-50 * offset).toFixed(4)}%) scaleY(${(1 - offset).toFixed(4)})`);
    this.write("bottom", "transform", `translateY(${(50 * (1 - offset)).toFixed(4)}%) scaleY(${offset.toFixed(4)})`);

    setData(this.element, "top", this.contents[top]);
    setData(this.element, "bottom", this.contents[bottom]);
    setData(this.element, "position", String(position));
    setData(this.element, "color", this.colorOf(this.contents[top]));
  }

  /**
   * Sets the inline style `property` of the `which` label ("top" or "bottom") unless it was last set to `value`
   * (remembered here: the browser reads colours and transforms back in its own spelling).
   */
  write(which, property, value) {
    const key = `${which} ${property}`;
    if (this.written.get(key) === value) return;
    this.written.set(key, value);
    this[which].style[property] = value;
  }

  /** The configured colour of `label`, or "" for the theme's. */
  colorOf(label) {
    const color = this.colors[label];
    return typeof color === "string" ? color : "";
  }
}
