/**
 * Tells screen readers, through an aria-live region, the value each odometer or counter heads for when it changes
 * (the final value, never the ones rolled through): "Revenue: 1,234.56".
 */
import { orDefault } from "../page.js";

export class Announcer {
  /** @param {HTMLElement|null} region  the aria-live region (none: nothing is announced) */
  constructor(region) {
    this.region = region;
    /** Each view's number format (a view is built again with the grid, so this holds no stale one). */
    this.formats = new WeakMap();
  }

  /** Tells screen readers the value `view`'s tile now heads for. */
  announce(view, value) {
    if (!this.region) return;
    const options = orDefault(view.options, {});
    const format = this.format(view);
    const places = placesOf(orDefault(view.options, {}));
    // Rounded as the tile rounds what it shows (half away from zero), and never "-0".
    const shown = places === undefined ? value : roundedAwayFromZero(value, places) || 0;
    const text = format ? format.format(shown) : String(shown);
    const title = orDefault(view.element.getAttribute("aria-label"), view.id);
    this.region.textContent = `${title}: ${orDefault(options.prefix, "")}${orDefault(options.currency, "")}${text}${orDefault(options.suffix, "")}`;
  }

  /**
   * The number format `announce` uses for `view` (its `locale` and `decimals`), made once per view: building an
   * Intl.NumberFormat costs far more than using one. Null when the options make none (an unknown locale).
   */
  format(view) {
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
