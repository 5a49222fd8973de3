/**
 * A compact odometer's unit strip: the labels stacked one cell apart ("" K M B T) inside the unit's clipped window,
 * which is scrolled so that the server's position P shows in it (1.5: half-way from K to M). (The digit columns are
 * painted into a canvas instead: digits.js.)
 *
 * A scroll offset changes no style and Chromium moves a scroller's contents on the compositor (the window is a scroll
 * container with its scrollbar hidden, rollboard.css); the `scroll` event it queues goes out with the next rendering
 * when the scroll is written in the task that received the frame (board/paint.js). Only an offset that changed is written, in
 * whole device pixels (so labels at rest are crisp), and only by `scrollStrips()` once every tile has painted: setting
 * `scrollTop` brings style and layout up to date first, so a scroll between other tiles' writes (a counter's text)
 * would lay the page out again for every odometer.
 */
import { el, snapToDevicePixels } from "../page.js";

/** The strips moved since `scrollStrips()` last ran. */
const unwritten = new Set();

/** Scrolls the windows of the strips moved since the last call to their offsets; the board calls it after painting. */
export function scrollStrips() {
  for (const strip of unwritten) {
    const column = strip.element.parentNode;
    if (column && strip.shown !== null) column.scrollTop = strip.shown;
  }
  unwritten.clear();
}

export class Strip {
  /** @param {string[]} labels  the texts stacked top to bottom, one a cell */
  constructor(labels) {
    this.count = labels.length;
    this.element = el("span", { className: "odometer__strip" }, ...labels.map((label) => el("span", { text: label })));
    /** The scroll offset last written, CSS pixels (null: none yet). */
    this.shown = null;
  }

  /**
   * Shows position `position` (0 … count−1): the window the strip sits in is scrolled there by the next
   * `scrollStrips()`. `cellHeight`: one label's height in CSS pixels once measured; 0 while the column has no box
   * (nothing can be scrolled then, and the tile paints again when it is measured).
   */
  moveTo(position, cellHeight) {
    if (!(cellHeight > 0)) {
      this.stop();
      return;
    }
    const offset = snapToDevicePixels(position * cellHeight);
    if (offset === this.shown) return;
    this.shown = offset;
    unwritten.add(this);
  }

  /** Forgets the offset shown (its column is being rebuilt, or was laid out anew). */
  stop() {
    this.shown = null;
    unwritten.delete(this);
  }
}
