/**
 * The tiles of one dashboard: built from `hello`, painted from `hello.tiles`, `state.tiles` and every frame's patches
 * (wire protocol 2), and watched for staleness. The board coordinates; each concern is a module of its own under
 * board/, as the tile views are under tiles/:
 *
 * - layout.js: the grid, a cell and a view per tile (views.js picks the view, language.js sets <html lang>);
 * - patch.js: each tile's wire state, a frame's patches applied to it, and the painting form the views get;
 * - paint.js: when the views paint (batched per rendering) and what painting cost (for the page's pace);
 * - staleness.js: tiles whose value is older than their `staleAfter`, or whose source fails;
 * - announcer.js: the value a tile heads for, told to screen readers.
 */
import { orDefault } from "./page.js";
import { Announcer } from "./board/announcer.js";
import { BoardLayout } from "./board/layout.js";
import { PaintScheduler } from "./board/paint.js";
import { paintingForm, patched } from "./board/patch.js";
import { Staleness } from "./board/staleness.js";
import { viewFor } from "./board/views.js";

export class Board {
  /**
   * @param {HTMLElement} container  the <main> that holds the grid
   * @param {(message: object) => void} send  sends a client message (carousel commands)
   * @param {HTMLElement|null} announcer  an aria-live region told the value each odometer or counter
   *   heads for when it changes (the final value, never the ones rolled through)
   */
  constructor(container, send, announcer = null) {
    this.layout = new BoardLayout(container, (tile, dashboard) => viewFor(tile, dashboard, send));
    /** The views shown, by tile id. */
    this.views = this.layout.views;
    /** Each tile's wire state, by tile id. */
    this.wire = new Map();
    this.staleness = new Staleness(this.views);
    this.painter = new PaintScheduler(container, this.views);
    this.announcer = new Announcer(announcer);
  }

  /** Told, once per rendering that painted, how long its painting took in milliseconds (the page's pace; see pace.js). */
  get onPainted() {
    return this.painter.onPainted;
  }

  set onPainted(listener) {
    this.painter.onPainted = listener;
  }

  /** Shows a full-board message (connecting, unknown dashboard) instead of the tiles. */
  showMessage(text, detail = "") {
    this.layout.showMessage(text, detail);
    this.staleness.clear();
    this.painter.clear();
  }

  /**
   * Applies a `hello`: rebuilds the grid when the layout changed, then paints every state; a
   * `"motion":"reduced"` hello puts the tiles in calm mode (carousels stop and get a play button).
   */
  hello(message) {
    if (this.layout.show(message.dashboard)) {
      this.staleness.clear();
      this.painter.clear();
    }
    const calm = message.motion === "reduced";
    document.body.dataset.motion = calm ? "reduced" : "full";
    for (const view of this.views.values()) {
      if (typeof view.setCalm === "function") view.setCalm(calm);
    }
    this.replace(message.tiles, true);
  }

  /** Applies a frame (`{"f":N,"t":{…}}`: patches of the tiles that changed) or a `state` (every tile anew). */
  frame(message) {
    if (message.type === "state") {
      this.replace(message.tiles, false);
      return;
    }
    if (!message.t || typeof message.t !== "object") return;
    const states = {};
    for (const [id, entry] of Object.entries(message.t)) {
      if (!this.views.has(id)) continue;
      const before = orDefault(this.wire.get(id), null);
      const state = patched(before, entry);
      this.wire.set(id, state);
      states[id] = paintingForm(state);
      if (state && typeof state.target === "number" && state.target !== (before ? before.target : undefined)) {
        this.announcer.announce(this.views.get(id), state.target);
      }
    }
    this.receive(states, false);
  }

  /**
   * Replaces every tile's wire state with the full states of a `hello` or `state`; a tile they leave
   * out has no value (it shows "—", as for `null`).
   */
  replace(tiles, isHello) {
    this.wire.clear();
    const given = tiles && typeof tiles === "object" ? tiles : {};
    const states = {};
    for (const id of this.views.keys()) {
      const state = Object.prototype.hasOwnProperty.call(given, id) ? patched(null, given[id]) : null;
      this.wire.set(id, state);
      states[id] = paintingForm(state);
    }
    this.receive(states, isHello);
  }

  /** Notes each tile's new state (painting form) for staleness, and has it painted. */
  receive(states, isHello) {
    const now = Date.now();
    for (const [id, state] of Object.entries(states)) {
      const view = this.views.get(id);
      if (!view || typeof state !== "object") continue;
      if (state !== null) this.staleness.noteChange(view, state, now, isHello);
      this.painter.add(id, state);
    }
    this.painter.schedule();
  }

  /** Marks the tiles whose source fails with why (`stale`: tile id → reason); every other tile is cleared. */
  showSourceProblems(stale) {
    this.staleness.showSourceProblems(stale);
  }
}
