/**
 * The digits of an odometer, painted into one canvas laid over its display: for each column, the window of the strip
 * `0 1 … 9 0` at the server's position P (3.25: a quarter of the way from 3 to 4) is copied from a strip drawn once
 * (a hidden canvas beside it, one cell a label, in the display's font and colour) to the column's box.
 *
 * Why a canvas (Benchmarks/PageCost, docs/benchmarks.md): a frame moves every column of every moving odometer, and
 * moving an element per column costs the browser's main thread per element and frame, whichever way it is moved (a
 * transform: style recalculation and re-layerizing; a scroll offset: a forced layout, pre-paint, a composited scroller
 * and a `scroll` event each). Copying a window of pixels costs neither: no style, no layout, one canvas to repaint.
 *
 * Geometry is in device pixels: the canvas's origin sits on a whole device pixel, a cell is a whole number of them
 * (the odometer fixes `--cell` so) and a window's offset is rounded to one, so digits at rest are as crisp as text.
 * The column boxes are measured only when they may have moved (`moved()`: a build, a resize, a column narrowing
 * while it slides in or out, the sign moving); then the next paint reads their boxes once.
 *
 * Where the engine can, the canvas is handed to a worker that copies the windows (digit-painter.js): measuring, the
 * strip and choosing the windows stay here, the drawing and the canvas's flush leave the main thread.
 */
import { DigitPainter } from "./digit-painter.js";

/** One odometer's digits: repainted only when a column's window moved by a whole device pixel. */
export class DigitCanvas {
  /** @param {string[]} labels  the strip's texts, top to bottom, one a cell */
  constructor(labels) {
    this.labels = labels;
    this.element = digitsCanvas();
    /** The worker that paints this canvas (null: painted here, through `context`). */
    this.painter = DigitPainter.shared();
    this.context = null;
    /** The canvas's handle in the worker. */
    this.handle = null;
    if (this.painter) this.handle = this.painter.adopt(this.element, this);
    else this.context = this.element.getContext("2d");
    /** The canvas's size in device pixels (a canvas handed to the worker cannot be read here). */
    this.width = 0;
    this.height = 0;
    /** The strip the windows are copied from; in the DOM (hidden) so that tests can compare with it. */
    this.strip = stripCanvas();
    /** The strips drawn at this size, by the status that coloured them (a tile's status may flip every second):
     * `{canvas, id}`, `id` its handle in the worker. */
    this.strips = new Map();
    this.stripId = null;
    /** The columns' boxes in canvas pixels (null: to be measured before the next paint). */
    this.boxes = null;
    this.cell = 0;
    this.stripWidth = 0;
    /** Whether `strip` holds the strip for this size and status. */
    this.stripReady = false;
    this.status = undefined;
    this.styleChecked = false;
    /** The source offsets painted last, one per column (−1: nothing painted there). */
    this.painted = [];
  }

  /** The column boxes may have moved or changed size: they are measured again before the next paint. */
  moved() {
    this.boxes = null;
  }

  /** The theme may have changed the display's colour: it is read again before the next paint. */
  restyled() {
    this.forgetStrips();
  }

