/**
 * Text tile: a short message that producers set (`POST /api/v1/texts/{id}`), wrapped onto as many
 * lines as it needs and sized to fill the tile.
 *
 * Lines break between words. The message is shrunk until every word fits its line whole, but never below the
 * legible minimum (the tile title's size): below it, words are hyphenated by the page's language (`lang` on <html>,
 * from the dashboard's locale). A message short enough for the minimum whose longest word is too wide for a line keeps
 * its words whole down to half the title's size, else breaks them where it must. A message too long for the minimum
 * is shown at the minimum from its beginning, cut at the tile's padding (`data-overflow="true"`), and a warning naming
 * the tile goes to the browser's console (hook `data-fit`: `words`, `hyphens` or `broken`).
 *
 * STATE: `{"text":"Deploy freeze until Friday","color":"#e67e22"}`; `color` is optional and paints
 * the message and the tile's edge (the tile's accent); an empty text shows an empty tile.
 * Options: `text` (the configured message, shown until a producer sets one, as the STATE says),
 * `align` (`left`, `center`, `right`). The tile never goes stale.
 *
 * Test hooks: `data-text`, `data-color`.
 */
import { el } from "../page.js";
import { TileView } from "./tile.js";

const ALIGNMENTS = ["left", "center", "right"];
const COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
/** The largest font size, as a fraction of the tile body's height, and the smallest in pixels. */
const LARGEST = 0.45;
const SMALLEST = 10;
/**
 * The legible minimum, as a fraction of the tile title's font size (the title is about 2.6 % of a 1080p screen's
 * height, read from 4 m): a message is never shrunk below it. One that does not fit even so (with words hyphenated,
 * or broken) is shown at the minimum from its beginning, cut at the tile's padding (`data-overflow="true"`), and the
 * page logs a warning naming the tile.
 */
const LEGIBLE = 1;
/** A message short enough for the minimum but with a word too wide for a line keeps whole words down to this. */
const WHOLE_WORDS_DOWN_TO = 0.5;
/** The share of the tile body the message may fill, leaving a margin round it. */
const FILL = 0.9;

export class TextView extends TileView {
  constructor(tile) {
    super(tile, "text");
    const align = ALIGNMENTS.includes(this.options.align) ? this.options.align : "center";
    this.message = el("p", { className: "text", "data-align": align });
    this.body.append(this.message);
    this.text = null;
  }

  paint(state) {
    const text = typeof state.text === "string" ? state.text : "";
    const color = typeof state.color === "string" && COLOR.test(state.color) ? state.color : "";
    if (text !== this.text) {
      this.text = text;
      this.message.textContent = text;
      this.fit();
    }
    const dataset = this.element.dataset;
    dataset.text = text;
    if (color) {
      dataset.color = color;
      this.element.style.setProperty("--tile-accent", color);
    } else {
      delete dataset.color;
      this.element.style.removeProperty("--tile-accent");
    }
  }

  resized() {
    this.fit();
  }

  /**
   * The largest font size at which the message fits the tile with every word whole, if that is at least the legible
   * minimum; else hyphenated; else (short enough, a word too wide) whole words down to half the title, or broken;
   * else the minimum, the message cut at the tile's edge (`data-overflow`) and a warning logged.
   */
  fit() {
    const height = this.body.clientHeight * FILL;
    const width = this.message.clientWidth;
    if (!height || !width || !this.text) return;
    const largest = Math.max(SMALLEST, Math.floor(height * LARGEST));
    delete this.element.dataset.overflow;
    const title = this.titleSize();
    const minimum = Math.max(SMALLEST, Math.round(title * LEGIBLE));
    const sizes = {};
    for (const mode of ["words", "hyphens", "broken"]) {
      this.setFitting(mode);
      sizes[mode] = this.largestFitting(largest, height, width);
      if (mode !== "broken" && sizes[mode] !== null && sizes[mode] >= minimum) {
        this.message.style.fontSize = `${sizes[mode]}px`;
        return;
      }
    }
    // Short enough, but a word too wide for its line at the minimum: whole words down to half the title's size read
    // better than a word broken anywhere.
    if (sizes.broken !== null && sizes.broken >= minimum) {
      const whole = sizes.words;
      const mode = whole !== null && whole >= Math.max(SMALLEST, title * WHOLE_WORDS_DOWN_TO) ? "words" : "broken";
      this.setFitting(mode);
      this.message.style.fontSize = `${mode === "words" ? whole : sizes.broken}px`;
      return;
    }
    this.setFitting("hyphens");
    this.message.style.fontSize = `${minimum}px`;
    this.element.dataset.overflow = "true";
    if (this.warned !== this.text) {
      this.warned = this.text;
      console.warn(`text tile ${this.id}: a message of ${this.text.length} characters does not fit at the legible `
        + `minimum (${minimum} px, the title's size); it is shown from its beginning, cut at the tile's edge`);
      // The server logs it too (and lists it with the screen), where an operator looks: dashboard.js reports it.
      this.element.dispatchEvent(new CustomEvent("rollboard:unreadable", { bubbles: true, detail: { tile: this.id } }));
    }
  }

  /** The largest whole pixel size in [SMALLEST, largest] at which the message fits (null: none), by halving. */
  largestFitting(largest, height, width) {
    const fits = (size) => {
      this.message.style.fontSize = `${size}px`;
      return this.message.scrollHeight <= height && this.message.scrollWidth <= width;
    };
    if (!fits(SMALLEST)) return null;
    let low = SMALLEST;
    let high = largest + 1;
    while (high - low > 1) {
      const size = Math.floor((low + high) / 2);
      if (fits(size)) low = size; else high = size;
    }
    return low;
  }

  /**
   * How lines may break: `words` between words only; `hyphens` also inside a word where the
   * page's language hyphenates it; `broken` anywhere a word must break to fit. Hook `data-fit`.
   */
  setFitting(mode) {
    this.message.classList.toggle("text--hyphens", mode !== "words");
    this.message.classList.toggle("text--broken", mode === "broken");
    this.element.dataset.fit = mode;
  }

  /** The font size of the tile's title in pixels (the legible size on this screen). */
  titleSize() {
    const title = this.element.querySelector(".tile__title");
    return title ? parseFloat(getComputedStyle(title).fontSize) || 0 : 0;
  }
}
