/**
 * Chart tile: the metric's buckets over its window as a line, an area or bars, with the goal as a
 * dashed line and the warning and critical thresholds as bands behind the plot. The server slides
 * the plot, eases its range and moves the newest point; the page draws each frame where it says.
 *
 * STATE: `{"pts":[…],"l":L,"s":S,"lo":A,"hi":B,"text":T,"target":V}` (docs/protocol.md): `pts` the
 * points but the newest (null: a gap, where the line breaks and no bar stands), `l` the newest
 * point's value as shown, `s` how far the plot has slid in thousandths of a step, `lo`…`hi` the
 * range the plot's height spans, `text` the newest point written. Frames usually carry only `s`,
 * `lo`, `hi` and `l`; `pts` comes when the points change.
 *
 * Geometry (viewBox 0 0 300 100): with N = `points`, point i of pts + [l] sits at step
 * q = i − S / 1000, drawn at x = (q + ½) / N × 300 and y = 96 − (v − A) / (B − A) × 92; the plot is
 * clipped to the viewBox, so points sliding in on the right and out on the left are cut at its edges.
 * Test hooks: `data-style`, `data-values` (pts + [l], gaps empty, joined by ","), `data-known` (how
 * many of them are values), `data-shift` (S / 1000), `data-low`, `data-high`, `data-text`, `data-target`.
 */
import { el, finiteNumber, setData, setText } from "../page.js";
import { TileView } from "./tile.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 300;
const TOP = 4;
const BOTTOM = 96;

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const name of Object.keys(attributes)) node.setAttribute(name, String(attributes[name]));
  return node;
}

/** Sets an attribute only when that changes it: a frame repaints a moving chart, most of whose parts stay put. */
function setAttribute(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

let clipCount = 0;

/** Intervals between time labels, in seconds: the first that gives at most 6 over the window is used. */
const ROUND_INTERVALS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];

/**
 * Writes a time (ms since 1970) in `zone` and `locale`: hours and minutes, or the day for windows of several days.
 * Null when the engine has no Intl; a zone it does not know falls back to the screen's own.
 */
function timeFormat(locale, zone, window) {
  if (typeof Intl === "undefined" || !Intl.DateTimeFormat) return null;
  const fields = window > 3 * 86400 ? { month: "short", day: "numeric" } : { hour: "2-digit", minute: "2-digit" };
  let format;
  try {
    format = new Intl.DateTimeFormat(locale, Object.assign({ timeZone: zone }, fields));
  } catch (error) {
    try {
      format = new Intl.DateTimeFormat(locale, fields);
    } catch (again) {
      format = new Intl.DateTimeFormat(undefined, fields);
    }
  }
  return (time) => format.format(new Date(time));
}

/** Writes a value of the range (its ends, the goal) with the tile's decimals, prefix and suffix. */
function valueFormat(locale, options) {
  const decimals = Math.max(0, Math.min(6, Math.trunc(finiteNumber(options.decimals, 0))));
  const prefix = typeof options.prefix === "string" ? options.prefix : "";
  const suffix = typeof options.suffix === "string" ? options.suffix : "";
  let format = null;
  try {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: decimals, minimumFractionDigits: 0 });
  } catch (error) {
    format = null;
  }
  // The server's rule for shown numbers (half away from zero, never "-0"): what rounds to zero is written as 0.
  const half = 0.5 / Math.pow(10, decimals);
  return (value) => {
    const shown = Math.abs(value) < half ? 0 : value;
    return prefix + (format ? format.format(shown) : shown.toFixed(decimals)) + suffix;
  };
}

