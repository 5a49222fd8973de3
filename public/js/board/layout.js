/**
 * The tile grid of one dashboard: a cell per tile, placed as the dashboard says (or in a grid whose tiles come
 * closest to a 16:10 shape on this screen), the view in each, and each view told when its size changes. The grid is
 * built again only when the dashboard's layout changed; a full-board message (connecting, unknown dashboard) takes
 * its place.
 */
import { el, finiteNumber, orDefault, replaceChildren } from "../page.js";
import { setLanguage } from "./language.js";

export class BoardLayout {
  /**
   * @param {HTMLElement} container  the <main> that holds the grid
   * @param {(tile: object, dashboard: object) => object} makeView  the view for a tile (views.js)
   */
  constructor(container, makeView) {
    this.container = container;
    this.makeView = makeView;
    /** The views shown, by tile id (the same Map for the page's life: the board's other parts hold it). */
    this.views = new Map();
    this.layoutKey = null;
    this.resizeObserver = typeof ResizeObserver === "function"
      ? new ResizeObserver((entries) => this.resized(entries)) : null;
    // Without ResizeObserver (Chromium 64, Safari 13.1) every tile is measured again when the window resizes.
    if (!this.resizeObserver) {
      window.addEventListener("resize", () => this.resized(Array.from(this.views.values(), (view) => ({ target: view.element }))));
    }
  }

  /** Shows a full-board message instead of the tiles, which are forgotten. */
  showMessage(text, detail = "") {
    this.forget(null);
    this.container.className = "board board--error";
    replaceChildren(this.container, el("p", { className: "board__message" }, text, detail ? el("small", { text: detail }) : null));
  }

  /** Builds the grid of `dashboard` (a `hello`'s) unless it is the one shown; whether it built a new one. */
  show(dashboard) {
    const layoutKey = JSON.stringify(dashboard);
    if (layoutKey === this.layoutKey) return false;
    this.build(dashboard, layoutKey);
    return true;
  }

  forget(layoutKey) {
    if (this.resizeObserver) this.resizeObserver.disconnect();
    this.views.clear();
    this.layoutKey = layoutKey;
  }

  build(dashboard, layoutKey) {
    this.forget(layoutKey);
    this.container.className = "board";
    const tiles = dashboard.tiles.filter((tile) => tile && (typeof tile.id === "string" || typeof tile.id === "number"));
    const grid = gridOf(dashboard, tiles.length, this.container);
    this.container.style.setProperty("--columns", String(grid.columns));
    this.container.style.setProperty("--rows", String(grid.rows));
    const cells = tiles.map((tile) => {
      const view = this.makeView(tile, dashboard);
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
    setLanguage(dashboard);
  }

  resized(entries) {
    for (const entry of entries) {
      const view = this.views.get(entry.target.dataset.tileId);
      if (view) view.resized();
    }
  }
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
