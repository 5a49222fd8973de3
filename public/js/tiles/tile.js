/**
 * What every tile view shares: the <section> with its title, `data-tile-id`/`data-tile-type`,
 * the staleness badge, and the merged options.
 *
 * A tile view is built from the tile's entry in `hello.dashboard.tiles` and then only painted:
 * `paint(state)` receives the tile's STATE object from `hello.tiles` or `frame.tiles` and moves
 * the DOM to it; a `null` STATE (a metric with no value yet), a tile `hello` gave no STATE and a STATE
 * `hasValue` refuses show "—" in the theme's muted colour instead (and `clear()` takes the display
 * down, so no hook or label claims a value); a STATE with `"behind": true` shows a "catching up" badge; `status` (good, normal, warning, critical) colours the
 * tile, and `trend`, `deltaText` and `sense` show the change arrow, `versus` what it compares with (hooks `data-status`, `data-trend`,
 * `data-delta`). `changeKey(state)` names what counts as a change of the tile's value for the
 * staleness hint (null: the tile never goes stale).
 */
import { paintSparkline } from "./sparkline.js";
import { el, finiteNumber, setData, setHidden, setText } from "../page.js";

/**
 * The options of a tile from `hello`: the design puts them inline on the tile object
 * (`{"id":…,"type":…,…options…}`); a nested `options` object is accepted too and wins.
 */
export function tileOptions(tile) {
  const nested = tile.options && typeof tile.options === "object" ? tile.options : {};
  return Object.assign({}, tile, nested);
}

export class TileView {
  constructor(tile, typeName) {
    this.id = String(tile.id);
    this.options = tileOptions(tile);
    this.staleAfter = finiteNumber(this.options.staleAfter, null);
    const title = typeof this.options.title === "string" ? this.options.title
      : typeof this.options.label === "string" ? this.options.label : this.id;
    this.body = el("div", { className: "tile__body" });
    this.staleBadge = el("span", { className: "tile__stale", hidden: true });
    this.sourceBadge = el("span", { className: "tile__stale tile__source", hidden: true });
    this.behindBadge = el("span", { className: "tile__behind", text: "catching up", hidden: true });
    this.change = el("span", { className: "tile__change", hidden: true });
    // What a compared arrow compares with ("vs this time yesterday"), on the badges' line: the header keeps the title.
    this.versus = el("span", { className: "tile__versus", hidden: true });
    this.placeholder = el("div", { className: "tile__empty", text: "\u2014", hidden: true, "aria-label": "no value yet" });
    // The badges that change what the value means sit on a line of their own, as large as the title.
    this.element = el("section", {
      className: `tile tile--${typeName}`,
      "data-tile-id": this.id,
      "data-tile-type": typeName,
      "aria-label": title,
    }, el("div", { className: "tile__header" }, el("h2", { className: "tile__title", text: title }), this.change),
    el("div", { className: "tile__signals" }, this.versus, this.behindBadge, this.staleBadge, this.sourceBadge),
    this.placeholder, this.body);
  }

  /** Paints `state`, or "—" when it has no value (`null`, or what `hasValue` refuses), and the "catching up" badge. */
  show(state) {
    const empty = !this.hasValue(state);
    setData(this.element, "empty", empty ? "true" : "false");
    setHidden(this.placeholder, !empty);
    const behind = !empty && state.behind === true;
    setData(this.element, "behind", behind ? "true" : "false");
    setHidden(this.behindBadge, !behind);
    this.showIndicator(empty ? {} : state);
    if (empty) this.clear(); else this.paint(state);
    paintSparkline(this, empty ? null : state.spark);
  }

  /** Whether `state` is a value to paint; `null` (and anything not an object) is none. */
  hasValue(state) {
    return state !== null && typeof state === "object";
  }

  /** Takes the display down while the tile has no value (its labels and hooks must not claim one). */
  clear() {}

  /** The server's KPI status (a coloured edge and value) and change arrow ("▲ +250.50"), when the STATE has them. */
  showIndicator(state) {
    const status = typeof state.status === "string" ? state.status : "";
    setData(this.element, "status", status || null);
    const trend = typeof state.trend === "string" ? state.trend : "";
    setHidden(this.change, !trend);
    const versus = trend && typeof state.versus === "string" ? `vs ${state.versus}` : "";
    setHidden(this.versus, !versus);
    setText(this.versus, versus);
    if (!trend) {
      setData(this.element, "trend", null);
      setData(this.element, "delta", null);
      return;
    }
    const arrow = trend === "up" ? "\u25B2" : trend === "down" ? "\u25BC" : "\u25B6";
    const text = typeof state.deltaText === "string" ? state.deltaText : "";
    const shown = `${arrow} ${text}`;
    setText(this.change, shown);
    setData(this.change, "sense", typeof state.sense === "string" ? state.sense : "same");
    setData(this.element, "trend", trend);
    setData(this.element, "delta", text);
  }

  /** Moves the DOM to `state`. */
  paint(_state) {}

  /** Called after the tile's box changed size (re-measure, repaint). */
  resized() {}

  /** Identifies the tile's value for the staleness hint; null means "no value to watch". */
  changeKey(_state) {
    return null;
  }

  /** Shows or hides the staleness hint ("no update for 5 min"). */
  showStale(staleForSeconds) {
    // Called for every change of a moving wheel's position: it writes only what changes (see `setData`).
    const stale = staleForSeconds !== null;
    setData(this.element, "stale", stale ? "true" : "false");
    setHidden(this.staleBadge, !stale);
    if (stale) setText(this.staleBadge, `no update for ${describeDuration(staleForSeconds)}`);
  }

  /** Shows or hides why the tile's source fails ("stale: upstream answered HTTP 503"); null hides it. */
  showSourceProblem(reason) {
    const failing = typeof reason === "string";
    if (failing) {
      this.element.dataset.sourceStale = reason;
      this.sourceBadge.textContent = `stale: ${reason}`;
    } else {
      delete this.element.dataset.sourceStale;
    }
    this.sourceBadge.hidden = !failing;
  }
}

/** "45 s", "5 min", "2 h", "3 d" */
export function describeDuration(seconds) {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} d`;
}

/** Combining marks of the common blocks: they sit on the character before them and take no width of their own. */
const COMBINING_MARKS = /[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u0610-\u061a\u064b-\u065f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;

/**
 * How many places `text` takes on a line, for sizing a label to its tile: its length without combining marks, so
 * a letter a producer stacked with marks counts as the one letter it is drawn as.
 */
export function shownLength(text) {
  return String(text).replace(COMBINING_MARKS, "").length;
}
