/**
 * Leaderboard tile: the best rows of a board, each with its rank, name and score. The server
 * computes every row's line, opacity and counted score for every frame (rows sliding to new ranks,
 * names entering or leaving the top fading in and out); the page only places each row where the
 * frame says: translated by y/1000 lines from the top, at opacity o/1000.
 *
 * STATE: `{"n":["Alice",…],"t":["12",…],"r":[1,…],"y":[0,…],"o":[1000,…]}`, one entry per row in each
 * array (a frame carries only the arrays that changed: while rows slide, `y`). Test hooks: the tile's
 * `data-rows` (names shown, top first, rows at opacity 0 left out, joined by "|"); per row
 * (`.lb-row`) `data-name`, `data-rank`, `data-line`, `data-text`.
 */
import { el, finiteNumber } from "../page.js";
import { TileView } from "./tile.js";

export class LeaderboardView extends TileView {
  constructor(tile) {
    super(tile, "leaderboard");
    // The server's `size` (hello): the lines the rows share. A hello without one (an older server) has the rows of
    // each state share the tile instead.
    const size = Math.round(finiteNumber(this.options.size, 0));
    this.size = size >= 1 ? size : null;
    this.list = el("ol", { className: "leaderboard" });
    if (this.size !== null) this.list.style.setProperty("--size", String(this.size));
    this.body.append(this.list);
    this.rows = new Map();
  }

  hasValue(state) {
    return super.hasValue(state) && Array.isArray(state.n);
  }

  changeKey(state) {
    const texts = Array.isArray(state.t) ? state.t : [];
    return state.n.map((name, index) => `${name}:${texts[index]}`).join("|");
  }

  clear() {
    this.rows.forEach((row) => row.element.remove());
    this.rows.clear();
    delete this.element.dataset.rows;
  }

  paint(state) {
    const seen = new Set();
    const shown = [];
    const column = (name) => (Array.isArray(state[name]) ? state[name] : []);
    const texts = column("t");
    const ranks = column("r");
    const lines = column("y");
    const opacities = column("o");
    const shared = this.size === null ? String(Math.max(1, state.n.length)) : null;
    if (shared !== null && this.list.style.getPropertyValue("--size") !== shared) this.list.style.setProperty("--size", shared);
    state.n.forEach((name, index) => {
      if (typeof name !== "string") return;
      seen.add(name);
      let row = this.rows.get(name);
      if (!row) {
        row = {
          rank: el("span", { className: "lb-row__rank" }),
          name: el("span", { className: "lb-row__name", text: name }),
          score: el("span", { className: "lb-row__score" }),
        };
        row.element = el("li", { className: "lb-row", "data-name": name }, row.rank, row.name, row.score);
        this.rows.set(name, row);
        this.list.append(row.element);
      }
      const line = finiteNumber(lines[index], 0) / 1000;
      const opacity = Math.min(1, Math.max(0, finiteNumber(opacities[index], 1000) / 1000));
      const rank = String(finiteNumber(ranks[index], 0));
      const text = typeof texts[index] === "string" ? texts[index] : "";
      row.element.style.transform = `translateY(${line * 100}%)`;
      row.element.style.opacity = String(opacity);
      if (row.rank.textContent !== rank) row.rank.textContent = rank;
      if (row.score.textContent !== text) row.score.textContent = text;
      row.element.dataset.rank = rank;
      row.element.dataset.line = String(line);
      row.element.dataset.text = text;
      if (opacity > 0) shown.push({ name, line });
    });
    this.rows.forEach((row, name) => {
      if (seen.has(name)) return;
      row.element.remove();
      this.rows.delete(name);
    });
    shown.sort((a, b) => a.line - b.line);
    this.element.dataset.rows = shown.map((row) => row.name).join("|");
  }
}
