/**
 * Text tile: a short message that producers set (`POST /api/v1/texts/{id}`), wrapped onto as many
 * lines as it needs and sized to fill the tile.
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

  /** The largest font size at which the whole message fits the tile, found by halving the interval. */
  fit() {
    const height = this.body.clientHeight * FILL;
    const width = this.message.clientWidth;
    if (!height || !width || !this.text) return;
    let low = SMALLEST;
    let high = Math.max(SMALLEST, Math.floor(height * LARGEST));
    while (high - low > 1) {
      const size = Math.floor((low + high) / 2);
      this.message.style.fontSize = `${size}px`;
      if (this.message.scrollHeight <= height && this.message.scrollWidth <= width) low = size; else high = size;
    }
    this.message.style.fontSize = `${low}px`;
  }
}