  /** The tile's status colours its value: when it changes, the colour is read again before the next paint. */
  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.styleChecked = false;
  }

  /**
   * Paints each column's window at its position (digits, 0 … 10; null leaves the column blank). `columns`: the
   * odometer's columns (`{element}`), as many as positions.
   */
  paint(positions, columns) {
    if (this.painter && this.painter.failed) this.takeBack();
    if (!this.boxes) this.measure(columns);
    if (!this.styleChecked) this.checkStyle();
    const cell = this.cell;
    const boxes = this.boxes;
    if (!(cell > 0) || !this.stripReady || boxes.length !== positions.length) return;
    const painted = this.painted;
    const { context, painter } = this;
    if (painted.length !== positions.length) {
      if (painter) painter.clear(this.handle);
      else context.clearRect(0, 0, this.width, this.height);
      painted.length = 0;
    }
    // Only the columns whose window moved are painted again: the others' pixels stay as they are.
    for (let index = 0; index < positions.length; index += 1) {
      const offset = sourceOffset(positions[index], cell);
      if (painted[index] === offset) continue;
      painted[index] = offset;
      const box = boxes[index];
      if (box.width <= 0) continue;
      if (painter) {
        painter.copy(this.handle, this.stripId, box.x, box.y, box.width, cell, box.source, offset);
        continue;
      }
      context.clearRect(box.x, box.y, box.width, cell);
      if (offset >= 0) context.drawImage(this.strip, box.source, offset, box.width, cell, box.x, box.y, box.width, cell);
    }
  }

  /**
   * Sizes the canvas to the display it lies over, its origin on a whole device pixel, and reads every column's box
   * in canvas pixels. Reading boxes lays the page out: this runs only after `moved()`.
   */
  measure(columns) {
    const ratio = window.devicePixelRatio || 1;
    const canvas = this.element;
    const display = canvas.parentNode;
    this.boxes = [];
    this.painted = [];
    if (!display) return;
    const frame = display.getBoundingClientRect();
    const left = Math.floor(frame.left * ratio);
    const top = Math.floor(frame.top * ratio);
    const width = Math.max(0, Math.ceil(frame.right * ratio) - left);
    const height = Math.max(0, Math.ceil(frame.bottom * ratio) - top);
    const rects = columns.map((column) => column.element.getBoundingClientRect());
    const cell = rects.length > 0 ? Math.round(rects[0].height * ratio) : 0;
    // The strip is as wide as a whole column (1ch); a column narrowed while it slides shows the middle of its window.
    const full = rects.reduce((widest, rect) => Math.max(widest, Math.round(rect.right * ratio) - Math.round(rect.left * ratio)), 0);
    if (width !== this.width || height !== this.height) {
      this.width = width;
      this.height = height;
      if (this.painter) {
        this.painter.resize(this.handle, width, height);
      } else {
        canvas.width = width;
        canvas.height = height;
      }
    }
    canvas.style.width = `${width / ratio}px`;
    canvas.style.height = `${height / ratio}px`;
    canvas.style.left = `${left / ratio - frame.left}px`;
    canvas.style.top = `${top / ratio - frame.top}px`;
    this.boxes = rects.map((rect) => {
      const x = Math.round(rect.left * ratio);
      const boxWidth = Math.round(rect.right * ratio) - x;
      return { x: x - left, y: Math.round(rect.top * ratio) - top, width: boxWidth, source: Math.max(0, Math.round((full - boxWidth) / 2)) };
    });
    if (cell !== this.cell || full !== this.stripWidth) {
      this.cell = cell;
      this.stripWidth = full;
      this.forgetStrips();
    }
  }

  /** The worker failed: a canvas of the page's own takes the place of the one handed over, painted from now on here. */
  takeBack() {
    const canvas = digitsCanvas();
    if (this.element.parentNode) this.element.replaceWith(canvas);
    this.element = canvas;
    this.context = canvas.getContext("2d");
    this.painter = null;
    this.handle = null;
    this.width = 0;
    this.height = 0;
    this.boxes = null;
    this.forgetStrips();
  }

  forgetStrips() {
    if (this.painter) this.painter.dropStrips(this.handle);
    this.strips.clear();
    this.stripReady = false;
    this.styleChecked = false;
  }

  /**
   * Takes the strip of the tile's status, drawn in the display's font and colour the first time that status shows at
   * this size (reading the display's style then brings the page's style up to date: once per status, not per flip).
   */
  checkStyle() {
    this.styleChecked = true;
    let strip = this.strips.get(this.status);
    if (!strip) {
      const display = this.element.parentNode;
      if (!display || !(this.cell > 0) || !(this.stripWidth > 0)) return;
      const ratio = window.devicePixelRatio || 1;
      const style = getComputedStyle(display);
      const font = `${style.fontStyle} ${style.fontWeight} ${parseFloat(style.fontSize) * ratio}px ${style.fontFamily}`;
      const canvas = stripCanvas();
      drawStrip(canvas, this.labels, font, style.color, this.stripWidth, this.cell);
      const id = this.painter
        ? this.painter.strip(this.handle, canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height)) : null;
      strip = { canvas, id };
      this.strips.set(this.status, strip);
    }
    if (strip.canvas !== this.strip) {
      if (this.strip.parentNode) this.strip.replaceWith(strip.canvas);
      this.strip = strip.canvas;
      this.stripId = strip.id;
      this.painted = [];
    }
    this.stripReady = true;
  }
}

function digitsCanvas() {
  const canvas = document.createElement("canvas");
  canvas.className = "odometer__digits";
  canvas.setAttribute("aria-hidden", "true");
  return canvas;
}

function stripCanvas() {
  const strip = document.createElement("canvas");
  strip.className = "odometer__strip-source";
  strip.hidden = true;
  return strip;
}

/** The strip's offset in canvas pixels for a position in cells (whole pixels), or −1 for a blank column. */
function sourceOffset(position, cell) {
  return position === null ? -1 : Math.round(position * cell);
}

/**
 * Makes `strip` a canvas `width` × (cell × labels) holding the labels one cell apart, each centred as a line of the
 * cell's height would be (half the room the font's ascent and descent leave above, half below).
 */
function drawStrip(strip, labels, font, color, width, cell) {
  strip.width = width;
  strip.height = cell * labels.length;
  const context = strip.getContext("2d");
  context.font = font;
  context.fillStyle = color;
  context.textAlign = "center";
  const metrics = context.measureText("0");
  const ascent = metrics.fontBoundingBoxAscent;
  const descent = metrics.fontBoundingBoxDescent;
  let baseline = cell / 2;
  if (typeof ascent === "number" && typeof descent === "number" && ascent + descent > 0) {
    context.textBaseline = "alphabetic";
    baseline = (cell - (ascent + descent)) / 2 + ascent;
  } else {
    context.textBaseline = "middle";  // engines without the font's box (Chromium 86, Firefox 115)
  }
  labels.forEach((label, index) => context.fillText(label, width / 2, index * cell + baseline));
}
