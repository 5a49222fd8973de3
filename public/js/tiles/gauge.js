/**
 * Gauge tile: a value on a dial between `min` and `max`, as a half-circle arc with a needle
 * (`style: arc`) or a bar filling from the left (`style: bar`). The server eases the needle and
 * counts the text; the page places them where each frame says.
 *
 * STATE: `{"f":F,"text":"72 %","target":V}` with F the needle's place in ten-thousandths of the
 * dial (0 at min, 10000 at max), plus `status` (coloured by the tile's thresholds). Options: `style`,
 * `min`, `max`, `goal`, `warning`, `critical` (marks on the dial). Test hooks: `data-fraction`
 * (F / 10000), `data-text`, `data-target`, `data-style`.
 *
 * Arc geometry (viewBox 3 4 114 63, centre (60, 62), radius 50): the track is the upper half circle
 * from angle 180° (min) to 0° (max); the filled arc is the track's first F / 10000 of its length
 * (stroke-dasharray of πr), and the needle runs from the centre to its tip 46 out, turned 180° × F / 10000
 * from pointing at min (the tip is placed; the line is not rotated).
 */
import { el, finiteNumber, orDefault, setData, setText } from "../page.js";
import { TileView } from "./tile.js";

const SVG = "http://www.w3.org/2000/svg";
const RADIUS = 50;
const CENTRE_X = 60;
const CENTRE_Y = 62;
const ARC_LENGTH = Math.PI * RADIUS;
const NEEDLE = RADIUS - 4;

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const name of Object.keys(attributes)) node.setAttribute(name, String(attributes[name]));
  return node;
}

export class GaugeView extends TileView {
  constructor(tile) {
    super(tile, "gauge");
    this.style = this.options.style === "bar" ? "bar" : "arc";
    this.min = finiteNumber(this.options.min, 0);
    this.max = finiteNumber(this.options.max, 100);
    this.element.dataset.style = this.style;
    this.text = el("div", { className: "gauge__text" });
    this.dial = this.style === "bar" ? this.buildBar() : this.buildArc();
    this.box = el("div", { className: `gauge gauge--${this.style}` }, this.dial, this.text);
    this.body.append(this.box);
    this.lastFraction = -1;
  }

  /** An arc in a wide tile puts its value beside the dial, so the dial can take the tile's whole height. */
  resized() {
    if (this.style !== "arc") return;
    const width = this.body.clientWidth;
    const height = this.body.clientHeight;
    setData(this.box, "wide", width > 0 && height > 0 && width > 2.2 * height ? "true" : null);
  }

  /** The dial's place (0…1) of a configured value, or null when it is not a number. */
  place(value) {
    const number = finiteNumber(value, null);
    if (number === null || this.max <= this.min) return null;
    return Math.min(Math.max((number - this.min) / (this.max - this.min), 0), 1);
  }

  /** The marks of the goal and thresholds, as [name, place] pairs. */
  marks() {
    return ["critical", "warning", "goal"]
      .map((name) => [name, this.place(this.options[name])])
      .filter((mark) => mark[1] !== null);
  }

  buildArc() {
    const track = `M ${CENTRE_X - RADIUS} ${CENTRE_Y} A ${RADIUS} ${RADIUS} 0 0 1 ${CENTRE_X + RADIUS} ${CENTRE_Y}`;
    // The viewBox hugs the arc, its marks and the hub (x 3…117, y 4…67), so the dial uses its box to the edges.
    const root = svg("svg", { viewBox: "3 4 114 63", class: "gauge__dial", "aria-hidden": "true" });
    root.append(svg("path", { d: track, class: "gauge__track" }));
    this.fill = svg("path", { d: track, class: "gauge__fill", "stroke-dasharray": `0 ${ARC_LENGTH}` });
    root.append(this.fill);
    const marks = [];
    for (const [name, place] of this.marks()) {
      const angle = Math.PI * (1 - place);
      const inner = RADIUS - 8;
      const outer = RADIUS + 7;
      const ends = {
        x1: (CENTRE_X + inner * Math.cos(angle)).toFixed(2), y1: (CENTRE_Y - inner * Math.sin(angle)).toFixed(2),
        x2: (CENTRE_X + outer * Math.cos(angle)).toFixed(2), y2: (CENTRE_Y - outer * Math.sin(angle)).toFixed(2),
      };
      // Drawn over the fill with a halo in the tile's colour, and reaching past the track: a mark stays visible over
      // a fill of its own colour (an amber threshold under an amber fill).
      marks.push(svg("line", Object.assign({ class: "gauge__mark-halo" }, ends)),
        svg("line", Object.assign({ class: `gauge__mark gauge__mark--${name}` }, ends)));
    }
    this.needle = svg("line", {
      x1: CENTRE_X, y1: CENTRE_Y, x2: CENTRE_X - NEEDLE, y2: CENTRE_Y, class: "gauge__needle",
    });
    marks.forEach((mark) => root.append(mark));
    root.append(this.needle, svg("circle", { cx: CENTRE_X, cy: CENTRE_Y, r: 3.5, class: "gauge__hub" }));
    return root;
  }

  buildBar() {
    this.fill = el("div", { className: "gauge__bar-fill" });
    const track = el("div", { className: "gauge__bar" }, this.fill);
    for (const [name, place] of this.marks()) {
      const mark = el("div", { className: `gauge__bar-mark gauge__mark--${name}` });
      mark.style.left = `${(place * 100).toFixed(2)}%`;
      track.append(mark);
    }
    return track;
  }

  changeKey(state) {
    return orDefault(state.target, orDefault(state.text, null));
  }

  hasValue(state) {
    return super.hasValue(state) && finiteNumber(state.f, null) !== null;
  }

  clear() {
    this.text.textContent = "";
    this.dial.style.visibility = "hidden";
    this.lastFraction = -1;
    const dataset = this.element.dataset;
    delete dataset.fraction;
    delete dataset.text;
    delete dataset.target;
  }

  paint(state) {
    const fraction = Math.min(Math.max(finiteNumber(state.f, 0) / 10000, 0), 1);
    const text = typeof state.text === "string" ? state.text : "";
    if (this.dial.style.visibility) this.dial.style.visibility = "";
    if (this.style === "arc" && this.box.dataset.wide === undefined && !this.measured) {
      this.measured = true;
      this.resized();
    }
    if (fraction !== this.lastFraction) {
      this.lastFraction = fraction;
      if (this.style === "bar") {
        this.fill.style.transform = `scaleX(${fraction.toFixed(4)})`;
      } else {
        this.fill.setAttribute("stroke-dasharray", `${(fraction * ARC_LENGTH).toFixed(3)} ${ARC_LENGTH.toFixed(3)}`);
        // The needle's tip is placed, not the needle rotated: a transform that changes every frame is a paint
        // property Chromium has to fold into the layers again each frame (a whole compositing update).
        const angle = Math.PI * (1 - fraction);
        this.needle.setAttribute("x2", (CENTRE_X + NEEDLE * Math.cos(angle)).toFixed(3));
        this.needle.setAttribute("y2", (CENTRE_Y - NEEDLE * Math.sin(angle)).toFixed(3));
      }
    }
    setText(this.text, text);
    setData(this.element, "fraction", String(fraction));
    setData(this.element, "text", text);
    setData(this.element, "target", state.target === undefined ? "" : String(state.target));
  }
}