export class ChartView extends TileView {
  constructor(tile, dashboard) {
    super(tile, "chart");
    this.style = ["area", "bars"].indexOf(this.options.style) >= 0 ? this.options.style : "line";
    this.count = Math.max(2, finiteNumber(this.options.points, 2));
    this.step = finiteNumber(this.options.step, 0);
    this.element.dataset.style = this.style;
    const board = dashboard && typeof dashboard === "object" ? dashboard : {};
    const locale = typeof this.options.locale === "string" ? this.options.locale
      : typeof board.locale === "string" ? board.locale : undefined;
    // Made at the first paint: the dashboard's language (board/language.js sets <html lang>) is known by then.
    this.timeFormat = null;
    this.makeTimeFormat = () => timeFormat(locale || document.documentElement.lang || undefined,
      typeof board.timeZone === "string" ? board.timeZone : undefined, this.step * this.count);
    this.valueFormat = valueFormat(locale, this.options);
    clipCount += 1;
    const clipID = `chart-clip-${clipCount}`;
    this.root = svg("svg", {
      viewBox: `0 0 ${WIDTH} 100`, preserveAspectRatio: "none", class: "chart__plot", "aria-hidden": "true",
    });
    const clip = svg("clipPath", { id: clipID });
    clip.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: 100 }));
    const defs = svg("defs", {});
    defs.append(clip);
    this.bands = svg("g", { class: "chart__bands" });
    this.series = svg("g", { "clip-path": `url(#${clipID})` });
    this.area = svg("path", { class: "chart__area", d: "" });
    this.line = svg("path", { class: "chart__line", d: "" });
    this.bars = svg("g", { class: "chart__bars" });
    // Every point that stands alone (a gap on each side) as a dot, and the newest point marked: round caps on
    // zero-length segments, in screen pixels (non-scaling stroke), so a lone point is never a 1 px speck.
    this.dots = svg("path", { class: "chart__dots", d: "" });
    this.newest = svg("path", { class: "chart__newest", d: "" });
    this.series.append(this.area, this.line, this.bars, this.dots, this.newest);
    this.goal = svg("line", { class: "chart__goal", x1: 0, x2: WIDTH, y1: 0, y2: 0, visibility: "hidden" });
    this.root.append(defs, this.bands, this.series, this.goal);
    this.text = el("div", { className: "chart__text" });
    this.high = el("span", { className: "chart__label chart__high" });
    this.low = el("span", { className: "chart__label chart__low" });
    // A goal outside the plotted range: a marker on the edge it lies beyond ("▲ goal 150"), the plot not squashed.
    this.edge = el("span", { className: "chart__label chart__edge", hidden: true });
    this.times = el("div", { className: "chart__times", "aria-hidden": "true" });
    this.timeLabels = [];
    this.body.append(el("div", { className: `chart chart--${this.style}` }, this.text,
      el("div", { className: "chart__scale", "aria-hidden": "true" }, this.high, this.low),
      el("div", { className: "chart__frame" }, this.root, this.edge), this.times));
  }

  changeKey(state) {
    // A new bucket is a change even when its value equals the one before (a sum of 1 a minute).
    return state.target === undefined ? null : `${state.target}@${state.n}`;
  }

  hasValue(state) {
    return super.hasValue(state) && Array.isArray(state.pts);
  }

  clear() {
    this.root.style.visibility = "hidden";
    this.text.textContent = "";
    this.high.textContent = "";
    this.low.textContent = "";
    this.edge.hidden = true;
    this.timeLabels.forEach((label) => { label.hidden = true; });
    this.timesKey = null;
    this.shownLow = this.shownHigh = undefined;
    const dataset = this.element.dataset;
    for (const name of ["values", "known", "shift", "low", "high", "text", "target", "times", "goalEdge"]) {
      delete dataset[name];
    }
  }

  paint(state) {
    const values = state.pts.concat([state.l === undefined ? null : state.l]).map((value) => finiteNumber(value, null));
    const shift = finiteNumber(state.s, 0) / 1000;
    const low = finiteNumber(state.lo, 0);
    const high = Math.max(finiteNumber(state.hi, 1), low + 1e-9);
    const step = WIDTH / this.count;
    const x = (index) => ((index - shift + 0.5) * step);
    const y = (value) => BOTTOM - ((value - low) / (high - low)) * (BOTTOM - TOP);
    if (this.root.style.visibility) this.root.style.visibility = "";
    const runs = [];
    let run = [];
    values.forEach((value, index) => {
      if (value === null) {
        if (run.length > 0) runs.push(run);
        run = [];
      } else {
        run.push([x(index).toFixed(2), y(value).toFixed(2)]);
      }
    });
    if (run.length > 0) runs.push(run);
    if (this.style === "bars") {
      const base = y(Math.min(Math.max(0, low), high));
      // Bars take 60 % of their step: a gap of 40 % keeps neighbours apart at any width.
      const width = (step * 0.6).toFixed(2);
      const rects = [];
      values.forEach((value, index) => {
        if (value === null) return;
        const top = y(value);
        rects.push(`M${(x(index) - step * 0.3).toFixed(2)} ${Math.min(top, base).toFixed(2)}h${width}v${Math.abs(base - top).toFixed(2)}h-${width}z`);
      });
      setAttribute(this.line, "d", rects.join(""));
    } else {
      // A run of one point is drawn as a dot (a zero-length segment with round caps).
      setAttribute(this.line, "d", runs.map((points) => `M${points[0][0]} ${points[0][1]}`
        + (points.length === 1 ? "h0.01" : points.slice(1).map((point) => `L${point[0]} ${point[1]}`).join(""))).join(""));
      setAttribute(this.area, "d", this.style === "area"
        ? runs.filter((points) => points.length > 1).map((points) => `M${points[0][0]} ${BOTTOM}`
          + points.map((point) => `L${point[0]} ${point[1]}`).join("") + `L${points[points.length - 1][0]} ${BOTTOM}Z`).join("")
        : "");
    }
    const lone = this.style === "bars" ? [] : runs.filter((points) => points.length === 1);
    setAttribute(this.dots, "d", lone.map((points) => `M${points[0][0]} ${points[0][1]}h0.01`).join(""));
    const last = values[values.length - 1];
    setAttribute(this.newest, "d", this.style !== "bars" && last !== null
      ? `M${x(values.length - 1).toFixed(2)} ${y(last).toFixed(2)}h0.01` : "");
    this.paintGuides(y, low, high);
    this.paintRange(low, high);
    this.paintTimes(finiteNumber(state.n, null), values.length, shift);
    const text = typeof state.text === "string" ? state.text : "";
    setText(this.text, text);
    setData(this.element, "values", values.map((value) => (value === null ? "" : String(value))).join(","));
    setData(this.element, "known", String(values.filter((value) => value !== null).length));
    setData(this.element, "shift", String(shift));
    setData(this.element, "low", String(low));
    setData(this.element, "high", String(high));
    setData(this.element, "text", text);
    setData(this.element, "target", state.target === undefined ? "" : String(state.target));
  }

  /**
   * The range's ends beside the plot. Their column keeps the widest text it has had (in `ch`), so a label that
   * changes while the range eases lays out its own line, not the plot beside it.
   */
  paintRange(low, high) {
    if (low === this.shownLow && high === this.shownHigh) return;
    this.shownLow = low;
    this.shownHigh = high;
    const top = this.valueFormat(high);
    const bottom = this.valueFormat(low);
    setText(this.high, top);
    setText(this.low, bottom);
    const widest = Math.max(top.length, bottom.length);
    if (!(this.scaleWidth >= widest)) {
      this.scaleWidth = widest;
      this.high.parentNode.style.minWidth = `${widest}ch`;
    }
  }

  /**
   * 3 to 5 time labels under the plot, at whole multiples of a round interval, each under the place of its time
   * (`n` is the newest bucket's start over the step; the point at index i of `count` stands for bucket
   * n − (count − 1 − i)), written in the dashboard's time zone and language. Test hook: `data-times`.
   */
  paintTimes(n, count, shift) {
    if (!this.timeFormat && this.makeTimeFormat) {
      this.timeFormat = this.makeTimeFormat();
      this.makeTimeFormat = null;
    }
    const key = `${n}/${count}/${shift}`;
    if (key === this.timesKey) return;
    this.timesKey = key;
    if (n === null || !(this.step > 0) || !this.timeFormat) {
      this.timeLabels.forEach((label) => { if (!label.hidden) label.hidden = true; });
      setData(this.element, "times", null);
      return;
    }
    const span = this.step * this.count;
    const newest = n * this.step;
    // A round interval giving at most 6 over the window, chosen by the window alone (so it never changes while the
    // plot slides); of its labels those too near the plot's ends are left out, and the oldest when 6 remain.
    const every = Math.max(this.step, ROUND_INTERVALS.find((seconds) => span / seconds <= 6) || span / 4);
    const shown = [];
    for (let t = Math.floor(newest / every) * every; t > newest - span - this.step && shown.length < 5; t -= every) {
      const index = count - 1 - (newest - t) / this.step;
      const left = (index - shift + 0.5) / this.count;
      // Far enough from the ends that a label centred on its time stays inside the plot's width.
      if (left >= 0.08 && left <= 0.92) shown.push([t, left]);
    }
    shown.reverse();
    while (this.timeLabels.length < shown.length) {
      const label = el("span", { className: "chart__label chart__time" });
      this.timeLabels.push(label);
      this.times.append(label);
    }
    const texts = [];
    this.timeLabels.forEach((label, index) => {
      const item = shown[index];
      if (label.hidden !== !item) label.hidden = !item;
      if (!item) return;
      const text = this.timeText(item[0]);
      texts.push(text);
      setText(label, text);
      const left = `${(item[1] * 100).toFixed(2)}%`;
      if (label.style.left !== left) label.style.left = left;
    });
    setData(this.element, "times", texts.join("|"));
  }

  /** A label's text for a time (seconds since 1970), each written once: Intl formatting is not cheap per frame. */
  timeText(seconds) {
    if (!this.timeTexts || this.timeTexts.size > 64) this.timeTexts = new Map();
    let text = this.timeTexts.get(seconds);
    if (text === undefined) {
      text = this.timeFormat(seconds * 1000);
      this.timeTexts.set(seconds, text);
    }
    return text;
  }

  /** The goal line (or, outside the range, its marker on the edge) and the threshold bands, placed on the range. */
  paintGuides(y, low, high) {
    const goal = finiteNumber(this.options.goal, null);
    if (goal !== null && goal >= low && goal <= high) {
      const at = y(goal).toFixed(2);
      setAttribute(this.goal, "y1", at);
      setAttribute(this.goal, "y2", at);
      setAttribute(this.goal, "visibility", "visible");
    } else {
      setAttribute(this.goal, "visibility", "hidden");
    }
    const beyond = goal === null || (goal >= low && goal <= high) ? null : goal > high ? "high" : "low";
    if (this.edge.hidden !== !beyond) this.edge.hidden = !beyond;
    if (beyond && this.edgeKey !== beyond) {
      this.edgeKey = beyond;
      setText(this.edge, `${beyond === "high" ? "\u25B2" : "\u25BC"} goal ${this.valueFormat(goal)}`);
      setData(this.edge, "edge", beyond);
    }
    setData(this.element, "goalEdge", beyond);
    const warning = finiteNumber(this.options.warning, null);
    const critical = finiteNumber(this.options.critical, null);
    const lower = this.options.lowerIsBetter === true;
    const bands = [];
    // Higher is better: critical from the bottom up to `critical`, warning from there up to `warning`; flipped when
    // lower is better.
    if (critical !== null) bands.push(["critical", lower ? critical : -Infinity, lower ? Infinity : critical]);
    if (warning !== null) {
      bands.push(["warning", lower ? warning : (critical === null ? -Infinity : critical),
        lower ? (critical === null ? Infinity : critical) : warning]);
    }
    // One rect per band, made once; a band outside the range is hidden, the others placed on it.
    for (const band of bands) {
      const rect = this.band(band[0]);
      const from = Math.max(band[1], low);
      const to = Math.min(band[2], high);
      if (!(to > from)) {
        setAttribute(rect, "visibility", "hidden");
        continue;
      }
      setAttribute(rect, "y", y(to).toFixed(2));
      setAttribute(rect, "height", (y(from) - y(to)).toFixed(2));
      setAttribute(rect, "visibility", "visible");
    }
  }

  /** The rect of the band `name` (critical, warning), made on first use. */
  band(name) {
    if (!this.bandRects) this.bandRects = new Map();
    let rect = this.bandRects.get(name);
    if (!rect) {
      rect = svg("rect", { class: `chart__band chart__band--${name}`, x: 0, width: WIDTH, y: 0, height: 0 });
      this.bandRects.set(name, rect);
      this.bands.append(rect);
    }
    return rect;
  }
}
