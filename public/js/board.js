/**
 * The tile grid of one dashboard: built from `hello`, painted from `hello.tiles`, `state.tiles`
 * and every frame's patches (wire protocol 2), and watched for staleness.
 *
 * The board keeps each tile's wire state and applies frames to it as patches; the views get the
 * state in painting form: an odometer's `digits` and a wheel's or carousel's `position` in digits
 * and slides (the wire's `d` and `p` are thousandths).
 *
 * Painting is batched per rendering: the first states since the screen last rendered are painted at
 * once, later ones in the next animation frame (only the newest state of each tile), so a slow screen
 * never falls behind the server's frames. Staleness is judged when states arrive.
 */
import { el, finiteNumber, orDefault, replaceChildren } from "./page.js";
import { CarouselView } from "./tiles/carousel.js";
import { ChartView } from "./tiles/chart.js";
import { ClockView } from "./tiles/clock.js";
import { CounterView } from "./tiles/counter.js";
import { DIGIT_PAINTER_FAILED } from "./tiles/digit-painter.js";
import { GaugeView } from "./tiles/gauge.js";
import { LeaderboardView } from "./tiles/leaderboard.js";
import { OdometerView } from "./tiles/odometer.js";
import { scrollStrips } from "./tiles/strip.js";
import { TextView } from "./tiles/text.js";
import { TileView, tileOptions } from "./tiles/tile.js";
import { WheelView } from "./tiles/wheel.js";

const STALENESS_CHECK_MS = 1000;
/** The language of the page's own words (dashboard.html's `lang`), for dashboards that name no locale. */
const PAGE_LANGUAGE = document.documentElement.lang || "en";

export class Board {
  /**
   * @param {HTMLElement} container  the <main> that holds the grid
   * @param {(message: object) => void} send  sends a client message (carousel commands)
   * @param {HTMLElement|null} announcer  an aria-live region told the value each odometer or counter
   *   heads for when it changes (the final value, never the ones rolled through)
   */
  constructor(container, send, announcer = null) {
    this.container = container;
    this.send = send;
    this.announcer = announcer;
    this.views = new Map();
    this.wire = new Map();
    this.changes = new Map();
    this.pending = new Map();
    /** Each view's number format for `announce` (a view is built again with the grid, so this holds no stale one). */
    this.formats = new WeakMap();
    this.layoutKey = null;
    this.paintScheduled = false;
    /** Milliseconds of painting since the screen last rendered (null: nothing painted since). */
    this.frameWork = null;
    /** Told, once per rendering that painted, how long its painting took in milliseconds (the page's pace; see pace.js). */
    this.onPainted = null;
    this.resizeObserver = typeof ResizeObserver === "function"
      ? new ResizeObserver((entries) => this.resized(entries)) : null;
    // Without ResizeObserver (Chromium 64, Safari 13.1) every tile is measured again when the window resizes.
    if (!this.resizeObserver) {
      window.addEventListener("resize", () => this.resized(Array.from(this.views.values(), (view) => ({ target: view.element }))));
    }
    setInterval(() => this.checkStaleness(), STALENESS_CHECK_MS);
    // Views that paint in a colour they read (an odometer's digits) paint again when the system's theme changes, and
    // when the worker painting the digits failed (they are painted here from then on).
    const scheme = typeof window.matchMedia === "function" ? window.matchMedia("(prefers-color-scheme: light)") : null;
    const restyle = () => {
      for (const view of this.views.values()) {
        if (typeof view.restyled === "function") view.restyled();
      }
    };
    if (scheme && typeof scheme.addEventListener === "function") scheme.addEventListener("change", restyle);
    else if (scheme && typeof scheme.addListener === "function") scheme.addListener(restyle);
    window.addEventListener(DIGIT_PAINTER_FAILED, restyle);
  }

  /** Shows a full-board message (connecting, unknown dashboard) instead of the tiles. */
  showMessage(text, detail = "") {
    if (this.resizeObserver) this.resizeObserver.disconnect();
    this.views.clear();
    this.changes.clear();
    this.pending.clear();
    this.layoutKey = null;
    this.container.className = "board board--error";
    replaceChildren(this.container, el("p", { className: "board__message" }, text, detail ? el("small", { text: detail }) : null));
  }

