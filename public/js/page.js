/**
 * Small helpers shared by the Rollboard pages: DOM construction, page-URL options and
 * device-pixel snapping. No state lives here.
 */

/**
 * Creates an element with attributes and children.
 * `attributes` keys starting with "data-", "aria-" or plain attribute names are set with
 * setAttribute; `className` and `text` are shortcuts. Children may be nodes or strings.
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "className") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(child);
  }
  return node;
}

/** The page URL's query options the pages understand (`theme`, `fps`, `kiosk`, `motion`). */
export function pageOptions(search = location.search) {
  const query = new URLSearchParams(search);
  const theme = query.get("theme");
  const fps = Number.parseInt(query.get("fps") ?? "", 10);
  return {
    theme: theme === "dark" || theme === "light" ? theme : null,
    fps: Number.isInteger(fps) && fps >= 1 && fps <= 60 ? fps : null,
    kiosk: query.has("kiosk") && query.get("kiosk") !== "0",
    motion: query.get("motion") === "reduced" || query.get("motion") === "full" ? query.get("motion") : null,
  };
}

/**
 * Applies `?theme=` and `?kiosk` to <html> (`data-theme`, `data-kiosk`); without `?theme=` the
 * stylesheet follows prefers-color-scheme.
 */
export function applyPageOptions(options = pageOptions()) {
  const root = document.documentElement;
  if (options.theme) root.dataset.theme = options.theme;
  if (options.kiosk) root.dataset.kiosk = "";
}

/** The query string to carry `theme`/`kiosk`/`fps`/`key`/`motion` over to links between pages ("" when none). */
export function carriedQuery(search = location.search) {
  const query = new URLSearchParams(search);
  const carried = new URLSearchParams();
  for (const name of ["theme", "kiosk", "fps", "key", "motion"]) {
    if (query.has(name)) carried.set(name, query.get(name));
  }
  const text = carried.toString();
  return text ? `?${text}` : "";
}

const SCREEN_NAME_KEY = "rollboard.screenName";

/**
 * This screen's name for the operators' list: `?name=` (remembered from then on), else the name
 * remembered in localStorage, else a new "Screen XXXX" that is remembered.
 */
export function screenName(search = location.search, storage = globalThis.localStorage) {
  const given = new URLSearchParams(search).get("name")?.trim();
  try {
    if (given) {
      storage?.setItem(SCREEN_NAME_KEY, given);
      return given;
    }
    const remembered = storage?.getItem(SCREEN_NAME_KEY);
    if (remembered) return remembered;
    const made = `Screen ${Math.floor(Math.random() * 0x10000).toString(16).toUpperCase().padStart(4, "0")}`;
    storage?.setItem(SCREEN_NAME_KEY, made);
    return made;
  } catch {
    return given || null;  // storage refused (private mode): a name for this visit only
  }
}

/** Rounds a CSS pixel length to whole device pixels so text at rest is painted crisply. */
export function snapToDevicePixels(cssPixels) {
  const ratio = window.devicePixelRatio || 1;
  return Math.round(cssPixels * ratio) / ratio;
}

/** A finite number from `value`, else `fallback`. */
export function finiteNumber(value, fallback) {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : fallback;
}

/**
 * Shrinks `target`'s font size so its natural width fits `container`'s content box (with a small
 * margin). Measures, so call it after a layout change (build, resize, longer text), not per frame.
 */
export function fitWidth(target, container, margin = 0.94) {
  target.style.fontSize = "";
  const style = getComputedStyle(container);
  const available = (container.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) * margin;
  const natural = target.getBoundingClientRect().width;
  if (available > 0 && natural > available) {
    const size = parseFloat(getComputedStyle(target).fontSize);
    target.style.fontSize = `${Math.floor(size * (available / natural))}px`;
  }
}
