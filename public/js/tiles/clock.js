/**
 * Clock tile: the time and date the server writes, in the dashboard's time zone and language.
 * The server turns it when its wall clock passes a whole second (or minute), so every screen
 * shows the same second; the page only paints what each frame says.
 *
 * STATE: `{"time":"14:05:09","date":"Donnerstag, 26. November 2026"}` (`date` only when the tile
 * shows it). A clock never goes stale. Test hooks: `data-time`, `data-date`.
 */
import { el, setData, setHidden, setText } from "../page.js";
import { TileView } from "./tile.js";

export class ClockView extends TileView {
  constructor(tile) {
    super(tile, "clock");
    this.time = el("div", { className: "clock__time" });
    this.date = el("div", { className: "clock__date" });
    this.body.append(el("div", { className: "clock" }, this.time, this.date));
  }

  hasValue(state) {
    return super.hasValue(state) && typeof state.time === "string";
  }

  clear() {
    this.time.textContent = "";
    this.date.textContent = "";
    delete this.element.dataset.time;
    delete this.element.dataset.date;
  }

  paint(state) {
    const date = typeof state.date === "string" ? state.date : "";
    setText(this.time, state.time);
    setText(this.date, date);
    setHidden(this.date, !date);
    setData(this.element, "time", state.time);
    setData(this.element, "date", date || null);
  }
}
