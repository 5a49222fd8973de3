/**
 * Counter tile (QCountingLabel, FlickerNumber): the server formats every frame's text (format,
 * grouping, prefix and suffix included); the page shows it as given.
 *
 * STATE: `{"text":"3,048.64","target":V}`. Test hooks: `data-text`, `data-target`.
 */
import { el, fitWidth, orDefault, setData, setText } from "../page.js";
import { TileView } from "./tile.js";

export class CounterView extends TileView {
  constructor(tile) {
    super(tile, "counter");
    this.text = el("div", { className: "counter" });
    this.body.append(this.text);
    this.length = -1;
    this.lastState = null;
  }

  changeKey(state) {
    return orDefault(state.target, orDefault(state.text, null));
  }

  resized() {
    this.length = -1;
    if (this.lastState) this.paint(this.lastState);
  }

  paint(state) {
    this.lastState = state;
    const text = typeof state.text === "string" ? state.text : "";
    setText(this.text, text);
    if (text.length !== this.length) {
      this.length = text.length;
      this.text.style.setProperty("--chars", String(Math.max(4, text.length + 1)));
      fitWidth(this.text, this.body);
    }
    setData(this.element, "text", text);
    setData(this.element, "target", state.target === undefined ? "" : String(state.target));
  }
}
