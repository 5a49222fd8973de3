/**
 * One odometer strip: the labels of a column stacked one cell apart (`0 1 … 9 0`, or the compact units), inside the
 * column's clipped window, which is scrolled so that the server's position P shows in it (3.25: a quarter of the way
 * from 3 to 4).
 *
 * How a strip is moved costs the browser's main thread very different amounts (Benchmarks/PageCost,
 * docs/benchmarks.md): an inline `transform` on a layer of its own makes Chromium re-layerize the page on every frame,
 * and a paused Web Animation retimed to P costs a style recalculation of the strip and a second main frame (the
 * compositor's "animation started"). A scroll offset costs neither: no style changes, and Chromium moves a scroller's
 * contents on the compositor (the window is a scroll container with its scrollbar hidden, rollboard.css). Scrolling
 * an element works in every engine the page supports, so there is no fallback. Only an offset that changed is
 * written, in whole device pixels (so labels at rest are crisp).
 */
import { el, snapToDevicePixels } from "../page.js";

export class Strip {
  /** @param {string[]} labels  the texts stacked top to bottom, one a cell */
  constructor(labels) {
    this.count = labels.length;
    this.element = el("span", { className: "odometer__strip" }, ...labels.map((label) => el("span", { text: label })));
    /** The scroll offset last written, CSS pixels (null: none yet). */
    this.shown = null;
  }

  /**
   * Shows position `position` (0 … count−1) by scrolling the window the strip sits in. `cellHeight`: one label's
   * height in CSS pixels once measured; 0 while the column has no box (nothing can be scrolled then, and the tile
   * paints again when it is measured).
   */
  moveTo(position, cellHeight) {
    const window = this.element.parentNode;
    if (!(cellHeight > 0) || !window) {
      this.shown = null;
      return;
    }
    const offset = snapToDevicePixels(position * cellHeight);
    if (offset === this.shown) return;
    this.shown = offset;
    window.scrollTop = offset;
  }

  /** Forgets the offset written (its column is being rebuilt, or was laid out anew). */
  stop() {
    this.shown = null;
  }
}
