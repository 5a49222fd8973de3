/**
 * The worker that paints the odometers' digit canvases off the page's main thread, where the engine can hand a canvas
 * to a worker (`transferControlToOffscreen`: Chromium 69, Firefox 105, Safari 16.4). Elsewhere digits.js paints on
 * the main thread, as before.
 *
 * Why (Benchmarks/PageCost, docs/benchmarks.md): a canvas drawn on the main thread is flushed and handed to the
 * compositor by the main thread in every frame that changed it, about 0.15 ms a canvas whatever it holds, and with every
 * odometer rolling that is most of what the page costs. A canvas a worker owns is drawn, flushed and committed by the
 * worker; the main thread only says what to copy where.
 *
 * The main thread keeps everything that needs the page: measuring the columns, reading the display's font and colour,
 * drawing each strip (into the hidden canvas the tests compare with). The worker gets each strip's pixels once, then
 * commands: size a canvas, clear it, copy a window of a strip into it. The commands of one task go out in one message
 * (a microtask after the first), with the canvases they hand over.
 *
 * When the worker cannot start or fails (its script missing, a script error in it), `failed` turns true and each
 * DigitCanvas takes a new canvas of its own and paints on the main thread from its next paint, which the board asks
 * of every view at once (`DIGIT_PAINTER_FAILED`).
 *
 * Test hook: `data-digit-painter` on <html> says where digits are painted: `worker`, `page` (the engine cannot hand a
 * canvas over), or `page: worker failed (…)`.
 */

/** The event the page's window gets when the worker failed: the board paints every view again (board/paint.js). */
export const DIGIT_PAINTER_FAILED = "rollboard-digit-painter-failed";

/** The worker's script, beside this module (an absolute path: the page is served under /d/ID). */
const WORKER_URL = "/js/tiles/digit-painter-worker.js";

let shared;

export class DigitPainter {
  /** The page's painter, made on first use; null where the engine cannot hand a canvas to a worker. */
  static shared() {
    if (shared === undefined) {
      shared = DigitPainter.supported() ? DigitPainter.start() : null;
      document.documentElement.dataset.digitPainter = shared ? "worker" : "page";
    }
    return shared;
  }

  static supported() {
    return typeof Worker === "function" && typeof OffscreenCanvas === "function"
      && typeof HTMLCanvasElement === "function"
      && typeof HTMLCanvasElement.prototype.transferControlToOffscreen === "function";
  }

  static start() {
    try {
      return new DigitPainter(new Worker(WORKER_URL));
    } catch (refused) {
      return null;
    }
  }

  /** @param {Worker} worker */
  constructor(worker) {
    this.worker = worker;
    this.failed = false;
    this.nextId = 1;
    /** Commands not yet sent, and the objects they hand over. */
    this.commands = [];
    this.transfer = [];
    this.flushScheduled = false;
    worker.addEventListener("error", (event) => {
      const why = event.message || "its script did not load";
      this.failed = true;
      this.commands = [];
      this.transfer = [];
      document.documentElement.dataset.digitPainter = `page: worker failed (${why})`;
      if (typeof console !== "undefined") console.error(`digit painter failed: ${why}`);
      window.dispatchEvent(new Event(DIGIT_PAINTER_FAILED));
    });
    // A canvas whose view is gone (a new layout) is forgotten by the worker too, with its strips.
    this.registry = typeof FinalizationRegistry === "function"
      ? new FinalizationRegistry((held) => this.forget(held)) : null;
  }

  /**
   * Hands `canvas` to the worker and returns the handle later commands name it by. `owner` (the DigitCanvas) is
   * watched: once it is collected, the worker forgets the canvas and the strips listed in `held.strips`.
   */
  adopt(canvas, owner) {
    const offscreen = canvas.transferControlToOffscreen();
    const held = { canvas: this.nextId++, strips: new Set() };
    this.send(["canvas", held.canvas, offscreen], offscreen);
    if (this.registry) this.registry.register(owner, held);
    return held;
  }

  /** Gives the worker a strip's pixels (`ImageData`); returns the strip's handle. */
  strip(held, pixels) {
    const id = this.nextId++;
    held.strips.add(id);
    this.send(["strip", id, pixels], pixels.data.buffer);
    return id;
  }

  /** The worker lets go of strips drawn for another size or theme. */
  dropStrips(held) {
    if (held.strips.size === 0) return;
    this.send(["drop", Array.from(held.strips)]);
    held.strips.clear();
  }

  /** Sizes the canvas (which clears it, as for a canvas on the page). */
  resize(held, width, height) {
    this.send(["size", held.canvas, width, height]);
  }

  /** Clears the whole canvas. */
  clear(held) {
    this.send(["clear", held.canvas]);
  }

  /**
   * Clears the window `width` × `height` at (x, y) and copies into it the part of strip `strip` at (sourceX,
   * sourceY); a negative `sourceY` only clears (a blank column).
   */
  copy(held, strip, x, y, width, height, sourceX, sourceY) {
    this.send(["copy", held.canvas, strip, x, y, width, height, sourceX, sourceY]);
  }

  forget(held) {
    if (this.failed) return;
    this.send(["forget", held.canvas, Array.from(held.strips)]);
  }

  send(command, handed) {
    if (this.failed) return;
    this.commands.push(command);
    if (handed) this.transfer.push(handed);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    Promise.resolve().then(() => this.flush());
  }

  flush() {
    this.flushScheduled = false;
    if (this.failed || this.commands.length === 0) return;
    const commands = this.commands;
    const transfer = this.transfer;
    this.commands = [];
    this.transfer = [];
    this.worker.postMessage(commands, transfer);
  }
}
