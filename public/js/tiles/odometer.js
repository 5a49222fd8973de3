/**
 * Odometer tile (DPScrollNumberLabel): one window per digit column showing the strip `0 1 2 … 9 0`
 * at the server's position P of the column (3.25 is a quarter of the way from 3 to 4, 9.5 half-way
 * from 9 to the trailing 0). The columns are empty boxes that lay the display out (with the sign,
 * point and separators); the digits are painted by digits.js into one canvas over the display.
 *
 * STATE, in the painting form the board derives from the wire (`digits` = the wire's thousandths / 1000):
 * `{"digits":[P,…],"negative":false,"target":V}`, most significant column first; the last
 * `decimals` columns are the fraction. The column count may change (columns that grow on the
 * left, or that a growing odometer no longer needs); the columns are rebuilt when it does. While
 * columns slide in or out the STATE carries `"width":W` (fewer than the columns): the leftmost
 * columns are narrowed by the difference, column by column.
 *
 * Options: `decimals` (default 0), `prefix`, `suffix`, `groupSeparator` (for example ","
 * between groups of three integer columns; none by default), `decimalSeparator` (default ".") and
 * `compact` (true: a unit strip "" K M B T after the columns, moved by the STATE's `unit` position),
 * `pad` (true shows leading zero columns; by default a zero column left of every non-zero column is
 * blank while it rests, so fixed columns show `  250`, not `00250`).
 *
 * Test hooks on the tile: `data-digits` (the digits shown once rounded, with sign and decimal
 * point, e.g. "-1234.50"), `data-at-rest` ("true" when every column sits on a whole digit),
 * `data-target`, `data-decimals`, `data-columns`; `.odometer__strip-source` (hidden) is the strip
 * the canvas copies each column's window from (see digits.js).
 */
import { el, finiteNumber, fitWidth, replaceChildren, setData, snapToDevicePixels } from "../page.js";
import { DigitCanvas } from "./digits.js";
import { Strip, scrollStrips } from "./strip.js";
import { TileView } from "./tile.js";

const STRIP = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
/** The compact notation's unit strip: STATE `unit` 1.5 is half-way from K to M. */
const UNITS = ["", "K", "M", "B", "T"];
const REST_TOLERANCE = 1e-3;
/** Height of one digit cell in em (matches `--cell` in rollboard.css). */
const CELL_EM = 1.2;

export class OdometerView extends TileView {
  constructor(tile) {
    super(tile, "odometer");
    this.decimals = Math.max(0, Math.trunc(finiteNumber(this.options.decimals, 0)));
    this.groupSeparator = typeof this.options.groupSeparator === "string" ? this.options.groupSeparator : "";
    this.decimalSeparator = typeof this.options.decimalSeparator === "string" && this.options.decimalSeparator
      ? this.options.decimalSeparator : ".";
    this.pad = this.options.pad === true;
    this.sign = el("span", { className: "odometer__sign", text: "\u2212", hidden: true });
    this.columnsBox = el("span", { className: "odometer__columns" });
    this.compact = this.options.compact === true;
    this.unitStrip = new Strip(UNITS.map((unit) => unit || "\u00A0"));
    this.unitBox = el("span", { className: "odometer__col odometer__unit", tabindex: "-1", hidden: !this.compact },
      this.unitStrip.element);
    this.digitCanvas = new DigitCanvas(STRIP);
    this.display = el("div", { className: "odometer", role: "img" },
      el("span", { className: "odometer__prefix", text: stringOption(this.options.prefix) }),
      this.sign,
      this.columnsBox,
      this.unitBox,
      el("span", { className: "odometer__suffix", text: stringOption(this.options.suffix) }),
      this.digitCanvas.element,
      this.digitCanvas.strip);
    this.body.append(this.display);
    this.element.dataset.decimals = String(this.decimals);
    this.columns = [];
    this.groupBefore = [];
    /** The positions painted this frame, one per column (null: a blank column); reused frame to frame. */
    this.positions = [];
    this.cellHeight = 0;
    this.lastState = null;
  }

  changeKey(state) {
    if (state.target !== undefined && state.target !== null) return state.target;
    // Only without a target are the columns joined (this runs for every frame of every moving odometer).
    return Array.isArray(state.digits) ? state.digits.join(",") : null;
  }