  /**
   * Applies a `hello`: rebuilds the grid when the layout changed, then paints every state; a
   * `"motion":"reduced"` hello puts the tiles in calm mode (carousels stop and get a play button).
   */
  hello(message) {
    const dashboard = message.dashboard;
    const layoutKey = JSON.stringify(dashboard);
    if (layoutKey !== this.layoutKey) this.build(dashboard, layoutKey);
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
        this.announce(this.views.get(id), state.target);
      }
    }
    this.receive(states, false);
  }

  /** Tells screen readers the value a tile now heads for: "Revenue: 1,234.56". */
  announce(view, value) {
    if (!this.announcer) return;
    const options = orDefault(view.options, {});
    const format = this.announceFormat(view);
    const places = placesOf(orDefault(view.options, {}));
    // Rounded as the tile rounds what it shows (half away from zero), and never "-0".
    const shown = places === undefined ? value : roundedAwayFromZero(value, places) || 0;
    const text = format ? format.format(shown) : String(shown);
    const title = orDefault(view.element.getAttribute("aria-label"), view.id);
    this.announcer.textContent = `${title}: ${orDefault(options.prefix, "")}${orDefault(options.currency, "")}${text}${orDefault(options.suffix, "")}`;
  }

  /**
   * The number format `announce` uses for `view` (its `locale` and `decimals`), made once per view: building an
   * Intl.NumberFormat costs far more than using one. Null when the options make none (an unknown locale).
   */
  announceFormat(view) {
    if (this.formats.has(view)) return this.formats.get(view);
    const options = orDefault(view.options, {});
    const decimals = placesOf(options);
    let format;
    try {
      format = new Intl.NumberFormat(options.locale || undefined, {
        minimumFractionDigits: decimals, maximumFractionDigits: orDefault(decimals, 20) });
    } catch (unformattable) {
      format = null;
    }
    this.formats.set(view, format);
    return format;
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

  build(dashboard, layoutKey) {
    if (this.resizeObserver) this.resizeObserver.disconnect();
    this.views.clear();
    this.changes.clear();
    this.pending.clear();
    this.layoutKey = layoutKey;
    this.container.className = "board";
    const tiles = dashboard.tiles.filter((tile) => tile && (typeof tile.id === "string" || typeof tile.id === "number"));
    const grid = gridOf(dashboard, tiles.length, this.container);
    this.container.style.setProperty("--columns", String(grid.columns));
    this.container.style.setProperty("--rows", String(grid.rows));
    const cells = tiles.map((tile) => {
      const view = this.viewFor(tile, dashboard);
      this.views.set(view.id, view);
      // The grid places a cell, and the tile fills it (rollboard.css): Chromium lays a grid item out only with its whole
      // grid, while a contained box placed by its four edges is a relayout boundary, so a tile's new text lays out
      // that tile alone.
      const cell = el("div", { className: "board__cell" }, view.element);
      placeTile(cell, orDefault(tile.grid, tile.position));
      if (this.resizeObserver) this.resizeObserver.observe(view.element);
      view.show(null);  // "—" until a STATE says otherwise
      return cell;
    });
    replaceChildren(this.container, ...cells);
    this.setLanguage(dashboard);
  }

  /**
   * Sets `lang` on <html> (hyphenation, screen readers) to the dashboard's `locale`, else to the
   * locale most of its tiles name (odometers and counters carry one); without any, the page's own.
   */
  setLanguage(dashboard) {
    document.documentElement.lang = languageTag(dashboard.locale) || commonLocale(dashboard.tiles) || PAGE_LANGUAGE;
  }

  viewFor(tile, dashboard) {
    switch (tile.type) {
      case "odometer": return new OdometerView(tile);
      case "counter": return new CounterView(tile);
      case "wheel": return new WheelView(tile);
      case "carousel": return new CarouselView(tile, this.send);
      case "text": return new TextView(tile);
      case "gauge": return new GaugeView(tile);
      case "chart": return new ChartView(tile, dashboard);
      case "clock": return new ClockView(tile);
      case "leaderboard": return new LeaderboardView(tile);
      default: {
        const view = new TileView(tile, "unsupported");
        view.body.append(el("p", { className: "board__message", text: `Unsupported tile type “${tile.type}”` }));
        return view;
      }
    }
  }

  receive(states, isHello) {
    const now = Date.now();
    for (const [id, state] of Object.entries(states)) {
      const view = this.views.get(id);
      if (!view || typeof state !== "object") continue;
      if (state !== null) this.noteChange(view, state, now, isHello);
      this.pending.set(id, state);
    }
    this.schedulePaint();
  }

  /** Remembers when the tile's value last changed; a `hello` may say so with `updatedAt`. */
  noteChange(view, state, now, isHello) {
    const key = view.changeKey(state);
    if (key === null) return;
    const previous = this.changes.get(view.id);
    if (previous && previous.key === key) return;
    const reported = isHello ? timestampOf(state.updatedAt) : null;
    this.changes.set(view.id, { key, at: orDefault(reported, now) });
    if (view.staleAfter !== null) view.showStale(null);
  }

  /**
   * Paints the states received. The first since the screen last rendered are painted at once, in the task that
   * received them, so that what they cause (a canvas to repaint, a compact unit's `scroll` event) goes out with the
   * next rendering; any that arrive before that rendering wait for its animation frame, where only the newest state
   * of each tile is painted. The pace is told once per rendering, the work of its paints together.
   */
  schedulePaint() {
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

  resized(entries) {
    for (const entry of entries) {
      const view = this.views.get(entry.target.dataset.tileId);
      if (view) view.resized();
    }
  }

  /** Marks the tiles whose source fails with why (`stale`: tile id → reason); every other tile is cleared. */
  showSourceProblems(stale) {
    const reasons = stale && typeof stale === "object" ? stale : {};
    for (const view of this.views.values()) {
      const reason = Object.prototype.hasOwnProperty.call(reasons, view.id) ? reasons[view.id] : null;
      view.showSourceProblem(typeof reason === "string" ? reason : null);
    }
  }

  checkStaleness() {
    const now = Date.now();
    for (const view of this.views.values()) {
      if (view.staleAfter === null || view.staleAfter <= 0) continue;
      const change = this.changes.get(view.id);
      if (!change) continue;
      const age = (now - change.at) / 1000;
      view.showStale(age >= view.staleAfter ? age : null);
    }
  }
}

/**
 * A tile's wire state after one frame entry: `null` (no value), the odometer's motion shorthand
 * `[i, R_i, …]` (or `[]`) for `{"m":[…]}`, or a patch whose members replace the state's (`null`
 * removes one). `d` sets every column (thousandths of a digit) and `v` their velocities (thousandths
 * per frame, zero when absent); `m` adds its corrections to the velocities from column i on, then
 * moves every column by its velocity, round the strip of 10,000.
 */
function patched(old, entry) {
  if (entry === null) return null;
  const patch = Array.isArray(entry) ? { m: entry } : entry;
  if (!patch || typeof patch !== "object") return old;
  const state = Object.assign({}, old);
  for (const [name, value] of Object.entries(patch)) {
    if (name === "d" || name === "v" || name === "m") continue;
    if (value === null) delete state[name];
    else state[name] = value;
  }
  if (Array.isArray(patch.d)) {
    state.d = patch.d.map((position) => finiteNumber(position, 0));
    state.v = state.d.map((_, index) => finiteNumber(Array.isArray(patch.v) ? patch.v[index] : 0, 0));
  }
  if (Array.isArray(patch.m) && Array.isArray(state.d)) {
    const velocities = state.d.map((_, index) => finiteNumber(Array.isArray(state.v) ? state.v[index] : 0, 0));
    const first = Math.max(0, Math.trunc(finiteNumber(patch.m[0], 0)));
    patch.m.slice(1).forEach((correction, offset) => {
      if (first + offset < velocities.length) velocities[first + offset] += finiteNumber(correction, 0);
    });
    state.d = state.d.map((position, index) => (((position + velocities[index]) % 10000) + 10000) % 10000);
    state.v = velocities;
  }
  return state;
}

/** A wire state as the views paint it: `digits` and `position` in digits (the wire has thousandths). */
function paintingForm(state) {
  if (state === null) return null;
  const { d, p } = state;
  const rest = Object.assign({}, state);
  delete rest.d;
  delete rest.v;
  delete rest.p;
  if (Array.isArray(d)) rest.digits = d.map((position) => finiteNumber(position, 0) / 1000);
  if (p !== undefined) rest.position = finiteNumber(p, 0) / 1000;
  return rest;
}

/**
 * The grid size: `dashboard.grid` (or `dashboard.layout`) `{"columns":C,"rows":R}` when given,
 * else the column count whose tiles come closest to a 16:10 shape on this screen.
 */
function gridOf(dashboard, count, container) {
  const given = orDefault(dashboard.grid, dashboard.layout);
  const columns = Math.trunc(finiteNumber(given ? given.columns : undefined, 0));
  const rows = Math.trunc(finiteNumber(given ? given.rows : undefined, 0));
  if (columns > 0) return { columns, rows: rows > 0 ? rows : Math.max(1, Math.ceil(count / columns)) };
  const width = container.clientWidth || window.innerWidth;
  const height = container.clientHeight || window.innerHeight;
  let best = { columns: 1, rows: Math.max(1, count), score: Infinity };
  for (let c = 1; c <= Math.max(1, count); c += 1) {
    const r = Math.max(1, Math.ceil(count / c));
    const shape = (width / c) / (height / r);
    const score = Math.abs(Math.log(shape / 1.6)) + 0.35 * (c * r - count);
    if (score < best.score) best = { columns: c, rows: r, score };
  }
  return best;
}

/** Places a tile from `{"column":1,"row":1,"width":2,"height":1}` (1-based; `columnSpan`/`rowSpan` also read); auto-placed otherwise. */
function placeTile(element, position) {
  if (!position || typeof position !== "object") return;
  const column = Math.trunc(finiteNumber(position.column, 0));
  const row = Math.trunc(finiteNumber(position.row, 0));
  const columnSpan = Math.max(1, Math.trunc(finiteNumber(orDefault(position.width, position.columnSpan), 1)));
  const rowSpan = Math.max(1, Math.trunc(finiteNumber(orDefault(position.height, position.rowSpan), 1)));
  element.style.gridColumn = column > 0 ? `${column} / span ${columnSpan}` : `span ${columnSpan}`;
  element.style.gridRow = row > 0 ? `${row} / span ${rowSpan}` : `span ${rowSpan}`;
}

/** A BCP 47 language tag from a locale option ("de-DE"; "de_DE" is read too), or null. */
function languageTag(value) {
  if (typeof value !== "string") return null;
  const tag = value.trim().replace(/_/g, "-");
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : null;
}

/** The locale named by most of `tiles` (the first of equals), or null when none names one. */
function commonLocale(tiles) {
  const counts = new Map();
  for (const tile of tiles) {
    const tag = tile && languageTag(tileOptions(tile).locale);
    if (tag) counts.set(tag, (counts.get(tag) || 0) + 1);
  }
  let best = null;
  for (const [tag, count] of counts) {
    if (best === null || count > counts.get(best)) best = tag;
  }
  return best;
}

/** Milliseconds since the epoch from seconds-since-epoch (number) or an ISO 8601 string. */
function timestampOf(value) {
  if (typeof value === "number" && Number.isFinite(value)) return value > 1e12 ? value : value * 1000;
  if (typeof value === "string") {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/**
 * The decimal places a number tile shows: its `decimals`, or those of its printf `format` (`%d` none, `%.2f` two,
 * `%f` six); undefined when the options name neither.
 */
function placesOf(options) {
  if (Number.isInteger(options.decimals)) return options.decimals;
  if (typeof options.format !== "string") return undefined;
  const conversion = /%(?:\.(\d))?([dif])/.exec(options.format.replace(/%%/g, ""));
  if (!conversion) return undefined;
  if (conversion[2] !== "f") return 0;
  return conversion[1] === undefined ? 6 : Number(conversion[1]);
}

/** `value` rounded to `places` decimals, halves away from zero, as the server writes tile text (2.5 → 3, −2.5 → −3). */
function roundedAwayFromZero(value, places) {
  const factor = Math.pow(10, places);
  return (value < 0 ? -1 : 1) * Math.round(Math.abs(value) * factor) / factor;
}
