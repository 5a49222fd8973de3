/**
 * One odometer strip: the labels of a column stacked one cell apart (`0 1 … 9 0`, or the compact units), moved up
 * so that the server's position P shows in the column's window (3.25: a quarter of the way from 3 to 4).
 *
 * How it is moved costs the browser's main thread very different amounts (Benchmarks/PageCost, docs/benchmarks.md):
 * an inline `transform` on a layer of its own makes Chromium re-layerize the page on every frame. Where the engine has
 * Web Animations (`Element.animate`: Chromium 36, Safari 13.1, Firefox), the strip holds one paused animation from the
 * first label to the last, and P is written as its current time (a thousand milliseconds a label): the animation never
 * runs on its own clock, it only carries the server's position to the compositor, which moves the layer without
 * re-layerizing. Elsewhere (Safari 12) the inline transform is written as before. Either way only a position that
 * changed is written, and the offset is snapped to whole device pixels (so labels at rest are crisp).
 */
import { el, snapToDevicePixels } from "../page.js";

/** Milliseconds of the paused animation per label (its current time is P × this). */
const MS_PER_LABEL = 1000;

export class Strip {
  /** @param {string[]} labels  the texts stacked top to bottom, one a cell */
  constructor(labels) {
    this.count = labels.length;
    this.element = el("span", { className: "odometer__strip" }, ...labels.map((label) => el("span", { text: label })));
    this.animation = null;
    /** The position last written (null: none yet). */
    this.shown = null;
  }

  /**
   * Shows position `position` (0 … count−1). `cellHeight`: one label's height in CSS pixels once measured, 0 before;
   * the offset is a share of the strip's own height then.
   */
  moveTo(position, cellHeight) {
    const snapped = cellHeight > 0 ? snapToDevicePixels(position * cellHeight) / cellHeight : position;
    if (snapped === this.shown) return;
    this.shown = snapped;
    if (typeof this.element.animate === "function") {
      if (!this.animation) this.animation = this.pausedAnimation();
      this.animation.currentTime = snapped * MS_PER_LABEL;
    } else {
      this.element.style.transform = `translateY(${(-snapped / this.count) * 100}%)`;
    }
  }

  /** Lets go of the strip's animation (its column is being rebuilt): nothing keeps it alive on the timeline. */
  stop() {
    if (this.animation) this.animation.cancel();
    this.animation = null;
    this.shown = null;
  }

  /** An animation from the first label to the last, paused at its start; `fill: both` holds its ends. */
  pausedAnimation() {
    const last = this.count - 1;
    const animation = this.element.animate(
      [{ transform: "translateY(0%)" }, { transform: `translateY(${(-last / this.count) * 100}%)` }],
      { duration: last * MS_PER_LABEL, easing: "linear", fill: "both" });
    animation.pause();
    return animation;
  }
}