  paint(state) {
    const digits = Array.isArray(state.digits) ? state.digits.map((p) => finiteNumber(p, 0)) : [];
    this.lastState = state;
    const negative = state.negative === true;
    const signShown = !this.sign.hidden;
    if (digits.length !== this.columns.length || negative !== signShown) {
      this.sign.hidden = !negative;
      if (digits.length !== this.columns.length) this.buildColumns(digits.length);
      this.cellHeight = 0;
    }
    if (!this.cellHeight) this.measure();
    this.digitCanvas.setStatus(state.status);
    const positions = this.positions;
    positions.length = digits.length;

    const point = this.decimals > 0 ? Math.max(0, digits.length - this.decimals) : -1;
    const lastInteger = Math.max(0, digits.length - this.decimals - 1);
    let shown = "";
    let atRest = true;
    let leading = !this.pad;
    let firstShown = -1;
    const width = finiteNumber(state.width, digits.length);
    const hidden = Math.max(0, digits.length - width);
    digits.forEach((raw, index) => {
      const position = ((raw % 10) + 10) % 10;
      const blankLeft = leading;
      leading = leading && index < lastInteger && position === 0;
      if (!leading && firstShown < 0) firstShown = index;
      // Only what changed is written (classes, widths): a column at rest costs the browser nothing.
      const column = this.columns[index];
      const group = this.groupBefore[index];
      if (group && group.blank !== blankLeft) {
        group.blank = blankLeft;
        group.element.classList.toggle("odometer__group--blank", blankLeft);
      }
      const collapsed = Math.min(1, Math.max(0, hidden - index));
      const columnWidth = collapsed > 0 ? `${(1 - collapsed).toFixed(4)}ch` : "";
      if (column.width !== columnWidth) {
        column.width = columnWidth;
        column.element.style.width = columnWidth;
        this.digitCanvas.moved();
      }
      const groupWidth = collapsed > 0 ? "0px" : "";
      if (group && group.width !== groupWidth) {
        group.width = groupWidth;
        group.element.style.width = groupWidth;
        this.digitCanvas.moved();
      }
      positions[index] = leading ? null : position;
      const whole = Math.round(position);
      if (Math.abs(position - whole) > REST_TOLERANCE) atRest = false;
      if (index === point) shown += ".";
      shown += String(whole % 10);
    });
    shown = (negative ? "-" : "") + shown;
    // The minus sits right before the first digit shown, not before blank leading columns.
    const anchorColumn = this.columns[Math.max(0, firstShown)];
    const anchor = anchorColumn ? anchorColumn.element : null;
    if (anchor && this.sign.nextSibling !== anchor) {
      anchor.before(this.sign);
      if (negative) this.digitCanvas.moved();
    }
    this.digitCanvas.paint(positions, this.columns);
    if (this.compact) {
      const unit = Math.min(Math.max(finiteNumber(state.unit, 0), 0), UNITS.length - 1);
      this.unitStrip.moveTo(unit, this.cellHeight);
      if (Math.abs(unit - Math.round(unit)) > REST_TOLERANCE) atRest = false;
      shown += UNITS[Math.round(unit)];
      this.element.dataset.unit = UNITS[Math.round(unit)];
    }

    setData(this.element, "digits", shown);
    setData(this.element, "atRest", atRest ? "true" : "false");
    setData(this.element, "target", state.target === undefined ? "" : String(state.target));
    if (atRest && this.display.getAttribute("aria-label") !== shown) this.display.setAttribute("aria-label", shown);
  }

  resized() {
    this.cellHeight = 0;
    if (this.lastState) this.paint(this.lastState);
    scrollStrips();  // outside the board's painting (a ResizeObserver callback)
  }

  /** The theme changed: the digits are painted again in its colour. */
  restyled() {
    this.digitCanvas.restyled();
    if (this.lastState) this.paint(this.lastState);
  }

  /** No value: the display is taken down (its windows lose their boxes), so the next value measures and paints anew. */
  clear() {
    this.cellHeight = 0;
  }

  /** Rebuilds the column windows for `count` columns (sign, point and separators included). */
  buildColumns(count) {
    const integerColumns = Math.max(0, count - this.decimals);
    const parts = [];
    this.columns = [];
    this.groupBefore = [];
    for (let index = 0; index < count; index += 1) {
      if (index === integerColumns && this.decimals > 0) {
        parts.push(el("span", { className: "odometer__point", text: this.decimalSeparator }));
      } else if (this.groupSeparator && index > 0 && index < integerColumns && (integerColumns - index) % 3 === 0) {
        const group = el("span", { className: "odometer__group", text: this.groupSeparator });
        this.groupBefore[index] = { element: group, blank: false, width: "" };
        parts.push(group);
      }
      const column = el("span", { className: "odometer__col" });
      this.columns.push({ element: column, width: "" });
      parts.push(column);
    }
    replaceChildren(this.columnsBox, ...parts);
    this.display.style.setProperty("--chars", String(count + 1 + (this.compact ? 1 : 0)));
    this.element.dataset.columns = String(count);
  }

  /**
   * Fits the display into the tile and fixes one digit cell (the strip's step) to whole device
   * pixels, so that digits at rest are painted crisply. The digits are painted anew after.
   */
  measure() {
    this.unitStrip.stop();
    this.digitCanvas.moved();
    this.display.style.removeProperty("--cell");
    fitWidth(this.display, this.body);
    const fontSize = parseFloat(getComputedStyle(this.display).fontSize);
    if (fontSize > 0) this.display.style.setProperty("--cell", `${snapToDevicePixels(fontSize * CELL_EM)}px`);
    const column = this.columnsBox.querySelector(".odometer__col");
    this.cellHeight = column ? column.getBoundingClientRect().height : 0;
  }
}

function stringOption(value) {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}
