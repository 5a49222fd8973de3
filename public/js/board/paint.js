/**
 * When the board's views paint. Painting is batched per rendering: the first states since the screen last rendered
 * are painted at once, later ones in the next animation frame (only the newest state of each tile), so a slow screen
 * never falls behind the server's frames. Views that paint in a colour they read paint again when it changes.
 */
import { DIGIT_PAINTER_FAILED } from "../tiles/digit-painter.js";
import { scrollStrips } from "../tiles/strip.js";

export class PaintScheduler {
  /**
   * @param {HTMLElement} container  the <main> that holds the grid
   * @param {Map<string, object>} views  the views shown, by tile id (the layout's)
   */
  constructor(container, views) {
    this.container = container;
    this.views = views;
    /** The newest state of each tile not yet painted, by tile id. */
    this.pending = new Map();
    this.paintScheduled = false;
    /** Milliseconds of painting since the screen last rendered (null: nothing painted since). */
    this.frameWork = null;
    /** Told, once per rendering that painted, how long its painting took in milliseconds (the page's pace; see pace.js). */
    this.onPainted = null;
    watchRestyle(views);
  }

  /** Forgets the states not yet painted (the grid was built again or taken down). */
  clear() {
    this.pending.clear();
  }

  /** Remembers `state` (painting form, or null for no value) as the one tile `id` paints next. */
  add(id, state) {
    this.pending.set(id, state);
  }

  /**
   * Paints the states received. The first since the screen last rendered are painted at once, in the task that
   * received them, so that what they cause (a canvas to repaint, a compact unit's `scroll` event) goes out with the
   * next rendering; any that arrive before that rendering wait for its animation frame, where only the newest state
   * of each tile is painted. The pace is told once per rendering, the work of its paints together.
   */
  schedule() {
    if (this.paintScheduled) return;
    if (this.frameWork === null) {
      this.frameWork = 0;
      requestAnimationFrame(() => this.rendering());
      this.paint();
      return;
    }
    this.paintScheduled = true;
  }

  /** The animation frame after a paint: paints what waited for it, and tells the pace what this rendering cost. */
  rendering() {
    if (this.paintScheduled) {
      this.paintScheduled = false;
      this.paint();
    }
    const work = this.frameWork;
    this.frameWork = null;
    if (this.onPainted) this.onPainted(work);
  }

  paint() {
    const started = performance.now();
    for (const [id, state] of this.pending) {
      const view = this.views.get(id);
      if (view) view.show(state);
    }
    this.pending.clear();
    scrollStrips();  // after every tile's writes: the first scroll lays the page out once, the rest cost no layout
    // Style and layout run now rather than later in the task or frame, so that their cost is measured too.
    if (this.onPainted) void this.container.offsetHeight;
    this.frameWork += performance.now() - started;
  }
}

/**
 * Views that paint in a colour they read (an odometer's digits) paint again when the system's theme changes, and
 * when the worker painting the digits failed (they are painted here from then on).
 */
function watchRestyle(views) {
  const scheme = typeof window.matchMedia === "function" ? window.matchMedia("(prefers-color-scheme: light)") : null;
  const restyle = () => {
    for (const view of views.values()) {
      if (typeof view.restyled === "function") view.restyled();
    }
  };
  if (scheme && typeof scheme.addEventListener === "function") scheme.addEventListener("change", restyle);
  else if (scheme && typeof scheme.addListener === "function") scheme.addListener(restyle);
  window.addEventListener(DIGIT_PAINTER_FAILED, restyle);
}
