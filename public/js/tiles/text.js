/**
 * Text tile: a short message that producers set (`POST /api/v1/texts/{id}`), wrapped onto as many
 * lines as it needs and sized to fill the tile.
 *
 * Lines break between words. The message is shrunk until every word fits its line whole. Only
 * when that would take it below half the tile title's size (too small to read across a room) are
 * words hyphenated, by the page's language (`lang` on <html>, from the dashboard's locale), and only
 * if that lets the message be larger; a word that fits no line even at the smallest size is broken
 * where it must be (hook `data-fit`: `words`, `hyphens` or `broken`).
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
/** Whole words down to this fraction of the title's font size; below it, words are hyphenated instead. */
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
   * The largest font size at which the message fits the tile with every word whole. Below the
   * legible floor, hyphenation by the page's language takes over when it lets the message be larger
   * (a browser without hyphenation for the language gains nothing, and the words stay whole); a word
   * too long for the tile even at the smallest size is broken where it must.
   */
  fit() {
    const height = this.body.clientHeight * FILL;
    const width = this.message.clientWidth;
    if (!height || !width || !this.text) return;
    const largest = Math.max(SMALLEST, Math.floor(height * LARGEST));
    this.setFitting("words");
    const whole = this.largestFitting(largest, height, width);
    if (whole !== null && whole >= Math.max(SMALLEST, this.titleSize() * WHOLE_WORDS_DOWN_TO)) {
      this.message.style.fontSize = `${whole}px`;
      return;
    }
    this.setFitting("hyphens");
    const hyphenated = this.largestFitting(largest, height, width);
    if (hyphenated !== null && (whole === null || hyphenated > whole)) {
      this.message.style.fontSize = `${hyphenated}px`;
      return;
    }
    if (whole !== null) {
      this.setFitting("words");
      this.message.style.fontSize = `${whole}px`;
      return;
    }
    this.setFitting("broken");
    this.message.style.fontSize = `${this.largestFitting(largest, height, width) || SMALLEST}px`;
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
